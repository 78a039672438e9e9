import { bad, chunks, collect, records } from './test-input';
import { createZkAttlogParser, type ZkAttlogSettings } from './zk-attlog';

const USB: ZkAttlogSettings = {
  format: 'zk-attlog',
  columns: { doc: 0, datetime: 1, device: 2, status: 3, verify: 4, workcode: 5 },
  statusMap: { '0': 'entrada', '1': 'salida' },
};

const parse = (settings: ZkAttlogSettings, input: string | Buffer[]) =>
  collect(createZkAttlogParser(settings)(typeof input === 'string' ? [Buffer.from(input)] : input));

describe('zk-attlog parser', () => {
  it('reads attlog.dat lines as the USB export writes them (padded PIN, CRLF, BOM, blank lines)', async () => {
    const file =
      '\uFEFF       1\t2026-03-02 08:00:12\t1\t0\t1\t0\r\n\r\n40000002\t2026-03-02 17:01:00\t1\t1\t15\t0\r\n';
    const lines = await parse(USB, file);
    expect(records(lines)).toEqual([
      {
        doc: '1',
        fecha: '2026-03-02',
        hora: '08:00:12',
        modo: 'entrada',
        device: '1',
        status: '0',
        verify: '1',
        workcode: '0',
      },
      {
        doc: '40000002',
        fecha: '2026-03-02',
        hora: '17:01:00',
        modo: 'salida',
        device: '1',
        status: '1',
        verify: '15',
        workcode: '0',
      },
    ]);
    expect(lines.map((l) => l.line)).toEqual([1, 3]);
  });

  it('follows the column order of the manifest (push firmware: no device column)', async () => {
    const push: ZkAttlogSettings = {
      ...USB,
      columns: { doc: 0, datetime: 1, status: 2, verify: 3 },
    };
    expect(records(await parse(push, '40000001\t2026-03-09 17:05:00\t1\t4\t0\t0\t0\n'))).toEqual([
      {
        doc: '40000001',
        fecha: '2026-03-09',
        hora: '17:05:00',
        modo: 'salida',
        status: '1',
        verify: '4',
      },
    ]);
  });

  it('maps statuses the manifest names and lets others alternate', async () => {
    const lines = await parse(USB, '5\t2026-03-02 12:00:00\t1\t2\t1\t0');
    expect(records(lines)).toEqual([
      {
        doc: '5',
        fecha: '2026-03-02',
        hora: '12:00:00',
        device: '1',
        status: '2',
        verify: '1',
        workcode: '0',
      },
    ]);
  });

  it('takes another delimiter from the manifest', async () => {
    const comma: ZkAttlogSettings = {
      format: 'zk-attlog',
      delimiter: ',',
      columns: { doc: 1, datetime: 0 },
    };
    expect(records(await parse(comma, '2026-03-02 08:00:00,77'))).toEqual([
      { doc: '77', fecha: '2026-03-02', hora: '08:00:00' },
    ]);
  });

  it('reports each bad line with its number and reason, and keeps reading', async () => {
    const file = [
      '1\t2026-03-02 08:00:00\t1\t0\t1\t0',
      'esto no es una marca',
      '\t2026-03-02 08:00:00\t1\t0',
      '2\t2026-02-30 08:00:00\t1\t0',
      '3\t2026-03-02 08:00:00\t1\t9\t1\t0',
      '4\t2026-03-02 08:00:00',
    ].join('\r\n');
    const lines = await parse(USB, file);
    expect(bad(lines)).toEqual([
      { line: 2, reason: 'no datetime (column 2)' },
      { line: 3, reason: 'empty doc (column 1)' },
      { line: 4, reason: 'date 2026-02-30 does not exist' },
    ]);
    // status 9 is not in the map: no modo; missing optional columns are left out
    expect(records(lines).map((r) => r.doc)).toEqual(['1', '3', '4']);
    expect(records(lines)[2]).toEqual({ doc: '4', fecha: '2026-03-02', hora: '08:00:00' });
  });

  it('streams: the same result whatever the chunk size', async () => {
    const file = Array.from(
      { length: 50 },
      (_, i) => `${i}\t2026-03-02 08:${String(i).padStart(2, '0')}:00\t1\t0\t1\t0`,
    ).join('\n');
    const whole = await parse(USB, file);
    expect(await parse(USB, chunks(file, 7))).toEqual(whole);
    expect(records(whole)).toHaveLength(50);
  });
});

describe('zk-attlog parser on what real clocks write', () => {
  const PUSH: ZkAttlogSettings = {
    format: 'zk-attlog',
    columns: { doc: 0, datetime: 1, status: 2, verify: 3, workcode: 4 },
    statusMap: { '0': 'entrada', '1': 'salida' },
  };

  it('reports runs of NUL bytes, control-byte PINs and broken dates as bad lines, keeping the rest', async () => {
    const file = [
      '1\t2026-03-02 08:00:12\t1\t0\t1\t0',
      '\u0000'.repeat(40),
      '\u0001\u0002\u0003\t2026-03-02 08:05:00\t1\t0\t1\t0',
      '2\t1990-00--8 -16:-29:-40\t1\t0\t1\t0',
      '\u0000\u0000\u0000\u0000\t\u0000\u0000\u0000\u0000\u0000\t\u0000\u0000',
      '4000\u00000001\t2026-03-02 08:10:00\t1\t0\t1\t0',
      '3\t2026-03-02 09:00:00\t1\u007F\t0\t1\t0',
      '4\t2026-03-02 17:00:00\t1\t1\t1\t0',
      ' ', // the export ends in a lone space, without a newline
    ].join('\r\n');
    const lines = await parse(USB, file);
    expect(bad(lines)).toEqual([
      { line: 2, reason: 'doc (column 1) contains control characters; no datetime (column 2)' },
      { line: 3, reason: 'doc (column 1) contains control characters' },
      {
        line: 4,
        reason: 'date-time "1990-00--8 -16:-29:-40" is not YYYY-MM-DD HH:MM:SS',
      },
      {
        line: 5,
        reason:
          'doc (column 1) contains control characters; datetime (column 2) contains control characters; device (column 3) contains control characters',
      },
      { line: 6, reason: 'doc (column 1) contains control characters' },
      { line: 7, reason: 'device (column 3) contains control characters' },
    ]);
    expect(records(lines).map((r) => [r.doc, r.hora])).toEqual([
      ['1', '08:00:12'],
      ['4', '17:00:00'],
    ]);
    // the lone space is a blank line: skipped, neither a punch nor a bad line
    expect(lines).toHaveLength(8);
  });

  it('reports bytes that are not UTF-8 text in a field as a bad line', async () => {
    const file = Buffer.concat([
      Buffer.from('1\t2026-03-02 08:00:00\t1\t0\t1\t0\n4000'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('01\t2026-03-02 08:01:00\t1\t0\t1\t0\n'),
    ]);
    const lines = await parse(USB, [file]);
    expect(bad(lines)).toEqual([
      {
        line: 2,
        reason: "doc (column 1) contains bytes that are not text in the export's encoding",
      },
    ]);
    expect(records(lines)).toHaveLength(1);
  });

  it('reads the last line without a final newline, and CRLF line ends', async () => {
    const lines = await parse(
      USB,
      '1\t2026-03-02 08:00:00\t1\t0\t1\t0\r\n2\t2026-03-02 08:01:00\t1\t1\t1\t0',
    );
    expect(records(lines)).toEqual([
      expect.objectContaining({ doc: '1', hora: '08:00:00', modo: 'entrada', workcode: '0' }),
      expect.objectContaining({ doc: '2', hora: '08:01:00', modo: 'salida', workcode: '0' }),
    ]);
    expect(bad(lines)).toEqual([]);
  });

  it('reads 8- and 10-field pushed ATTLOG lines with trailing tabs (push firmware 2.4.0)', async () => {
    const body =
      '40000001\t2026-03-09 08:02:00\t0\t1\t0\t0\t0\t\n' +
      '40000001\t2026-03-09 17:05:00\t1\t15\t0\t0\t0\t255\t\t\n';
    expect(body.split('\n')[0].split('\t')).toHaveLength(8);
    expect(body.split('\n')[1].split('\t')).toHaveLength(10);
    const lines = await collect(createZkAttlogParser(PUSH)([body]));
    expect(bad(lines)).toEqual([]);
    expect(records(lines)).toEqual([
      {
        doc: '40000001',
        fecha: '2026-03-09',
        hora: '08:02:00',
        modo: 'entrada',
        status: '0',
        verify: '1',
        workcode: '0',
      },
      {
        doc: '40000001',
        fecha: '2026-03-09',
        hora: '17:05:00',
        modo: 'salida',
        status: '1',
        verify: '15',
        workcode: '0',
      },
    ]);
  });
});
