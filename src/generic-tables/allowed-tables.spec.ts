import {
  ALLOWED_TABLES,
  checkColumnName,
  checkTableName,
  checkWritable,
  isIdentifier,
  MODULE_OWNED,
  writeAccessOf,
} from './allowed-tables';
import { tableReadOnly } from './generic-tables.errors';

/** The tables a module owns (docs/generic-tables.md, "Read-only tables"). */
const READ_ONLY = [
  'comandas',
  'deta_comandas',
  'compras',
  'deta_comp_producto',
  'deta_comp_materias',
  'asistencia_resumen_diario',
  'asistencia_intervalo',
  'asistencia_detalle',
];

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

describe('tables a module owns', () => {
  it('are exactly the documented ones, each with its module, reason and routes', () => {
    const owned = ALLOWED_TABLES.filter((table) => MODULE_OWNED[table] !== null);
    expect([...owned].sort()).toEqual([...READ_ONLY].sort());
    for (const table of owned) {
      const owner = MODULE_OWNED[table]!;
      expect(owner.module).toMatch(/^[a-z-]+$/);
      expect(owner.reason.length).toBeGreaterThan(20);
      expect(owner.routes.length).toBeGreaterThan(0);
      for (const route of owner.routes)
        expect(route).toMatch(/^(POST|PUT|PATCH|DELETE) \/api\/v1\//);
    }
  });

  it.each(READ_ONLY)(
    'refuses an insert into %s with 400 TABLE_READ_ONLY naming its routes',
    (table) => {
      const owner = MODULE_OWNED[checkTableName(table)]!;
      let thrown: unknown;
      try {
        checkWritable(checkTableName(table));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        status: 400,
        code: 'TABLE_READ_ONLY',
        detail: { table, module: owner.module, routes: owner.routes },
      });
      const message = (thrown as Error).message;
      expect(message).toContain(owner.reason);
      for (const route of owner.routes) expect(message).toContain(route);
    },
  );

  it('lets the other tables through, and tells the schema which ones are read-only', () => {
    for (const table of ALLOWED_TABLES.filter((t) => !READ_ONLY.includes(t))) {
      expect(() => checkWritable(table)).not.toThrow();
      expect(writeAccessOf(table, 'table')).toEqual({
        read_only: false,
        read_only_reason: null,
        owner: null,
      });
    }
    expect(writeAccessOf('vw_compras', 'view')).toEqual({
      read_only: true,
      read_only_reason: 'vw_compras is a view: rows cannot be inserted into it',
      owner: null,
    });
    expect(writeAccessOf('compras', 'table')).toMatchObject({
      read_only: true,
      owner: { module: 'rpc', routes: MODULE_OWNED.compras!.routes },
    });
  });

  it('is what the OpenAPI document shows as the example of TABLE_READ_ONLY', () => {
    const { error, detail } = tableReadOnly.example.body;
    expect(() => checkWritable('comandas')).toThrow(
      expect.objectContaining({ message: error, detail }),
    );
  });
});
