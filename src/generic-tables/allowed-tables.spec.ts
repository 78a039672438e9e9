import { ALLOWED_TABLES, checkColumnName, checkTableName, isIdentifier } from './allowed-tables';

describe('identifier rule and allow-list', () => {
  it('allows exactly the 21 names of docs/api-contract.md', () => {
    expect(ALLOWED_TABLES).toHaveLength(21);
    expect(new Set(ALLOWED_TABLES).size).toBe(21);
  });

  it.each(['comandas', '_x', 'a1_b2', 'COMANDAS', 'Deta_Comandas'])(
    '%s is an identifier',
    (name) => {
      expect(isIdentifier(name)).toBe(true);
    },
  );

  it.each([
    '',
    '1abc',
    'a-b',
    'a b',
    'a;b',
    '"a"',
    'comandas--',
    'público',
    'a.b',
    'x'.repeat(64),
    'tab\u0000le',
  ])('%j is not an identifier', (name) => {
    expect(isIdentifier(name)).toBe(false);
    expect(() => checkTableName(name)).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_IDENTIFIER' }),
    );
  });

  it('folds case like PostgreSQL does for unquoted names', () => {
    expect(checkTableName('COMANDAS')).toBe('comandas');
    expect(checkColumnName('ID_Mesa')).toBe('id_mesa');
  });

  it.each(['tenants', 'pg_class', 'comanda_eventos', 'schema_migrations', 'information_schema'])(
    'refuses %s, which is not in the allow-list',
    (name) => {
      expect(() => checkTableName(name)).toThrow(
        expect.objectContaining({ status: 400, code: 'TABLE_NOT_ALLOWED' }),
      );
    },
  );
});
