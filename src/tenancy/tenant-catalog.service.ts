import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG, CONTROL_CONNECTION } from '../common/config/config.tokens';
import { Tenant } from './entities/tenant.entity';
import {
  tenantNotFound,
  tenantProvisioning,
  tenantSuspended,
} from '../common/errors/common.errors';

/**
 * The most catalog rows (and absences: an unknown slug is cached too, so a flood of one costs one
 * query) kept: past it the expired go, then the oldest.
 */
const CACHE_MAX = 10_000;

interface CachedTenant {
  tenant: Tenant | null;
  expires: number;
}

/**
 * The tenant catalog of the control database, read with a short cache (TENANT_CACHE_TTL_MS) so
 * that a request costs no catalog query, while a suspension or a feature override made with the
 * CLI takes effect within the TTL on every instance, without a restart.
 */
@Injectable()
export class TenantCatalogService {
  private readonly tenants: Repository<Tenant>;
  private readonly cache = new Map<string, CachedTenant>();
  private readonly pending = new Map<string, Promise<Tenant | null>>();

  constructor(
    @InjectDataSource(CONTROL_CONNECTION) control: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.tenants = control.getRepository(Tenant);
  }

  /** The catalog row of `slug`, or null when there is none (cached). */
  async find(slug: string): Promise<Tenant | null> {
    const now = Date.now();
    const cached = this.cache.get(slug);
    if (cached && cached.expires > now) return cached.tenant;
    let pending = this.pending.get(slug);
    if (!pending) {
      pending = this.tenants.findOneBy({ slug }).finally(() => this.pending.delete(slug));
      this.pending.set(slug, pending);
    }
    const tenant = await pending;
    if (this.config.TENANT_CACHE_TTL_MS > 0) {
      this.cache.delete(slug);
      this.cache.set(slug, { tenant, expires: now + this.config.TENANT_CACHE_TTL_MS });
      if (this.cache.size > CACHE_MAX) this.trim(now);
    }
    return tenant;
  }

  /** How many catalog rows (and absences) are cached. */
  get cachedCount(): number {
    return this.cache.size;
  }

  /** Drops the expired entries, then the oldest while there are too many. */
  private trim(now: number): void {
    for (const [slug, entry] of this.cache) if (entry.expires <= now) this.cache.delete(slug);
    for (const slug of this.cache.keys()) {
      if (this.cache.size <= CACHE_MAX) break;
      this.cache.delete(slug);
    }
  }

  /** The tenant, refusing unknown, suspended and half-provisioned ones. */
  async requireActive(slug: string): Promise<Tenant> {
    const tenant = await this.find(slug);
    this.assertUsable(slug, tenant);
    return tenant;
  }

  assertUsable(slug: string, tenant: Tenant | null | undefined): asserts tenant is Tenant {
    if (!tenant) throw tenantNotFound(slug);
    if (tenant.status === 'suspended') throw tenantSuspended(slug);
    if (tenant.status === 'provisioning') throw tenantProvisioning(slug);
  }

  /** Every active tenant, read now (not cached): for jobs that visit each tenant in turn. */
  activeTenants(): Promise<Tenant[]> {
    return this.tenants.find({ where: { status: 'active' }, order: { slug: 'ASC' } });
  }

  /** Drops cached catalog rows (all, or one tenant's). */
  invalidate(slug?: string): void {
    if (slug) this.cache.delete(slug);
    else this.cache.clear();
  }
}
