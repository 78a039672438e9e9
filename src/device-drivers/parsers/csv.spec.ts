import { DomainError } from '../../common/errors/domain-error';
import { createCsvParser, splitCsvLine, type CsvSettings } from './csv';
import { bad, chunks, collect, records } from './test-input';

const GENERIC: CsvSettings = {
  format: 'csv',
  columns: { doc: 'doc', fecha: 'fecha', hora: 'hora', status: 'modo' },
};
const parse = (settings: CsvSettings, input: string | Buffer[]) =>
  collect(createCsvParser(settings)(typeof input === 'string' ? [Buffer.from(input)] : input));

describe('splitCsvLine', () => {
  it('splits on the delimiter, trims cells and honours RFC 4180 quotes', () => {
    expect(splitCsvLine('a, b ,c', ',')).toEqual(['a', 'b', 'c']);
    expect(splitCsvLine('"a,b";"say ""hi""";', ';')).toEqual(['a,b', 'say "hi"', '']);
    expect(splitCsvLine(' "x" ,y', ',')).toEqual(['x', 'y']);
    expect(splitCsvLine('', ',')).toEqual(['']);
  });

  it('reports a quote left open', () => {
    expect(splitCsvLine('"a,b', ',')).toEqual(
      new Error('a quoted field is not closed on its line'),
    );
  });
});

describe('csv parser', () => {
  it('reads a CSV export with a header (BOM, CRLF, blank lines, columns in any order and case)', async () => {
    const file =
      '\uFEFFHora,DOC,Fecha,Modo\r\n08:00:00,40000001,2026-03-05,entrada\r\n\r\n17:00,40000001,2026-03-05,SALIDA\r\n';
    const lines = await parse(GENERIC, file);
    expect(records(lines)).toEqual([
      {
        doc: '40000001',
        fecha: '2026-03-05',
        hora: '08:00:00',
        modo: 'entrada',
        status: 'entrada',
      },
      { doc: '40000001', fecha: '2026-03-05', hora: '17:00:00', modo: 'salida', status: 'SALIDA' },
    ]);
    expect(lines.map((l) => l.line)).toEqual([2, 4]);
  });

  it('uses the manifest’s delimiter, date-time column and status map', async () => {
    const acme: CsvSettings = {
      format: 'csv',
      delimiter: ';',
      columns: { doc: 'PIN', datetime: 'Marca', status: 'Tipo', device: 'Terminal' },
      statusMap: { E: 'entrada', S: 'salida' },
    };
    const file =
      'PIN;Marca;Tipo;Terminal\n"0042";2026-03-06 09:00:00;E;T1\n0042;2026-03-06 13:00:00;X;T1';
    expect(records(await parse(acme, file))).toEqual([
      {
        doc: '0042',
        fecha: '2026-03-06',
        hora: '09:00:00',
        modo: 'entrada',
        status: 'E',
        device: 'T1',
      },
      { doc: '0042', fecha: '2026-03-06', hora: '13:00:00', status: 'X', device: 'T1' },
    ]);
  });

  it('reports bad lines with their numbers and goes on', async () => {
    const file = [
      'doc,fecha,hora,modo',
      '1,2026-03-05,08:00:00,entrada',
      '1,2026-02-30,09:00:00,entrada',
      '1,2026-03-05',
      '"1,2026-03-05,10:00:00,',
      '2,2026-03-05,11:00:00,dentro',
      '3,2026-03-05,12:00:00,',
    ].join('\n');
    const lines = await parse(GENERIC, file);
    expect(bad(lines)).toEqual([
      { line: 3, reason: 'date 2026-02-30 does not exist' },
      { line: 4, reason: 'no hora (column "hora")' },
      { line: 5, reason: 'a quoted field is not closed on its line' },
      {
        line: 6,
        reason: 'status "dentro" is neither entrada nor salida and the driver has no statusMap',
      },
    ]);
    expect(records(lines).map((r) => [r.doc, r.modo])).toEqual([
      ['1', 'entrada'],
      ['3', undefined],
    ]);
  });

  it('refuses the whole file when the header lacks a mapped column, naming it', async () => {
    const error = await parse(GENERIC, '\n\ndoc;fecha;hora;modo\n1;2026-03-05;08:00;entrada').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      status: 400,
      code: 'EXPORT_HEADER_MISMATCH',
      message: 'Line 3: the header row has no column "doc", "fecha", "hora", "modo"',
    });
  });

  it('reads nothing from an empty file or a header alone', async () => {
    expect(await parse(GENERIC, '')).toEqual([]);
    expect(await parse(GENERIC, 'doc,fecha,hora,modo\r\n')).toEqual([]);
  });

  it('streams: the same result whatever the chunk size', async () => {
    const file =
      'doc,fecha,hora,modo\n' +
      Array.from(
        { length: 40 },
        (_, i) => `${i},2026-03-05,08:${String(i).padStart(2, '0')},entrada`,
      ).join('\n');
    const whole = await parse(GENERIC, file);
    expect(await parse(GENERIC, chunks(file, 5))).toEqual(whole);
    expect(records(whole)).toHaveLength(40);
  });
});

describe('csv parser and text PostgreSQL cannot store', () => {
  it('reports a quoted field holding a control character as a bad line, naming its column', async () => {
    const file =
      'doc,fecha,hora,modo\n"4000\u00000001",2026-03-05,08:00:00,entrada\n40000001,2026-03-05,09:00:00,\n';
    const lines = await parse(GENERIC, file);
    expect(bad(lines)).toEqual([
      { line: 2, reason: 'doc (column "doc") contains control characters' },
    ]);
    expect(records(lines)).toEqual([{ doc: '40000001', fecha: '2026-03-05', hora: '09:00:00' }]);
  });
});
