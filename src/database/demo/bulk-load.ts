import { rowsOf, type DemoQuery } from './seed-helpers';

/**
 * Loads a year of rows into tables the way PostgreSQL's manual advises for populating a
 * database ("Populating a Database": remove indexes and foreign keys, load, put them back):
 * the secondary indexes, unique constraints and foreign keys of `tables` are dropped, `load`
 * runs, and every one of them is created again from its own definition as the catalog gave it
 * (`pg_get_indexdef`, `pg_get_constraintdef`). An index built once over the loaded rows is a
 * sort, not a hundred thousand insertions; a foreign key added once is one anti-join, not one
 * trigger query per row. The constraints are checked in full when they are added again: a row
 * `load` got wrong still fails the transaction.
 *
 * The row triggers named in `quietTriggers` are disabled for the load (the table owner's
 * right): the history of a demo is not live news, and a NOTIFY per inserted audit entry would
 * wake every listening service for nothing.
 *
 * Runs inside the caller's transaction, on tables nobody else can see yet (a tenant database
 * being provisioned): the DDL takes their exclusive locks until the commit.
 */
export async function bulkLoad(
  query: DemoQuery,
  tables: readonly string[],
  quietTriggers: readonly (readonly [table: string, trigger: string])[],
  load: () => Promise<void>,
): Promise<void> {
  const definitions = rowsOf<{ tabla: string; nombre: string; drop: string; create: string }>(
    await query(
      `SELECT c.conrelid::regclass::text AS tabla, c.conname AS nombre,
              format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS drop,
              format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
                     pg_get_constraintdef(c.oid)) AS create
         FROM pg_constraint c
        WHERE c.conrelid = ANY ($1::regclass[]) AND c.contype IN ('f', 'u')
       UNION ALL
       SELECT i.indrelid::regclass::text, x.relname,
              format('DROP INDEX %s', i.indexrelid::regclass), pg_get_indexdef(i.indexrelid)
         FROM pg_index i
         JOIN pg_class x ON x.oid = i.indexrelid
        WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        ORDER BY 1, 2`,
      [tables],
    ),
  );
  const triggers = (verb: 'DISABLE' | 'ENABLE') =>
    quietTriggers.map(([table, trigger]) => `ALTER TABLE ${table} ${verb} TRIGGER ${trigger}`);

  await query([...triggers('DISABLE'), ...definitions.map((d) => d.drop)].join(';\n'));
  await load();
  // unique constraints and indexes first, the foreign keys (which may rely on them) last
  const foreignLast = [...definitions].sort(
    (a, b) => Number(a.create.includes('FOREIGN KEY')) - Number(b.create.includes('FOREIGN KEY')),
  );
  await query([...foreignLast.map((d) => d.create), ...triggers('ENABLE')].join(';\n'));
}
