import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The direction of the arrows between folders (docs/adding-a-module.md): feature modules use
 * src/common and src/database, never the other way round, so a new module never has to touch
 * them and they never pull a module in; and no import cycle, between folders or within one.
 * Checked on the real import statements.
 */
const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The files of src/ a file imports (relative imports, resolved), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
    (m) => m[1],
  );
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)));
}

const under = (folder: string) => (path: string) => path.split('/')[0] === folder;

/** The source file an import names (`x` is `x.ts`, or the folder's `x/index.ts`), under src/. */
function fileOf(target: string): string {
  return existsSync(join(SRC, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;
}

/**
 * Every import cycle among the files of src/, type-only imports included (a type that two
 * files need belongs to a third, or to the one that owns it): each one as the path of files
 * that closes it, found by a depth-first walk of the import graph.
 */
function importCycles(): string[] {
  const graph = new Map(
    sourceFiles(SRC).map((file) => [relative(SRC, file), importsOf(file).map(fileOf)]),
  );
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      cycles.push([...path.slice(at), file].join(' -> '));
      return;
    }
    if (done.has(file) || !graph.has(file)) return;
    path.push(file);
    for (const next of graph.get(file)!) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}

describe('the arrows between folders', () => {
  it.each([
    ['common', ['common']],
    ['database', ['common', 'database']],
    // the generic routes serve other modules' tables without importing those modules: the
    // tables a module keeps rules on are read-only there (allowed-tables.ts, MODULE_OWNED)
    ['generic-tables', ['common', 'database', 'tenancy', 'auth', 'generic-tables']],
  ])('src/%s imports only from %j', (folder, allowed) => {
    const offending = sourceFiles(join(SRC, folder)).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.some((a) => under(a)(target)))
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('keeps the tenant administration (and the demo data) off the request path', () => {
    const allowed = [
      'cli/',
      'tenancy/demo-tenant.ts',
      'tenancy/start-up-migrations.ts',
      'tenancy/tenant-admin.ts',
    ];
    const importers = sourceFiles(SRC)
      .filter((file) => importsOf(file).includes('tenancy/tenant-admin'))
      .map((file) => relative(SRC, file))
      .filter((file) => !allowed.some((a) => file.startsWith(a)));
    expect(importers).toEqual([]);
  });

  it('has no import cycle, not even through a type-only import', () => {
    expect(importCycles()).toEqual([]);
  });

  it('reads the tenant header in one place', () => {
    const readers = sourceFiles(SRC)
      .filter((file) => /TENANT_HEADER\]|'x-tenant-id'\]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['tenancy/tenant-context.middleware.ts']);
  });
});
