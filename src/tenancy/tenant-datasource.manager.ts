import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { withDeadline } from '../common/deadline';
import { shuttingDown } from '../common/errors/common.errors';
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
  /**
   * Run on a DataSource just opened, before any request uses it: a rejection refuses the
   * opening (the DataSource is closed, the error goes to the callers, nothing is cached).
   * Skipped when the target's `schemaStamp` was checked already on this tenant.
   */
  checkSchema?: (target: TenantConnectionTarget, dataSource: DataSource) => Promise<void>;
  /** Run on every DataSource just opened, after checkSchema passed: a rejection refuses it too. */
  onOpen?: (target: TenantConnectionTarget, dataSource: DataSource) => Promise<void>;
}

export interface TenantConnectionTarget {
  slug: string;
  url: string;
  /**
   * What changes when the tenant's schema may have (the catalog's migrated_at): a DataSource
   * opened again with a stamp that passed `checkSchema` is not checked again.
   */
  schemaStamp?: string;
  /**
   * Settings every connection of its pool starts with (`-c name=value ...`, PostgreSQL's
   * `options` startup parameter): the feature switches its triggers read. A DataSource opened
   * with other settings is replaced.
   */
  sessionOptions?: string;
}

interface Entry {
  url: string;
  sessionOptions: string;
  ready: Promise<DataSource>;
  /** Set once `ready` has resolved: a request then takes it without waiting. */
  open?: DataSource;
  /** Used again since it opened: its pool may grow to poolMax connections. */
  grown: boolean;
  /** Requests currently using the DataSource: it is never closed under them. */
  refs: number;
  lastUsed: number;
  evicted: boolean;
  destroyed: boolean;
  /** checkSchema refused it: the database answers, it is not "down". */
  refused?: boolean;
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
  /** The PostgreSQL version of each server (host and port) a DataSource has opened on. */
  private readonly serverVersions = new Map<string, string>();
  /** The schema stamp each tenant last passed checkSchema with. */
  private readonly checkedStamps = new Map<string, string>();

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

  /**
   * Gets (creating if needed) the tenant's DataSource and holds it until `release()`. An open
   * DataSource is leased at once (no promise to wait for); one still opening, or a new one,
   * through a promise.
   */
  acquire(target: TenantConnectionTarget): TenantDataSourceLease | Promise<TenantDataSourceLease> {
    if (this.closed) {
      // the service is stopping: a late request is told to go to another instance
      throw shuttingDown();
    }
    let entry = this.entries.get(target.slug);
    if (
      entry &&
      (entry.url !== target.url || entry.sessionOptions !== (target.sessionOptions ?? ''))
    ) {
      // The catalog now points the tenant elsewhere, or a feature with triggers was switched:
      // retire the old DataSource.
      this.evict(target.slug, entry);
      entry = undefined;
    }
    if (entry) {
      this.entries.delete(target.slug);
      this.entries.set(target.slug, entry);
      if (!entry.grown) this.grow(entry);
    } else {
      entry = this.create(target);
    }
    entry.refs += 1;
    entry.lastUsed = Date.now();
    if (entry.open) return this.leaseOf(entry, entry.open);
    return this.whenOpen(target.slug, entry);
  }

  private async whenOpen(slug: string, held: Entry): Promise<TenantDataSourceLease> {
    try {
      const dataSource = await held.ready.catch((error: unknown) => {
        if (!held.refused) this.openFailures.add(slug);
        throw error;
      });
      this.openFailures.delete(slug);
      return this.leaseOf(held, dataSource);
    } catch (error) {
      this.unref(held);
      throw error;
    }
  }

  private leaseOf(held: Entry, dataSource: DataSource): TenantDataSourceLease {
    let released = false;
    return {
      dataSource,
      release: () => {
        if (released) return;
        released = true;
        this.unref(held);
      },
    };
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

  /**
   * A DataSource opens with a pool of one connection and grows to `poolMax` once it is used
   * again (a second request, or one arriving while it opens). Opening a PostgreSQL connection
   * costs the server a process and its catalog caches (about 2 ms of CPU): a tenant seen once
   * (many tenants, few DataSources, the least recently used closed at every request) then costs
   * one connection, not one per query its first request runs in parallel.
   */
  private grow(entry: Entry): void {
    entry.grown = true;
    if (entry.open) setPoolMax(entry.open, this.options.poolMax);
  }

  private create(target: TenantConnectionTarget): Entry {
    const { poolMax, idleTimeoutMs, connectTimeoutMs, statementTimeoutMs } = this.options;
    const server = serverOf(target.url);
    const dataSource = new DataSource({
      type: 'postgres',
      url: target.url,
      entities: tenantEntities(),
      synchronize: false,
      migrationsRun: false,
      logging: false,
      applicationName: `comandas:${target.slug}`,
      // node-pg's JavaScript client: without this, every new DataSource tries to require the
      // optional pg-native package, and a failed require searches the disk again each time
      // (several ms per tenant opened)
      nativeDriver: false,
      connectTimeoutMS: connectTimeoutMs,
      extra: {
        max: 1,
        // idle pool connections are closed sooner than the DataSource itself
        idleTimeoutMillis: idleTimeoutMs > 0 ? Math.min(idleTimeoutMs, 60_000) : 60_000,
        // set on every connection of the pool (a startup parameter): no statement holds a
        // tenant connection forever
        ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
        // after PGOPTIONS (node-pg's default for `options`, which a value here replaces): an
        // operator's own settings stay
        ...(target.sessionOptions
          ? { options: [process.env.PGOPTIONS, target.sessionOptions].filter(Boolean).join(' ') }
          : {}),
      },
    });
    // What TypeORM would ask the server on every open (three round trips on a new connection)
    // is the same for every tenant database of a server: the version is learnt once per
    // server, and tenant tables live in the public schema.
    const driver = dataSource.driver as PostgresDriver;
    driver.searchSchema ??= 'public';
    driver.version ??= this.serverVersions.get(server);
    const entry: Entry = {
      url: target.url,
      sessionOptions: target.sessionOptions ?? '',
      ready: dataSource.initialize().then((open) => this.checked(target, open, entry)),
      refs: 0,
      lastUsed: Date.now(),
      evicted: false,
      destroyed: false,
      grown: false,
    };
    this.entries.set(target.slug, entry);
    entry.ready.then(
      (open) => {
        entry.open = open;
        if (driver.version) this.serverVersions.set(server, driver.version);
        if (entry.grown) setPoolMax(open, poolMax);
      },
      // A failed initialisation is not cached: the next request tries again.
      () => {
        if (this.entries.get(target.slug) === entry) this.entries.delete(target.slug);
        entry.evicted = true;
      },
    );
    this.enforceCap();
    return entry;
  }

  /** Runs checkSchema on a DataSource just opened, unless its stamp passed already. */
  private async checked(
    target: TenantConnectionTarget,
    dataSource: DataSource,
    entry: Entry,
  ): Promise<DataSource> {
    const { checkSchema, onOpen } = this.options;
    const stamp = target.schemaStamp;
    const check =
      checkSchema && (stamp === undefined || this.checkedStamps.get(target.slug) !== stamp);
    if (!check && !onOpen) return dataSource;
    try {
      if (check) await checkSchema(target, dataSource);
      await onOpen?.(target, dataSource);
    } catch (error) {
      entry.refused = true;
      await dataSource.destroy().catch(() => undefined);
      throw error;
    }
    if (check && stamp !== undefined) this.checkedStamps.set(target.slug, stamp);
    return dataSource;
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

/** The server part of a connection URL (the same for every tenant database on it). */
function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port}`;
  } catch {
    return url;
  }
}

/** Raises the connection limit of a DataSource's pool (node-pg reads it at each checkout). */
function setPoolMax(dataSource: DataSource, max: number): void {
  const pool = (dataSource.driver as PostgresDriver).master as { options?: { max?: number } };
  if (pool?.options) pool.options.max = max;
}
