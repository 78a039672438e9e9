import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The SQL source tree (docs/sql.md): every function, trigger and view of a tenant database has
 * its text in one file beside the module that owns it, `src/<module>/sql/<name>.sql`, as
 * idempotent DDL (`CREATE OR REPLACE FUNCTION`, `CREATE OR REPLACE VIEW`, `DROP TRIGGER IF
 * EXISTS ...; CREATE TRIGGER ...`). The files are never read at run time: a migration written
 * by `npm run sql:migration` embeds their text as it was then, and the drift test
 * (test/integration/sql-source.int-spec.ts) fails when a migrated database and the files
 * differ. This module is what both of them share: reading the files, the order they apply in,
 * what a migration of them looks like, and the comparison with a database.
 */

/** One file of the tree: its path from the project's root (`src/cobros/sql/x.sql`) and text. */
export interface SqlFile {
  path: string;
  text: string;
}

/**
 * What a migration written by `npm run sql:migration` applies, one entry per file: the file's
 * text as it was then, or, for a file that was removed, the statements dropping its object.
 */
export interface SqlSourceEntry {
  path: string;
  text: string;
  removed?: true;
}

/** A migration class written by `npm run sql:migration`: its entries, read by the next one. */
export interface SqlSourceMigration {
  readonly sqlSource?: readonly SqlSourceEntry[];
}

export interface SqlTrigger {
  name: string;
  table: string;
}

/** The object a file defines: one function (with the triggers that call it) or one view. */
export interface SqlObject {
  kind: 'function' | 'view';
  name: string;
  triggers: SqlTrigger[];
}

/** The files of `src/<module>/sql/` under `root` (the project's folder), by path. */
export function readSqlFiles(root: string): SqlFile[] {
  const src = join(root, 'src');
  return readdirSync(src)
    .filter((module) => statSync(join(src, module)).isDirectory())
    .flatMap((module) => {
      const folder = join(src, module, 'sql');
      try {
        if (!statSync(folder).isDirectory()) return [];
      } catch {
        return [];
      }
      return readdirSync(folder)
        .filter((name) => name.endsWith('.sql'))
        .map((name) => ({
          path: `src/${module}/sql/${name}`,
          text: readFileSync(join(folder, name), 'utf8'),
        }));
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The text without its comments, strings and dollar-quoted bodies: where the DDL is read. */
function ddlOf(text: string): string {
  return text
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, ' $$$$ ')
    .replace(/--[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/'(?:[^']|'')*'/g, "''");
}

/**
 * The object a file defines, checked against the tree's rules: one `CREATE OR REPLACE FUNCTION`
 * or `CREATE OR REPLACE VIEW` named like the file, and each `CREATE TRIGGER` (of that
 * function) preceded by its `DROP TRIGGER IF EXISTS`, so that running the file twice is
 * running it once. Throws naming the file and the rule broken.
 */
export function sqlObjectOf(file: SqlFile): SqlObject {
  const ddl = ddlOf(file.text);
  const fail = (rule: string): never => {
    throw new Error(`${file.path}: ${rule}`);
  };
  if (/\bCREATE\s+(FUNCTION|VIEW|MATERIALIZED\s+VIEW|PROCEDURE)\b/i.test(ddl)) {
    fail('use CREATE OR REPLACE FUNCTION / VIEW (a file must apply on a database that has it)');
  }
  const creates = [
    ...ddl.matchAll(/\bCREATE\s+OR\s+REPLACE\s+(FUNCTION|VIEW)\s+(?:public\.)?(\w+)/gi),
  ];
  if (creates.length !== 1) {
    fail(`defines ${creates.length} functions or views: one per file`);
  }
  const [, kind, name] = creates[0];
  if (`${name}.sql` !== basename(file.path)) fail(`defines ${name}: the file is named after it`);
  const dropped = new Set(
    [...ddl.matchAll(/\bDROP\s+TRIGGER\s+IF\s+EXISTS\s+(\w+)\s+ON\s+(?:public\.)?(\w+)/gi)].map(
      ([, trigger, table]) => `${trigger} ON ${table}`,
    ),
  );
  const triggers = [
    ...ddl.matchAll(
      /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?TRIGGER\s+(\w+)\s[\s\S]*?\bON\s+(?:public\.)?(\w+)[\s\S]*?\bEXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(?:public\.)?(\w+)/gi,
    ),
  ].map(([, trigger, table, fn]) => {
    if (fn !== name) fail(`trigger ${trigger} calls ${fn}: a trigger lives with its function`);
    if (!dropped.has(`${trigger} ON ${table}`)) {
      fail(`CREATE TRIGGER ${trigger} needs DROP TRIGGER IF EXISTS ${trigger} ON ${table} first`);
    }
    return { name: trigger, table };
  });
  return { kind: kind.toLowerCase() as SqlObject['kind'], name, triggers };
}

/**
 * The files in the order they apply: a file naming another file's object comes after it (a
 * SQL function or a view is checked against what it uses when it is created), otherwise by
 * path. Names are matched as words of the text; a cycle (PL/pgSQL functions calling each other,
 * which PostgreSQL does not check at creation) keeps the path order.
 */
export function applyOrder<T extends SqlFile>(files: readonly T[]): T[] {
  const names = new Map(files.map((file) => [file, sqlObjectOf(file).name]));
  const uses = new Map(
    files.map((file) => [
      file,
      files.filter(
        (other) =>
          other !== file && new RegExp(`\\b${names.get(other)}\\b`).test(ddlWithBodies(file.text)),
      ),
    ]),
  );
  const ordered: T[] = [];
  const visiting = new Set<T>();
  const visit = (file: T) => {
    if (ordered.includes(file) || visiting.has(file)) return;
    visiting.add(file);
    for (const used of uses.get(file)!) visit(used);
    visiting.delete(file);
    ordered.push(file);
  };
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) visit(file);
  return ordered;
}

/** The text without its comments: the code, bodies included, where another object is named. */
function ddlWithBodies(text: string): string {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

/** The statements that take a file's object out of a database: its triggers, then itself. */
export function dropStatements(file: SqlFile): string[] {
  const object = sqlObjectOf(file);
  return [
    ...object.triggers.map((t) => `DROP TRIGGER IF EXISTS ${t.name} ON ${t.table}`),
    object.kind === 'view'
      ? `DROP VIEW IF EXISTS ${object.name}`
      : `DROP FUNCTION IF EXISTS ${object.name}`,
  ];
}

/**
 * What the migrations apply of each file, from the entries of those written by `npm run
 * sql:migration`, the newest winning: a path maps to its text, or to null once it was removed.
 */
export function recordedSqlSource(
  migrations: readonly SqlSourceMigration[],
): Map<string, string | null> {
  const recorded = new Map<string, string | null>();
  for (const migration of migrations) {
    for (const entry of migration.sqlSource ?? []) {
      recorded.set(entry.path, entry.removed ? null : entry.text);
    }
  }
  return recorded;
}

/** A migration to write: what its `up` applies and what its `down` runs, in order. */
export interface SqlSourcePlan {
  entries: SqlSourceEntry[];
  down: string[];
}

/**
 * The migration that brings a database migrated so far (`recorded`) to the files as they are:
 * every file whose text differs from what the migrations apply, in apply order, then every
 * removed file's drop. Its `down` puts the previous text of each changed or removed file back
 * (in apply order) and drops what it added, dependents first. Null when nothing changed.
 *
 * A file no earlier migration recorded is new, and its down drops it; except on the first run
 * (`recorded` empty), when every file records an object the hand-written migrations created,
 * which its down leaves as they are.
 */
export function planSqlMigration(
  files: readonly SqlFile[],
  recorded: ReadonlyMap<string, string | null>,
): SqlSourcePlan | null {
  const first = recorded.size === 0;
  const changed = applyOrder(files.filter((file) => recorded.get(file.path) !== file.text));
  const present = new Set(files.map((file) => file.path));
  const removed = [...recorded]
    .filter(([path, text]) => text !== null && !present.has(path))
    .map(([path, text]) => ({ path, text: text! }));
  if (changed.length === 0 && removed.length === 0) return null;
  const entries: SqlSourceEntry[] = [
    ...changed.map((file) => ({ path: file.path, text: file.text })),
    ...applyOrder(removed)
      .reverse()
      .map((file) => ({
        path: file.path,
        text: dropStatements(file).join(';\n') + ';\n',
        removed: true as const,
      })),
  ];
  if (first) return { entries, down: [] };
  const previous = applyOrder(
    [...changed, ...removed]
      .filter((file) => typeof recorded.get(file.path) === 'string')
      .map((file) => ({ path: file.path, text: recorded.get(file.path)! })),
  );
  const added = changed.filter((file) => typeof recorded.get(file.path) !== 'string');
  return {
    entries,
    down: [
      ...previous.map((file) => file.text),
      ...[...added].reverse().flatMap((file) => dropStatements(file)),
    ],
  };
}

/** `money-rules` → `MoneyRules`: a migration's class name, before its timestamp. */
export function migrationClassName(name: string): string {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`The name must be kebab-case, like money-rules (got "${name}")`);
  }
  return name
    .split('-')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** A string as a template literal of TypeScript, its text unchanged. */
function templateLiteral(text: string): string {
  return '`' + text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

/** A text as the lines of a doc comment, wrapped to the project's width. */
function commentLines(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= 96) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => ` * ${line}`).join('\n');
}

/** This module, as a tenant migration (src/database/migrations/tenant/) imports it. */
const MIGRATION_IMPORT = '../../sql-source';

/** The TypeScript of a tenant migration applying `plan` (written by `npm run sql:migration`). */
export function renderSqlMigration(
  className: string,
  plan: SqlSourcePlan,
  summary: string,
): string {
  const entries = plan.entries
    .map(
      (entry) =>
        `  {\n    path: '${entry.path}',\n${entry.removed ? '    removed: true,\n' : ''}    text: ${templateLiteral(entry.text)},\n  },`,
    )
    .join('\n');
  const down = plan.down.map((statement) => `  ${templateLiteral(statement)},`).join('\n');
  const files = plan.entries.map((e) => `${e.removed ? 'removes' : 'applies'} ${e.path}`);
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SqlSourceEntry } from '${MIGRATION_IMPORT}';

/**
${commentLines(summary)}
 *
 * Written by \`npm run sql:migration\` (docs/sql.md) with the text the files had then; never
 * edited afterwards: a later change of a file is another migration. It
${files.map((line) => ` * - ${line}`).join('\n')}
 */
const SQL_SOURCE: readonly SqlSourceEntry[] = [
${entries}
];

${
  plan.down.length > 0
    ? '/** What `down` runs: the previous text of the files it changed, then what it added dropped. */'
    : '/**\n * What `down` runs: nothing. Each file was an object the earlier migrations created, and\n * its definition here does what theirs did: it stays.\n */'
}
const DOWN: readonly string[] = [${down ? `\n${down}\n` : ''}];

export class ${className} implements MigrationInterface {
  name = '${className}';

  /** The files' text as applied here: what the next \`npm run sql:migration\` compares with. */
  static readonly sqlSource = SQL_SOURCE;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const entry of SQL_SOURCE) {
      await queryRunner.query(entry.text);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) {
      await queryRunner.query(statement);
    }
  }
}
`;
}

/**
 * The functions, triggers and views of schema public that are the service's (not an
 * extension's), each with its definition as PostgreSQL prints it back and its comment: what
 * two databases, or a database and the files, are compared on.
 */
export const SQL_OBJECTS = `
  SELECT 'function ' || p.oid::regprocedure::text AS key,
         pg_get_functiondef(p.oid) || coalesce(E'\\nCOMMENT ' || obj_description(p.oid, 'pg_proc'), '')
           AS definition
    FROM pg_proc p
   WHERE p.pronamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  UNION ALL
  SELECT 'trigger ' || t.tgname || ' ON ' || t.tgrelid::regclass::text,
         pg_get_triggerdef(t.oid) || E'\\nENABLED ' || t.tgenabled::text
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
   WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
  UNION ALL
  SELECT 'view ' || c.oid::regclass::text,
         pg_get_viewdef(c.oid) || coalesce(E'\\nCOMMENT ' || obj_description(c.oid, 'pg_class'), '')
    FROM pg_class c
   WHERE c.relkind IN ('v', 'm') AND c.relnamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
   ORDER BY 1`;

/** What takes every object of SQL_OBJECTS out: one DROP statement per row. */
const DROP_SQL_OBJECTS = `
  SELECT format('DROP TRIGGER %I ON %s', t.tgname, t.tgrelid::regclass) AS statement
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
   WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
  UNION ALL
  SELECT format('DROP %s IF EXISTS %s CASCADE',
                CASE c.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'VIEW' END, c.oid::regclass)
    FROM pg_class c
   WHERE c.relkind IN ('v', 'm') AND c.relnamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
  UNION ALL
  SELECT format('DROP FUNCTION IF EXISTS %s CASCADE', p.oid::regprocedure)
    FROM pg_proc p
   WHERE p.pronamespace = 'public'::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`;

/** Definitions by key (`function cuenta_comanda(bigint,text)`, `trigger t ON comandas`, `view v`). */
export type SqlDefinitions = ReadonlyMap<string, string>;

/** One difference between a database and the files, in words. */
export interface SqlDrift {
  key: string;
  problem: 'no file' | 'not in the database' | 'differs';
  /** The file of the object, when one names it. */
  file?: string;
  /** For `differs`: the first line that differs, as the database and as the files have it. */
  detail?: string;
}

/** The name a definition key is about: the function, trigger or view. */
function nameOfKey(key: string): string {
  return /^\w+ (\w+)/.exec(key)![1];
}

/**
 * Where a database (`database`) and the same database with every object re-created from the
 * files (`files`) differ: an object no file defines, one a file defines that the database
 * lacks, one whose text differs. Empty: no drift.
 */
export function compareSqlDefinitions(
  database: SqlDefinitions,
  files: SqlDefinitions,
  sources: readonly SqlFile[],
): SqlDrift[] {
  const fileOf = new Map<string, string>();
  for (const source of sources) {
    const object = sqlObjectOf(source);
    fileOf.set(object.name, source.path);
    for (const trigger of object.triggers) fileOf.set(trigger.name, source.path);
  }
  const keys = [...new Set([...database.keys(), ...files.keys()])].sort();
  return keys.flatMap((key): SqlDrift[] => {
    const file = fileOf.get(nameOfKey(key));
    const inDatabase = database.get(key);
    const fromFiles = files.get(key);
    if (fromFiles === undefined) return [{ key, problem: 'no file', file }];
    if (inDatabase === undefined) return [{ key, problem: 'not in the database', file }];
    if (inDatabase === fromFiles) return [];
    const a = inDatabase.split('\n');
    const b = fromFiles.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    const at = line < 0 ? a.length : line;
    return [
      {
        key,
        problem: 'differs',
        file,
        detail: `line ${at + 1}: database ${JSON.stringify(a[at] ?? '')}, file ${JSON.stringify(b[at] ?? '')}`,
      },
    ];
  });
}

/** A drift as one line of a test's failure. */
export function describeSqlDrift(drift: SqlDrift): string {
  switch (drift.problem) {
    case 'no file':
      return `${drift.key}: in the database, but no file of src/*/sql/ defines it`;
    case 'not in the database':
      return `${drift.key}: ${drift.file} defines it, but the migrated database lacks it`;
    case 'differs':
      return `${drift.key}: differs from ${drift.file} (${drift.detail}): a file changed without a migration (npm run sql:migration)`;
  }
}

/** A connection to run SQL on (a `pg` Client). */
export interface SqlConnection {
  query(sql: string): Promise<{ rows: unknown[] }>;
}

async function definitionsOf(connection: SqlConnection): Promise<Map<string, string>> {
  const { rows } = await connection.query(SQL_OBJECTS);
  return new Map((rows as { key: string; definition: string }[]).map((r) => [r.key, r.definition]));
}

/**
 * The drift between a database and the files: in one transaction, rolled back, the database's
 * definitions are read, every function, trigger and view is dropped, the files are run in
 * apply order, and the definitions are read again. Equal sets of equal definitions: no drift.
 * A file that does not run fails naming itself.
 */
export async function sqlSourceDrift(
  connection: SqlConnection,
  files: readonly SqlFile[],
): Promise<SqlDrift[]> {
  await connection.query('BEGIN');
  try {
    const database = await definitionsOf(connection);
    const { rows } = await connection.query(DROP_SQL_OBJECTS);
    for (const { statement } of rows as { statement: string }[]) await connection.query(statement);
    for (const file of applyOrder(files)) {
      try {
        await connection.query(file.text);
      } catch (error) {
        throw new Error(`${file.path} does not run: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    return compareSqlDefinitions(database, await definitionsOf(connection), files);
  } finally {
    await connection.query('ROLLBACK');
  }
}
