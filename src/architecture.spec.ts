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

/** The imports among the files of src/, as paths under src/ (type-only imports included). */
function fileGraph(): Map<string, string[]> {
  return new Map(
    sourceFiles(SRC).map((file) => [relative(SRC, file), importsOf(file).map(fileOf)]),
  );
}

/**
 * Every cycle of a graph, each one as the path of nodes that closes it, found by a
 * depth-first walk (each node's cycles once: a cycle through nodes already walked is not
 * repeated).
 */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node) || !graph.has(node)) return;
    path.push(node);
    for (const next of graph.get(node)!) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return cycles;
}

/**
 * Every import cycle among the files of src/, type-only imports included (a type that two
 * files need belongs to a third, or to the one that owns it): each one as the path of files
 * that closes it.
 */
function importCycles(): string[] {
  return cyclesOf(fileGraph()).map((cycle) => cycle.join(' -> '));
}

/** The folder of a file under src/: its first directory, or the file itself at the top. */
const folderOf = (file: string): string =>
  file.includes('/') ? file.split('/')[0] : file.replace(/\.ts$/, '');

/**
 * Every cycle among the folders of src/ (a file at the top of src/ counts as a folder of its
 * own): folder A imports from folder B, which imports, maybe through others, from A. Each one
 * as its path of folders, and for each step one import that makes it.
 */
function folderCycles(): string[] {
  const imports = new Map<string, Map<string, string>>();
  for (const [file, targets] of fileGraph())
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      const edges = imports.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file} imports ${target}`);
      imports.set(from, edges);
    }
  const graph = new Map([...imports].map(([folder, edges]) => [folder, [...edges.keys()]]));
  return cyclesOf(graph).map((cycle) => {
    const steps = cycle.slice(1).map((to, n) => imports.get(cycle[n])!.get(to)!);
    return `${cycle.join(' -> ')} (${steps.join('; ')})`;
  });
}

describe('the arrows between folders', () => {
  it.each([
    ['common', ['common']],
    ['database', ['common', 'database']],
    // the generic routes serve other modules' tables without importing those modules: the
    // tables a module keeps rules on are read-only there (allowed-tables.ts, MODULE_OWNED)
    // (its plugin names its switch and permissions through module-plugin, as every plugin does)
    [
      'generic-tables',
      ['common', 'database', 'tenancy', 'auth', 'generic-tables', 'module-plugin'],
    ],
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

  it('reads the plugins only from the module list, and a plugin reaches only its own folder', () => {
    // a plugin is read before the config (src/main.ts): it names its Nest module, its comanda
    // extension and its entities only in `load`, and nothing of its module imports it back
    const plugins = sourceFiles(SRC).filter((file) => file.endsWith('.plugin.ts'));
    const importers = sourceFiles(SRC)
      .filter((file) => importsOf(file).some((target) => target.endsWith('.plugin')))
      .map((file) => relative(SRC, file));
    expect(importers).toEqual(['modules.ts']);
    const outside = plugins.flatMap((file) => {
      const folder = relative(SRC, dirname(file));
      return importsOf(file)
        .filter((target) => target !== 'module-plugin' && !under(folder)(target))
        .map((target) => `${relative(SRC, file)} -> ${target}`);
    });
    expect(outside).toEqual([]);
  });

  it('has no import cycle, not even through a type-only import', () => {
    expect(importCycles()).toEqual([]);
  });

  it('has no cycle between folders: a folder never imports back from one that imports it', () => {
    expect(folderCycles()).toEqual([]);
  });

  it('reads the tenant header in one place', () => {
    const readers = sourceFiles(SRC)
      .filter((file) => /TENANT_HEADER\]|'x-tenant-id'\]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['tenancy/tenant-context.middleware.ts']);
  });
});
