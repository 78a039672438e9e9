import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  applyOrder,
  compareSqlDefinitions,
  describeSqlDrift,
  dropStatements,
  migrationClassName,
  planSqlMigration,
  recordedSqlSource,
  renderSqlMigration,
  sqlObjectOf,
  type SqlFile,
  type SqlSourceMigration,
} from './sql-source';

const fn = (name: string, body = 'SELECT 1', module = 'cobros'): SqlFile => ({
  path: `src/${module}/sql/${name}.sql`,
  text: `-- ${name}\nCREATE OR REPLACE FUNCTION ${name}() RETURNS integer\nLANGUAGE sql AS $$ ${body} $$;\n`,
});

const withTrigger: SqlFile = {
  path: 'src/reportes/sql/marcar.sql',
  text: `CREATE OR REPLACE FUNCTION marcar() RETURNS trigger
LANGUAGE plpgsql AS $fn$
  -- CREATE FUNCTION in a body is the body's
  BEGIN RETURN NULL; END;
$fn$;

DROP TRIGGER IF EXISTS tg_uno ON comandas;
CREATE TRIGGER tg_uno AFTER INSERT ON comandas
  FOR EACH ROW WHEN (NEW.estado = 'cerrada') EXECUTE FUNCTION marcar();

DROP TRIGGER IF EXISTS tg_dos ON pagos;
CREATE TRIGGER tg_dos AFTER UPDATE ON pagos FOR EACH ROW EXECUTE FUNCTION marcar();
`,
};

const view: SqlFile = {
  path: 'src/aaa/sql/ventas.sql',
  text: 'CREATE OR REPLACE VIEW ventas AS SELECT monto() AS m;\n',
};

describe('the SQL source tree', () => {
  describe('a file', () => {
    it('defines one function with the triggers that call it, or one view', () => {
      expect(sqlObjectOf(withTrigger)).toEqual({
        kind: 'function',
        name: 'marcar',
        triggers: [
          { name: 'tg_uno', table: 'comandas' },
          { name: 'tg_dos', table: 'pagos' },
        ],
      });
      expect(sqlObjectOf(view)).toEqual({ kind: 'view', name: 'ventas', triggers: [] });
    });

    it.each([
      [
        'a CREATE FUNCTION',
        'CREATE FUNCTION x() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;',
        /use CREATE OR REPLACE/,
      ],
      ['a CREATE VIEW', 'CREATE VIEW x AS SELECT 1;', /use CREATE OR REPLACE/],
      [
        'two functions',
        'CREATE OR REPLACE FUNCTION x() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\nCREATE OR REPLACE FUNCTION y() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;',
        /defines 2 functions or views: one per file/,
      ],
      [
        'a name other than the file',
        'CREATE OR REPLACE FUNCTION y() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;',
        /defines y: the file is named after it/,
      ],
      [
        'a trigger without its DROP TRIGGER IF EXISTS',
        'CREATE OR REPLACE FUNCTION x() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;\nCREATE TRIGGER t AFTER INSERT ON pagos FOR EACH ROW EXECUTE FUNCTION x();',
        /CREATE TRIGGER t needs DROP TRIGGER IF EXISTS t ON pagos first/,
      ],
      [
        'a trigger of another function',
        'CREATE OR REPLACE FUNCTION x() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\nDROP TRIGGER IF EXISTS t ON pagos;\nCREATE TRIGGER t AFTER INSERT ON pagos FOR EACH ROW EXECUTE FUNCTION otra();',
        /trigger t calls otra: a trigger lives with its function/,
      ],
    ])('is refused with %s', (_rule, text, message) => {
      expect(() => sqlObjectOf({ path: 'src/cobros/sql/x.sql', text })).toThrow(message);
    });

    it('is taken out by dropping its triggers, then its object', () => {
      expect(dropStatements(withTrigger)).toEqual([
        'DROP TRIGGER IF EXISTS tg_uno ON comandas',
        'DROP TRIGGER IF EXISTS tg_dos ON pagos',
        'DROP FUNCTION IF EXISTS marcar',
      ]);
      expect(dropStatements(view)).toEqual(['DROP VIEW IF EXISTS ventas']);
    });
  });

  it('applies a file after the files whose objects it names, otherwise by path', () => {
    const monto = fn('monto', 'SELECT tasa()');
    const tasa = fn('tasa');
    const otra = fn('otra', 'SELECT 2', 'webhooks');
    // a comment naming another object is no use of it
    const comentada = { ...fn('comentada'), text: `-- uses otra\n${fn('comentada').text}` };
    expect(
      applyOrder([view, otra, monto, tasa, comentada]).map((f) => sqlObjectOf(f).name),
    ).toEqual(['tasa', 'monto', 'ventas', 'comentada', 'otra']);
  });

  describe('a migration of the files', () => {
    const tasa = fn('tasa');
    const monto = fn('monto', 'SELECT tasa()');
    const recorded = new Map([
      [tasa.path, tasa.text],
      [withTrigger.path, withTrigger.text],
    ]);

    it('is nothing while every file is as the migrations apply it', () => {
      expect(planSqlMigration([tasa, withTrigger], recorded)).toBeNull();
    });

    it('applies the changed and new files in order; its down restores, then drops the new ones', () => {
      const tasa2 = { ...tasa, text: tasa.text.replace('SELECT 1', 'SELECT 2') };
      expect(planSqlMigration([monto, tasa2, withTrigger, view], recorded)).toEqual({
        entries: [
          { path: tasa2.path, text: tasa2.text },
          { path: monto.path, text: monto.text },
          { path: view.path, text: view.text },
        ],
        down: [tasa.text, 'DROP VIEW IF EXISTS ventas', 'DROP FUNCTION IF EXISTS monto'],
      });
    });

    it("drops a removed file's object; its down creates it again", () => {
      expect(planSqlMigration([tasa], recorded)).toEqual({
        entries: [
          {
            path: withTrigger.path,
            removed: true,
            text: 'DROP TRIGGER IF EXISTS tg_uno ON comandas;\nDROP TRIGGER IF EXISTS tg_dos ON pagos;\nDROP FUNCTION IF EXISTS marcar;\n',
          },
        ],
        down: [withTrigger.text],
      });
    });

    it('on the first run takes every file as an object the earlier migrations made: its down keeps them', () => {
      expect(planSqlMigration([tasa, monto], new Map())).toEqual({
        entries: [
          { path: tasa.path, text: tasa.text },
          { path: monto.path, text: monto.text },
        ],
        down: [],
      });
    });

    it('reads what the migrations apply, the newest winning', () => {
      const migrations: SqlSourceMigration[] = [
        { sqlSource: [{ path: tasa.path, text: 'uno' }] },
        {},
        {
          sqlSource: [
            { path: tasa.path, text: 'dos' },
            { path: monto.path, text: 'DROP FUNCTION IF EXISTS monto;\n', removed: true },
          ],
        },
      ];
      expect(recordedSqlSource(migrations)).toEqual(
        new Map([
          [tasa.path, 'dos'],
          [monto.path, null],
        ]),
      );
    });

    it('is named in kebab-case', () => {
      expect(migrationClassName('money-rules')).toBe('MoneyRules');
      expect(() => migrationClassName('Money_rules')).toThrow(/kebab-case/);
    });

    it('is a TypeScript migration that runs the text exactly, backslashes, backquotes and ${} included', async () => {
      const tricky: SqlFile = {
        path: 'src/cobros/sql/tasa.sql',
        text: "CREATE OR REPLACE FUNCTION tasa() RETURNS text\nLANGUAGE sql AS $$ SELECT 'id\\_%' || '`${x}`' $$;\n",
      };
      const plan = planSqlMigration([tricky, withTrigger], recorded)!;
      const dir = mkdtempSync(join(tmpdir(), 'sql-source-'));
      try {
        const file = join(dir, 'migration.ts');
        writeFileSync(file, renderSqlMigration('Prueba1796000000000', plan, 'A test.'));
        const module = (await import(file)) as Record<string, new () => MigrationInterface>;
        const Migration = module.Prueba1796000000000;
        expect((Migration as unknown as SqlSourceMigration).sqlSource).toEqual(plan.entries);
        const ran: string[] = [];
        const runner = {
          query: async (sql: string) => void ran.push(sql),
        } as unknown as QueryRunner;
        const migration = new Migration();
        expect(migration.name).toBe('Prueba1796000000000');
        await migration.up(runner);
        expect(ran).toEqual([tricky.text]);
        ran.length = 0;
        await migration.down(runner);
        expect(ran).toEqual([tasa.text]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('the comparison with a database', () => {
    const database = new Map([
      [
        'function tasa()',
        'CREATE OR REPLACE FUNCTION public.tasa()\n RETURNS integer\nAS $$ SELECT 1 $$',
      ],
      ['trigger tg_uno ON comandas', 'CREATE TRIGGER tg_uno ...\nENABLED O'],
    ]);
    const sources = [fn('tasa'), withTrigger];

    it('finds nothing when the files make the same definitions', () => {
      expect(compareSqlDefinitions(database, new Map(database), sources)).toEqual([]);
    });

    it('finds a deliberately changed text, naming its file and the first line that differs', () => {
      const files = new Map(database);
      files.set(
        'function tasa()',
        'CREATE OR REPLACE FUNCTION public.tasa()\n RETURNS integer\nAS $$ SELECT 2 $$',
      );
      const drift = compareSqlDefinitions(database, files, sources);
      expect(drift).toEqual([
        {
          key: 'function tasa()',
          problem: 'differs',
          file: 'src/cobros/sql/tasa.sql',
          detail: 'line 3: database "AS $$ SELECT 1 $$", file "AS $$ SELECT 2 $$"',
        },
      ]);
      expect(describeSqlDrift(drift[0])).toBe(
        'function tasa(): differs from src/cobros/sql/tasa.sql (line 3: database "AS $$ SELECT 1 $$", file "AS $$ SELECT 2 $$"): a file changed without a migration (npm run sql:migration)',
      );
    });

    it("finds an object without a file, and a file's object the database lacks", () => {
      const files = new Map(database);
      files.delete('trigger tg_uno ON comandas');
      files.set('trigger tg_dos ON pagos', 'CREATE TRIGGER tg_dos ...');
      expect(compareSqlDefinitions(database, files, sources).map(describeSqlDrift)).toEqual([
        'trigger tg_dos ON pagos: src/reportes/sql/marcar.sql defines it, but the migrated database lacks it',
        'trigger tg_uno ON comandas: in the database, but no file of src/*/sql/ defines it',
      ]);
    });
  });
});
