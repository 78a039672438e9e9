import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import '../modules';
import { migrationTimestamp, tenantMigrations } from '../database/migrations/module-migrations';
import {
  migrationClassName,
  planSqlMigration,
  readSqlFiles,
  recordedSqlSource,
  renderSqlMigration,
  type SqlSourceMigration,
} from '../database/sql-source';
import { defineCli, out, UsageError } from './cli-support';

const USAGE = `Usage: npm run sql:migration -- <name> [--summary "<what the change does>"]

Writes the tenant migration that applies the files of src/<module>/sql/ changed since the last
one (docs/sql.md), with the text each changed file has now (a later change of the file is
another migration), and lists it: when every changed file is of one module that keeps its own
migrations (src/<module>/migrations/index.ts), in that folder and that list; otherwise in
src/database/migrations/tenant/ and its index.ts. Its down puts the previous text back and drops
what it added. <name> is kebab-case: money-rules.

Exit code 0 when written, or when no file changed (nothing is written); 2 on wrong usage.`;

/** The project's folder: dist/cli/ is two levels under it, as src/cli/ is. */
const ROOT = resolve(__dirname, '..', '..');
const SHARED_DIR = join(ROOT, 'src', 'database', 'migrations', 'tenant');

/** Timestamps only grow: now, or just after the newest migration if that is later. */
function nextTimestamp(): number {
  const newest = Math.max(...tenantMigrations().map(migrationTimestamp));
  return Math.max(Date.now(), newest + 1);
}

/**
 * Where the migration goes: the folder of the one module whose files changed, when it keeps its
 * own migrations; else the shared folder.
 */
function migrationsFolder(paths: readonly string[]): string {
  const modules = new Set(paths.map((path) => path.split('/')[1]));
  if (modules.size === 1) {
    const own = join(ROOT, 'src', [...modules][0], 'migrations');
    if (existsSync(join(own, 'index.ts'))) return own;
  }
  return SHARED_DIR;
}

/** index.ts with the new migration imported and appended to its list (the file's last array). */
function withMigrationListed(index: string, className: string, file: string): string {
  const lastImport = index.lastIndexOf('\nimport ');
  const importEnd = index.indexOf('\n', lastImport + 1);
  const listEnd = index.lastIndexOf('];');
  if (lastImport < 0 || listEnd < 0) {
    throw new Error('the migrations folder’s index.ts has no import or no list');
  }
  return (
    index.slice(0, importEnd + 1) +
    `import { ${className} } from './${file}';\n` +
    index.slice(importEnd + 1, listEnd) +
    `  ${className},\n` +
    index.slice(listEnd)
  );
}

/** Prettier's layout for the written files, when prettier is installed (it is a dev tool). */
async function formatted(path: string, text: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(path)) ?? {};
    return await prettier.format(text, { ...options, filepath: path });
  } catch {
    return text;
  }
}

defineCli({
  usage: USAGE,
  options: { summary: { type: 'string' } },
  // files only: no database, no application context
  run: async ({ positionals, values }) => {
    const [name, ...rest] = positionals;
    if (!name || rest.length > 0) throw new UsageError('Give one name, like money-rules');
    let base: string;
    try {
      base = migrationClassName(name);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const recorded = recordedSqlSource(
      tenantMigrations().map((migration) => migration as unknown as SqlSourceMigration),
    );
    const plan = planSqlMigration(readSqlFiles(ROOT), recorded);
    if (plan === null) {
      out('No file of src/*/sql/ changed since the last migration: nothing written.');
      return 0;
    }
    const timestamp = nextTimestamp();
    const className = `${base}${timestamp}`;
    const file = `${timestamp}-${name}`;
    const summary =
      values.summary ??
      `${base.replace(/([a-z])([A-Z])/g, '$1 $2')}: the files of src/<module>/sql/ changed since the last migration.`;
    const folder = migrationsFolder(plan.entries.map((entry) => entry.path));
    const path = join(folder, `${file}.ts`);
    writeFileSync(path, await formatted(path, renderSqlMigration(className, plan, summary)), {
      flag: 'wx',
    });
    const indexPath = join(folder, 'index.ts');
    writeFileSync(
      indexPath,
      await formatted(
        indexPath,
        withMigrationListed(readFileSync(indexPath, 'utf8'), className, file),
      ),
    );
    out(`Wrote ${relative(ROOT, path)} (${className}), listed in index.ts:`);
    for (const entry of plan.entries)
      out(`  ${entry.removed ? 'removes' : 'applies'} ${entry.path}`);
    return 0;
  },
});
