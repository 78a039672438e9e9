import { DomainError } from './domain-error';
import {
  checkViolationOf,
  isConnectionError,
  isServerUnreachable,
  keyColumnsOf,
  pgErrorInfo,
  translatePgError,
} from './pg-error.translator';

const pgError = (code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`pg error ${code}`), { code, ...extra });

describe('translatePgError', () => {
  it.each([
    ['23503', 'foreign-key violation'],
    ['23001', 'foreign-key violation'],
    ['23505', 'uniqueness violation'],
    ['23514', 'CHECK violation'],
    ['23502', 'missing NOT NULL field'],
  ])('maps constraint SQLSTATE %s to 400 with the detail', (code, message) => {
    const error = translatePgError(pgError(code, { detail: 'Failing row contains (x).' }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      status: 400,
      code,
      message,
      detail: 'Failing row contains (x).',
    });
  });

  it.each([
    [
      '23502',
      { column: 'nombre', table: 'categorias', detail: 'Failing row contains (1, null, x).' },
      'missing NOT NULL field: nombre',
      { column: 'nombre' },
    ],
    [
      '23505',
      {
        constraint: 'uq_categorias_nombre',
        table: 'categorias',
        detail: 'Key (nombre)=(Bebidas) already exists.',
      },
      'uniqueness violation: uq_categorias_nombre (nombre)',
      { column: 'nombre', constraint: 'uq_categorias_nombre' },
    ],
    [
      '23505',
      {
        constraint: 'pk_prov_producto',
        detail: 'Key (id_proveedor, id_producto)=(1, 2) already exists.',
      },
      'uniqueness violation: pk_prov_producto (id_proveedor, id_producto)',
      { columns: ['id_proveedor', 'id_producto'], constraint: 'pk_prov_producto' },
    ],
    [
      '23514',
      {
        constraint: 'ck_productos_precio',
        table: 'productos',
        detail: 'Failing row contains (…).',
      },
      'CHECK violation: ck_productos_precio',
      { constraint: 'ck_productos_precio' },
    ],
    [
      '23503',
      {
        constraint: 'fk_productos_id_categoria',
        detail: 'Key (id_categoria)=(99999) is not present in table "categorias".',
      },
      'foreign-key violation: fk_productos_id_categoria (id_categoria)',
      { column: 'id_categoria', constraint: 'fk_productos_id_categoria' },
    ],
    [
      '23001',
      {
        constraint: 'fk_productos_id_categoria',
        detail: 'Key (id_categoria)=(1) is still referenced from table "productos".',
      },
      'foreign-key violation: fk_productos_id_categoria (id_categoria)',
      { column: 'id_categoria', constraint: 'fk_productos_id_categoria' },
    ],
  ])(
    'names the column and constraint of SQLSTATE %s in the message and as fields',
    (code, fields, message, extra) => {
      const error = translatePgError(pgError(code, fields));
      expect(error).toMatchObject({ status: 400, code, message, detail: fields.detail });
      expect(error?.extra).toEqual(extra);
    },
  );

  it('keeps the bare message when PostgreSQL names neither column nor constraint', () => {
    const error = translatePgError(pgError('23505', { detail: 'duplicate' }));
    expect(error).toMatchObject({ message: 'uniqueness violation', detail: 'duplicate' });
    expect(error?.extra).toBeUndefined();
  });

  it('gives no column for a key that is an expression', () => {
    const error = translatePgError(
      pgError('23505', {
        constraint: 'uq_x',
        detail: 'Key (lower(nombre::text))=(bebidas) already exists.',
      }),
    );
    expect(error).toMatchObject({ message: 'uniqueness violation: uq_x' });
    expect(error?.extra).toEqual({ constraint: 'uq_x' });
  });

  describe('a CHECK violation (PostgreSQL names its table and constraint, not its column)', () => {
    const check = pgError('23514', {
      constraint: 'ck_productos_precio',
      table: 'productos',
      detail: 'Failing row contains (…).',
    });

    it('tells the caller which constraint to look up', () => {
      expect(checkViolationOf(check)).toEqual({
        table: 'productos',
        constraint: 'ck_productos_precio',
      });
      expect(checkViolationOf({ driverError: check })).toEqual({
        table: 'productos',
        constraint: 'ck_productos_precio',
      });
      expect(checkViolationOf(pgError('23505', { constraint: 'uq', table: 't' }))).toBeUndefined();
      expect(checkViolationOf(pgError('23514', { constraint: 'ck' }))).toBeUndefined();
      expect(checkViolationOf(new Error('boom'))).toBeUndefined();
    });

    it('names the one column the constraint reads', () => {
      const error = translatePgError(check, { checkColumns: ['precio'] });
      expect(error).toMatchObject({
        status: 400,
        code: '23514',
        message: 'CHECK violation: ck_productos_precio (precio)',
      });
      expect(error?.extra).toEqual({ column: 'precio', constraint: 'ck_productos_precio' });
    });

    it('names the columns of a constraint that reads several, in order', () => {
      const error = translatePgError(check, { checkColumns: ['estado', 'fec_cierre'] });
      expect(error?.message).toBe('CHECK violation: ck_productos_precio (estado, fec_cierre)');
      expect(error?.extra).toEqual({
        columns: ['estado', 'fec_cierre'],
        constraint: 'ck_productos_precio',
      });
    });

    it('names only the constraint when the columns are not known (or none)', () => {
      for (const checkColumns of [undefined, []]) {
        const error = translatePgError(check, { checkColumns });
        expect(error?.message).toBe('CHECK violation: ck_productos_precio');
        expect(error?.extra).toEqual({ constraint: 'ck_productos_precio' });
      }
    });

    it('ignores checkColumns for the other violations', () => {
      const error = translatePgError(
        pgError('23505', { constraint: 'uq_x', detail: 'duplicate' }),
        { checkColumns: ['nombre'] },
      );
      expect(error?.extra).toEqual({ constraint: 'uq_x' });
    });
  });

  it('unwraps TypeORM QueryFailedError.driverError', () => {
    const wrapped = { name: 'QueryFailedError', driverError: pgError('23505', { detail: 'dup' }) };
    expect(translatePgError(wrapped)).toMatchObject({ status: 400, code: '23505' });
  });

  it('maps invalid input to 400, lock conflicts to 409 and cancelled queries to 503', () => {
    expect(translatePgError(pgError('22P02'))).toMatchObject({ status: 400, code: '22P02' });
    expect(translatePgError(pgError('40001'))).toMatchObject({ status: 409, code: '40001' });
    expect(translatePgError(pgError('57014'))).toMatchObject({ status: 503, code: '57014' });
  });

  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [pgError('57P01')],
    [pgError('08006')],
    [new Error('Connection terminated unexpectedly')],
    [
      Object.assign(
        new Error('database "comandas_control" is not currently accepting connections'),
        { code: '55000' },
      ),
    ],
  ])('maps an unreachable database to 503 with Retry-After', (error) => {
    expect(isConnectionError(error)).toBe(true);
    const translated = translatePgError(error);
    expect(translated).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect(translated?.headers).toEqual({ 'Retry-After': '5' });
  });

  it('leaves errors that are not PostgreSQL errors alone', () => {
    expect(translatePgError(new TypeError('x is undefined'))).toBeUndefined();
    expect(translatePgError(pgError('XX000'))).toBeUndefined();
    expect(translatePgError('a string')).toBeUndefined();
  });

  describe('with sqlFailuresAre400 (the generic table routes)', () => {
    const options = { sqlFailuresAre400: true };

    it('makes any other SQL failure 400 "query failed" with its SQLSTATE and message', () => {
      for (const code of ['XX000', '42P01', '40001', '57014', '3D000']) {
        const error = translatePgError(pgError(code), options);
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({
          status: 400,
          code,
          message: 'query failed',
          detail: `pg error ${code}`,
        });
      }
    });

    it('keeps the mapped 400s, an unreachable database (503) and non-SQL errors', () => {
      expect(translatePgError(pgError('23505', { constraint: 'uq' }), options)).toMatchObject({
        status: 400,
        message: 'uniqueness violation: uq',
      });
      expect(translatePgError(pgError('22P02'), options)).toMatchObject({
        status: 400,
        message: 'invalid value',
      });
      expect(translatePgError(pgError('08006'), options)).toMatchObject({
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
      });
      expect(translatePgError(new TypeError('x is undefined'), options)).toBeUndefined();
    });
  });
});

describe('pgErrorInfo', () => {
  it('reads the fields of a pg error, unwrapping QueryFailedError.driverError', () => {
    const driverError = pgError('23505', {
      detail: 'Key (nombre)=(x) already exists.',
      constraint: 'uq_categorias_nombre',
      table: 'categorias',
      schema: 'public',
      where: 'PL/pgSQL function save_producto(jsonb) line 9',
      severity: 'ERROR',
      position: '12', // not one of the fields read
    });
    const expected = {
      code: '23505',
      message: 'pg error 23505',
      severity: 'ERROR',
      detail: 'Key (nombre)=(x) already exists.',
      where: 'PL/pgSQL function save_producto(jsonb) line 9',
      schema: 'public',
      table: 'categorias',
      constraint: 'uq_categorias_nombre',
    };
    expect(pgErrorInfo(driverError)).toEqual(expected);
    expect(pgErrorInfo({ name: 'QueryFailedError', code: 'other', driverError })).toEqual(expected);
  });

  it('reads any error object, and nothing from a non-object', () => {
    expect(pgErrorInfo(new TypeError('x is undefined'))).toEqual({ message: 'x is undefined' });
    expect(pgErrorInfo({ code: 42, message: null })).toEqual({});
    expect(pgErrorInfo('a string')).toBeUndefined();
    expect(pgErrorInfo(null)).toBeUndefined();
  });
});

describe('keyColumnsOf', () => {
  it.each([
    ['Key (nombre)=(Bebidas) already exists.', ['nombre']],
    ['Key (id_proveedor, id_producto)=(1, 2) already exists.', ['id_proveedor', 'id_producto']],
    ['Key (id_categoria)=(9) is not present in table "categorias".', ['id_categoria']],
    ['Key ("Nombre Largo", "a""b")=(x, y) already exists.', ['Nombre Largo', 'a"b']],
    ['Key (lower(nombre::text))=(x) already exists.', undefined],
    ['Key (a, (b + 1))=(1, 2) already exists.', undefined],
    ['Failing row contains (1, null).', undefined],
    ['Llave (nombre)=(x) ya existe.', undefined],
    [undefined, undefined],
  ])('%j → %j', (detail, columns) => {
    expect(keyColumnsOf(detail)).toEqual(columns);
  });
});

describe('isServerUnreachable', () => {
  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })],
    [Object.assign(new Error('getaddrinfo ENOTFOUND db2'), { code: 'ENOTFOUND' })],
    [Object.assign(new Error('getaddrinfo EAI_AGAIN db2'), { code: 'EAI_AGAIN' })],
    [new Error('Connection terminated due to connection timeout')],
    [pgError('28P01', { message: 'password authentication failed for user "u"' })],
    [pgError('28000', { message: 'role "u" does not exist' })],
  ])('is true for %s', (error) => {
    expect(isServerUnreachable(error)).toBe(true);
  });

  it('is false for a server that answered with another error', () => {
    expect(isServerUnreachable(pgError('42501'))).toBe(false);
    expect(isServerUnreachable(new TypeError('x'))).toBe(false);
  });
});
