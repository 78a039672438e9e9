import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger, type Logger } from '../common/logging/logger';
import type { Tenant } from '../tenancy/entities/tenant.entity';
import { TenantCatalogService } from '../tenancy/tenant-catalog.service';
import { TenantContext } from '../tenancy/tenant-context';
import { TenantDataSources } from '../tenancy/tenant-datasources.service';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import { parseRetryDelays, urlForLogs } from './webhook-events';
import { sendWebhook } from './webhook-sender';
import { signatureHeader } from './webhook-signature';
import {
  OUTBOX_CHANNEL,
  WebhooksRepository,
  type ClaimedMessage,
  type Delivered,
} from './webhooks.repository';

/** The purge of old messages runs at most this often per tenant and instance. */
const PURGE_EVERY_MS = 3_600_000;
/** Tenants visited at once by a poll (each visit holds a connection of its pool). */
const POLL_CONCURRENCY = 4;
/** How long a notification's drain waits for the commits right after it (docs/webhooks.md). */
const GATHER_MS = 50;
/** Time kept between an attempt's timeout and its lease's end, for recording it. */
const LEASE_SLACK_MS = 2_000;
/** How long a shutdown waits for the deliveries under way (the leases cover the rest). */
const SHUTDOWN_WAIT_MS = 5_000;

/** One tenant's delivery on this instance. */
interface TenantWorker {
  slug: string;
  /** The LISTEN connection, while the tenant has the feature on. */
  listener: Client | null;
  draining: Promise<void> | null;
  /** Woken while draining: drain again once done (a message may have come meanwhile). */
  again: boolean;
  /** The wake-up for the next message due before the next poll. */
  timer: NodeJS.Timeout | null;
  /** A notification's wake-up, gathering the commits of the next GATHER_MS. */
  gathering: NodeJS.Timeout | null;
  lastPurge: number;
}

/**
 * Sends the outbox's messages (docs/webhooks.md, "Delivery"). Every instance runs one; they
 * share nothing but the tenant databases:
 *
 * - a tenant with the feature on gets a LISTEN connection on this instance: the outbox
 *   trigger's notification (delivered at the commit) wakes a drain;
 * - a poll every WEBHOOKS_POLL_MS visits every such tenant anyway (the backstop: a lost
 *   notification, a retry come due, an instance's expired claims) and notices tenants that
 *   switched the feature on or off;
 * - a drain claims due messages (`FOR UPDATE SKIP LOCKED`, a lease of WEBHOOKS_LEASE_MS),
 *   commits the claim and sends them outside any transaction, WEBHOOKS_CONCURRENCY at a time, the
 *   messages of one key (one comanda) one after another in order; a failed attempt is recorded
 *   at once, the batch's deliveries together after it.
 *
 * An instance that dies mid-delivery leaves its claimed messages to the others when their lease
 * ends: at least once. A message is not started when its lease would end before its timeout.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly workers = new Map<string, TenantWorker>();
  private readonly logger: Logger;
  private readonly delaysMs: number[];
  private pollTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: TenantCatalogService,
    private readonly features: TenantFeatures,
    private readonly context: TenantContext,
    private readonly dataSources: TenantDataSources,
    private readonly repository: WebhooksRepository,
    logger: AppLogger,
  ) {
    this.logger = logger.child('Webhooks');
    this.delaysMs = parseRetryDelays(config.WEBHOOKS_RETRY_DELAYS);
  }

  /** Starts delivering (the HTTP service does; the CLIs, which share the module, do not). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.pollTimer = setInterval(() => void this.poll(), this.config.WEBHOOKS_POLL_MS);
    this.pollTimer.unref();
    void this.poll();
  }

  /** LISTEN connections open now (one per tenant with the feature on). */
  get listenerCount(): number {
    let n = 0;
    for (const worker of this.workers.values()) if (worker.listener) n += 1;
    return n;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    const draining = [...this.workers.values()].map((worker) => worker.draining);
    await Promise.race([
      Promise.allSettled([this.polling, ...draining]),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
    ]);
    await Promise.all([...this.workers.values()].map((worker) => this.stop(worker)));
  }

  /** Visits every tenant with the feature on; stops the workers of the others. */
  poll(): Promise<void> {
    this.polling ??= this.sweep().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async sweep(): Promise<void> {
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
      if (!slugs.has(worker.slug)) {
        this.workers.delete(worker.slug);
        await this.stop(worker);
      }
    }
    // a tenant already draining (a slow receiver's batch) drains again when done, without
    // holding up the others' visit
    const idle = on
      .map((tenant) => this.worker(tenant.slug))
      .filter((worker) => {
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
        listener: null,
        draining: null,
        again: false,
        timer: null,
        gathering: null,
        lastPurge: 0,
      };
      this.workers.set(slug, worker);
    }
    return worker;
  }

  /**
   * A commit wrote messages: drain a moment later, so that the commits of that moment go out in
   * one claim and one record rather than one each (the writes' CPU is what the dispatcher shares).
   */
  private notified(worker: TenantWorker): void {
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
    worker.draining = this.drain(worker)
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
          void this.wake(worker);
        }
      });
    return worker.draining;
  }

  /**
   * Claims and sends until a claim comes back short (a message committed meanwhile notifies, and
   * wakes the worker again). Two statements for a message alone: its claim and its record.
   */
  private async drain(worker: TenantWorker): Promise<void> {
    await this.context.run(worker.slug, async () => {
      // listening while the feature is on: a new endpoint's first message wakes the tenant at
      // once, not at the next poll
      await this.listen(worker);
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
          retrying = (await this.deliverBatch(worker.slug, batch, claimedAt)) || retrying;
        }
        if (this.closed) return;
        if (batch.length < batchSize) break;
      }
      // a retry due before the next poll gets a wake-up of its own
      if (retrying || worker.timer) this.schedule(worker, await this.repository.nextDue());
    });
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

  /** Opens the tenant's LISTEN connection (closed when the feature goes off: `stop`). */
  private async listen(worker: TenantWorker): Promise<void> {
    if (worker.listener || this.closed) return;
    const client = new Client({
      connectionString: this.dataSources.sessionUrl(this.context.tenant),
      connectionTimeoutMillis: this.config.DB_CONNECT_TIMEOUT_MS,
      application_name: `comandas-webhooks:${worker.slug}`,
      keepAlive: true,
    });
    const lost = () => {
      if (worker.listener !== client) return;
      worker.listener = null;
      void client.end().catch(() => undefined);
      // the next poll opens it again; meanwhile the poll alone delivers
    };
    client.on('notification', () => this.notified(worker));
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      void client.end().catch(() => undefined);
      this.logger.warn(
        { tenant: worker.slug, err: (error as Error).message },
        'webhooks: cannot listen; delivering on the poll only',
      );
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    worker.listener = client;
  }

  private async closeListener(worker: TenantWorker): Promise<void> {
    const client = worker.listener;
    worker.listener = null;
    if (client) await client.end().catch(() => undefined);
  }

  private async stop(worker: TenantWorker): Promise<void> {
    if (worker.timer) clearTimeout(worker.timer);
    if (worker.gathering) clearTimeout(worker.gathering);
    worker.timer = null;
    worker.gathering = null;
    await this.closeListener(worker);
  }
}
