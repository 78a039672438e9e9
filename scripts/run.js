#!/usr/bin/env node
/**
 * `npm start` and the CLIs: `node scripts/run.js <entry in dist/> [args...]`.
 * `npm start` (main.js) also builds the back-office page (web/ → web/dist, npm run build:web)
 * when one of its sources changed since its last build.
 *
 * Compiles src/ to dist/ (npm run build:js, swc) only when a source file is newer than the last
 * build (`dist/.build-stamp`, written by build:js through `node scripts/run.js --stamp`), then
 * runs the entry point in this very process: a warm start costs no compiler and no
 * second npm, and signals reach the service directly. The entry sees its own arguments
 * (process.argv[2...]) as if it had been started with `node dist/<entry>`.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const dist = join(root, 'dist');
/** Written by each build (npm run build:js): when the sources were last compiled. */
const stamp = join(dist, '.build-stamp');

/** The newest modification time among the files that make dist/. */
function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (path.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  visit(join(root, 'src'));
  for (const file of ['.swcrc', 'package.json', 'package-lock.json']) {
    if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  }
  return newest;
}

/** The back-office page (web/, built by Vite into web/dist): its stamp and its sources. */
const webRoot = join(root, 'web');
const webStamp = join(webRoot, 'dist', '.build-stamp');

function newestWebSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'dist') visit(join(path, entry));
    } else if (!/\.spec\.ts$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  visit(webRoot);
  for (const file of ['package.json', 'package-lock.json']) {
    if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  }
  return newest;
}

function buildWebIfStale() {
  if (!existsSync(webRoot)) return;
  if (existsSync(webStamp) && statSync(webStamp).mtimeMs >= newestWebSource()) return;
  const build = spawnSync('npm', ['run', '-s', 'build:web'], {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (build.status !== 0) {
    process.stderr.write('The page build failed (npm run build:web): see the errors above.\n');
    process.exit(build.status ?? 1);
  }
}

function buildIfStale() {
  if (entry === 'main.js') buildWebIfStale();
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource()) return;
  // the build's own output goes to stderr: stdout stays the command's (npm run -s token)
  const build = spawnSync('npm', ['run', '-s', 'build:js'], {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (build.status !== 0) {
    process.stderr.write('The build failed (npm run build:js): see the errors above.\n');
    process.exit(build.status ?? 1);
  }
}

/**
 * Removes what an earlier build compiled from a source file that no longer exists (a renamed
 * CLI, a moved module), so that dist/ holds exactly what src/ makes and nothing can import or
 * run a stale copy.
 */
function pruneOrphans() {
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      const match = /^(.*)\.js(\.map)?$/.exec(relative(dist, path));
      if (!match) continue;
      if (!existsSync(join(root, 'src', `${match[1]}.ts`))) rmSync(path);
    }
  };
  visit(dist);
}

const entry = process.argv[2];
if (entry === '--stamp-web') {
  writeFileSync(webStamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}
if (entry === '--stamp') {
  pruneOrphans();
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}
if (!entry) {
  process.stderr.write('Usage: node scripts/run.js <entry in dist/, e.g. main.js> [args...]\n');
  process.exit(2);
}
buildIfStale();
const target = join(dist, entry);
process.argv.splice(1, 2, target);
process.setSourceMapsEnabled(true);
require(target);
