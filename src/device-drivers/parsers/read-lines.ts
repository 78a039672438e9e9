import type { ParsedLine } from '../driver.types';

/** Longest line kept (characters); a longer one is reported as bad and its text dropped. */
export const MAX_LINE_LENGTH = 65_536;

/** Text encodings an export may be written in (WHATWG labels, decoded by TextDecoder). */
export const ENCODINGS = ['utf-8', 'windows-1252', 'latin1', 'utf-16le'] as const;
export type ExportEncoding = (typeof ENCODINGS)[number];

/** A line of text with its 1-based number, or the number of a line too long to keep. */
export type TextLine = { line: number; text: string } | { line: number; tooLong: true };

/**
 * Splits a byte (or text) stream into lines as it arrives: LF or CRLF, a leading byte-order mark
 * dropped, the last line without a newline included. Only the current line is held in memory,
 * and at most MAX_LINE_LENGTH of it, so a file of any size (or one with no newline at all)
 * streams in constant memory. Blank lines are yielded too: the caller skips them and line
 * numbers stay those of the file.
 */
export async function* readLines(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  encoding: ExportEncoding = 'utf-8',
  maxLength = MAX_LINE_LENGTH,
): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder(encoding);
  let pending = '';
  let overflow = false; // the current line passed maxLength: its text is dropped
  let line = 0;
  let started = false;

  const take = (text: string): string => (text.endsWith('\r') ? text.slice(0, -1) : text);

  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (!started && text.length > 0) {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) !== -1) {
      line += 1;
      if (overflow || pending.length + newline - start > maxLength + 1) {
        yield { line, tooLong: true };
      } else {
        yield { line, text: take(pending + text.slice(start, newline)) };
      }
      pending = '';
      overflow = false;
      start = newline + 1;
    }
    if (!overflow) {
      pending += text.slice(start);
      if (pending.length > maxLength + 1) {
        overflow = true;
        pending = '';
      }
    }
  }
  const rest = pending + decoder.decode();
  if (overflow || rest.length > 0) {
    line += 1;
    yield overflow || rest.length > maxLength + 1
      ? { line, tooLong: true }
      : { line, text: take(rest) };
  }
}

/**
 * The lines a record parser reads: blank ones skipped (their numbers still count), a line too
 * long already turned into a bad line.
 */
export async function* contentLines(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  encoding?: ExportEncoding,
): AsyncGenerator<{ line: number; text: string } | Extract<ParsedLine, { kind: 'bad' }>> {
  for await (const text of readLines(input, encoding)) {
    if (!('text' in text)) yield { kind: 'bad', line: text.line, reason: 'line too long' };
    else if (text.text.trim() !== '') yield text;
  }
}
