// Processes and connections of the benchmarks: a node process logging to a file, a script run to
// its end, a free TCP port, a pg client for one piece of work.
const { spawn } = require('node:child_process');
const { closeSync, openSync, readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { setTimeout: sleep } = require('node:timers/promises');
const { Client } = require('pg');

/**
 * A node process writing to a log file (cheaper than a pipe for a service that logs every
 * request); `ready` resolves when `readyText` shows up in it.
 */
function start(script, args, childEnv, readyText, logFile, nodeArgs = []) {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...childEnv },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  let exitCode;
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
  const ready = (async () => {
    for (;;) {
      if (readFileSync(logFile, 'utf8').includes(readyText)) return;
      if (exitCode !== undefined)
        throw new Error(`${script} exited ${exitCode}:\n${readFileSync(logFile, 'utf8')}`);
      await sleep(50);
    }
  })();
  return {
    child,
    ready,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

function run(script, args, childEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...childEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${script} ${args.join(' ')}: ${output}`)),
    );
  });
}

/** A TCP port nothing listens on now (the kernel's pick). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function withClient(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

module.exports = { start, run, freePort, withClient };
