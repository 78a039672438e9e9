import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { RpcRepository } from '../rpc/rpc.repository';
import type { ParsingDriver } from './driver-registry';
import type { ParsedLine, PunchRecord, RecordInput } from './driver.types';

/** At most this many bad lines and unknown documents are listed one by one (all are counted). */
export const MAX_LISTED = 1_000;

/**
 * What an import did. Nothing is lost silently:
 * read = inserted + duplicates + unknownDocumentPunches + badLineCount.
 */
export interface ImportSummary {
  driver: string;
  origen: string;
  /** Lines that are not blank: each is a punch or a bad line. */
  read: number;
  /** Well-formed punches sent to import_asistencia. */
  punches: number;
  inserted: number;
  /** Punches already stored (an earlier import, or twice in this one). */
  duplicates: number;
  /** Documents that match no user (the first MAX_LISTED, in order of appearance). */
  unknownDocuments: string[];
  /** Punches of those documents, not stored. */
  unknownDocumentPunches: number;
  badLineCount: number;
  /** The first MAX_LISTED bad lines, by line number. */
  badLines: { line: number; reason: string }[];
  /** Person-work days whose intervals and daily summary were rebuilt. */
  daysRecalculated: number;
}

/** The result of the store function import_asistencia (tenant migrations). */
interface ImportResult {
  recibidos?: number;
  insertados?: number;
  duplicados?: number;
  desconocidos?: string[];
  invalidos?: { indice: number; motivo: string }[];
  dias_recalculados?: number;
}

/**
 * Every transport ends here (docs/device-drivers.md): parsed lines are sent to the store function
 * import_asistencia in batches of IMPORT_BATCH_SIZE punches, each batch its own transaction,
 * so memory stays flat whatever the file's size and an interrupted import is finished by running
 * it again (the store function skips the punches already stored). While the database stores one
 * batch, the next one is read and parsed; batches are still sent one at a time, in file order.
 * Runs in the tenant context of the request, or of TenantContext.run.
 */
@Injectable()
export class AttendanceImporter {
  constructor(
    private readonly rpc: RpcRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Reads an export (file, upload, push body) with the driver's parser and imports it. */
  importExport(
    input: RecordInput,
    driver: ParsingDriver,
    origen: string,
    onProgress?: (summary: ImportSummary) => void,
  ): Promise<ImportSummary> {
    return this.importRecords(driver.parse(input), driver.name, origen, onProgress);
  }

  /** Imports parsed lines from any source: a parser, or a pull driver's session. */
  async importRecords(
    lines: AsyncIterable<ParsedLine>,
    driver: string,
    origen: string,
    onProgress?: (summary: ImportSummary) => void,
  ): Promise<ImportSummary> {
    const summary: ImportSummary = {
      driver,
      origen,
      read: 0,
      punches: 0,
      inserted: 0,
      duplicates: 0,
      unknownDocuments: [],
      unknownDocumentPunches: 0,
      badLineCount: 0,
      badLines: [],
      daysRecalculated: 0,
    };
    const unknown = new Set<string>();
    const bad = (line: number, reason: string) => {
      summary.badLineCount += 1;
      if (summary.badLines.length < MAX_LISTED) summary.badLines.push({ line, reason });
    };
    let batch: PunchRecord[] = [];
    let batchLines: number[] = [];
    /** The batch the database is storing, if any (at most one at a time). */
    let sending: Promise<void> = Promise.resolve();

    const send = async (records: PunchRecord[], lineNumbers: number[]) => {
      const result = ((await this.rpc.call('import_asistencia', [records, origen])) ??
        {}) as ImportResult;
      const inserted = result.insertados ?? 0;
      const duplicates = result.duplicados ?? 0;
      const invalid = result.invalidos ?? [];
      summary.inserted += inserted;
      summary.duplicates += duplicates;
      summary.unknownDocumentPunches += records.length - inserted - duplicates - invalid.length;
      summary.daysRecalculated += result.dias_recalculados ?? 0;
      for (const doc of result.desconocidos ?? []) if (unknown.size < MAX_LISTED) unknown.add(doc);
      // the parsers check what the store function checks; should it still refuse a record,
      // it is a bad line of the file like any other
      for (const { indice, motivo } of invalid) bad(lineNumbers[indice] ?? 0, motivo);
      onProgress?.(summary);
    };

    /** Sends the batch once the previous one is stored; does not wait for it to be stored. */
    const flush = async () => {
      if (batch.length === 0) return;
      const [records, lineNumbers] = [batch, batchLines];
      batch = [];
      batchLines = [];
      await sending; // a failed batch stops the import here
      sending = send(records, lineNumbers);
      sending.catch(() => undefined); // its failure is thrown where it is awaited
    };

    try {
      for await (const parsed of lines) {
        summary.read += 1;
        if (parsed.kind === 'bad') {
          bad(parsed.line, parsed.reason);
          continue;
        }
        summary.punches += 1;
        batch.push(parsed.record);
        batchLines.push(parsed.line);
        if (batch.length >= this.config.IMPORT_BATCH_SIZE) await flush();
      }
      await flush();
    } finally {
      // whatever stopped the reading, no batch is left running behind the caller's back
      await sending.catch(() => undefined);
    }
    await sending;
    summary.unknownDocuments = [...unknown];
    summary.badLines.sort((a, b) => a.line - b.line);
    return summary;
  }
}
