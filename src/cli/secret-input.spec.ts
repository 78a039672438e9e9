import { PassThrough } from 'node:stream';
import { firstLine, typeKeys } from './secret-input';

describe('typeKeys (a secret typed at a terminal in raw mode)', () => {
  it('ends the line at Enter, CR, LF or CR LF, keeping what follows for the next line', () => {
    expect(typeKeys('', '4827\r')).toEqual({ text: '4827', end: 'enter', rest: '' });
    expect(typeKeys('48', '27\n')).toEqual({ text: '4827', end: 'enter', rest: '' });
    expect(typeKeys('', '4827\r\n4827\r\n')).toEqual({
      text: '4827',
      end: 'enter',
      rest: '4827\r\n',
    });
  });

  it('goes on until Enter, across chunks', () => {
    expect(typeKeys('', 'cevi')).toEqual({ text: 'cevi', rest: '' });
    expect(typeKeys('cevi', 'che')).toEqual({ text: 'ceviche', rest: '' });
  });

  it('applies Backspace and Ctrl-U, and ignores escape sequences and control characters', () => {
    expect(typeKeys('', '48x\u007f27\r').text).toBe('4827');
    expect(typeKeys('', 'abc\b\bz\r').text).toBe('az');
    expect(typeKeys('', 'wrong\u00154827\r').text).toBe('4827');
    expect(typeKeys('', '48\u001b[D\u001b[3~27\t\r').text).toBe('4827');
    expect(typeKeys('', '\u007fñandú-2026\r').text).toBe('ñandú-2026');
  });

  it('cancels at Ctrl-C, and at Ctrl-D on an empty line only', () => {
    expect(typeKeys('4827', '\u0003')).toEqual({ text: '', end: 'cancel', rest: '' });
    expect(typeKeys('', '\u0004')).toEqual({ text: '', end: 'cancel', rest: '' });
    expect(typeKeys('48', '\u000427\r')).toMatchObject({ text: '4827', end: 'enter' });
  });
});

describe('firstLine (a secret piped on standard input)', () => {
  const read = (...chunks: string[]) => {
    const input = new PassThrough();
    const line = firstLine(input);
    for (const chunk of chunks) input.write(chunk);
    input.end();
    return line;
  };

  it('is the first line without its line ending, whatever follows', async () => {
    expect(await read('ceviche-de-lunes\nsecond line\n')).toBe('ceviche-de-lunes');
    expect(await read('48', '27\r\n')).toBe('4827');
    expect(await read(' spaces kept \n')).toBe(' spaces kept ');
  });

  it('is the whole input when it has no line ending, and empty when there is none', async () => {
    expect(await read('4827')).toBe('4827');
    expect(await read()).toBe('');
  });
});
