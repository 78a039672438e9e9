import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { CallerPermissions } from '../../auth/caller-permissions';
import type { Grants } from '../../auth/grants';
import type { AppConfig } from '../../common/config/app-config';
import { APP_CONFIG } from '../../common/config/config.tokens';
import type { AuthenticatedUser } from '../../auth/auth.decorators';
import { LiveSessions } from '../../auth/live-sessions';
import { AppLogger, type Logger } from '../../common/logging/logger';
import { TenantContext } from '../../tenancy/tenant-context';
import { TenantDataSources } from '../../tenancy/tenant-datasources.service';
import {
  liveFeedUnavailable,
  streamsStopping,
  tooManyFeeds,
  tooManyStreams,
  tooManyStreamsShare,
} from '../comandas.errors';
import { ComandasRepository } from '../comandas.repository';
import type { ComandaEstado } from '../comanda-state';
import type { SseStream } from './sse-stream';
import { feedEvent, frameOf, TenantFeed, type FeedEvent, type FeedSubscriber } from './tenant-feed';

/** What a stream asks for: its filters and where it resumes. */
export interface StreamRequest {
  id_mesa?: number;
  estado?: ComandaEstado;
  /** The last event id the client received (Last-Event-ID or lastEventId). */
  after?: number;
  /** Another module's stream over the same feed (the kitchen's): an extra filter. */
  filter?: (event: FeedEvent) => boolean;
  /** ... and its own frame of an event (default: the comanda stream's). */
  frame?: (event: FeedEvent, grants: Grants) => string;
}

/** A resumed stream replays at most this many entries, and none older than RETENTION_MS. */
export const RETENTION_ENTRIES = 1_000;
export const RETENTION_MS = 24 * 3_600_000;
/** A tenant's feed (its LISTEN connection) closes this long after its last subscriber left. */
export const FEED_IDLE_MS = 30_000;

/** Settings of the live streams a test may shorten (the service runs with the defaults). */
export interface LiveStreamOptions {
  /** How long a feed outlives its last subscriber (default FEED_IDLE_MS). */
  feedIdleMs?: number;
}

/** Injection token of LiveStreamOptions: optional, provided by tests only. */
export const LIVE_STREAM_OPTIONS = Symbol('LIVE_STREAM_OPTIONS');

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** Whether an event concerns a stream with these filters: the comanda now, or before it. */
export function matches(event: FeedEvent, request: StreamRequest): boolean {
  const now = event.data.comanda;
  const before = event.antes ?? {};
  if (request.id_mesa !== undefined && now.id_mesa !== request.id_mesa) {
    if (before.id_mesa !== request.id_mesa) return false;
  }
  if (request.estado !== undefined && now.estado !== request.estado) {
    if (before.estado !== request.estado) return false;
  }
  return request.filter?.(event) ?? true;
}

/**
 * The live streams of this instance (docs/comandas.md, "Live updates"): one TenantFeed (one
 * LISTEN connection) per tenant that has subscribers, shared by them, closed FEED_IDLE_MS (30 s)
 * after the last one leaves; at most SSE_MAX_CLIENTS streams, of which at most SSE_MAX_PER_TENANT
 * for one tenant and SSE_MAX_PER_USER for one user; a stream ends with its session; every stream
 * ended at shutdown so the HTTP server can close and clients reconnect elsewhere.
 */
@Injectable()
export class ComandaEventHub implements OnModuleDestroy {
  private readonly feeds = new Map<
    string,
    { feed: TenantFeed; ready: Promise<void>; idle: NodeJS.Timeout | null }
  >();
  private readonly streams = new Set<SseStream>();
  /** Streams open (or opening) per tenant, and per tenant and user: their shares. */
  private readonly perTenant = new Map<string, number>();
  private readonly perUser = new Map<string, number>();
  private readonly logger: Logger;
  private readonly feedIdleMs: number;
  /** The shares in force: a share is never more than what holds it. */
  private readonly tenantShare: number;
  private readonly userShare: number;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly context: TenantContext,
    private readonly dataSources: TenantDataSources,
    private readonly repository: ComandasRepository,
    private readonly caller: CallerPermissions,
    private readonly sessions: LiveSessions,
    logger: AppLogger,
    @Optional() @Inject(LIVE_STREAM_OPTIONS) options?: LiveStreamOptions,
  ) {
    this.logger = logger.child('LiveStream');
    this.feedIdleMs = options?.feedIdleMs ?? FEED_IDLE_MS;
    this.tenantShare = Math.min(config.SSE_MAX_PER_TENANT, config.SSE_MAX_CLIENTS);
    this.userShare = Math.min(config.SSE_MAX_PER_USER, this.tenantShare);
  }

  /** Streams open on this instance. */
  get streamCount(): number {
    return this.streams.size;
  }

  /** LISTEN connections open now (one per tenant with subscribers, for a while after). */
  get listenerCount(): number {
    let n = 0;
    for (const { feed } of this.feeds.values()) if (feed.connected) n += 1;
    return n;
  }

  /** The feed of a tenant, for tests and health: undefined when none is open. */
  feedOf(slug: string): TenantFeed | undefined {
    return this.feeds.get(slug)?.feed;
  }

  /**
   * Takes a share of the request's tenant and user (SSE_MAX_PER_TENANT, SSE_MAX_PER_USER: 429
   * TOO_MANY_STREAMS beyond), so that one tenant or one user cannot take the instance's slots
   * from the others. Returns its release.
   */
  private reserve(slug: string, user: AuthenticatedUser | undefined): () => void {
    const tenantCount = this.perTenant.get(slug) ?? 0;
    if (tenantCount >= this.tenantShare) throw tooManyStreamsShare('tenant', this.tenantShare);
    const userKey = user ? `${slug}\u0000${user.id_usuario}` : undefined;
    const userCount = userKey ? (this.perUser.get(userKey) ?? 0) : 0;
    if (userKey && userCount >= this.userShare) throw tooManyStreamsShare('user', this.userShare);
    this.perTenant.set(slug, tenantCount + 1);
    if (userKey) this.perUser.set(userKey, userCount + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.perTenant, slug);
      if (userKey) decrement(this.perUser, userKey);
    };
  }

  /** Streams open on this instance for a tenant (and one of its users). */
  sharesOf(slug: string, userId?: number): { tenant: number; user: number } {
    return {
      tenant: this.perTenant.get(slug) ?? 0,
      user: userId === undefined ? 0 : (this.perUser.get(`${slug}\u0000${userId}`) ?? 0),
    };
  }

  /** Refuses a stream beyond SSE_MAX_CLIENTS (503 TOO_MANY_STREAMS), before any header. */
  admit(): void {
    if (this.stopping || this.streams.size >= this.config.SSE_MAX_CLIENTS) {
      throw this.stopping ? streamsStopping() : tooManyStreams(this.config.SSE_MAX_CLIENTS);
    }
  }

  /**
   * Subscribes the stream to the request's tenant. The tenant's feed is started first (a
   * database that does not answer is a 503 before any header), then `open` sends the headers;
   * the stream joins the feed (events from then on are held back), the replay of what came
   * after `after` is read from the audit trail (or `reset` when that is beyond the retention),
   * then the held-back events follow without the replayed ones: no gap, no duplicate. Each
   * event's summary lists what the subscriber may do (`acciones`), from the permissions the
   * subscriber had when the stream opened.
   */
  async subscribe(stream: SseStream, request: StreamRequest, open: () => void): Promise<void> {
    const tenant = this.context.tenant;
    const grants = this.caller.grants;
    const user = this.caller.user;
    const url = this.dataSources.sessionUrl(tenant);
    const release = this.reserve(tenant.slug, user);
    let entry: Awaited<ReturnType<ComandaEventHub['feed']>>;
    try {
      entry = await this.feed(tenant.slug, tenant.timeZone, url);
    } catch (error) {
      release();
      throw error;
    }
    open();
    let held: FeedEvent[] | null = [];
    const sent = new Set<number>();
    const send = (event: FeedEvent) => {
      if (sent.has(event.id) || !matches(event, request)) return;
      stream.sendFrame((request.frame ?? frameOf)(event, grants));
    };
    const subscriber: FeedSubscriber = {
      deliver: (event) => (held ? held.push(event) : send(event)),
    };
    entry.feed.add(subscriber);
    this.streams.add(stream);
    // the stream lasts as long as the session it was opened with (a sign-out, a deactivation, a
    // change of credentials, the token's expiry end it as they end requests)
    const unwatch = user
      ? this.sessions.watch(user, (problem) => {
          stream.send('end', { reason: problem.reason, error: problem.message });
          stream.end();
        })
      : undefined;
    stream.onClose(() => {
      release();
      unwatch?.();
      this.leave(tenant.slug, subscriber, stream);
    });
    if (entry.idle) {
      clearTimeout(entry.idle);
      entry.idle = null;
    }

    try {
      if (request.after !== undefined)
        await this.replay(stream, request, request.after, sent, grants);
    } catch (error) {
      // the headers are sent: end the stream, the client reconnects with its Last-Event-ID
      this.logger.warn({ tenant: tenant.slug, err: (error as Error).message }, 'replay failed');
      stream.end();
      return;
    }
    const backlog = held;
    held = null;
    for (const event of backlog) send(event);
  }

  private async replay(
    stream: SseStream,
    request: StreamRequest,
    after: number,
    sent: Set<number>,
    grants: Grants,
  ): Promise<void> {
    const backlog = await this.repository.streamBacklog(after);
    const tooOld = backlog.oldest !== null && Date.now() - backlog.oldest.getTime() > RETENTION_MS;
    if (after > backlog.newest || backlog.since > RETENTION_ENTRIES || tooOld) {
      // the gap cannot be replayed: the client reloads its list, then follows the stream
      stream.send('reset', {
        reason:
          after > backlog.newest
            ? 'unknown event id'
            : `more than ${RETENTION_ENTRIES} events or 24 hours since`,
        lastEventId: backlog.newest,
      });
      return;
    }
    const timeZone = this.context.tenant.timeZone;
    const rows = await this.repository.streamEventsAfter(after, RETENTION_ENTRIES);
    for (const row of rows) {
      const event = feedEvent(row, timeZone);
      sent.add(event.id);
      if (matches(event, request)) stream.sendFrame((request.frame ?? frameOf)(event, grants));
    }
  }

  private async feed(slug: string, timeZone: string, url: string) {
    let entry = this.feeds.get(slug);
    if (!entry) {
      this.makeRoomForFeed();
      const feed = new TenantFeed({
        slug,
        url,
        timeZone,
        connectTimeoutMs: this.config.DB_CONNECT_TIMEOUT_MS,
        logger: this.logger,
      });
      entry = { feed, ready: feed.start(), idle: null };
      this.feeds.set(slug, entry);
      const created = entry;
      created.ready.catch(() => {
        if (this.feeds.get(slug) === created) this.feeds.delete(slug);
        void feed.close();
      });
    }
    try {
      await entry.ready;
    } catch (error) {
      this.logger.warn({ tenant: slug, err: (error as Error).message }, 'live feed cannot start');
      throw liveFeedUnavailable();
    }
    return entry;
  }

  /**
   * Keeps the LISTEN connections within TENANT_DATASOURCE_MAX (the connection budget counts one
   * per tenant DataSource): closes an idle feed to make room, or refuses the stream (503).
   */
  private makeRoomForFeed(): void {
    if (this.feeds.size < this.config.TENANT_DATASOURCE_MAX) return;
    for (const [slug, entry] of this.feeds) {
      if (entry.feed.size === 0) {
        if (entry.idle) clearTimeout(entry.idle);
        this.feeds.delete(slug);
        void entry.feed.close();
        return;
      }
    }
    throw tooManyFeeds(this.config.TENANT_DATASOURCE_MAX);
  }

  private leave(slug: string, subscriber: FeedSubscriber, stream: SseStream): void {
    this.streams.delete(stream);
    const entry = this.feeds.get(slug);
    if (!entry) return;
    entry.feed.remove(subscriber);
    if (entry.feed.size > 0 || entry.idle) return;
    entry.idle = setTimeout(() => {
      if (this.feeds.get(slug) !== entry || entry.feed.size > 0) return;
      this.feeds.delete(slug);
      void entry.feed.close();
    }, this.feedIdleMs);
    entry.idle.unref();
  }

  /** Before the HTTP server closes: end every stream, close every feed. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    for (const stream of [...this.streams]) stream.end();
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.all(
      feeds.map(async (entry) => {
        if (entry.idle) clearTimeout(entry.idle);
        await entry.feed.close();
      }),
    );
  }
}
