import type { RecordParser } from '../driver.types';
import { createCsvParser, CSV_SETTINGS_SCHEMA, type CsvSettings } from './csv';
import {
  createZkAttlogParser,
  ZK_ATTLOG_SETTINGS_SCHEMA,
  type ZkAttlogSettings,
} from './zk-attlog';

/** A record format and its settings, as a driver reads its clock's records with them. */
export type RecordFormatConfig = { format: RecordFormatName; [setting: string]: unknown };

/**
 * The record formats a `file` or `http` driver may name in its manifest (`format`), each with
 * the JSON Schema of its settings (checked when a driver loads) and its streaming parser.
 */
export const RECORD_FORMATS = {
  'zk-attlog': {
    settingsSchema: ZK_ATTLOG_SETTINGS_SCHEMA,
    create: (config: RecordFormatConfig): RecordParser =>
      createZkAttlogParser(config as unknown as ZkAttlogSettings),
  },
  csv: {
    settingsSchema: CSV_SETTINGS_SCHEMA,
    create: (config: RecordFormatConfig): RecordParser =>
      createCsvParser(config as unknown as CsvSettings),
  },
} as const;

export type RecordFormatName = keyof typeof RECORD_FORMATS;
export const FORMAT_NAMES = Object.keys(RECORD_FORMATS) as RecordFormatName[];

/** ZKTeco status codes: 0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 / 5 overtime in / out. */
const ZK_STATUS_MAP = {
  '0': 'entrada',
  '1': 'salida',
  '2': 'salida',
  '3': 'entrada',
  '4': 'entrada',
  '5': 'salida',
} as const;

/**
 * The record format a driver that names none is read with, by transport: a `file` driver reads
 * the USB export attlog.dat of ZKTeco clocks, an `http` driver the ATTLOG lines they push (the
 * settings of the built-in drivers zkteco-attlog and zkteco-push). Settings the manifest gives
 * itself (columns, delimiter ...) take precedence over these.
 */
export const DEFAULT_RECORD_FORMATS = {
  file: {
    label: 'the ZKTeco attlog.dat layout',
    config: {
      format: 'zk-attlog',
      delimiter: '\t',
      columns: { doc: 0, datetime: 1, device: 2, status: 3, verify: 4, workcode: 5 },
      statusMap: ZK_STATUS_MAP,
    },
  },
  http: {
    label: 'the ZKTeco push ATTLOG layout',
    config: {
      format: 'zk-attlog',
      delimiter: '\t',
      columns: { doc: 0, datetime: 1, status: 2, verify: 3, workcode: 4 },
      statusMap: ZK_STATUS_MAP,
    },
  },
} as const satisfies Record<'file' | 'http', { label: string; config: RecordFormatConfig }>;

/** The parser of a record format whose settings were checked (validateDriverManifest). */
export function createParser(config: RecordFormatConfig): RecordParser {
  return RECORD_FORMATS[config.format].create(config);
}
