import { isCalendarDate, modoOf, normaliseTime, toPunch, unstorable } from './punch-fields';

const STATUS_MAP = { '0': 'entrada', '1': 'salida', '4': 'entrada', '5': 'salida' } as const;
const describeField = (field: string) => field;

describe('status → modo', () => {
  it.each([
    ['0', 'entrada'],
    ['1', 'salida'],
    ['4', 'entrada'],
    ['5', 'salida'],
  ])('maps status %s to %s with the status map', (status, modo) => {
    expect(modoOf(status, STATUS_MAP)).toBe(modo);
  });

  it('leaves modo empty for a status the map does not name (the punch alternates)', () => {
    expect(modoOf('2', STATUS_MAP)).toBeUndefined();
    expect(modoOf('255', STATUS_MAP)).toBeUndefined();
    expect(modoOf('toString', STATUS_MAP)).toBeUndefined();
  });

  it('without a map takes entrada / salida in any case, and refuses anything else', () => {
    expect(modoOf('Entrada', undefined)).toBe('entrada');
    expect(modoOf('SALIDA', undefined)).toBe('salida');
    expect(modoOf('', undefined)).toBeUndefined();
    expect(modoOf('in', undefined)).toEqual(
      new Error('status "in" is neither entrada nor salida and the driver has no statusMap'),
    );
  });
});

describe('dates and times', () => {
  it.each(['2026-03-02', '2024-02-29', '2026-12-31'])('%s is a calendar date', (d) =>
    expect(isCalendarDate(d)).toBe(true),
  );
  it.each([
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '26-03-02',
    '2026-3-2',
  ])('%s is not', (d) => expect(isCalendarDate(d)).toBe(false));
  it('normalises HH:MM to HH:MM:SS and refuses what is not a time of day', () => {
    expect(normaliseTime('08:05')).toBe('08:05:00');
    expect(normaliseTime('23:59:59')).toBe('23:59:59');
    for (const bad of ['24:00', '8:05', '08:60', '08:00:61', '08:00:00.5', ''])
      expect(normaliseTime(bad)).toBeUndefined();
  });
});

describe('toPunch', () => {
  it('builds the punch and keeps the raw fields (status included)', () => {
    expect(
      toPunch(
        3,
        {
          doc: '40000001',
          datetime: '2026-03-02 08:00:12',
          status: '0',
          device: '1',
          verify: '',
          workcode: '0',
        },
        { statusMap: STATUS_MAP },
        describeField,
      ),
    ).toEqual({
      kind: 'record',
      line: 3,
      record: {
        doc: '40000001',
        fecha: '2026-03-02',
        hora: '08:00:12',
        modo: 'entrada',
        status: '0',
        device: '1',
        workcode: '0',
      },
    });
  });

  it('takes fecha and hora from their own columns, and an ISO T separator', () => {
    expect(toPunch(1, { doc: '7', fecha: '2026-03-02', hora: '08:00' }, {}, describeField)).toEqual(
      {
        kind: 'record',
        line: 1,
        record: { doc: '7', fecha: '2026-03-02', hora: '08:00:00' },
      },
    );
    expect(
      toPunch(1, { doc: '7', datetime: '2026-03-02T08:00:00' }, {}, describeField),
    ).toMatchObject({ kind: 'record' });
  });

  it('names every problem of a bad line', () => {
    expect(
      toPunch(9, { doc: '', datetime: '02/03/2026 08:00', status: 'x' }, {}, describeField),
    ).toEqual({
      kind: 'bad',
      line: 9,
      reason:
        'empty doc; date-time "02/03/2026 08:00" is not YYYY-MM-DD HH:MM:SS; status "x" is neither entrada nor salida and the driver has no statusMap',
    });
    expect(toPunch(2, { doc: '1', datetime: undefined }, {}, describeField)).toEqual({
      kind: 'bad',
      line: 2,
      reason: 'no datetime',
    });
    expect(toPunch(2, { doc: '1', datetime: '2026-02-30 25:00:00' }, {}, describeField)).toEqual({
      kind: 'bad',
      line: 2,
      reason: 'date 2026-02-30 does not exist; time "25:00:00" is not HH:MM:SS',
    });
  });
});

describe('values PostgreSQL cannot store (or no clock writes)', () => {
  const CONTROL = 'contains control characters';
  it.each([
    ['\u0000', CONTROL],
    ['40\u000000001', CONTROL],
    ['\u0001\u0002', CONTROL],
    ['\u0008', CONTROL],
    ['a\nb', CONTROL],
    ['a\rb', CONTROL],
    ['\u001F', CONTROL],
    ['\u007F', CONTROL],
    ['\uFFFD1', "contains bytes that are not text in the export's encoding"],
    ['\uD800', 'contains unpaired UTF-16 surrogates'],
    ['1\uDC00', 'contains unpaired UTF-16 surrogates'],
  ])('%j is refused', (value, reason) => {
    expect(unstorable(value)).toBe(reason);
  });

  it.each(['40000001', 'a\tb', 'Ñandú', '😀', '\u0080', ' ', ''])('%j is stored', (value) => {
    expect(unstorable(value)).toBeUndefined();
  });

  const describeColumn = (field: string) =>
    `${field} (column ${['doc', 'datetime', 'device', 'status'].indexOf(field) + 1})`;

  it('makes the line bad, naming the field, whichever field it is in', () => {
    const line = (values: Record<string, string | undefined>) =>
      toPunch(4, values, { statusMap: STATUS_MAP }, describeColumn);
    const good = { doc: '40000001', datetime: '2026-03-02 08:00:12', device: '1', status: '0' };
    expect(line({ ...good, doc: '4000\u00000001' })).toEqual({
      kind: 'bad',
      line: 4,
      reason: 'doc (column 1) contains control characters',
    });
    expect(line({ ...good, datetime: '2026-03-02\u000008:00:12' })).toEqual({
      kind: 'bad',
      line: 4,
      reason: 'datetime (column 2) contains control characters',
    });
    expect(line({ ...good, device: '\u0000\u0000' })).toEqual({
      kind: 'bad',
      line: 4,
      reason: 'device (column 3) contains control characters',
    });
    expect(line({ ...good, status: '\uFFFD' })).toEqual({
      kind: 'bad',
      line: 4,
      reason: "status (column 4) contains bytes that are not text in the export's encoding",
    });
    // with the line's other problems, each named once
    expect(line({ doc: '\u0001', datetime: undefined, device: '\uD800' })).toEqual({
      kind: 'bad',
      line: 4,
      reason:
        'doc (column 1) contains control characters; device (column 3) contains unpaired UTF-16 surrogates; no datetime (column 2)',
    });
  });

  it('checks fecha and hora columns alike', () => {
    expect(
      toPunch(2, { doc: '7', fecha: '2026-03-02', hora: '08:00\u0000' }, {}, describeField),
    ).toEqual({ kind: 'bad', line: 2, reason: 'hora contains control characters' });
  });
});
