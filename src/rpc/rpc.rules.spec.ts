import {
  arrayOrEmpty,
  attendanceQueryInput,
  attendanceRange,
  compraInput,
  materiaInput,
  productoInput,
  reportGastosYear,
  reportTicketsYear,
  resultOrEmpty,
} from './rpc.rules';

const NOW = new Date('2026-11-22T15:00:00Z');
const LIMA = 'America/Lima';

describe('report_tickets year', () => {
  it.each([
    [2025, undefined, 2025],
    ['2024', undefined, 2024],
    [2000, undefined, 2000],
    [2100, undefined, 2100],
    [undefined, '2023', 2023],
    [2022, '2023', 2022],
    [null, 2019, 2019],
  ])('body %j, query %j → %i', (body, query, expected) => {
    expect(reportTicketsYear(body, query, LIMA, NOW)).toBe(expected);
  });

  it.each([1999, 2101, 'abc', 2025.5, '', true, {}, [2025], '20 25', -2025])(
    'falls back to the current year for %j',
    (year) => {
      expect(reportTicketsYear(year, undefined, LIMA, NOW)).toBe(2026);
    },
  );

  it('takes the current year in the tenant’s zone', () => {
    const newYearUtc = new Date('2027-01-01T02:00:00Z');
    expect(reportTicketsYear(undefined, undefined, LIMA, newYearUtc)).toBe(2026);
    expect(reportTicketsYear(undefined, undefined, 'UTC', newYearUtc)).toBe(2027);
  });
});

describe('report_gastos year', () => {
  it('uses an integer year, else the current one', () => {
    expect(reportGastosYear(2024, LIMA, NOW)).toBe(2024);
    expect(reportGastosYear('2024', LIMA, NOW)).toBe(2024);
    expect(reportGastosYear(undefined, LIMA, NOW)).toBe(2026);
    expect(reportGastosYear('dos mil', LIMA, NOW)).toBe(2026);
  });
});

describe('report_asistencia range', () => {
  it('keeps two valid dates', () => {
    expect(attendanceRange('2026-10-01', '2026-10-31', LIMA, NOW)).toEqual({
      desde: '2026-10-01',
      hasta: '2026-10-31',
    });
  });

  it.each([
    [undefined, '2026-10-31'],
    ['2026-10-01', undefined],
    ['01/10/2026', '2026-10-31'],
    ['2026-10-1', '2026-10-31'],
    ['2026-02-30', '2026-03-31'],
    [20261001, '2026-10-31'],
  ])('falls back to the 30 days before today through today for %j..%j', (desde, hasta) => {
    expect(attendanceRange(desde, hasta, LIMA, NOW)).toEqual({
      desde: '2026-10-23',
      hasta: '2026-11-22',
    });
  });
});

describe('inputs and results', () => {
  it('treats a non-array as empty', () => {
    expect(arrayOrEmpty('x')).toEqual([]);
    expect(arrayOrEmpty(null)).toEqual([]);
    expect(arrayOrEmpty({ 0: 'a' })).toEqual([]);
    expect(arrayOrEmpty(['a'])).toEqual(['a']);
  });

  it('applies the defaults of save_producto, save_materia and save_compra', () => {
    expect(productoInput({ nombre: 'Ceviche', extra: 1 })).toEqual({
      id_producto: null,
      nombre: 'Ceviche',
      img_producto: null,
      precio: 0,
      activo: true,
      id_categoria: null,
      receta: [],
    });
    expect(materiaInput({ nombre: 'Limón', unidad: 'kg', activo: false })).toEqual({
      id_mat_prima: null,
      nombre: 'Limón',
      unidad: 'kg',
      activo: false,
      proveedores: [],
    });
    expect(compraInput({ id_proveedor: 1 })).toEqual({
      id_compra: null,
      id_proveedor: 1,
      fec_compra: null,
      observacion: null,
      detalles: [],
    });
    expect(productoInput(null)).toMatchObject({ nombre: null, precio: 0 });
  });

  it('answers {} for an empty result', () => {
    expect(resultOrEmpty(null)).toEqual({});
    expect(resultOrEmpty({})).toEqual({});
    expect(resultOrEmpty({ a: 1 })).toEqual({ a: 1 });
    expect(resultOrEmpty([])).toEqual([]);
  });
});

describe('asistencia_get input', () => {
  it('takes a document (text, or a whole number as its digits) and two calendar dates', () => {
    expect(
      attendanceQueryInput({ doc: ' 40000001 ', desde: '2026-03-01', hasta: '2026-03-31' }),
    ).toEqual({ doc: ' 40000001 ', desde: '2026-03-01', hasta: '2026-03-31' });
    expect(
      attendanceQueryInput({ doc: 40000001, desde: '2026-03-01', hasta: '2026-03-01' }).doc,
    ).toBe('40000001');
  });

  it.each([
    [{ desde: '2026-03-01', hasta: '2026-03-31' }, ['doc is required']],
    [
      { doc: '', desde: '2026-03-01', hasta: '2026-03-31' },
      ['doc must be a document number (a non-empty string)'],
    ],
    [
      { doc: 1.5, desde: '2026-03-01', hasta: '2026-03-31' },
      ['doc must be a document number (a non-empty string)'],
    ],
    [
      { doc: ['1'], desde: '2026-03-01', hasta: '2026-03-31' },
      ['doc must be a document number (a non-empty string)'],
    ],
    [
      { doc: '1\n2', desde: '2026-03-01', hasta: '2026-03-31' },
      ['doc must be a document number (a non-empty string)'],
    ],
    [{ doc: '1', desde: '2026-13-01', hasta: '2026-03-31' }, ['desde must be a date YYYY-MM-DD']],
    [{ doc: '1', desde: '2026-03-01', hasta: '2026-3-31' }, ['hasta must be a date YYYY-MM-DD']],
    [
      { doc: '1', desde: '2026-03-01T00:00:00', hasta: null },
      ['desde must be a date YYYY-MM-DD', 'hasta is required'],
    ],
    [[], ['doc is required', 'desde is required', 'hasta is required']],
  ])('%j is refused: %j', (body, detail) => {
    expect(() => attendanceQueryInput(body)).toThrow(
      expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED', detail }),
    );
  });
});
