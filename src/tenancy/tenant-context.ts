import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { RequestContext } from '../common/context/request-context';
import type { Tenant } from './entities/tenant.entity';
import { TenantContextMissingError } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';
import { TENANT_KEYS } from './tenant-context.keys';
import { TenantDataSources } from './tenant-datasources.service';

/**
 * The current tenant: the only reader of the tenant state kept in the request context (an
 * AsyncLocalStorage, see common/context/request-context.ts). Behaves like a request-scoped
 * provider without rebuilding the DI graph per request. Its getters throw when no tenant
 * context is active, so a missing context is a loud bug, not a default tenant.
 */
@Injectable()
export class TenantContext {
  constructor(
    private readonly catalog: TenantCatalogService,
    private readonly dataSources: TenantDataSources,
  ) {}

  get tenant(): Tenant {
    const tenant = RequestContext.get(TENANT_KEYS.tenant);
    if (!tenant || !RequestContext.get(TENANT_KEYS.dataSource))
      throw new TenantContextMissingError('the tenant');
    return tenant;
  }

  get dataSource(): DataSource {
    const dataSource = RequestContext.get(TENANT_KEYS.dataSource);
    if (!dataSource) throw new TenantContextMissingError('the tenant DataSource');
    return dataSource;
  }

  /**
   * A TypeORM repository of an entity registered with registerTenantEntities, on this tenant
   * (in the request's tenant transaction when there is one).
   */
  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return (this.transaction ?? this.dataSource.manager).getRepository(entity);
  }

  /**
   * The transaction of the tenant database that surrounds the request's work, when one does
   * (see `withinTransaction`); TenantRepository.transaction joins it instead of opening its own.
   */
  get transaction(): EntityManager | undefined {
    return RequestContext.get(TENANT_KEYS.transaction);
  }

  /**
   * Runs `work` with `tx` as the request's tenant transaction: every repository's `db` is `tx`
   * meanwhile and every repository transaction opened meanwhile joins it, so the whole of
   * `work` commits or rolls back with it. Only `work` and what it awaits see `tx` (a nested
   * request context), not other work of the request running at the same time. The caller
   * owns `tx` (it begins, commits or rolls it back).
   */
  withinTransaction<T>(tx: EntityManager, work: () => Promise<T>): Promise<T> {
    return RequestContext.runWith(TENANT_KEYS.transaction, tx, work);
  }

  /** Whether a tenant is set (for code that runs both inside and outside tenant requests). */
  get isSet(): boolean {
    return RequestContext.get(TENANT_KEYS.dataSource) !== undefined;
  }

  /**
   * The slug the request's X-Tenant-ID header names, when it is a well-formed one, whether that
   * tenant exists or not (authentication compares it with the token; the rate limit counts by
   * it). Undefined outside a request or without a valid header.
   */
  get requestedSlug(): string | undefined {
    return RequestContext.get(TENANT_KEYS.requested);
  }

  /**
   * The slug of the tenant the request names when the catalog has it (active, suspended or
   * being provisioned); undefined for an unknown or malformed one, or outside a request. What
   * the rate limit counts a client's requests under.
   */
  get knownSlug(): string | undefined {
    return this.knownTenant?.slug;
  }

  /**
   * The catalog row of the tenant the request names when the catalog has it, before the
   * tenant's guard has checked it (the outboxes' wake-up reads it as the request ends).
   */
  get knownTenant(): Tenant | undefined {
    return RequestContext.get(TENANT_KEYS.tenant);
  }

  /**
   * Runs `work` inside the context of tenant `slug` (CLI commands, jobs, imports): the same
   * checks as a request (the tenant must exist and be active) and the same DataSource cache.
   */
  async run<T>(slug: string, work: () => Promise<T>): Promise<T> {
    return RequestContext.run({ tenant: slug }, async () => {
      const tenant = await this.catalog.requireActive(slug);
      const lease = await this.dataSources.acquire(tenant);
      try {
        RequestContext.set(TENANT_KEYS.requested, slug);
        RequestContext.set(TENANT_KEYS.tenant, tenant);
        RequestContext.set(TENANT_KEYS.dataSource, lease.dataSource);
        return await work();
      } finally {
        lease.release();
      }
    });
  }
}
