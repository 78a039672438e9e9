import type { ParsedLine, RecordInput } from '../driver.types';
import {
  columnsSchema,
  STATUS_MAP_SCHEMA,
  toPunch,
  type RecordFormatSettings,
} from './punch-fields';
import { contentLines, ENCODINGS } from './read-lines';

/**
 * ZKTeco attendance logs: the USB export `attlog.dat` and the ATTLOG lines a clock pushes
 * (ADMS / iClock). One punch per line, fields separated by a tab, the PIN padded with spaces on
 * some firmware:
 *
 *     40000001<TAB>2026-03-02 08:00:12<TAB>1<TAB>0<TAB>1<TAB>0
 *     PIN          date-time              device status verify work code   (USB export)
 *     PIN          date-time              status verify work code ...      (push)
 *
 * The column order differs between firmware and transports, so it comes from the manifest.
 */
export interface ZkAttlogSettings extends RecordFormatSettings<number> {
  /** Columns by 0-based index; a tab separates them by default; the status map turns the
   * clock's status (0 check-in, 1 check-out, 4 overtime-in, 5 overtime-out ...) into modo. */
  format: 'zk-attlog';
}

export const ZK_ATTLOG_SETTINGS_SCHEMA = {
  type: 'object',
  required: ['format', 'columns'],
  properties: {
    format: { const: 'zk-attlog' },
    delimiter: { type: 'string', minLength: 1, maxLength: 1 },
    encoding: { type: 'string', enum: [...ENCODINGS] },
    columns: columnsSchema({ type: 'integer', minimum: 0, maximum: 255 }, '0-based column index'),
    statusMap: STATUS_MAP_SCHEMA,
  },
} as const;

export function createZkAttlogParser(settings: ZkAttlogSettings) {
  const delimiter = settings.delimiter ?? '\t';
  const columns = Object.entries(settings.columns);
  const describe = (field: string) => `${field} (column ${settings.columns[field] + 1})`;

  return async function* parseZkAttlog(input: RecordInput): AsyncGenerator<ParsedLine> {
    for await (const text of contentLines(input, settings.encoding)) {
      if ('kind' in text) {
        yield text;
        continue;
      }
      const cells = text.text.split(delimiter);
      const values: Record<string, string | undefined> = {};
      for (const [field, index] of columns) values[field] = cells[index]?.trim();
      yield toPunch(text.line, values, settings, describe);
    }
  };
}
