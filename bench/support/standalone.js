// What a bench stage run alone (npm run bench:cobros, bench:inventario, bench:cocina) has around
// it: a work folder, an embedded PostgreSQL of its own (or BENCH_DATABASE_URL: any server where
// the user may create databases), the stage's databases dropped before and after, and the
// clean-up: the work folder removed, or kept with the services' logs when the stage failed.
const { join } = require('node:path');
const { freePort, withClient } = require('./processes');

const DIST = join(__dirname, '..', '..', 'dist');

/** Drops every database whose name starts with `prefix`. */
function dropDatabases(serverUrl, prefix) {
  return withClient(serverUrl, async (c) => {
    const { rows } = await c.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) await c.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  });
}

/** A number as the stages' reports print it: English grouping, `digits` decimals. */
function fmt(n, digits = 0) {
  return n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * Runs `stage({serverUrl, work, atEnd})` alone. `atEnd(stop)` registers what must stop before
 * the databases are dropped (the stage's services), run last registered first. `settings` are
 * the embedded server's (e.g. track_commit_timestamp). Any error sets a non-zero exit code.
 */
async function runStandalone({ name, prefix, settings, stage }) {
  const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const work = mkdtempSync(join(tmpdir(), `comandas-bench-${name}-`));
  chmodSync(work, 0o755);
  const stops = [];
  let embedded;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  try {
    if (!serverUrl) {
      const { EmbeddedPostgres } = require(join(DIST, 'database', 'embedded-postgres'));
      embedded = new EmbeddedPostgres({
        dataDir: join(work, 'pg'),
        port: await freePort(),
        ...(settings ? { settings } : {}),
      });
      serverUrl = (await embedded.start()).adminUrl;
    }
    await dropDatabases(serverUrl, prefix);
    await stage({ serverUrl, work, atEnd: (stop) => stops.push(stop) });
  } catch (error) {
    process.exitCode = 1;
    throw error;
  } finally {
    for (const stop of stops.reverse()) await stop();
    if (!embedded && serverUrl) await dropDatabases(serverUrl, prefix).catch(() => undefined);
    await embedded?.stop();
    if (process.exitCode) {
      rmSync(join(work, 'pg'), { recursive: true, force: true });
      console.error(`The services' logs are kept in ${work}`);
    } else rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Copies the CPU profile the stopped service wrote in `dir` to the temporary folder as `name`
 * and prints where the service's time went.
 */
function printProfile(dir, name) {
  const { copyFileSync, readdirSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { summariseProfile } = require('./cpu-profile');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const kept = join(tmpdir(), name);
  copyFileSync(join(dir, file), kept);
  console.log(`\n## Where the service's time goes (CPU profile of the stage: ${kept})\n`);
  console.log(summariseProfile(kept));
}

/** `main` as a script's entry point: an error is printed and the process exits 1. */
function runMain(main) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { dropDatabases, fmt, printProfile, runMain, runStandalone };
