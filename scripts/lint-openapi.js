#!/usr/bin/env node
/**
 * `npm run lint:openapi`: lints the OpenAPI document of every configuration whose document
 * differs (AUTH_MODE off / jwt, features off / on) with Redocly's recommended rules
 * (redocly.yaml), without a database. The npm script compiles src/ first (build:js); the
 * documents come from dist/cli/openapi-export.js, which builds the real AppModule in
 * Nest's preview mode. Fails on any problem, error or warning (docs/openapi.md).
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const exporter = join(root, 'dist', 'cli', 'openapi-export.js');
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

function run(args, env = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return result;
}

/** Builds the documents into `dir` and lints them: true when there is no problem. */
function lintDocuments(dir) {
  const exported = run([exporter, dir]);
  if (exported.status !== 0) {
    process.stderr.write(exported.stdout + exported.stderr);
    process.stderr.write('lint:openapi: the documents could not be built\n');
    return false;
  }
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
  const lint = run([redocly, 'lint', '--config', join(root, 'redocly.yaml'), ...files], {
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  });
  process.stdout.write(lint.stdout + lint.stderr);
  // Redocly fails on errors only; like eslint --max-warnings 0, a warning fails too.
  const warnings = /You have (\d+) warnings?/.exec(lint.stdout + lint.stderr);
  if (lint.status !== 0 || warnings) {
    const what = lint.status !== 0 ? 'errors' : `${warnings[1]} warning(s)`;
    process.stderr.write(`lint:openapi: ${what} in the OpenAPI documents\n`);
    return false;
  }
  process.stdout.write(`lint:openapi: ${files.length} documents, no problem\n`);
  return true;
}

const dir = mkdtempSync(join(tmpdir(), 'comandas-openapi-'));
try {
  if (!lintDocuments(dir)) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
