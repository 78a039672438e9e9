/**
 * npm run bench:start — how long `npm start` takes to print its banner.
 *
 * Runs `npm start` on a data directory of its own (embedded PostgreSQL, demo tenant): once on
 * an empty directory (first start: initdb, demo data), then RUNS warm starts, each stopped with
 * Ctrl-C (SIGINT) before the next. The time is from spawning `npm start` to the banner's
 * "is listening on" line, which is what a person at the terminal waits for. The build is
 * already up to date (the runner compiles only when a source changed). Prints one line per run
 * and the median of the warm ones.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { setTimeout, clearTimeout } = require('node:timers');

const { freePort } = require('./support/processes');

const RUNS = Number(process.env.RUNS ?? 7);
const root = join(__dirname, '..');

/** Starts npm start, resolves with the milliseconds to the banner once it has stopped again. */
function startOnce(env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let elapsed;
    const onData = (chunk) => {
      output += chunk.toString();
      if (elapsed === undefined && output.includes('is listening on')) {
        elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (elapsed === undefined)
        reject(new Error(`npm start exited ${code} before its banner:\n${output}`));
      else resolve(elapsed);
    });
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'comandas-bench-start-'));
  const env = {
    ...process.env,
    EMBEDDED_PG_DATA_DIR: join(dir, 'postgres'),
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  try {
    // the runner compiles when sources changed: make sure that is not measured
    const build = spawn('npm', ['run', '-s', 'build:js'], { cwd: root, stdio: 'inherit' });
    await new Promise((resolve) => build.on('close', resolve));
    const first = await startOnce(env);
    console.log(`first start (initdb, demo tenant): ${first.toFixed(0)} ms`);
    const warm = [];
    for (let i = 1; i <= RUNS; i += 1) {
      const ms = await startOnce(env);
      warm.push(ms);
      console.log(`warm start ${i}: ${ms.toFixed(0)} ms`);
    }
    const sorted = [...warm].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `warm starts: median ${median.toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (${RUNS} runs)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
