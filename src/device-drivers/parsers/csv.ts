import { exportHeaderMismatch } from '../device-drivers.errors';
import type { ParsedLine, RecordInput } from '../driver.types';
import {
  columnsSchema,
  STATUS_MAP_SCHEMA,
  toPunch,
  type RecordFormatSettings,
} from './punch-fields';
import { contentLines, ENCODINGS } from './read-lines';

/**
 * CSV exports with a header row (attendance software, spreadsheets): the manifest maps logical
 * fields to header names (matched trimmed and case-insensitively). Quoted fields follow RFC 4180
 * ("a;b" and "say ""hi""") but a record is one line.
 */
export interface CsvSettings extends RecordFormatSettings<string> {
  /** Columns by header name; a comma separates them by default (a semicolon in many
   * Spanish-locale exports); without a status map the status column holds entrada / salida. */
  format: 'csv';
}

export const CSV_SETTINGS_SCHEMA = {
  type: 'object',
  required: ['format', 'columns'],
  properties: {
    format: { const: 'csv' },
    delimiter: { type: 'string', minLength: 1, maxLength: 1, not: { enum: ['"', '\n', '\r'] } },
    encoding: { type: 'string', enum: [...ENCODINGS] },
    columns: columnsSchema({ type: 'string', minLength: 1 }, 'header name'),
    statusMap: STATUS_MAP_SCHEMA,
  },
} as const;

/** Splits one CSV line into trimmed cells, or returns an Error for an unterminated quote. */
export function splitCsvLine(line: string, delimiter: string): string[] | Error {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < line.length) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
    i += 1;
  }
  if (quoted) return new Error('a quoted field is not closed on its line');
  cells.push(cell.trim());
  return cells;
}

export function createCsvParser(settings: CsvSettings) {
  const delimiter = settings.delimiter ?? ',';
  const describe = (field: string) => `${field} (column "${settings.columns[field]}")`;

  return async function* parseCsv(input: RecordInput): AsyncGenerator<ParsedLine> {
    let indexes: [field: string, index: number][] | undefined;
    for await (const text of contentLines(input, settings.encoding)) {
      if ('kind' in text) {
        yield text;
        continue;
      }
      const cells = splitCsvLine(text.text, delimiter);
      if (!indexes) {
        // the first line that is not blank is the header
        const header = cells instanceof Error ? [] : cells.map((c) => c.toLowerCase());
        const missing = Object.values(settings.columns).filter(
          (name) => !header.includes(name.trim().toLowerCase()),
        );
        if (cells instanceof Error || missing.length > 0) {
          throw exportHeaderMismatch(text.line, missing, cells instanceof Error ? [] : cells);
        }
        indexes = Object.entries(settings.columns).map(([field, name]) => [
          field,
          header.indexOf(name.trim().toLowerCase()),
        ]);
        continue;
      }
      if (cells instanceof Error) {
        yield { kind: 'bad', line: text.line, reason: cells.message };
        continue;
      }
      const values: Record<string, string | undefined> = {};
      for (const [field, index] of indexes) values[field] = cells[index];
      yield toPunch(text.line, values, settings, describe);
    }
  };
}
