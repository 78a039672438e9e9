import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { RequestWithUser } from '../auth/auth.decorators';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { domainErrorOf } from '../common/errors/all-exceptions.filter';
import { TRANSIENT_SQLSTATES } from '../common/errors/pg-error.translator';
import { etagOf } from '../common/http/etag';
import { ContextKey, RequestContext } from '../common/context/request-context';
import { AppLogger, type Logger } from '../common/logging/logger';
import { ReplayedResponse, storedRefusal } from '../common/http/replayed-response';
import { TenantContext } from '../tenancy/tenant-context';
import {
  fingerprintOf,
  IDEMPOTENCY_KEY_HEADER,
  parseIdempotencyKey,
  REPLAYED_HEADER,
} from './idempotency-key';
import type { Queryable } from '../database/sql';
import { TransactionConnection } from '../database/transaction';
import { idempotencyKeyInUse, idempotencyKeyReused } from './idempotency.errors';
import { IdempotencyRepository, type StoredAnswer } from './idempotency.repository';

type IdempotentRequest = RequestWithUser & { id?: unknown };

/** A write with an Idempotency-Key, prepared by the request guard for its handler. */
interface IdempotentCall {
  writes: IdempotentWrites;
  key: string;
  request: IdempotentRequest;
  response: Response;
  /** The status Nest sends for the handler's result (its @HttpCode, else 201 for POST). */
  successStatus: number;
}

/** The idempotency module's slot in the request context. */
const IDEMPOTENT_CALL = new ContextKey<IdempotentCall | undefined>('idempotentCall');

/** How often (per tenant and instance) a write also purges the expired keys. */
const PURGE_EVERY_MS = 10 * 60_000;
/** The savepoint that separates the request's effect from the key's lock and answer. */
const EFFECT = 'idempotent_effect';

/**
 * Idempotent writes (docs/comandas.md): with an `Idempotency-Key`, the route's effect and its
 * answer are stored in one transaction of the tenant database, so a retry of the same request
 * gets the first answer again (`Idempotent-Replayed: true`) and never makes a second effect.
 *
 * 1. The key is taken with a transaction-scoped advisory lock that does not wait: a second
 *    request with the key while the first runs (on any instance) gets 409 IN_USE.
 * 2. A stored answer for the key: the same request is answered with it, another gets 422.
 * 3. Otherwise the handler runs inside that transaction (repositories join it, see
 *    TenantContext.withinTransaction), after a savepoint. A 2xx answer is stored and committed
 *    with the effect; a 4xx rolls the effect back to the savepoint and stores the error (a
 *    retry gets the same refusal); a 5xx, or a 409 of a transient database conflict (deadlock,
 *    serialization failure), rolls everything back and stores nothing, so the client may retry.
 *
 * Without the header the route runs as it always does, with nothing around its handler: the
 * request guard calls `prepare` once its checks have passed, and the handler of an
 * `@Idempotent()` route (idempotent.decorator.ts) runs through `run` only when a call was
 * prepared for the request.
 */
@Injectable()
export class IdempotentWrites {
  /** When each tenant's expired keys were last purged by this instance. */
  private readonly purgedAt = new Map<string, number>();
  private readonly logger: Logger;

  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly tenant: TenantContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    logger: AppLogger,
  ) {
    this.logger = logger.child('Idempotency');
  }

  /**
   * Called by the request guard for an `@Idempotent()` route, after every check: with an
   * `Idempotency-Key` (400 IDEMPOTENCY_KEY_INVALID when malformed), the handler's call is
   * prepared to run through `run`; without one, nothing is.
   */
  prepare(request: IdempotentRequest, response: Response, successStatus: number): void {
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    if (key === undefined) return;
    RequestContext.set(IDEMPOTENT_CALL, { writes: this, key, request, response, successStatus });
  }

  /** Runs an `@Idempotent()` handler: through the key's transaction when a call was prepared. */
  static handle<T>(work: () => T | Promise<T>): T | Promise<T> {
    const call = RequestContext.active ? RequestContext.get(IDEMPOTENT_CALL) : undefined;
    if (!call) return work();
    // once: a handler calling another idempotent handler does not take the key twice
    RequestContext.set(IDEMPOTENT_CALL, undefined);
    return call.writes.run(call, work);
  }

  private async run<T>(call: IdempotentCall, work: () => T | Promise<T>): Promise<T> {
    const { key, request, response } = call;
    const route = `${request.baseUrl}${(request.route as { path?: string } | undefined)?.path ?? request.path}`;
    const user = request.user?.id_usuario ?? 0;
    const fingerprint = fingerprintOf({
      method: request.method,
      route,
      params: request.params,
      query: request.query,
      body: request.body,
    });

    const identity = { key, user, fingerprint, route, method: request.method };
    const connection = await TransactionConnection.open(this.tenant.dataSource);
    try {
      await connection.begin();
      const tx = connection.manager;
      if (!(await this.repository.tryLock(tx, key, user))) throw idempotencyKeyInUse();
      const stored = await this.repository.find(tx, key, user);
      if (stored) {
        if (stored.huella !== fingerprint) throw idempotencyKeyReused(request.method, route);
        throw this.replay(stored);
      }

      await tx.query(`SAVEPOINT ${EFFECT}`);
      let result: T;
      try {
        result = await this.tenant.withinTransaction(tx, async () => work());
      } catch (error) {
        const refusal = domainErrorOf(error);
        // a 5xx or a conflict that passes by itself (a deadlock): nothing is stored and
        // everything rolls back (finally), so the client's retry runs again
        if (refusal.status >= 500 || TRANSIENT_SQLSTATES.has(refusal.code)) throw error;
        // a refusal: nothing of the effect stays, the refusal is the key's answer
        await tx.query(`ROLLBACK TO SAVEPOINT ${EFFECT}`);
        const requestId = typeof request.id === 'string' ? request.id : undefined;
        const body = storedRefusal(refusal, requestId);
        await this.save(tx, identity, { status: refusal.status, body, etag: null, location: null });
        await connection.commit();
        throw error;
      }

      const version = (result as { version?: unknown } | null)?.version;
      const location = response.getHeader('Location');
      await this.save(tx, identity, {
        status: call.successStatus,
        body: result ?? null,
        etag: typeof version === 'number' ? etagOf(version) : null,
        location: typeof location === 'string' ? location : null,
      });
      await connection.commit();
      // on the connection this write holds: a new tenant's pool starts at one connection, so
      // asking the pool for another here would wait for this one to be released
      await this.purgeNow(tx);
      return result;
    } catch (error) {
      // PostgreSQL gone under the key's transaction: its connection's error, answered 503,
      // rather than the "already released" of the statements, commit or rollback after it
      throw connection.failure(error);
    } finally {
      await connection.release();
    }
  }

  private async save(
    tx: EntityManager,
    request: { key: string; user: number; fingerprint: string; route: string; method: string },
    answer: { status: number; body: unknown; etag: string | null; location: string | null },
  ): Promise<void> {
    await this.repository.store(
      tx,
      {
        clave: request.key,
        id_usuario: request.user,
        huella: request.fingerprint,
        metodo: request.method,
        ruta: request.route,
        estado_http: answer.status,
        cuerpo: answer.body === null ? null : JSON.stringify(answer.body),
        etag: answer.etag,
        location: answer.location,
      },
      this.config.IDEMPOTENCY_TTL_HOURS,
    );
  }

  /** The stored answer, sent again by the exception filter (the handler does not run). */
  private replay(stored: StoredAnswer): ReplayedResponse {
    const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
    if (stored.etag) headers.ETag = stored.etag;
    if (stored.location) headers.Location = stored.location;
    return new ReplayedResponse(stored.estado_http, stored.cuerpo, headers);
  }

  /**
   * Purges the tenant's expired keys when this instance has not for PURGE_EVERY_MS. The write
   * is committed already: a failed purge is logged, and the next write tries again.
   */
  private async purgeNow(db: Queryable): Promise<void> {
    const slug = this.tenant.tenant.slug;
    const now = Date.now();
    if (now - (this.purgedAt.get(slug) ?? 0) < PURGE_EVERY_MS) return;
    this.purgedAt.set(slug, now);
    try {
      const purged = await this.repository.purgeExpired(db);
      if (purged > 0) this.logger.info({ purged }, 'expired idempotency keys purged');
    } catch (error) {
      this.purgedAt.delete(slug);
      this.logger.warn({ err: error }, 'purging the expired idempotency keys failed');
    }
  }
}
