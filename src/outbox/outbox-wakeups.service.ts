import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger, type Logger } from '../common/logging/logger';
import { connectBriefly, counterRedisClient, subscriberRedisClient } from '../common/redis-client';
import type { Tenant } from '../tenancy/entities/tenant.entity';

/** The Redis channel of the wake-ups: `{"i": <instance>, "t": <tenant slug>}`. */
export const WAKEUP_CHANNEL = 'comandas:outbox';
/** How long the start waits for the subscription (a Redis away must not stop the start). */
const SUBSCRIBE_WAIT_MS = 1_000;
const WARN_EVERY_MS = 60_000;

/** A module whose work an outbox holds (the webhooks; SUNAT and printing to come, DESIGN §23). */
export interface OutboxConsumer {
  /** Whether a write of this tenant may have given the consumer work (its feature is on). */
  wants(tenant: Tenant): boolean;
  /** A write of the tenant committed, here or on another instance: look at its outbox now. */
  wake(slug: string): void;
}

/**
 * The outboxes' wake-ups (docs/webhooks.md, "How a message travels"), without a connection per
 * tenant: a write request of a tenant that succeeded wakes the consumers that want it on this
 * instance at once, and, with REDIS_URL, every other instance through one Redis channel (one
 * publishing and one subscribed connection per instance). A wake-up lost (Redis away, an
 * instance down) costs the time until the consumer's poll, never the work.
 */
@Injectable()
export class OutboxWakeups implements OnApplicationShutdown {
  private readonly consumers: OutboxConsumer[] = [];
  private readonly instance = randomUUID();
  private readonly logger: Logger;
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private started: Promise<void> | null = null;
  private lastWarning = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    logger: AppLogger,
  ) {
    this.logger = logger.child('Outbox');
  }

  register(consumer: OutboxConsumer): void {
    this.consumers.push(consumer);
  }

  /**
   * Hears the other instances (with REDIS_URL): the HTTP service does, once; the CLIs, which
   * share the modules, do not. Waits at most SUBSCRIBE_WAIT_MS for the subscription.
   */
  start(): Promise<void> {
    this.started ??= this.subscribe();
    return this.started;
  }

  /** Whether wake-ups travel between instances (REDIS_URL set and subscribed now). */
  get shared(): boolean {
    return this.subscriber?.status === 'ready';
  }

  /** A write request of `tenant` succeeded (its transaction committed): wake who wants it. */
  committed(tenant: Tenant): void {
    const waking = this.consumers.filter((consumer) => consumer.wants(tenant));
    if (waking.length === 0) return;
    for (const consumer of waking) consumer.wake(tenant.slug);
    if (this.publisher?.status === 'ready') {
      this.publisher
        .publish(WAKEUP_CHANNEL, JSON.stringify({ i: this.instance, t: tenant.slug }))
        .catch((error: Error) => this.warn(error));
    }
  }

  onApplicationShutdown(): void {
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private async subscribe(): Promise<void> {
    const url = this.config.REDIS_URL;
    if (!url) return;
    this.publisher = counterRedisClient(url, '');
    this.publisher.on('error', (error: Error) => this.warn(error));
    // the start waits for both connections, SUBSCRIBE_WAIT_MS at most
    const subscriber = subscriberRedisClient(url);
    this.subscriber = subscriber;
    subscriber.on('error', (error: Error) => this.warn(error));
    subscriber.on('message', (_channel: string, message: string) => this.heard(message));
    await Promise.all([
      connectBriefly(this.publisher, SUBSCRIBE_WAIT_MS),
      Promise.race([
        subscriber.subscribe(WAKEUP_CHANNEL).catch((error: Error) => this.warn(error)),
        new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref()),
      ]),
    ]);
  }

  /** Another instance's write: each consumer checks the tenant itself before its visit. */
  private heard(message: string): void {
    let wakeup: { i?: unknown; t?: unknown };
    try {
      wakeup = JSON.parse(message) as typeof wakeup;
    } catch {
      return;
    }
    if (wakeup.i === this.instance || typeof wakeup.t !== 'string') return;
    for (const consumer of this.consumers) consumer.wake(wakeup.t);
  }

  private warn(error: Error): void {
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn(
      { err: error.message },
      'outbox: Redis does not answer; other instances wake at their poll meanwhile',
    );
  }
}
