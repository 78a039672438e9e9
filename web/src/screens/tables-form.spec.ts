import type { Schemas } from '../api';
import {
  buildInsertBody,
  cellText,
  defaultChecked,
  emptyDraft,
  fieldErrorsOf,
  htmlInputType,
  inputKind,
  insertableColumns,
  isInsertable,
  isRequired,
  numberStep,
  parseValue,
  rowKey,
  usesTextarea,
  withZoneOffset,
} from './tables-form';

type SchemaColumn = Schemas['ColumnDto'];

const col = (over: Partial<SchemaColumn> & { name: string }): SchemaColumn => ({
  position: 1,
  type: 'text',
  udt: 'text',
  nullable: true,
  default: null,
  identity: null,
  generated: false,
  maxLength: null,
  primaryKey: false,
  foreign: null,
  ...over,
});

// what GET /schema says of a table that takes rows (productos)
const WRITABLE = { read_only: false, read_only_reason: null, owner: null };

// productos, as GET /schema/productos describes it (docs/generic-tables.md)
const PRODUCTOS: SchemaColumn[] = [
  col({
    name: 'id_producto',
    position: 1,
    type: 'integer',
    udt: 'int4',
    nullable: false,
    identity: 'BY DEFAULT',
    primaryKey: true,
  }),
  col({ name: 'nombre', position: 2, nullable: false }),
  col({ name: 'img_producto', position: 3 }),
  col({
    name: 'precio',
    position: 4,
    type: 'numeric(12,2)',
    udt: 'numeric',
    nullable: false,
    default: '0',
  }),
  col({
    name: 'activo',
    position: 5,
    type: 'boolean',
    udt: 'bool',
    nullable: false,
    default: 'true',
  }),
  col({
    name: 'id_categoria',
    position: 6,
    type: 'integer',
    udt: 'int4',
    foreign: {
      table: 'categorias',
      column: 'id_categoria',
      constraint: 'fk_productos_id_categoria',
    },
  }),
  col({
    name: 'created_at',
    position: 7,
    type: 'timestamp with time zone',
    udt: 'timestamptz',
    nullable: false,
    default: 'now()',
  }),
];

describe('insertable columns (POST /table rule 1)', () => {
  it('leaves out primary keys, identities, sequence defaults and generated columns', () => {
    expect(isInsertable(col({ name: 'id', primaryKey: true }))).toBe(false);
    expect(isInsertable(col({ name: 'n', identity: 'ALWAYS' }))).toBe(false);
    expect(
      isInsertable(
        col({ name: 'numero_ticket', default: "nextval('comandas_numero_ticket_seq'::regclass)" }),
      ),
    ).toBe(false);
    expect(isInsertable(col({ name: 'subtotal', generated: true }))).toBe(false);
    expect(isInsertable(col({ name: 'precio', default: '0' }))).toBe(true);
  });

  it('keeps the schema order', () => {
    expect(
      insertableColumns({
        table: 'productos',
        kind: 'table',
        ...WRITABLE,
        columns: [...PRODUCTOS].reverse(),
      }).map((c) => c.name),
    ).toEqual(['nombre', 'img_producto', 'precio', 'activo', 'id_categoria', 'created_at']);
  });

  it('marks as required NOT NULL columns without a default', () => {
    expect(PRODUCTOS.filter(isRequired).map((c) => c.name)).toEqual(['nombre']);
  });
});

describe('inputs by type', () => {
  it('maps PostgreSQL types to inputs', () => {
    const kind = (udt: string, type = udt) => inputKind(col({ name: 'c', udt, type }));
    expect(kind('int4')).toBe('integer');
    expect(kind('int8')).toBe('integer');
    expect(kind('numeric', 'numeric(12,2)')).toBe('decimal');
    expect(kind('bool')).toBe('boolean');
    expect(kind('date')).toBe('date');
    expect(kind('time')).toBe('time');
    expect(kind('timestamp')).toBe('timestamp');
    expect(kind('timestamptz')).toBe('timestamptz');
    expect(kind('jsonb')).toBe('json');
    expect(kind('text')).toBe('longtext');
    expect(kind('varchar', 'character varying(20)')).toBe('text');
    expect(kind('interval')).toBe('text');
    expect(kind('_int4', 'integer[]')).toBe('text');
    expect(htmlInputType('decimal')).toBe('number');
    expect(htmlInputType('timestamptz')).toBe('datetime-local');
    expect(usesTextarea('json')).toBe(true);
    expect(usesTextarea('longtext')).toBe(true);
    expect(usesTextarea('text')).toBe(false);
  });

  it('steps numbers by their scale', () => {
    expect(numberStep(col({ name: 'c', udt: 'int4', type: 'integer' }))).toBe('1');
    expect(numberStep(col({ name: 'c', udt: 'numeric', type: 'numeric(12,2)' }))).toBe('0.01');
    expect(numberStep(col({ name: 'c', udt: 'numeric', type: 'numeric(12,3)' }))).toBe('0.001');
    expect(numberStep(col({ name: 'c', udt: 'numeric', type: 'numeric(5,0)' }))).toBe('1');
    expect(numberStep(col({ name: 'c', udt: 'numeric', type: 'numeric' }))).toBe('any');
  });

  it('starts a boolean at its literal default', () => {
    expect(defaultChecked(PRODUCTOS[4])).toBe(true);
    expect(defaultChecked(col({ name: 'b', udt: 'bool', default: 'false' }))).toBe(false);
    expect(emptyDraft(PRODUCTOS.slice(1, 5))).toEqual({
      nombre: '',
      img_producto: '',
      precio: '',
      activo: true,
    });
  });
});

describe('parseValue', () => {
  const int = col({ name: 'n', udt: 'int4', type: 'integer' });
  const big = col({ name: 'n', udt: 'int8', type: 'bigint' });
  const dec = col({ name: 'p', udt: 'numeric', type: 'numeric(12,2)' });
  const json = col({ name: 'j', udt: 'jsonb', type: 'jsonb' });

  it('types numbers, keeping digits a JS number would lose', () => {
    expect(parseValue(int, ' 12 ', 'UTC')).toEqual({ value: 12 });
    expect(parseValue(int, '1.5', 'UTC')).toEqual({ error: 'Debe ser un número entero' });
    expect(parseValue(big, '9007199254740993', 'UTC')).toEqual({ value: '9007199254740993' });
    expect(parseValue(dec, '12.50', 'UTC')).toEqual({ value: 12.5 });
    expect(parseValue(dec, '-5', 'UTC')).toEqual({ value: -5 });
    expect(parseValue(dec, '1234567890.1234567', 'UTC')).toEqual({ value: '1234567890.1234567' });
    expect(parseValue(dec, 'abc', 'UTC')).toEqual({ error: 'Debe ser un número' });
  });

  it('parses JSON', () => {
    expect(parseValue(json, '{"a": [1]}', 'UTC')).toEqual({ value: { a: [1] } });
    expect(parseValue(json, '{a', 'UTC')).toEqual({ error: 'JSON inválido' });
  });

  it('keeps text as typed and dates as their text', () => {
    expect(parseValue(col({ name: 't' }), ' Piqueos ', 'UTC')).toEqual({ value: ' Piqueos ' });
    expect(parseValue(col({ name: 'd', udt: 'date' }), '2026-03-01', 'UTC')).toEqual({
      value: '2026-03-01',
    });
  });

  it('gives an instant the tenant zone offset', () => {
    const tz = col({ name: 'f', udt: 'timestamptz' });
    expect(parseValue(tz, '2026-03-01T08:00', 'America/Lima')).toEqual({
      value: '2026-03-01T08:00:00-05:00',
    });
  });
});

describe('withZoneOffset', () => {
  it('uses the offset in force at that wall-clock time', () => {
    expect(withZoneOffset('2026-03-01T08:00', 'America/Lima')).toBe('2026-03-01T08:00:00-05:00');
    expect(withZoneOffset('2026-07-01T08:00:30', 'Europe/Madrid')).toBe(
      '2026-07-01T08:00:30+02:00',
    );
    expect(withZoneOffset('2026-01-01T08:00', 'Europe/Madrid')).toBe('2026-01-01T08:00:00+01:00');
    expect(withZoneOffset('2026-01-01T08:00', 'Asia/Kolkata')).toBe('2026-01-01T08:00:00+05:30');
    expect(withZoneOffset('2026-01-01T08:00', 'UTC')).toBe('2026-01-01T08:00:00+00:00');
  });

  it('returns what it cannot read as it came', () => {
    expect(withZoneOffset('ayer', 'America/Lima')).toBe('ayer');
    expect(withZoneOffset('2026-01-01T08:00', 'No/Such_Zone')).toBe('2026-01-01T08:00');
  });
});

describe('buildInsertBody', () => {
  const columns = insertableColumns({
    table: 'productos',
    kind: 'table',
    ...WRITABLE,
    columns: PRODUCTOS,
  });
  const options = {
    id_categoria: [
      { id: 4, label: 'Arroces' },
      { id: 7, label: 'Bebidas' },
    ],
  };

  it('sends only what was filled, typed', () => {
    const draft = { ...emptyDraft(columns), nombre: 'Suspiro', precio: '12.5', id_categoria: '7' };
    expect(
      buildInsertBody(
        columns,
        draft,
        new Set(['nombre', 'precio', 'id_categoria']),
        'America/Lima',
        options,
      ),
    ).toEqual({
      body: { nombre: 'Suspiro', precio: 12.5, id_categoria: 7 },
      errors: {},
    });
  });

  it('sends a checkbox the user changed, or one that needs a value', () => {
    const draft = { ...emptyDraft(columns), activo: false };
    expect(buildInsertBody(columns, draft, new Set(['activo']), 'UTC').body).toEqual({
      activo: false,
    });
    expect(buildInsertBody(columns, draft, new Set(), 'UTC').body).toEqual({});
    const flag = col({ name: 'flag', udt: 'bool', nullable: false });
    expect(buildInsertBody([flag], { flag: false }, new Set(), 'UTC').body).toEqual({
      flag: false,
    });
  });

  it('skips blank fields and columns that are not insertable', () => {
    const draft = { nombre: '   ', id_producto: '5' };
    expect(buildInsertBody(PRODUCTOS, draft, new Set(), 'UTC').body).toEqual({});
  });

  it('reports values it cannot type', () => {
    const draft = { ...emptyDraft(columns), precio: 'x' };
    expect(buildInsertBody(columns, draft, new Set(), 'UTC').errors).toEqual({
      precio: 'Debe ser un número',
    });
  });
});

describe('fieldErrorsOf', () => {
  const failure = (code: string, body: Record<string, unknown>, message = 'm') => ({
    status: 400,
    code,
    message,
    body: { error: message, code, ...body },
  });

  it('puts a NOT NULL, uniqueness or foreign-key error at its column', () => {
    expect(
      fieldErrorsOf(
        failure('23502', { column: 'nombre' }, 'missing NOT NULL field: nombre'),
        'productos',
        PRODUCTOS,
      ),
    ).toEqual({
      nombre: 'Obligatorio (23502)',
    });
    expect(
      Object.keys(
        fieldErrorsOf(
          failure('23505', { column: 'nombre', constraint: 'uq_productos_nombre' }),
          'productos',
          PRODUCTOS,
        ),
      ),
    ).toEqual(['nombre']);
    expect(
      fieldErrorsOf(failure('23503', { column: 'id_categoria' }), 'productos', PRODUCTOS)
        .id_categoria,
    ).toBe('No existe en categorias (23503)');
  });

  it('puts a key of several columns at each', () => {
    const mesas = [col({ name: 'zona' }), col({ name: 'capacidad', udt: 'int4' })];
    expect(
      Object.keys(
        fieldErrorsOf(failure('23505', { columns: ['zona', 'capacidad'] }), 'mesas', mesas),
      ),
    ).toEqual(['zona', 'capacidad']);
  });

  it('finds the column of a CHECK by its constraint name', () => {
    expect(
      Object.keys(
        fieldErrorsOf(
          failure('23514', { constraint: 'ck_productos_precio' }),
          'productos',
          PRODUCTOS,
        ),
      ),
    ).toEqual(['precio']);
    expect(
      fieldErrorsOf(
        failure('23514', { constraint: 'ck_productos_otra_regla' }),
        'productos',
        PRODUCTOS,
      ),
    ).toEqual({});
  });

  it('reads the column of an INVALID_VALUE', () => {
    const invalid = {
      status: 400,
      code: 'INVALID_VALUE',
      message: 'm',
      detail: { column: 'nombre' },
    };
    expect(Object.keys(fieldErrorsOf(invalid, 'productos', PRODUCTOS))).toEqual(['nombre']);
  });

  it('names no field for other errors or columns outside the form', () => {
    expect(fieldErrorsOf(failure('22P02', {}), 'productos', PRODUCTOS)).toEqual({});
    expect(fieldErrorsOf(failure('23502', { column: 'otra' }), 'productos', PRODUCTOS)).toEqual({});
    expect(
      fieldErrorsOf(
        { ...failure('23502', { column: 'nombre' }), status: 409 },
        'productos',
        PRODUCTOS,
      ),
    ).toEqual({});
  });
});

describe('cells', () => {
  it('writes values for people', () => {
    expect(cellText(null)).toBe('—');
    expect(cellText(true)).toBe('sí');
    expect(cellText(false)).toBe('no');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText('2026-11-22T13:05:09-05:00')).toBe('2026-11-22 13:05');
    expect(cellText('2026-03-01')).toBe('2026-03-01');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });

  it('keys rows by their primary key', () => {
    expect(rowKey({ id_producto: 3 }, PRODUCTOS, 0)).toBe('3');
    expect(rowKey({ a: 1 }, [], 4)).toBe('#4');
  });
});
