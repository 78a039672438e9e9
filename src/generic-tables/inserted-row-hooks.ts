import { Injectable } from '@nestjs/common';
import type { Queryable } from '../database/sql';
import type { AllowedTable } from './allowed-tables';

/** A row as the generic routes read it back (column name → value as node-pg reads it). */
export type Row = Record<string, unknown>;

/**
 * What a module does when a row of one of its tables is inserted through the generic routes:
 * it runs in the insert's transaction (`tx`), so what it writes commits or rolls back with the
 * row, and a failure of it fails the insert.
 */
export type InsertedRowHook = (row: Row, tx: Queryable) => Promise<void>;

/**
 * The rules other modules keep on their own tables when a row is written through the generic
 * routes, which know nothing of those rules: the module that owns a table registers a hook
 * here (when it starts, `onModuleInit`), and the generic insert runs it. So this module imports
 * none of the modules whose tables it serves (the comandas module audits its rows this way).
 */
@Injectable()
export class InsertedRowHooks {
  private readonly hooks = new Map<string, InsertedRowHook[]>();

  /** Runs `hook` after every row inserted into `table` through the generic routes. */
  register(table: AllowedTable, hook: InsertedRowHook): void {
    const hooks = this.hooks.get(table);
    if (hooks) hooks.push(hook);
    else this.hooks.set(table, [hook]);
  }

  /** Runs the hooks of `table`, in the order registered, on a row just inserted. */
  async run(table: string, row: Row, tx: Queryable): Promise<void> {
    for (const hook of this.hooks.get(table) ?? []) await hook(row, tx);
  }
}
