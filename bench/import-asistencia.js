// Attendance import benchmark: the user's paths, measured.
//   1. parse  : a 1,000,000-line attlog.dat through the zk-attlog parser alone (no database):
//               lines/s and the process's peak RSS, against the file's size (streaming proof).
//   2. import : npm run asistencia:import of 100,000 punches (200 people x 250 days x 2) into a
//               tenant, as a child process: wall time, punches/s, its peak RSS.
//   3. again  : the same file a second time: nothing inserted (all duplicates), wall time.
// Usage: npm run bench:import   (BENCH_DATABASE_URL=postgres://... to use an existing server;
// BENCH_PARSE_LINES, BENCH_PEOPLE, BENCH_DAYS, IMPORT_BATCH_SIZE to change the volume;
// BENCH_IMPORT_DIGEST=1 to also print an md5 of the stored rows and of the import counts, equal
// whenever two versions of the code store the same rows; BENCH_IMPORT_DUMP=<dir> to also write
// those rows there, one file per table, for a diff)
// Linux only: the child's peak RSS is read from /proc/<pid>/status (VmHWM).
require('reflect-metadata');
const { spawn } = require('node:child_process');
const {
  createWriteStream,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  statSync,
  chmodSync,
} = require('node:fs');
const { createHash } = require('node:crypto');
const { once } = require('node:events');
const { setInterval, clearInterval } = require('node:timers');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const PARSE_LINES = Number(process.env.BENCH_PARSE_LINES ?? 1_000_000);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 200);
const DAYS = Number(process.env.BENCH_DAYS ?? 250);
const DIGEST = process.env.BENCH_IMPORT_DIGEST === '1' || Boolean(process.env.BENCH_IMPORT_DUMP);
const DUMP_DIR = process.env.BENCH_IMPORT_DUMP;
const TENANT = 'bench-asistencia';
const PREFIX = 'comandas_bench_';

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pad = (n, w = 2) => String(n).padStart(w, '0');

/** attlog.dat lines as the USB export writes them, streamed to disk. */
async function writeAttlog(path, lines) {
  const out = createWriteStream(path);
  const day0 = Date.UTC(2025, 0, 1);
  let written = 0;
  for (const line of lines(day0)) {
    if (!out.write(line)) await once(out, 'drain');
    written += 1;
  }
  out.end();
  await once(out, 'finish');
  return written;
}

/** Two punches (in, out) a day for each person: a generator of attlog.dat lines from day0. */
const punches = (people, days) =>
  function* (day0) {
    for (let d = 0; d < days; d += 1) {
      const date = new Date(day0 + d * 86400e3).toISOString().slice(0, 10);
      for (let p = 0; p < people; p += 1) {
        const doc = `7${pad(p + 1, 7)}`;
        const inMin = (p * 7) % 60;
        yield `${doc}\t${date} 08:${pad(inMin)}:00\t1\t0\t1\t0\r\n`;
        yield `${doc}\t${date} 17:${pad((inMin + 13) % 60)}:00\t1\t1\t1\t0\r\n`;
      }
    }
  };

/**
 * What import_asistencia stores, one text line per row in key order, without the surrogate ids
 * (id_raw, id_intervalo: a punch is named by its person, date and time) and the insert
 * timestamps (created_at, updated_at).
 */
const STORED_ROWS = {
  punches: `
    SELECT (u.documento, d.fecha, d.hora, d.modo, d.origen, d.datos)::text AS line
      FROM asistencia_detalle d JOIN usuarios u USING (id_usuario)
     ORDER BY u.documento, d.fecha, d.hora`,
  intervals: `
    SELECT (u.documento, i.fecha_trabajo, i.entrada, i.salida, i.minutos,
            e.fecha + e.hora, s.fecha + s.hora)::text AS line
      FROM asistencia_intervalo i
      JOIN usuarios u USING (id_usuario)
      LEFT JOIN asistencia_detalle e ON e.id_raw = i.id_raw_entrada
      LEFT JOIN asistencia_detalle s ON s.id_raw = i.id_raw_salida
     ORDER BY u.documento, i.entrada`,
  'daily summaries': `
    SELECT (u.documento, r.fecha_trabajo, r.minutos, r.intervalos, r.marcas, r.incompleto)::text
           AS line
      FROM asistencia_resumen_diario r JOIN usuarios u USING (id_usuario)
     ORDER BY u.documento, r.fecha_trabajo`,
};

/** The counts of the CLI's summary that the digest covers. */
const COUNTED = [
  'read',
  'punches',
  'inserted',
  'duplicates',
  'unknownDocumentPunches',
  'badLineCount',
  'daysRecalculated',
];

/** md5 and row count of each table of STORED_ROWS (and the rows to BENCH_IMPORT_DUMP). */
async function storedDigest(client, results) {
  const digests = [];
  if (DUMP_DIR) mkdirSync(DUMP_DIR, { recursive: true });
  for (const [table, sql] of Object.entries(STORED_ROWS)) {
    const { rows } = await client.query(sql);
    const text = rows.map((r) => `${r.line}\n`).join('');
    digests.push(`${table} ${rows.length} ${createHash('md5').update(text).digest('hex')}`);
    if (DUMP_DIR) writeFileSync(join(DUMP_DIR, `${table.replace(' ', '-')}.txt`), text);
  }
  const json = JSON.stringify(results);
  digests.push(`import results ${createHash('md5').update(json).digest('hex')}`);
  if (DUMP_DIR) writeFileSync(join(DUMP_DIR, 'import-results.json'), `${json}\n`);
  return digests;
}

function* take(lines, count) {
  let n = 0;
  for (const line of lines) {
    if (n++ >= count) return;
    yield line;
  }
}

/** Runs a node script; resolves with its exit code, output, wall time and peak RSS. */
function run(script, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        // the process is gone
      }
    };
    const timer = setInterval(sample, 20);
    child.on('error', reject);
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0)
        reject(new Error(`${script} ${args.join(' ')} exited ${code}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr, ms, peak });
    });
  });
}

const PARSE_ONLY = `
  const { createReadStream } = require('node:fs');
  const { DriverRegistry } = require(${JSON.stringify(join(DIST, 'device-drivers', 'driver-registry'))});
  (async () => {
    const driver = (await DriverRegistry.load()).get('zkteco-attlog');
    const started = process.hrtime.bigint();
    let records = 0, bad = 0;
    for await (const line of driver.parse(createReadStream(process.argv[1]))) line.kind === 'record' ? records++ : bad++;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(JSON.stringify({ records, bad, ms, maxRss: process.resourceUsage().maxRSS * 1024 }));
  })();`;

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'comandas-bench-import-'));
  chmodSync(work, 0o755);
  let embedded;
  try {
    // 1. parse
    const big = join(work, 'attlog-1m.dat');
    const bigLines = await writeAttlog(big, (day0) =>
      take(punches(PEOPLE, Math.ceil(PARSE_LINES / PEOPLE / 2))(day0), PARSE_LINES),
    );
    const parsed = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', PARSE_ONLY, big], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`parse exited ${code}`)),
      );
    });
    if (parsed.records !== bigLines)
      throw new Error(`parsed ${parsed.records} of ${bigLines} lines`);

    // 2. and 3. import through the CLI, twice
    let serverUrl = process.env.BENCH_DATABASE_URL;
    if (!serverUrl) {
      const { EmbeddedPostgres } = require(join(DIST, 'database', 'embedded-postgres'));
      embedded = new EmbeddedPostgres({
        dataDir: join(work, 'pg'),
        port: 54398,
        settings: { fsync: 'off' },
      });
      serverUrl = (await embedded.start()).adminUrl;
    }
    const { withDatabase } = require(join(DIST, 'database', 'pg-url'));
    const controlUrl = withDatabase(serverUrl, `${PREFIX}control`);
    const env = {
      DATABASE_URL: controlUrl,
      TENANT_DB_PREFIX: PREFIX,
      LOG_LEVEL: 'warn',
      DEMO_TENANT: 'false',
    };
    const tenantCli = join(DIST, 'cli', 'tenant.cli.js');
    await run(tenantCli, ['drop', TENANT, '--yes'], env).catch(() => undefined);
    await run(tenantCli, ['create', TENANT, '--time-zone', 'America/Lima'], env);
    const tenant = new Client({ connectionString: withDatabase(serverUrl, `${PREFIX}${TENANT}`) });
    await tenant.connect();
    await tenant.query(
      `INSERT INTO usuarios (documento, nombre, apellido)
       SELECT '7' || lpad(n::text, 7, '0'), 'Persona ' || n, 'Bench' FROM generate_series(1, $1) n`,
      [PEOPLE],
    );
    const file = join(work, 'attlog.dat');
    const punchCount = await writeAttlog(file, punches(PEOPLE, DAYS));
    const importCli = join(DIST, 'cli', 'attendance-import.cli.js');
    const args = ['--tenant', TENANT, '--driver', 'zkteco-attlog', '--file', file, '--json'];
    const first = await run(importCli, args, env);
    const firstSummary = JSON.parse(first.stdout);
    const again = await run(importCli, args, env);
    const againSummary = JSON.parse(again.stdout);
    const { rows } = await tenant.query(
      `SELECT (SELECT count(*) FROM asistencia_detalle)::int AS punches,
              (SELECT count(*) FROM asistencia_intervalo)::int AS intervals,
              (SELECT count(*) FROM asistencia_resumen_diario)::int AS days`,
    );
    // the import's counts (origen and the lists are the same in every run, and empty)
    const counts = (summary) => Object.fromEntries(COUNTED.map((key) => [key, summary[key]]));
    const digest = DIGEST
      ? await storedDigest(tenant, { first: counts(firstSummary), again: counts(againSummary) })
      : undefined;
    await tenant.end();
    await run(tenantCli, ['drop', TENANT, '--yes'], env);
    if (firstSummary.inserted !== punchCount || againSummary.inserted !== 0) {
      throw new Error(`unexpected summaries: ${first.stdout} ${again.stdout}`);
    }

    const batch = process.env.IMPORT_BATCH_SIZE ?? '2000 (default)';
    console.log(
      `# Attendance import benchmark (${new Date().toISOString().slice(0, 10)}, node ${process.version}, batch ${batch})\n`,
    );
    console.log('| scenario | volume | wall time | throughput | peak RSS |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| parse only (zk-attlog) | ${bigLines.toLocaleString('en')} lines, ${mb(statSync(big).size)} | ${(parsed.ms / 1000).toFixed(2)} s | ${Math.round(bigLines / (parsed.ms / 1000)).toLocaleString('en')} lines/s | ${mb(parsed.maxRss)} |`,
    );
    console.log(
      `| import (CLI, first time) | ${punchCount.toLocaleString('en')} punches, ${PEOPLE} people x ${DAYS} days, ${mb(statSync(file).size)} | ${(first.ms / 1000).toFixed(2)} s | ${Math.round(punchCount / (first.ms / 1000)).toLocaleString('en')} punches/s | ${mb(first.peak)} |`,
    );
    console.log(
      `| import again (all duplicates) | ${punchCount.toLocaleString('en')} punches | ${(again.ms / 1000).toFixed(2)} s | ${Math.round(punchCount / (again.ms / 1000)).toLocaleString('en')} punches/s | ${mb(again.peak)} |`,
    );
    console.log(
      `\nStored: ${rows[0].punches} punches, ${rows[0].intervals} intervals, ${rows[0].days} daily summaries; second run: ${againSummary.inserted} inserted, ${againSummary.duplicates} duplicates.`,
    );
    console.log('Wall times of the CLI include its start (Nest context, connection) and end.');
    if (digest) {
      console.log('\nStored rows and import results (rows, md5; no surrogate ids, no timestamps):');
      for (const line of digest) console.log(`  ${line}`);
      if (DUMP_DIR) console.log(`Rows written to ${DUMP_DIR}.`);
    }
  } finally {
    await embedded?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
