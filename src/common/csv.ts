/**
 * CSV as RFC 4180 writes it, for spreadsheets: records end in CRLF, a field holding a comma, a
 * quote, a CR or an LF is quoted and its quotes doubled, and the text starts with a UTF-8 byte
 * order mark (`\uFEFF`) so that Excel reads the accents as UTF-8. Numbers are written as
 * JavaScript writes them (a dot decimal, never an exponent for amounts), null and undefined as
 * an empty field.
 *
 * A text a spreadsheet would evaluate as a formula (one starting with `=`, `+`, `-`, `@`, a tab
 * or a CR: a product named `=HYPERLINK(...)`, a staff member `@SUM(...)`) is written with a
 * leading `'`, as OWASP's guidance on CSV injection recommends: the spreadsheet shows it as text.
 * Numbers are numbers, never neutralised (`-12.5` is a refund, not a formula).
 */

export type CsvValue = string | number | boolean | null | undefined;

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
const BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: a text that would be a formula neutralised, quoted when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The document: a header of `columns`, then one record per row with the row's value of each
 * column, in that order (a column a row lacks is an empty field).
 */
export function toCsv<T extends object>(
  columns: readonly (keyof T & string)[],
  rows: readonly T[],
): string {
  const record = (fields: readonly CsvValue[]) => `${fields.map(csvField).join(',')}\r\n`;
  let text = BOM + record(columns);
  for (const row of rows) text += record(columns.map((column) => row[column] as CsvValue));
  return text;
}

/** `Content-Disposition` of a download named `filename` (ASCII: dates, words, dashes). */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replaceAll(/["\\\r\n]/g, '_')}"`;
}
