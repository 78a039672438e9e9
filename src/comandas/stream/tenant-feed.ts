import { Client, type Notification } from 'pg';
import type { Grants } from '../../auth/grants';
import type { Logger } from '../../common/logging/logger';
import { toStreamEvent, withAcciones, type StreamEventFields } from '../comanda.mapper';
import { streamEventsQuery, type StreamEventRow } from '../comandas.repository';
import { sseFrame } from './sse-stream';

/** The channel the audit trail's trigger notifies (tenant migration 1764600000000). */
export const CHANNEL = 'comanda_eventos';

/** An event as the feed hands it to its subscribers. */
export interface FeedEvent {
  id: number;
  /** The entry and its comanda's summary, but the summary's `acciones` (each subscriber's). */
  data: StreamEventFields;
  /** The entry's `antes` (the filters also match what the comanda was before the change). */
  antes: Record<string, unknown> | null;
  /** The entry's `despues` (other modules' streams filter on it: the kitchen's). */
  despues: Record<string, unknown> | null;
  /** The SSE frames made so far, one per distinct permission set among the subscribers. */
  frames: Map<Grants, string>;
}

/** The feed's event of an audit entry read with its comanda's summary. */
export function feedEvent(row: StreamEventRow, timeZone: string): FeedEvent {
  return {
    id: Number(row.id_evento),
    data: toStreamEvent(row, timeZone),
    antes: row.antes,
    despues: row.despues,
    frames: new Map(),
  };
}

/**
 * The event's frame for a subscriber holding `grants` (its summary's `acciones` are theirs),
 * serialized once per distinct set of permissions however many streams it goes to: roles are
 * few, so an event is serialized a handful of times at most, not once per stream.
 */
export function frameOf(event: FeedEvent, grants: Grants): string {
  let frame = event.frames.get(grants);
  if (frame === undefined) {
    frame = sseFrame('comanda', withAcciones(event.data, grants), event.id);
    event.frames.set(grants, frame);
  }
  return frame;
}

export interface FeedSubscriber {
  deliver(event: FeedEvent): void;
}

export interface TenantFeedOptions {
  slug: string;
  /** A session connection to the tenant database (LISTEN needs one, not a pooled one). */
  url: string;
  timeZone: string;
  connectTimeoutMs: number;
  logger: Logger;
  /** How often the connection is checked (pg_listening_channels) and the trail re-read. */
  checkEveryMs?: number;
  /** How long a missing id is waited for before it is taken for a rolled-back entry. */
  gapTtlMs?: number;
}

/** Entries read per query when catching up. */
const BATCH = 500;
const READ_SQL = streamEventsQuery('(e.id_evento > $1 OR e.id_evento = ANY($2::bigint[]))', BATCH);
/** Missing ids remembered at most (a burst of rolled-back entries cannot grow it unbounded). */
const MAX_GAPS = 10_000;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5_000;

/**
 * One tenant's live feed on one instance: a dedicated session connection that LISTENs on the
 * tenant database (never one of the request pools), and the subscribers of that tenant.
 *
 * The audit trail is the source of truth; a notification only says "read it". The feed keeps the
 * last id it delivered and reads every committed entry after it, so a lost notification, a
 * dropped connection (reconnected with backoff) or a connection that died silently (checked with
 * `pg_listening_channels()` every 10 s, which also re-reads the trail) costs a delay, never an
 * event. Ids are given when an entry is written, not when it commits: an id missing below a
 * delivered one belongs to a transaction still running (or rolled back); the feed remembers it
 * for a while and delivers it when it commits. Entries of one comanda are written under its
 * row lock, so per comanda the order is always the order of the changes.
 */
export class TenantFeed {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private lastId = 0;
  /** Missing ids below lastId, with when they were first missed. */
  private readonly gaps = new Map<number, number>();
  private readonly subscribers = new Set<FeedSubscriber>();
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private backoffMs = BACKOFF_MIN_MS;
  private checkTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Times the connection was (re)established; for health and tests. */
  connects = 0;

  constructor(private readonly options: TenantFeedOptions) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** Whether a LISTEN connection is up now (health counts it in the connection budget). */
  get connected(): boolean {
    return this.client !== null;
  }

  /** The last id delivered: a subscriber's replay reads up to here itself. */
  get position(): number {
    return this.lastId;
  }

  add(subscriber: FeedSubscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: FeedSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /**
   * Connects, LISTENs and starts from the newest entry (earlier ones are a subscriber's replay).
   * Resolves once listening, so a subscriber added before sees every entry committed after.
   */
  async start(): Promise<void> {
    const client = await this.connect();
    const [row] = (
      await client.query<{ newest: string }>(
        'SELECT coalesce(max(id_evento), 0) AS newest FROM comanda_eventos',
      )
    ).rows;
    this.lastId = Number(row.newest);
    const every = this.options.checkEveryMs ?? 10_000;
    this.checkTimer = setInterval(() => void this.check(), every);
    this.checkTimer.unref();
  }

  /** Ends the connection and the timers; subscribers are the hub's to end. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await this.reading?.catch(() => undefined);
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: `comandas-listener:${this.options.slug}`,
      // a check or a read that hangs on a dead connection must not hang the feed
      query_timeout: 5_000,
      keepAlive: true,
    });
    client.on('notification', (message: Notification) => {
      if (message.channel === CHANNEL) this.read();
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
    this.connects += 1;
    this.backoffMs = BACKOFF_MIN_MS;
    return client;
  }

  /** The connection ended or failed: reconnect with backoff, then catch up from lastId. */
  private lost(client: Client, error: Error | undefined): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    this.options.logger.warn(
      { tenant: this.options.slug, err: error?.message, retryInMs: this.backoffMs },
      'live feed connection lost; reconnecting',
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      this.connecting ??= this.connect()
        .then(() => {
          this.options.logger.info({ tenant: this.options.slug }, 'live feed reconnected');
          this.read();
        })
        .catch((error: Error) => {
          this.options.logger.warn(
            { tenant: this.options.slug, err: error.message, retryInMs: this.backoffMs },
            'live feed reconnection failed',
          );
          this.scheduleReconnect();
        })
        .finally(() => {
          this.connecting = null;
        });
    }, wait);
    this.reconnectTimer.unref();
  }

  /** Is the connection still LISTENing? Any doubt: drop it (reconnect catches up). */
  private async check(): Promise<void> {
    const client = this.client;
    if (!client || this.closed) return;
    try {
      const { rows } = await client.query<{ channel: string }>(
        'SELECT pg_listening_channels() AS channel',
      );
      if (!rows.some((r) => r.channel === CHANNEL)) throw new Error('not listening');
      this.read();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  /** Reads and delivers what is new; one read at a time, another one after it if asked. */
  private read(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readAll()
      .catch((error: Error) => {
        const client = this.client;
        if (client) this.lost(client, error);
      })
      .finally(() => {
        this.reading = null;
        if (this.readAgain && !this.closed) {
          this.readAgain = false;
          this.read();
        }
      });
  }

  private async readAll(): Promise<void> {
    for (;;) {
      const client = this.client;
      if (!client || this.closed) return;
      this.forgetOldGaps();
      const gapIds = [...this.gaps.keys()];
      // a named statement: planned once per connection, not at every notification
      const { rows } = await client.query<StreamEventRow>({
        name: 'comanda-feed-read',
        text: READ_SQL,
        values: [this.lastId, gapIds],
      });
      for (const row of rows) this.accept(row);
      if (rows.length < BATCH) return;
    }
  }

  private accept(row: StreamEventRow): void {
    const id = Number(row.id_evento);
    if (this.gaps.delete(id)) {
      // a transaction that began before a delivered one committed after it
    } else if (id > this.lastId) {
      const now = Date.now();
      for (let missing = this.lastId + 1; missing < id && this.gaps.size < MAX_GAPS; missing++)
        this.gaps.set(missing, now);
      this.lastId = id;
    } else {
      return; // already delivered
    }
    const event = feedEvent(row, this.options.timeZone);
    for (const subscriber of this.subscribers) subscriber.deliver(event);
  }

  /** A missing id not committed within gapTtlMs is a rolled-back entry: stop waiting for it. */
  private forgetOldGaps(): void {
    const oldest = Date.now() - (this.options.gapTtlMs ?? 30_000);
    for (const [id, since] of this.gaps) if (since < oldest) this.gaps.delete(id);
  }
}
