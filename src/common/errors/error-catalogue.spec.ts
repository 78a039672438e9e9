import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DomainError } from './domain-error';
import { EXAMPLE_REQUEST_ID, isErrorEntry, type ErrorEntry } from './error-catalogue';
import { toEnvelope } from './error-envelope';

/**
 * Every catalogue of the service (src/common/errors/common.errors.ts and each module's
 * src/x/x.errors.ts): each entry says its error in English and in Spanish and has its example
 * for the OpenAPI document, and a code means one status across catalogues.
 */
const SRC = join(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const sources = files(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
const catalogueFiles = sources.filter((f) => f.endsWith('.errors.ts'));

interface Found {
  catalogue: string;
  name: string;
  entry: ErrorEntry<readonly unknown[]>;
}

const found: Found[] = catalogueFiles.flatMap((file) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- every catalogue, by its file
  const exports = require(file) as Record<string, unknown>;
  const catalogue = relative(SRC, file);
  return Object.entries(exports).flatMap(([name, value]) =>
    isErrorEntry(value) ? [{ catalogue, name, entry: value }] : [],
  );
});

describe('the error catalogues', () => {
  it('are one per module, the shared codes in src/common', () => {
    const catalogues = [...new Set(found.map((f) => f.catalogue))];
    expect(catalogues).toContain('common/errors/common.errors.ts');
    for (const module of ['comandas', 'cobros', 'cocina', 'inventario', 'reservas', 'webhooks'])
      expect(catalogues).toContain(`${module}/${module}.errors.ts`);
    expect(found.length).toBeGreaterThan(150);
  });

  it.each(found.map((f) => [`${f.catalogue}: ${f.name}`, f] as const))(
    '%s says its error in English and in Spanish, with an example',
    (_, { entry }) => {
      const { example } = entry;
      expect(example.status).toBe(entry.status);
      expect(example.body.code).toBe(entry.code);
      expect(example.summary.trim()).not.toBe('');
      expect(example.body.error.trim()).not.toBe('');
      expect(example.spanish.trim()).not.toBe('');
      expect(example.spanish).not.toBe(example.body.error);
      expect(example.body.requestId).toEqual(expect.any(String));
    },
  );

  it.each(found.map((f) => [`${f.catalogue}: ${f.name}`, f] as const))(
    '%s throws what its example shows',
    (_, { entry }) => {
      const error = entry(...entry.exampleValues);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ status: entry.status, code: entry.code });
      expect(toEnvelope(error, EXAMPLE_REQUEST_ID)).toEqual(entry.example.body);
      expect(toEnvelope(error, EXAMPLE_REQUEST_ID, 'es')).toEqual({
        ...entry.example.body,
        error: entry.example.spanish,
      });
    },
  );

  it('gives a code the same status in every catalogue that defines it', () => {
    // within one catalogue a code may have two (the 404 of a caja, the 400 of an id_caja); a
    // SQLSTATE is the database's code, answered with the status of where it happened (a
    // constraint's 400, a store function's 500)
    const named = found.filter((f) => !/^(?=.*\d)[0-9A-Z]{5}$/.test(f.entry.code));
    const conflicts = named.flatMap((a) =>
      named
        .filter((b) => b.entry.code === a.entry.code && b.catalogue > a.catalogue)
        .filter((b) => b.entry.status !== a.entry.status)
        .map(
          (b) =>
            `${a.entry.code}: ${a.entry.status} in ${a.catalogue} (${a.name}), ` +
            `${b.entry.status} in ${b.catalogue} (${b.name})`,
        ),
    );
    expect(conflicts).toEqual([]);
  });

  it('is where the service writes its errors: no text of an error is made elsewhere', () => {
    const made = sources
      .filter((f) => !f.startsWith(join(SRC, 'common', 'errors')) && !f.includes('/cli/'))
      .flatMap((file) =>
        [
          ...readFileSync(file, 'utf8').matchAll(
            /new (DomainError|NotFoundError|ConflictError)\(/g,
          ),
        ].map(() => relative(SRC, file)),
      );
    expect(made).toEqual([]);
  });
});
