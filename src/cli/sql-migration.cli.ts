import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TENANT_MIGRATIONS } from '../database/migrations/tenant';
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
one (docs/sql.md): src/database/migrations/tenant/<timestamp>-<name>.ts, with the text each
changed file has now (a later change of the file is another migration), and appends it to
TENANT_MIGRATIONS (src/database/migrations/tenant/index.ts). Its down puts the previous text
back and drops what it added. <name> is kebab-case: money-rules.

Exit code 0 when written, or when no file changed (nothing is written); 2 on wrong usage.`;

/** The project's folder: dist/cli/ is two levels under it, as src/cli/ is. */
const ROOT = resolve(__dirname, '..', '..');
const TENANT_DIR = join(ROOT, 'src', 'database', 'migrations', 'tenant');

/** Timestamps only grow: now, or just after the newest migration if that is later. */
function nextTimestamp(): number {
  const newest = Math.max(
    ...TENANT_MIGRATIONS.map((migration) => Number(/(\d{13})$/.exec(migration.name)?.[1] ?? 0)),
  );
  return Math.max(Date.now(), newest + 1);
}

/** index.ts with the new migration imported and appended to TENANT_MIGRATIONS. */
function withMigrationListed(index: string, className: string, file: string): string {
  const lastImport = index.lastIndexOf('\nimport ');
  const importEnd = index.indexOf('\n', lastImport + 1);
  const listEnd = index.lastIndexOf('];');
  if (lastImport < 0 || listEnd < 0) {
    throw new Error('src/database/migrations/tenant/index.ts: no import or no TENANT_MIGRATIONS');
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
      TENANT_MIGRATIONS.map((migration) => migration as unknown as SqlSourceMigration),
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
    const path = join(TENANT_DIR, `${file}.ts`);
    writeFileSync(path, await formatted(path, renderSqlMigration(className, plan, summary)), {
      flag: 'wx',
    });
    const indexPath = join(TENANT_DIR, 'index.ts');
    writeFileSync(
      indexPath,
      await formatted(
        indexPath,
        withMigrationListed(readFileSync(indexPath, 'utf8'), className, file),
      ),
    );
    out(`Wrote src/database/migrations/tenant/${file}.ts (${className}), listed in index.ts:`);
    for (const entry of plan.entries)
      out(`  ${entry.removed ? 'removes' : 'applies'} ${entry.path}`);
    return 0;
  },
});
