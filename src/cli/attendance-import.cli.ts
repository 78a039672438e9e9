import 'reflect-metadata';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AttendanceFilesService } from '../device-drivers/attendance-files.service';
import type { ImportSummary } from '../device-drivers/attendance-importer';
import { TenantContext } from '../tenancy/tenant-context';
import { defineCli, out, UsageError } from './cli-support';

const USAGE = `Usage: npm run asistencia:import -- --tenant <slug> --driver <name> --file <path> [--json]

Streams a time-clock export through a file driver's parser into the tenant's attendance
(import_asistencia), in batches; origen is the file's name. Importing the same file again
inserts nothing. A progress bar is drawn on a terminal; the summary is printed at the end
(--json: as JSON). Exit code 0 when the import ran (bad lines and unknown documents are in the
summary), 1 on failure (database unreachable ...), 2 on wrong usage or a refused request
(unknown tenant or driver, a CSV header without the driver's columns).`;

const BAR_WIDTH = 30;

/** "1 punch", "2 punches", "0 lines". */
function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function progressBar(done: number, total: number): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%`;
}

function report(s: ImportSummary): string[] {
  const listed = (items: string[], total: number) =>
    items.length === 0 ? '' : ` (${items.slice(0, 20).join(', ')}${total > 20 ? ', ...' : ''})`;
  return [
    `Imported ${s.origen} with driver ${s.driver}`,
    `  read                ${s.read}`,
    `  inserted            ${s.inserted}`,
    `  duplicates          ${s.duplicates}`,
    `  unknown documents   ${s.unknownDocuments.length}${listed(s.unknownDocuments, s.unknownDocuments.length)}, ${count(s.unknownDocumentPunches, 'punch', 'punches')} not stored`,
    `  bad lines           ${s.badLineCount}`,
    ...s.badLines.slice(0, 20).map((b) => `    line ${b.line}: ${b.reason}`),
    ...(s.badLineCount > 20
      ? [`    ... and ${s.badLineCount - 20} more (--json lists ${s.badLines.length})`]
      : []),
    `  work days re-paired ${s.daysRecalculated}`,
  ];
}

defineCli({
  usage: USAGE,
  options: {
    tenant: { type: 'string' },
    driver: { type: 'string' },
    file: { type: 'string' },
    json: { type: 'boolean' },
  },
  run: async ({ values, positionals, withApp }) => {
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const { tenant, driver, file } = values;
    if (!tenant || !driver || !file)
      throw new UsageError('--tenant, --driver and --file are required');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`${file} is not a readable file`);

    return withApp(async (app) => {
      const tty = process.stderr.isTTY === true;
      const draw = (summary: ImportSummary, bytes: number) =>
        process.stderr.write(
          `\r${progressBar(bytes, info.size)}  ${count(summary.read, 'line')}, ${summary.inserted} new`,
        );
      const summary = await app
        .get(TenantContext)
        .run(tenant, () =>
          app
            .get(AttendanceFilesService)
            .importFile(file, driver, basename(file), tty ? draw : undefined),
        );
      if (tty) {
        draw(summary, info.size);
        process.stderr.write('\n');
      }
      if (values.json) out(JSON.stringify(summary, null, 2));
      else report(summary).forEach((line) => out(line));
      return 0;
    });
  },
});
