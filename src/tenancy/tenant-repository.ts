import { Injectable } from '@nestjs/common';
import type { EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { Queryable } from '../database/sql';
import { directQueries, inTransaction } from '../database/transaction';
import { TenantContext } from './tenant-context';

/**
 * The base of a repository of tenant tables (docs/adding-a-module.md). A singleton, like every
 * provider: each call reaches the database of the request's tenant through TenantContext, so a
 * repository can never read another tenant's rows.
 *
 * - `this.db`: raw SQL on the tenant database (bound parameters only); inside a transaction,
 *   that transaction;
 * - `this.repository(Entity)`: a TypeORM repository, for an entity registered with
 *   registerTenantEntities (inside a transaction, on that transaction);
 * - `this.transaction(work)`: one transaction; its manager (a Queryable too) is handed to
 *   `work`, and every repository's `db` is that transaction while `work` runs.
 */
@Injectable()
export abstract class TenantRepository {
  constructor(protected readonly tenant: TenantContext) {}

  /** The tenant database; inside a request's tenant transaction, that transaction. */
  protected get db(): Queryable {
    return this.tenant.transaction ?? directQueries(this.tenant.dataSource);
  }

  protected repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.tenant.repository(entity);
  }

  /**
   * Runs `work` in one transaction of the tenant database (rolled back if it throws); with
   * `within`, in that caller's transaction instead (another module's change that includes this
   * one commits or rolls back both). Inside a request whose work already runs in a tenant
   * transaction (an idempotent write, or an outer `transaction`), it joins that one. Whichever
   * it is, it is the request's tenant transaction while `work` runs
   * (TenantContext.withinTransaction): `this.db` of every repository is that transaction, so a
   * query that does not take `tx` still sees the transaction's rows and rolls back with it.
   * A connection lost under it (PostgreSQL stopped) fails with the connection's error, answered
   * 503 (src/database/transaction.ts).
   */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T>;
  transaction<T>(
    within: EntityManager | undefined,
    work: (tx: EntityManager) => Promise<T>,
  ): Promise<T>;
  transaction<T>(
    first: EntityManager | undefined | ((tx: EntityManager) => Promise<T>),
    second?: (tx: EntityManager) => Promise<T>,
  ): Promise<T> {
    const work = typeof first === 'function' ? first : second!;
    const current = this.tenant.transaction;
    const within = (typeof first === 'function' ? undefined : first) ?? current;
    if (within === undefined)
      return inTransaction(this.tenant.dataSource, (tx) =>
        this.tenant.withinTransaction(tx, () => work(tx)),
      );
    if (within === current) return work(within);
    return this.tenant.withinTransaction(within, () => work(within));
  }
}
