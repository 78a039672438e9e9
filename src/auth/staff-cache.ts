import type { StaffSessions } from './staff.repository';

type StaffMember = StaffSessions;

interface Entry {
  member: StaffMember | undefined;
  expires: number;
}

/**
 * The staff members the permission guard has just read, per tenant and user, for `ttlMs`
 * (TENANT_CACHE_TTL_MS, like the tenant's catalog row): a request then costs no roles query,
 * and a role revoked or a user deactivated applies within the TTL. At most `maxEntries` are
 * kept; past that the oldest goes first.
 */
export class StaffCache {
  private readonly entries = new Map<string, Entry>();
  private readonly forgetListeners: ((tenant: string, userId: number) => void)[] = [];

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached member (or cached absence), or `load()`'s answer, cached. */
  async get(
    tenant: string,
    userId: number,
    load: () => Promise<StaffMember | undefined>,
  ): Promise<StaffMember | undefined> {
    if (this.ttlMs === 0) return load();
    const key = `${tenant}\u0000${userId}`;
    const cached = this.entries.get(key);
    if (cached && cached.expires > this.now()) return cached.member;
    const member = await load();
    this.entries.delete(key);
    this.entries.set(key, { member, expires: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return member;
  }

  /**
   * Drops what is cached of a user on this instance (their sign-out, a change of their
   * credentials): the next request reads them again. Other instances see it within the TTL.
   */
  forget(tenant: string, userId: number): void {
    this.entries.delete(`${tenant}\u0000${userId}`);
    for (const listener of this.forgetListeners) listener(tenant, userId);
  }

  /** Calls `listener` when a user is forgotten (their sessions may have just ended). */
  onForget(listener: (tenant: string, userId: number) => void): void {
    this.forgetListeners.push(listener);
  }

  get size(): number {
    return this.entries.size;
  }
}
