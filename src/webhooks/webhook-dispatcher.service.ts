import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger, type Logger } from '../common/logging/logger';
import { OutboxDueRepository, type DueTenant } from '../outbox/outbox-due.repository';
import { OutboxWakeups } from '../outbox/outbox-wakeups.service';
import type { Tenant } from '../tenancy/entities/tenant.entity';
import { TenantCatalogService } from '../tenancy/tenant-catalog.service';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import { parseRetryDelays, urlForLogs } from './webhook-events';
import { sendWebhook } from './webhook-sender';
import { signatureHeader } from './webhook-signature';
import { WebhooksRepository, type ClaimedMessage, type Delivered } from './webhooks.repository';

/** The webhooks' name as a consumer of the outboxes' table of due tenants (`outbox_due`). */
const CONSUMER = 'webhooks';
/** The purge of old messages runs at most this often per tenant and instance. */
const PURGE_EVERY_MS = 3_600_000;
/** Tenants visited at once by a poll or a sweep (each visit holds a connection of its pool). */
const POLL_CONCURRENCY = 4;
/**
 * The sweep's pace: at most this many tenants a second (a thousand in 50 s). It is the backstop
 * of the backstop, and a visit of a tenant whose DataSource is not open costs a PostgreSQL
 * session: at the start of an instance, unpaced, it would take the cores from the requests.
 */
const SWEEP_PER_SECOND = 20;
/** How long a wake-up's drain waits for the commits right after it (docs/webhooks.md). */
const GATHER_MS = 50;
/** Time kept between an attempt's timeout and its lease's end, for recording it. */
const LEASE_SLACK_MS = 2_000;
/** How long a shutdown waits for the deliveries under way (the leases cover the rest). */
const SHUTDOWN_WAIT_MS = 5_000;

/** One tenant's delivery on this instance (no connection of its own: see WebhookDispatcher). */
interface TenantWorker {
  slug: string;
  draining: Promise<void> | null;
  /** Woken while draining: drain again once done (a message may have come meanwhile). */
  again: boolean;
  /** The wake-up for the next message due before the next poll. */
  timer: NodeJS.Timeout | null;
  /** A commit's wake-up, gathering the commits of the next GATHER_MS. */
  gathering: NodeJS.Timeout | null;
  /** The mark of the tenant's `outbox_due` row a poll read: the next drain settles that row. */
  mark: string | null;
  /** Visited by a sweep: the next drain writes the tenant's next due time, claim or not. */
  swept: boolean;
  lastPurge: number;
}

/**
 * Sends the outbox's messages (docs/webhooks.md, "Delivery"). Every instance runs one; they
 * share nothing but the databases and, with REDIS_URL, the wake-ups. No connection is its own:
 * a visit of a tenant borrows one of the tenant's pool, within the connection budget, whatever
 * the number of tenants with the feature on.
 *
 * - a write request of a tenant with the feature on wakes this instance's worker of the tenant
 *   when it succeeds, and the other instances' through Redis (OutboxWakeups);
 * - a poll every WEBHOOKS_POLL_MS reads, in one query of the control database, the tenants
 *   whose `outbox_due` row is due (the backstop: a wake-up lost, a retry come due, a dead
 *   instance's claims): a drain that claims writes the row (its lease's end), a visit settles
 *   it to the tenant's next due time or deletes it;
 * - a sweep at the start and every WEBHOOKS_SWEEP_MS visits every tenant with the feature on
 *   (messages no write of the service woke: SQL, an instance that died right after a commit);
 * - a drain claims due messages (`FOR UPDATE SKIP LOCKED`, a lease of WEBHOOKS_LEASE_MS),
 *   commits the claim and sends them outside any transaction, WEBHOOKS_CONCURRENCY at a time, the
 *   messages of one key (one comanda) one after another in order; a failed attempt is recorded
 *   at once, the batch's deliveries together after it.
 *
 * An instance that dies mid-delivery leaves its claimed messages to the others when their lease
 * ends (the `outbox_due` row its claim wrote): at least once. A message is not started when its
 * lease would end before its timeout.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly workers = new Map<string, TenantWorker>();
  private readonly logger: Logger;
  private readonly delaysMs: number[];
  private pollTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private sweeping: Promise<void> | null = null;
  private closed = false;
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: TenantCatalogService,
    private readonly features: TenantFeatures,
    private readonly context: TenantContext,
    private readonly repository: WebhooksRepository,
    private readonly due: OutboxDueRepository,
    private readonly wakeups: OutboxWakeups,
    logger: AppLogger,
  ) {
    this.logger = logger.child('Webhooks');
    this.delaysMs = parseRetryDelays(config.WEBHOOKS_RETRY_DELAYS);
  }

  /**
   * Starts delivering (the HTTP service does; the CLIs, which share the module, do not): the
   * wake-ups, the poll, and a sweep of every tenant now. Resolves once the wake-ups of the other
   * instances are heard (Redis), or a second at most.
   */
  start(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.started = true;
    this.wakeups.register({
      wants: (tenant) => this.features.isOn('webhooks', tenant),
      wake: (slug) => this.notified(this.worker(slug)),
    });
    this.pollTimer = setInterval(() => void this.poll(), this.config.WEBHOOKS_POLL_MS);
    this.pollTimer.unref();
    this.sweepTimer = setInterval(() => void this.sweep(), this.config.WEBHOOKS_SWEEP_MS);
    this.sweepTimer.unref();
    void this.sweep();
    return this.wakeups.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    const draining = [...this.workers.values()].map((worker) => worker.draining);
    await Promise.race([
      Promise.allSettled([this.polling, this.sweeping, ...draining]),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
    ]);
    for (const worker of this.workers.values()) this.stop(worker);
  }

  /** Visits the tenants whose `outbox_due` row is due: one query of the control database. */
  poll(): Promise<void> {
    this.polling ??= this.visitDue().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /**
   * Visits every tenant with the feature on, SWEEP_PER_SECOND at most; forgets the workers of
   * the others.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.visitAll().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async visitDue(): Promise<void> {
    let due: DueTenant[];
    try {
      due = await this.due.due(CONSUMER);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'webhooks: due tenants unreadable');
      return;
    }
    await this.visit(
      due.map(({ slug, mark }) => {
        const worker = this.worker(slug);
        worker.mark = mark;
        return worker;
      }),
    );
  }

  private async visitAll(): Promise<void> {
    let tenants: Tenant[];
    try {
      tenants = await this.catalog.activeTenants();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'webhooks: tenant catalog unreadable');
      return;
    }
    const on = tenants.filter((tenant) => this.features.isOn('webhooks', tenant));
    const slugs = new Set(on.map((tenant) => tenant.slug));
    for (const worker of this.workers.values()) {
      if (!slugs.has(worker.slug) && !worker.draining) {
        this.workers.delete(worker.slug);
        this.stop(worker);
      }
    }
    const workers = on.map((tenant) => {
      const worker = this.worker(tenant.slug);
      worker.swept = true;
      return worker;
    });
    const batchMs = (POLL_CONCURRENCY * 1_000) / SWEEP_PER_SECOND;
    for (let i = 0; i < workers.length && !this.closed; i += POLL_CONCURRENCY) {
      const started = Date.now();
      await this.visit(workers.slice(i, i + POLL_CONCURRENCY));
      const rest = batchMs - (Date.now() - started);
      if (rest > 0 && i + POLL_CONCURRENCY < workers.length)
        await new Promise((resolve) => setTimeout(resolve, rest).unref());
    }
  }

  /**
   * Drains the workers, POLL_CONCURRENCY at a time; a tenant already draining (a slow receiver's
   * batch) drains again when done, without holding up the others' visit.
   */
  private async visit(workers: TenantWorker[]): Promise<void> {
    const idle = workers.filter((worker) => {
      if (!worker.draining) return true;
      worker.again = true;
      return false;
    });
    for (let i = 0; i < idle.length && !this.closed; i += POLL_CONCURRENCY) {
      await Promise.all(idle.slice(i, i + POLL_CONCURRENCY).map((worker) => this.wake(worker)));
    }
  }

  private worker(slug: string): TenantWorker {
    let worker = this.workers.get(slug);
    if (!worker) {
      worker = {
        slug,
        draining: null,
        again: false,
        timer: null,
        gathering: null,
        mark: null,
        swept: false,
        lastPurge: 0,
      };
      this.workers.set(slug, worker);
    }
    return worker;
  }

  /**
   * A commit may have written messages: drain a moment later, so that the commits of that moment
   * go out in one claim and one record rather than one each (the writes' CPU is what the
   * dispatcher shares).
   */
  private notified(worker: TenantWorker): void {
    if (this.closed) return;
    if (worker.draining) {
      worker.again = true;
      return;
    }
    if (worker.gathering) return;
    worker.gathering = setTimeout(() => {
      worker.gathering = null;
      void this.wake(worker);
    }, GATHER_MS);
  }

  /** Drains the tenant's due messages; woken while draining, drains again after. */
  private wake(worker: TenantWorker): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (worker.draining) {
      worker.again = true;
      return worker.draining;
    }
    let claimed = false;
    worker.draining = this.drain(worker)
      .then((some) => {
        claimed = some;
      })
      .catch((error: unknown) => {
        this.logger.warn(
          { tenant: worker.slug, err: (error as Error).message },
          'webhooks: delivery round failed; the poll retries',
        );
      })
      .finally(() => {
        worker.draining = null;
        if (worker.again && !this.closed && this.workers.get(worker.slug) === worker) {
          worker.again = false;
          // it sent messages: more may be waiting, drain again now; it found none (writes of a
          // tenant without endpoints): gather the next commits, a claim per GATHER_MS at most
          if (claimed) void this.wake(worker);
          else this.notified(worker);
        }
      });
    return worker.draining;
  }

  /**
   * Claims and sends until a claim comes back short; answers whether it claimed any. Two
   * statements for a message alone, its claim and its record, and two of the control database:
   * the claim's `outbox_due` row (the lease's end, for the others should this instance die) and
   * the visit's result (the tenant's next due time, or none).
   */
  private async drain(worker: TenantWorker): Promise<boolean> {
    let mark = worker.mark;
    const swept = worker.swept;
    worker.mark = null;
    worker.swept = false;
    // a wake-up heard from another instance names a tenant this one has not checked
    const tenant = await this.catalog.find(worker.slug);
    if (!tenant || tenant.status !== 'active' || !this.features.isOn('webhooks', tenant))
      return false;
    let claimed = false;
    await this.context.run(worker.slug, async () => {
      if (Date.now() - worker.lastPurge >= PURGE_EVERY_MS) {
        worker.lastPurge = Date.now();
        const purged = await this.repository.purge();
        if (purged > 0)
          this.logger.info({ tenant: worker.slug, purged }, 'webhooks: old messages purged');
      }
      const batchSize = this.config.WEBHOOKS_CONCURRENCY * 4;
      let retrying = false;
      for (;;) {
        const claimedAt = Date.now();
        const batch = await this.repository.claim(batchSize, this.config.WEBHOOKS_LEASE_MS);
        if (batch.length > 0) {
          claimed = true;
          // a poll's row covers the claim already; else the claim writes one, due at its lease's end
          mark ??= await this.markDue(tenant, new Date(claimedAt + this.config.WEBHOOKS_LEASE_MS));
          retrying = (await this.deliverBatch(worker.slug, batch, claimedAt)) || retrying;
        }
        // shutting down: the unsent messages were handed back, due now; the row says so below
        if (this.closed || batch.length < batchSize) break;
      }
      if (mark === null && !swept && !retrying && !worker.timer) return;
      const next = await this.repository.nextDue();
      // a retry due before the next poll gets a wake-up of its own
      if (retrying || worker.timer) this.schedule(worker, next);
      try {
        if (mark !== null) await this.due.settle(CONSUMER, tenant.id, mark, next);
        else if (next !== null) await this.due.mark(CONSUMER, tenant.id, next);
      } catch (error) {
        this.logger.warn(
          { tenant: worker.slug, err: (error as Error).message },
          'webhooks: next due time not recorded; the sweep finds the tenant',
        );
      }
    });
    return claimed;
  }

  /** Writes the tenant's `outbox_due` row (null: the control database did not answer). */
  private async markDue(tenant: Tenant, dueAt: Date): Promise<string | null> {
    try {
      return await this.due.mark(CONSUMER, tenant.id, dueAt);
    } catch (error) {
      this.logger.warn(
        { tenant: tenant.slug, err: (error as Error).message },
        'webhooks: claim not recorded in outbox_due; the sweep finds the tenant',
      );
      return null;
    }
  }

  /** Wakes the worker when its next message is due, if that is before the next poll. */
  private schedule(worker: TenantWorker, due: Date | null): void {
    if (worker.timer) clearTimeout(worker.timer);
    worker.timer = null;
    if (due === null) return;
    const wait = Math.max(0, due.getTime() - Date.now());
    if (wait >= this.config.WEBHOOKS_POLL_MS) return;
    worker.timer = setTimeout(() => {
      worker.timer = null;
      void this.wake(worker);
    }, wait + 10);
    worker.timer.unref();
  }

  /**
   * Sends a claimed batch: the messages of one key (one comanda, one till session) one after
   * another in order, the keys side by side, WEBHOOKS_CONCURRENCY at most.
   */
  private async deliverBatch(
    slug: string,
    batch: ClaimedMessage[],
    claimedAt: number,
  ): Promise<boolean> {
    const groups = new Map<string, ClaimedMessage[]>();
    for (const message of batch) {
      const key = `${message.id_webhook}|${message.clave ?? message.id_mensaje}`;
      const group = groups.get(key);
      if (group) group.push(message);
      else groups.set(key, [message]);
    }
    const queue = [...groups.values()];
    const leaseEnds = claimedAt + this.config.WEBHOOKS_LEASE_MS;
    const unsent: ClaimedMessage[] = [];
    const delivered: Delivered[] = [];
    let retrying = false;
    const lanes = Array.from(
      { length: Math.min(this.config.WEBHOOKS_CONCURRENCY, queue.length) },
      async () => {
        for (let group = queue.shift(); group; group = queue.shift()) {
          for (const [i, message] of group.entries()) {
            // shutting down, or started now it could outlive its lease: hand it back
            if (
              this.closed ||
              Date.now() + this.config.WEBHOOKS_TIMEOUT_MS + LEASE_SLACK_MS > leaseEnds
            ) {
              unsent.push(...group.slice(i), ...queue.splice(0).flat());
              return;
            }
            const done = await this.deliver(slug, message);
            if (done === 'retrying') retrying = true;
            else if (done) delivered.push(done);
          }
        }
      },
    );
    await Promise.all(lanes);
    // the batch's deliveries in one statement (an instance that dies before it sends them again)
    if (delivered.length > 0) await this.recordDelivered(slug, delivered);
    if (unsent.length > 0) await this.repository.release(unsent);
    return retrying;
  }

  private async recordDelivered(slug: string, delivered: Delivered[]): Promise<void> {
    try {
      await this.repository.recordDelivered(delivered);
    } catch (error) {
      // not recorded: they are sent again when their lease ends (at least once)
      this.logger.warn(
        { tenant: slug, messages: delivered.length, err: (error as Error).message },
        'webhooks: deliveries not recorded; they are sent again after their lease',
      );
    }
  }

  /**
   * One attempt: a delivered message is returned for its batch's record; a failure is recorded
   * at once ('retrying' when the message has a retry ahead).
   */
  private async deliver(
    slug: string,
    message: ClaimedMessage,
  ): Promise<Delivered | 'retrying' | undefined> {
    const startedAt = new Date();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const secrets = message.secreto_anterior
      ? [message.secreto, message.secreto_anterior]
      : [message.secreto];
    let headers: Record<string, string>;
    try {
      headers = {
        'webhook-id': message.webhook_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(
          secrets,
          message.webhook_id,
          timestamp,
          message.cuerpo,
        ),
      };
    } catch (error) {
      // a secret that cannot sign (the database's CHECK holds its prefix only): say so, send nothing
      this.logger.error(
        { tenant: slug, webhook: message.id_webhook, err: (error as Error).message },
        'webhooks: the endpoint secret cannot sign; rotate it',
      );
      return undefined;
    }
    const result = await sendWebhook({
      url: message.url,
      headers,
      body: message.cuerpo,
      timeoutMs: this.config.WEBHOOKS_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE,
    });
    const durationMs = Math.round(result.durationMs);
    if (result.ok) {
      return { id_mensaje: message.id_mensaje, status: result.status!, durationMs, startedAt };
    }
    try {
      const error = result.error ?? `HTTP ${result.status}`;
      const outcome = await this.repository.recordFailed(
        message,
        { status: result.status, error, durationMs, startedAt },
        this.delaysMs,
      );
      if (outcome.disabled) {
        this.logger.warn(
          {
            tenant: slug,
            webhook: message.id_webhook,
            url: urlForLogs(message.url),
            motivo: outcome.disabled,
          },
          'webhooks: endpoint switched off',
        );
      } else if (outcome.given_up) {
        this.logger.warn(
          { tenant: slug, webhook: message.id_webhook, mensaje: message.webhook_id, error },
          'webhooks: message given up after its last attempt',
        );
      }
      if (!outcome.given_up) return 'retrying';
    } catch (error) {
      // the attempt is not recorded: the message is sent again when its lease ends
      this.logger.warn(
        { tenant: slug, mensaje: message.webhook_id, err: (error as Error).message },
        'webhooks: attempt not recorded; it is sent again after its lease',
      );
    }
  }

  private stop(worker: TenantWorker): void {
    if (worker.timer) clearTimeout(worker.timer);
    if (worker.gathering) clearTimeout(worker.gathering);
    worker.timer = null;
    worker.gathering = null;
  }
}
