import { readLines } from './read-lines';
import { chunks, collect } from './test-input';

const texts = async (input: Buffer[] | string[], maxLength?: number) =>
  collect(readLines(input, 'utf-8', maxLength));

describe('readLines', () => {
  it('splits LF and CRLF lines, keeping blank lines and the last line without a newline', async () => {
    expect(await texts(['a\nb\r\n\r\nc'])).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
      { line: 3, text: '' },
      { line: 4, text: 'c' },
    ]);
    expect(await texts(['a\r\n'])).toEqual([{ line: 1, text: 'a' }]);
    expect(await texts([])).toEqual([]);
    expect(await texts([''])).toEqual([]);
  });

  it('drops a byte-order mark at the start only', async () => {
    expect(await texts(['\uFEFFa\n\uFEFFb'])).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: '\uFEFFb' },
    ]);
  });

  it.each([1, 2, 3, 5, 64])(
    'gives the same lines whatever the chunk size (%i bytes)',
    async (size) => {
      const file = '\uFEFFniño;año\r\ncafé ☕\r\n\r\nñ';
      expect(await texts(chunks(file, size))).toEqual([
        { line: 1, text: 'niño;año' },
        { line: 2, text: 'café ☕' },
        { line: 3, text: '' },
        { line: 4, text: 'ñ' },
      ]);
    },
  );

  it('reports a line longer than the limit without keeping its text, and goes on', async () => {
    const long = 'x'.repeat(50);
    expect(await texts([`ok\n${long}\nnext\n${long}`], 10)).toEqual([
      { line: 1, text: 'ok' },
      { line: 2, tooLong: true },
      { line: 3, text: 'next' },
      { line: 4, tooLong: true },
    ]);
    // a long line that arrives in small chunks is dropped as it comes
    expect(await texts(chunks(`${long}\nend`, 4), 10)).toEqual([
      { line: 1, tooLong: true },
      { line: 2, text: 'end' },
    ]);
  });

  it('decodes another encoding when told', async () => {
    const latin1 = Buffer.from([0x4e, 0x75, 0xf1, 0x65, 0x7a, 0x0a]); // "Nuñez" in windows-1252
    expect(await collect(readLines([latin1], 'windows-1252'))).toEqual([
      { line: 1, text: 'Nuñez' },
    ]);
  });
});
