import type { ParsedLine } from '../driver.types';

/** Test helper: bytes cut into chunks of `size` (a multi-byte character may be split). */
export function chunks(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const records = (lines: ParsedLine[]) =>
  lines.flatMap((l) => (l.kind === 'record' ? [l.record] : []));
export const bad = (lines: ParsedLine[]) =>
  lines.flatMap((l) => (l.kind === 'bad' ? [{ line: l.line, reason: l.reason }] : []));
