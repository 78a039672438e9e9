import { DataSource } from 'typeorm';
import { withDeadline } from '../common/deadline';
import { ServiceUnavailableError } from '../common/errors/domain-error';
import { tenantEntities } from './tenant-entities';

export interface TenantDataSourceOptions {
  /** Connections in each tenant's pool. */
  poolMax: number;
  /** DataSources kept at once; the least recently used idle one is closed past this. */
  maxDataSources: number;
  /** A DataSource unused for this long is closed (0: never). */
  idleTimeoutMs: number;
  connectTimeoutMs: number;
  /** A statement running longer is cancelled by PostgreSQL (SQLSTATE 57014); 0: no limit. */
  statementTimeoutMs: number;
}

export interface TenantConnectionTarget {
  slug: string;
  url: string;
}

interface Entry {
  url: string;
  ready: Promise<DataSource>;
  /** Requests currently using the DataSource: it is never closed under them. */
  refs: number;
  lastUsed: number;
  evicted: boolean;
  destroyed: boolean;
}

/** What a caller holds while it uses a tenant DataSource. */
export interface TenantDataSourceLease {
  dataSource: DataSource;
  release(): void;
}

/**
 * One TypeORM DataSource per tenant database, created lazily on the tenant's first request.
 * Concurrent first requests share one initialisation. Each has a small pool; past
 * `maxDataSources` the least recently used is closed (once its requests are done), and idle
 * ones are closed after `idleTimeoutMs`, so connections stay bounded by
 * poolMax × maxDataSources whatever the number of tenants.
 */
export class TenantDataSourceManager {
  /** Map order is recency order: the first key is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper?: NodeJS.Timeout;
  private closed = false;
  /** Tenants whose DataSource failed to open, until one opens again (health reports them). */
  private readonly openFailures = new Set<string>();

  constructor(private readonly options: TenantDataSourceOptions) {
    if (options.idleTimeoutMs > 0) {
      const every = Math.max(1_000, Math.min(options.idleTimeoutMs / 2, 30_000));
      this.sweeper = setInterval(() => this.closeIdle(), every);
      this.sweeper.unref();
    }
  }

  /** Number of DataSources currently cached (open or opening). */
  get size(): number {
    return this.entries.size;
  }

  /** Slugs of the cached DataSources, least recently used first. */
  cachedTenants(): string[] {
    return [...this.entries.keys()];
  }

  /** Gets (creating if needed) the tenant's DataSource and holds it until `release()`. */
  async acquire(target: TenantConnectionTarget): Promise<TenantDataSourceLease> {
    if (this.closed) {
      // the service is stopping: a late request is told to go to another instance
      throw new ServiceUnavailableError('The service is shutting down', 'SHUTTING_DOWN', 1);
    }
    let entry = this.entries.get(target.slug);
    if (entry && entry.url !== target.url) {
      // The catalog now points the tenant elsewhere: retire the old DataSource.
      this.evict(target.slug, entry);
      entry = undefined;
    }
    if (entry) {
      this.entries.delete(target.slug);
      this.entries.set(target.slug, entry);
    } else {
      entry = this.create(target);
    }
    entry.refs += 1;
    entry.lastUsed = Date.now();
    const held = entry;
    try {
      const dataSource = await held.ready.catch((error: unknown) => {
        this.openFailures.add(target.slug);
        throw error;
      });
      this.openFailures.delete(target.slug);
      let released = false;
      return {
        dataSource,
        release: () => {
          if (released) return;
          released = true;
          this.unref(held);
        },
      };
    } catch (error) {
      this.unref(held);
      throw error;
    }
  }

  /**
   * The tenant databases that do not answer now: each cached DataSource runs SELECT 1 (at most
   * `timeoutMs`), and the tenants whose DataSource failed to open since their last success.
   * Tenants not used since the start are not known, hence not probed.
   */
  async unreachable(timeoutMs: number): Promise<string[]> {
    const probes = [...this.entries].map(([slug, entry]) =>
      withDeadline(
        entry.ready.then((ds) => ds.query('SELECT 1')),
        timeoutMs,
      ).then(
        () => undefined,
        () => slug,
      ),
    );
    const down = new Set((await Promise.all(probes)).filter((s): s is string => s !== undefined));
    for (const slug of this.openFailures) down.add(slug);
    return [...down].sort();
  }

  /** Closes every DataSource (at shutdown). */
  async closeAll(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((entry) => this.destroy(entry)));
  }

  /** Closes the tenant's DataSource now (after `tenant migrate` or `drop`). */
  async forget(slug: string): Promise<void> {
    const entry = this.entries.get(slug);
    if (entry) this.evict(slug, entry);
  }

  private create(target: TenantConnectionTarget): Entry {
    const { poolMax, idleTimeoutMs, connectTimeoutMs, statementTimeoutMs } = this.options;
    const dataSource = new DataSource({
      type: 'postgres',
      url: target.url,
      entities: tenantEntities(),
      synchronize: false,
      migrationsRun: false,
      logging: false,
      applicationName: `comandas:${target.slug}`,
      connectTimeoutMS: connectTimeoutMs,
      extra: {
        max: poolMax,
        // idle pool connections are closed sooner than the DataSource itself
        idleTimeoutMillis: idleTimeoutMs > 0 ? Math.min(idleTimeoutMs, 60_000) : 60_000,
        // set on every connection of the pool (a startup parameter): no statement holds a
        // tenant connection forever
        ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      },
    });
    const entry: Entry = {
      url: target.url,
      ready: dataSource.initialize(),
      refs: 0,
      lastUsed: Date.now(),
      evicted: false,
      destroyed: false,
    };
    this.entries.set(target.slug, entry);
    // A failed initialisation is not cached: the next request tries again.
    entry.ready.catch(() => {
      if (this.entries.get(target.slug) === entry) this.entries.delete(target.slug);
      entry.evicted = true;
    });
    this.enforceCap();
    return entry;
  }

  private enforceCap(): void {
    for (const [slug, entry] of this.entries) {
      if (this.entries.size <= this.options.maxDataSources) break;
      this.evict(slug, entry);
    }
  }

  private evict(slug: string, entry: Entry): void {
    if (this.entries.get(slug) === entry) this.entries.delete(slug);
    entry.evicted = true;
    if (entry.refs === 0) void this.destroy(entry);
  }

  private unref(entry: Entry): void {
    entry.refs -= 1;
    entry.lastUsed = Date.now();
    if (entry.evicted && entry.refs === 0) void this.destroy(entry);
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    for (const [slug, entry] of this.entries) {
      if (entry.refs === 0 && entry.lastUsed < cutoff) this.evict(slug, entry);
    }
  }

  private async destroy(entry: Entry): Promise<void> {
    if (entry.destroyed) return;
    entry.destroyed = true;
    try {
      const dataSource = await entry.ready;
      if (dataSource.isInitialized) await dataSource.destroy();
    } catch {
      // initialisation failed: nothing to close
    }
  }
}
