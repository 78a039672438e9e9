import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { AppLogger, type Logger } from '../common/logging/logger';
import { TenantContext } from '../tenancy/tenant-context';
import type { AuthenticatedUser } from './auth.decorators';
import { sessionProblem, type SessionProblem } from './session-validity';
import { StaffCache } from './staff-cache';
import { StaffRepository } from './staff.repository';

/**
 * How often the watched sessions are looked at: a look is a lookup in the permission guard's
 * cache, which reads the database once per user and TENANT_CACHE_TTL_MS.
 */
const CHECK_EVERY_MS = 1_000;

interface Watch {
  user: AuthenticatedUser;
  end: (problem: SessionProblem) => void;
}

/**
 * The sessions of long-lived requests (the live streams), kept to the rule of every request
 * (src/auth/session-validity.ts): a stream opened with a token ends when that token's session
 * would now be refused, its user signed out, deactivated or their credentials changed, or the
 * token expired, within a second of the time a request would see it (TENANT_CACHE_TTL_MS), and
 * at once when this instance made the change (a sign-out here). One check for all the streams of
 * a user: one read of their sessions per TENANT_CACHE_TTL_MS, the permission guard's own cached
 * read.
 */
@Injectable()
export class LiveSessions implements OnModuleDestroy {
  /** The watched sessions, per tenant and user. */
  private readonly watches = new Map<string, Set<Watch>>();
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly cache: StaffCache,
    private readonly staff: StaffRepository,
    private readonly tenants: TenantContext,
    logger: AppLogger,
  ) {
    this.logger = logger.child('LiveSessions');
    cache.onForget((tenant, userId) => {
      if (this.watches.has(keyOf(tenant, userId))) void this.checkUser(tenant, userId);
    });
  }

  /** Sessions watched now (the streams of this instance opened with a token). */
  get size(): number {
    let n = 0;
    for (const set of this.watches.values()) n += set.size;
    return n;
  }

  /**
   * Calls `end` once, when the session of `user` ends. Returns the function that stops watching
   * it (the stream closed first).
   */
  watch(user: AuthenticatedUser, end: (problem: SessionProblem) => void): () => void {
    const key = keyOf(user.tenant, user.id_usuario);
    const watch: Watch = { user, end };
    let set = this.watches.get(key);
    if (!set) this.watches.set(key, (set = new Set()));
    set.add(watch);
    if (!this.timer) {
      this.timer = setInterval(() => void this.checkAll(), CHECK_EVERY_MS);
      this.timer.unref();
    }
    return () => this.unwatch(key, watch);
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.watches.clear();
  }

  private unwatch(key: string, watch: Watch): void {
    const set = this.watches.get(key);
    if (!set) return;
    set.delete(watch);
    if (set.size > 0) return;
    this.watches.delete(key);
    if (this.watches.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async checkAll(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const set of [...this.watches.values()]) {
        const { user } = set.values().next().value as Watch;
        await this.checkUser(user.tenant, user.id_usuario);
      }
    } finally {
      this.checking = false;
    }
  }

  private async checkUser(tenant: string, userId: number): Promise<void> {
    const set = this.watches.get(keyOf(tenant, userId));
    if (!set) return;
    let member;
    try {
      member = await this.cache.get(tenant, userId, () =>
        this.tenants.run(tenant, () => this.staff.findWithSessions(userId)),
      );
    } catch (error) {
      if (error instanceof DomainError && error.status < 500) {
        // the tenant is gone or suspended: its users' sessions are over
        for (const watch of [...set])
          this.finish(watch, { reason: 'unknown_user', message: error.message, error });
        return;
      }
      // the database does not answer: the streams stay, the next check tries again
      this.logger.warn({ tenant, err: (error as Error).message }, 'live sessions not checked');
      return;
    }
    const now = Date.now();
    for (const watch of [...set]) {
      const problem = sessionProblem(member, watch.user, now);
      if (problem) this.finish(watch, problem);
    }
  }

  private finish(watch: Watch, problem: SessionProblem): void {
    this.unwatch(keyOf(watch.user.tenant, watch.user.id_usuario), watch);
    watch.end(problem);
  }
}

function keyOf(tenant: string, userId: number): string {
  return `${tenant}\u0000${userId}`;
}
