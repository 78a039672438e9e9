import { AdminRequestError } from '../common/errors/admin-request-error';

/**
 * A secret read by a command line: typed at the terminal without echo, or the first line of
 * standard input when it is a pipe or a file. Never an argument: arguments stay in the shell's
 * history and any user of the machine sees them in `ps`.
 */

/** What the keys typed so far make: the text, and whether Enter, Ctrl-C or Ctrl-D ended it. */
export interface TypedLine {
  text: string;
  /** `enter`: the line is complete; `cancel`: Ctrl-C, or Ctrl-D on an empty line. */
  end?: 'enter' | 'cancel';
  /** What came after Enter in the same chunk (a paste of both entries): the next line's start. */
  rest: string;
}

/**
 * Applies the characters a terminal in raw mode sent to the line typed so far: Enter (CR or LF)
 * ends it, Backspace (DEL or BS) removes the last character, Ctrl-U clears it, Ctrl-C cancels,
 * Ctrl-D cancels an empty line, and escape sequences (arrows ...) and other control characters
 * are ignored. Anything else is the secret's.
 */
export function typeKeys(text: string, chunk: string): TypedLine {
  const chars = [...text];
  const keys = [...chunk];
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i];
    if (key === '\r' || key === '\n') {
      // a CR LF pair is one Enter
      const next = key === '\r' && keys[i + 1] === '\n' ? i + 2 : i + 1;
      return { text: chars.join(''), end: 'enter', rest: keys.slice(next).join('') };
    }
    if (key === '\u0003' || (key === '\u0004' && chars.length === 0))
      return { text: '', end: 'cancel', rest: '' };
    if (key === '\u007f' || key === '\b') chars.pop();
    else if (key === '\u0015') chars.length = 0;
    else if (key === '\u001b') {
      // ESC [ ... final byte (CSI), or ESC and one character
      if (keys[i + 1] === '[') {
        i += 2;
        while (i < keys.length && !/[@-~]/.test(keys[i])) i += 1;
      } else i += 1;
    } else if (key >= ' ') chars.push(key);
  }
  return { text: chars.join(''), rest: '' };
}

export const cancelled = () => new AdminRequestError('Cancelled: nothing was changed');

/** The terminal: asks for lines without echoing what is typed. */
export class HiddenPrompt {
  private pending = '';

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
  ) {}

  /** Writes `prompt`, reads one line without echo; rejects (cancelled) on Ctrl-C. */
  ask(prompt: string): Promise<string> {
    this.output.write(prompt);
    const { input } = this;
    return new Promise<string>((resolve, reject) => {
      let line: TypedLine = { text: '', rest: '' };
      const finish = () => {
        input.off('data', onData);
        input.setRawMode(false);
        input.pause();
        this.output.write('\n');
        if (line.end === 'enter') {
          this.pending = line.rest;
          resolve(line.text);
        } else reject(cancelled());
      };
      const onData = (chunk: Buffer | string) => {
        line = typeKeys(line.text, chunk.toString());
        if (line.end) finish();
      };
      input.setRawMode(true);
      input.setEncoding('utf8');
      input.on('data', onData);
      input.resume();
      if (this.pending) {
        const pending = this.pending;
        this.pending = '';
        onData(pending);
      }
    });
  }
}

/** The first line of a stream (its line ending removed), or what it holds when it has none. */
export function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const done = (line: string) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', reject);
      input.pause();
      resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) done(text.slice(0, end).replace(/\r$/, ''));
    };
    const onEnd = () => done(text.replace(/\r$/, ''));
    input.setEncoding('utf8');
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', reject);
    input.resume();
  });
}
