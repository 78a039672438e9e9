import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The direction of the arrows between folders (docs/adding-a-module.md): feature modules use
 * src/common and src/database, never the other way round, so a new module never has to touch
 * them and they never pull a module in. Checked on the real import statements.
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

describe('the arrows between folders', () => {
  it.each([
    ['common', ['common']],
    ['database', ['common', 'database']],
  ])('src/%s imports only from %j', (folder, allowed) => {
    const offending = sourceFiles(join(SRC, folder)).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.some((a) => under(a)(target)))
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('keeps the tenant administration (and the demo data, every migration) off the request path', () => {
    const allowed = ['cli/', 'tenancy/demo-tenant.ts', 'tenancy/tenant-admin.ts'];
    const importers = sourceFiles(SRC)
      .filter((file) => importsOf(file).includes('tenancy/tenant-admin'))
      .map((file) => relative(SRC, file))
      .filter((file) => !allowed.some((a) => file.startsWith(a)));
    expect(importers).toEqual([]);
  });

  it('reads the tenant header in one place', () => {
    const readers = sourceFiles(SRC)
      .filter((file) => /TENANT_HEADER\]|'x-tenant-id'\]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['tenancy/tenant-context.middleware.ts']);
  });
});
