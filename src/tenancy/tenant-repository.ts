import { Injectable } from '@nestjs/common';
import type { EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { Queryable } from '../database/sql';
import { TenantContext } from './tenant-context';

/**
 * The base of a repository of tenant tables (docs/adding-a-module.md). A singleton, like every
 * provider: each call reaches the database of the request's tenant through TenantContext, so a
 * repository can never read another tenant's rows.
 *
 * - `this.db`: raw SQL on the tenant database (bound parameters only);
 * - `this.repository(Entity)`: a TypeORM repository, for an entity registered with
 *   registerTenantEntities;
 * - `this.transaction(work)`: one transaction; pass its manager (a Queryable too) to the queries
 *   that must see and lock the same rows.
 */
@Injectable()
export abstract class TenantRepository {
  constructor(protected readonly tenant: TenantContext) {}

  /** The tenant database; inside a request's tenant transaction, that transaction. */
  protected get db(): Queryable {
    return this.tenant.transaction ?? this.tenant.dataSource;
  }

  protected repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.tenant.repository(entity);
  }

  /**
   * Runs `work` in one transaction of the tenant database (rolled back if it throws); with
   * `within`, in that caller's transaction instead (another module's change that includes this
   * one commits or rolls back both). Inside a request whose work already runs in a tenant
   * transaction (TenantContext.withinTransaction: an idempotent write), it joins that one.
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
    const within = (typeof first === 'function' ? undefined : first) ?? this.tenant.transaction;
    return within ? work(within) : this.tenant.dataSource.transaction(work);
  }
}
