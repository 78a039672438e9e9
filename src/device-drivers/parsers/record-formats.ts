import type { DriverManifest, RecordParser } from '../driver.types';
import { createCsvParser, CSV_SETTINGS_SCHEMA, type CsvSettings } from './csv';
import {
  createZkAttlogParser,
  ZK_ATTLOG_SETTINGS_SCHEMA,
  type ZkAttlogSettings,
} from './zk-attlog';

/**
 * The record formats a `file` or `http` driver may name in its manifest (`format`), each with
 * the JSON Schema of its settings (checked when a driver loads) and its streaming parser.
 */
export const RECORD_FORMATS = {
  'zk-attlog': {
    settingsSchema: ZK_ATTLOG_SETTINGS_SCHEMA,
    create: (manifest: DriverManifest): RecordParser =>
      createZkAttlogParser(manifest as unknown as ZkAttlogSettings),
  },
  csv: {
    settingsSchema: CSV_SETTINGS_SCHEMA,
    create: (manifest: DriverManifest): RecordParser =>
      createCsvParser(manifest as unknown as CsvSettings),
  },
} as const;

export type RecordFormatName = keyof typeof RECORD_FORMATS;
export const FORMAT_NAMES = Object.keys(RECORD_FORMATS) as RecordFormatName[];

/**
 * The parser of a manifest that validateDriverManifest accepted; undefined for a driver that
 * names no format (a tcp driver reads its own protocol).
 */
export function createParser(manifest: DriverManifest): RecordParser | undefined {
  const format = manifest.format;
  if (typeof format !== 'string' || !Object.hasOwn(RECORD_FORMATS, format)) return undefined;
  return RECORD_FORMATS[format as RecordFormatName].create(manifest);
}
