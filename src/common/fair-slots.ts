/** The bounds of a FairSlots (docs/sign-in.md, "The hash queue"). */
export interface FairSlotsLimits {
  /** Work running at once. */
  slots: number;
  /** Work of one key (running and waiting) at once: past it, SlotsFull with scope 'key'. */
  perKey: number;
  /** Work of every key (running and waiting) at once: past it, SlotsFull with scope 'all'. */
  max: number;
}

/** Refused instead of waiting: the key's share, or the whole queue, is full. */
export class SlotsFull extends Error {
  constructor(
    readonly scope: 'key' | 'all',
    readonly limit: number,
    /** When the queue is likely to have room again, in whole seconds (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super(`The queue is full (${scope}: ${limit} at once)`);
    this.name = 'SlotsFull';
  }
}

interface Waiting {
  start: () => void;
}

/**
 * Work that may run `slots` at a time, shared fairly instead of first come first served: the
 * waiting work is kept in one queue per (group, key), and each slot that frees goes round-robin
 * to the next group, and within it to its next key. So a key that sends a hundred requests
 * waits behind its own, and another key's one request runs after at most one turn of the
 * groups and keys waiting. Bounded: past `perKey` for one key, or `max` in all, `run` throws
 * SlotsFull at once rather than queue (the caller answers 429 or 503 with Retry-After).
 *
 * The sign-in's scrypt hashes use it, grouped by tenant and keyed by client address: a flood
 * from one address, or on one tenant, cannot starve the others' sign-ins.
 */
export class FairSlots {
  private running = 0;
  private waiting = 0;
  /** group → key → its waiting work, oldest first; both Maps in round-robin order. */
  private readonly queues = new Map<string, Map<string, Waiting[]>>();
  /** `group\0key` → that key's work running and waiting. */
  private readonly held = new Map<string, number>();
  /** A moving average of a piece of work's duration, for Retry-After. */
  private averageMs: number;

  constructor(
    readonly limits: FairSlotsLimits,
    expectedMs = 100,
  ) {
    if (limits.slots < 1 || limits.perKey < 1 || limits.max < limits.slots)
      throw new RangeError(`FairSlots: invalid limits ${JSON.stringify(limits)}`);
    this.averageMs = expectedMs;
  }

  /** Work running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  async run<T>(group: string, key: string, work: () => Promise<T>): Promise<T> {
    const id = `${group}\0${key}`;
    const mine = this.held.get(id) ?? 0;
    if (mine >= this.limits.perKey) throw this.full('key', this.limits.perKey);
    if (this.running + this.waiting >= this.limits.max) throw this.full('all', this.limits.max);
    this.held.set(id, mine + 1);
    try {
      if (this.running < this.limits.slots && this.waiting === 0) this.running += 1;
      // the slot is handed over by the work that ends (running stays counted)
      else await new Promise<void>((start) => this.enqueue(group, key, { start }));
      const started = performance.now();
      try {
        return await work();
      } finally {
        this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
        this.next();
      }
    } finally {
      const left = this.held.get(id)! - 1;
      if (left === 0) this.held.delete(id);
      else this.held.set(id, left);
    }
  }

  private enqueue(group: string, key: string, entry: Waiting): void {
    let keys = this.queues.get(group);
    if (!keys) this.queues.set(group, (keys = new Map()));
    let queue = keys.get(key);
    if (!queue) keys.set(key, (queue = []));
    queue.push(entry);
    this.waiting += 1;
  }

  /** Hands the slot that just freed to the next group's next key, or frees it. */
  private next(): void {
    const [group, keys] = this.queues.entries().next().value ?? [];
    if (group === undefined || keys === undefined) {
      this.running -= 1;
      return;
    }
    const [key, queue] = keys.entries().next().value!;
    const entry = queue.shift()!;
    this.waiting -= 1;
    // to the back of the round: this key within its group, this group among the groups
    keys.delete(key);
    if (queue.length > 0) keys.set(key, queue);
    this.queues.delete(group);
    if (keys.size > 0) this.queues.set(group, keys);
    entry.start();
  }

  private full(scope: 'key' | 'all', limit: number): SlotsFull {
    const turns = (this.running + this.waiting) / this.limits.slots;
    return new SlotsFull(scope, limit, Math.max(1, Math.ceil((turns * this.averageMs) / 1000)));
  }
}
