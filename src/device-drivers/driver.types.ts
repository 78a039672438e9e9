/**
 * Device drivers (docs/device-drivers.md). A driver is a directory with a `manifest.json`; the
 * manifest's extra properties configure one of the built-in record formats (column order,
 * in/out status mapping ...), so most clocks need no code. Every transport ends in the store
 * function import_asistencia.
 */

export const TRANSPORTS = ['file', 'tcp', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** The manifest (docs/api-contract.md); additional properties are a driver's own settings. */
export interface DriverManifest {
  vendor: string;
  model: string;
  transport: Transport;
  capabilities?: string[];
  version: string;
  [setting: string]: unknown;
}

/** A violation of the manifest schema: where (JSON pointer, '' for the root) and why. */
export interface ManifestError {
  path: string;
  message: string;
}

export type Modo = 'entrada' | 'salida';

/**
 * A punch as import_asistencia takes it (docs/rpc.md): local wall-clock date and time, the in/out
 * mode when the clock knows it; a driver adds its raw fields (device id, verify mode ...), which
 * are kept in asistencia_detalle.datos.
 */
export interface PunchRecord {
  doc: string;
  fecha: string; // YYYY-MM-DD
  hora: string; // HH:MM:SS
  modo?: Modo;
  [raw: string]: unknown;
}

/** One line of an export: a punch, or a bad line with its 1-based number and the reason. */
export type ParsedLine =
  | { kind: 'record'; line: number; record: PunchRecord }
  | { kind: 'bad'; line: number; reason: string };

/** What a parser reads: a byte stream (file, upload) or text chunks (a push body). */
export type RecordInput = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/**
 * The push and file transports: reads an export line by line, never the whole of it in memory.
 * Blank lines are skipped (they still count in line numbers); each bad line is reported.
 */
export type RecordParser = (input: RecordInput) => AsyncIterable<ParsedLine>;

/**
 * The pull transport (`tcp`): the server connects to the clock, reads its records and
 * disconnects. A tcp driver implements this interface and hands `records()` to
 * AttendanceImporter.importRecords, the same path the file and push transports take.
 * None ships built in (docs/device-drivers.md, "Pull drivers").
 */
export interface PullDriver {
  connect(options: { host: string; port: number; timeoutMs: number }): Promise<PullSession>;
}

export interface PullSession {
  /** The clock's attendance records, oldest first, as a stream (a bad one as `kind: 'bad'`). */
  records(): AsyncIterable<ParsedLine>;
  close(): Promise<void>;
}
