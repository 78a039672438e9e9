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
 * A place in a FairSlots, taken at once (or refused): `run` waits for a slot and runs the work
 * in it (once); `leave` gives the place back, whether it ran or not (idempotent).
 */
export interface SlotTicket {
  run<T>(work: () => Promise<T>): Promise<T>;
  leave(): void;
}

/**
 * Work that may run `slots` at a time, shared fairly instead of first come first served: the
 * waiting work is kept in one queue per (group, key), and each slot that frees goes round-robin
 * to the next group, and within it to its next key, the one served last going last. So a key
 * that sends a hundred requests waits behind its own, and another key's one request runs after
 * at most one piece of work of each other key waiting. Bounded: past `perKey` places for one
 * key, or `max` in all, `admit` throws SlotsFull at once rather than queue (the caller answers
 * 429 or 503 with Retry-After); a place is held from `admit` to `leave`, so the work a caller
 * does before its turn (a database round trip) counts too.
 *
 * The sign-in's scrypt hashes use it, grouped by tenant and keyed by client address: a flood
 * from one address, or on one tenant, cannot starve the others' sign-ins.
 */
export class FairSlots {
  private running = 0;
  private waiting = 0;
  /** Places held (admitted and not left): what the bounds count. */
  private admitted = 0;
  /** group → key → its waiting work, oldest first; both Maps in round-robin order. */
  private readonly queues = new Map<string, Map<string, Waiting[]>>();
  /** `group\0key` → that key's places held. */
  private readonly held = new Map<string, number>();
  /** The group served last, and in each group the key served last: they go last next time. */
  private lastGroup?: string;
  private readonly lastKey = new Map<string, string>();
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

  /** Work running and waiting now, and the places held. */
  get size(): { running: number; waiting: number; admitted: number } {
    return { running: this.running, waiting: this.waiting, admitted: this.admitted };
  }

  /** Admits, runs `work` in its turn, and leaves. */
  async run<T>(group: string, key: string, work: () => Promise<T>): Promise<T> {
    const ticket = this.admit(group, key);
    try {
      return await ticket.run(work);
    } finally {
      ticket.leave();
    }
  }

  /** A place for (group, key), or SlotsFull at once. */
  admit(group: string, key: string): SlotTicket {
    const id = `${group}\0${key}`;
    const mine = this.held.get(id) ?? 0;
    if (mine >= this.limits.perKey) throw this.full('key', this.limits.perKey);
    if (this.admitted >= this.limits.max) throw this.full('all', this.limits.max);
    this.held.set(id, mine + 1);
    this.admitted += 1;
    let left = false;
    let ran = false;
    return {
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        if (left || ran) throw new Error('FairSlots: a ticket runs once, before it leaves');
        ran = true;
        if (this.running < this.limits.slots && this.waiting === 0) {
          this.running += 1;
          this.served(group, key);
        }
        // the slot is handed over by the work that ends (running stays counted)
        else await new Promise<void>((start) => this.enqueue(group, key, { start }));
        const started = performance.now();
        try {
          return await work();
        } finally {
          this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
          this.next();
        }
      },
      leave: () => {
        if (left) return;
        left = true;
        this.admitted -= 1;
        const rest = this.held.get(id)! - 1;
        if (rest === 0) this.held.delete(id);
        else this.held.set(id, rest);
      },
    };
  }

  private enqueue(group: string, key: string, entry: Waiting): void {
    let keys = this.queues.get(group);
    if (!keys) this.queues.set(group, (keys = new Map<string, Waiting[]>()));
    let queue = keys.get(key);
    if (!queue) keys.set(key, (queue = []));
    queue.push(entry);
    this.waiting += 1;
  }

  private served(group: string, key: string): void {
    // one entry per group served: forgotten in bulk past many groups (a turn's order, no more)
    if (this.lastKey.size >= 10_000) this.lastKey.clear();
    this.lastGroup = group;
    this.lastKey.set(group, key);
  }

  /** The first entry of `map` other than `last`, or `last`'s when it is alone. */
  private static pick<V>(map: Map<string, V>, last: string | undefined): [string, V] {
    for (const entry of map) if (entry[0] !== last) return entry;
    return map.entries().next().value!;
  }

  /** Hands the slot that just freed to the next group's next key, or frees it. */
  private next(): void {
    if (this.queues.size === 0) {
      this.running -= 1;
      return;
    }
    const [group, keys] = FairSlots.pick(this.queues, this.lastGroup);
    const [key, queue] = FairSlots.pick(keys, this.lastKey.get(group));
    const entry = queue.shift()!;
    this.waiting -= 1;
    // to the back of the round: this key within its group, this group among the groups
    keys.delete(key);
    if (queue.length > 0) keys.set(key, queue);
    this.queues.delete(group);
    if (keys.size > 0) this.queues.set(group, keys);
    this.served(group, key);
    entry.start();
  }

  private full(scope: 'key' | 'all', limit: number): SlotsFull {
    const turns = this.admitted / this.limits.slots;
    return new SlotsFull(scope, limit, Math.max(1, Math.ceil((turns * this.averageMs) / 1000)));
  }
}
