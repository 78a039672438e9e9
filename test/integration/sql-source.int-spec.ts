import { resolve } from 'node:path';
import { Client } from 'pg';
import { tenantMigrations } from '../../src/database/migrations/module-migrations';
import '../../src/modules';
import {
  describeSqlDrift,
  readSqlFiles,
  recordedSqlSource,
  SQL_OBJECTS,
  sqlObjectOf,
  sqlSourceDrift,
  type SqlFile,
  type SqlSourceMigration,
} from '../../src/database/sql-source';
import { TestDatabases } from '../support/test-databases';

/**
 * The SQL source tree (docs/sql.md): every function, trigger and view of a migrated tenant
 * database is the text of its file of src/<module>/sql/, and nothing else is there. The
 * comparison (sqlSourceDrift) re-creates every object from the files in a transaction it rolls
 * back: these cases also show it failing, on files changed, missing or extra.
 */

const ROOT = resolve(__dirname, '..', '..');
const FILES = readSqlFiles(ROOT);

/** The files with one of them changed by `change` (path ending in `name`). */
function withChanged(name: string, change: (text: string) => string): SqlFile[] {
  const file = FILES.find((f) => f.path.endsWith(`/${name}`));
  if (!file) throw new Error(`no file ${name}`);
  return FILES.map((f) => (f === file ? { ...f, text: change(f.text) } : f));
}

describe('the SQL source tree (src/<module>/sql/)', () => {
  let dbs: TestDatabases;
  let client: Client;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('fuente');
    client = new Client({ connectionString: dbs.tenantUrl('fuente') });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await dbs?.drop();
  });

  const drift = async (files: readonly SqlFile[]) =>
    (await sqlSourceDrift(client, files)).map(describeSqlDrift);

  it('is what the migrations apply: each file as the newest migration written from it has it', () => {
    const recorded = recordedSqlSource(
      tenantMigrations().map((migration) => migration as unknown as SqlSourceMigration),
    );
    const behind = FILES.filter((file) => recorded.get(file.path) !== file.text).map(
      (file) => `${file.path}: changed since its last migration (npm run sql:migration -- <name>)`,
    );
    const gone = [...recorded]
      .filter(([path, text]) => text !== null && !FILES.some((file) => file.path === path))
      .map(([path]) => `${path}: removed without a migration (npm run sql:migration -- <name>)`);
    expect([...behind, ...gone]).toEqual([]);
  });

  it('every file defines one object named like it, idempotently', () => {
    expect(FILES.length).toBeGreaterThan(40);
    for (const file of FILES) expect(() => sqlObjectOf(file)).not.toThrow();
  });

  it('is what a migrated tenant database holds: every function, trigger and view, and only those', async () => {
    expect(await drift(FILES)).toEqual([]);
  });

  it('runs again on a database that has its objects, changing nothing (how a migration applies it)', async () => {
    const before = await client.query(SQL_OBJECTS);
    await client.query('BEGIN');
    try {
      for (const file of FILES) await client.query(file.text);
      expect((await client.query(SQL_OBJECTS)).rows).toEqual(before.rows);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('finds a file changed without a migration', async () => {
    const changed = withChanged('cuenta_comanda.sql', (text) =>
      text.replace("THEN 'reembolsada'", "THEN 'devuelta'"),
    );
    const found = await drift(changed);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^function cuenta_comanda\(bigint,text\): differs from src\/cobros\/sql\/cuenta_comanda\.sql \(line \d+: database ".*THEN 'reembolsada'.*", file ".*THEN 'devuelta'.*"\)/,
    );
  });

  it('finds a comment or a trigger changed without a migration', async () => {
    const comment = withChanged('figuras_sesion_caja.sql', (text) =>
      text.includes('COMMENT ON')
        ? text.replace(/IS\s*\n?\s*'/, "IS 'Changed: ")
        : `${text}\nCOMMENT ON FUNCTION figuras_sesion_caja(bigint) IS 'Changed';\n`,
    );
    expect(await drift(comment)).toEqual([
      expect.stringMatching(/^function figuras_sesion_caja\(bigint\): differs from src\/cobros/),
    ]);
    const trigger = withChanged('reportes_marcar.sql', (text) =>
      text.replace(
        "FOR EACH ROW WHEN (NEW.estado = 'cerrada' AND",
        "FOR EACH ROW WHEN (NEW.estado = 'abierta' AND",
      ),
    );
    expect(await drift(trigger)).toEqual([
      expect.stringMatching(
        /^trigger tg_reportes_comandas_insert ON comandas: differs from src\/reportes\/sql\/reportes_marcar\.sql/,
      ),
    ]);
  });

  it('finds what the database holds that no file defines', async () => {
    const without = FILES.filter(
      (file) =>
        !file.path.endsWith('/vw_compras.sql') && !file.path.endsWith('/reportes_marcar_tasas.sql'),
    );
    expect(await drift(without)).toEqual([
      'function reportes_marcar_tasas(): in the database, but no file of src/*/sql/ defines it',
      'trigger tg_reportes_tasas ON tasas_igv: in the database, but no file of src/*/sql/ defines it',
      'view vw_compras: in the database, but no file of src/*/sql/ defines it',
    ]);
    // an object written straight into the database, by a migration without its file
    await client.query(
      'CREATE FUNCTION sin_archivo() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$',
    );
    try {
      expect(await drift(FILES)).toEqual([
        'function sin_archivo(): in the database, but no file of src/*/sql/ defines it',
      ]);
    } finally {
      await client.query('DROP FUNCTION sin_archivo()');
    }
  });

  it('finds a file naming an object the database lacks', async () => {
    const extra: SqlFile = {
      path: 'src/cobros/sql/sin_migracion.sql',
      text: 'CREATE OR REPLACE FUNCTION sin_migracion(p numeric) RETURNS numeric\nLANGUAGE sql IMMUTABLE AS $$ SELECT p $$;\n',
    };
    expect(await drift([...FILES, extra])).toEqual([
      'function sin_migracion(numeric): src/cobros/sql/sin_migracion.sql defines it, but the migrated database lacks it',
    ]);
  });

  it('names a file that does not run, and leaves the database as it was', async () => {
    const before = (await client.query(SQL_OBJECTS)).rows;
    const broken = withChanged('parametro.sql', (text) =>
      text.replace('FROM parametros', 'FROM parametros_no'),
    );
    await expect(drift(broken)).rejects.toThrow(
      /^src\/device-drivers\/sql\/parametro\.sql does not run: .*parametros_no/,
    );
    expect((await client.query(SQL_OBJECTS)).rows).toEqual(before);
  });
});
