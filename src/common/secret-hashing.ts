import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * Slow salted hashes of passwords and PINs with Node's built-in scrypt (RFC 7914): no native
 * package to build, and it runs in libuv's thread pool, off the event loop. A hash is stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`, so the cost can be raised later and the
 * hashes made before still verify (a password is re-hashed at its next sign-in).
 *
 * N = 2^14, r = 8, p = 2 (16 MiB; two passes, so about twice the time of p = 1 for the same
 * memory: a sign-in of about 100 ms on this project's 2-core machine, inside the 50 to 250 ms
 * that keeps guessing slow and a shift change quick). The lockout (5 failures in 15 minutes) is
 * what stops guessing on line. The sign-in stage of `npm run bench` measures it
 * (docs/performance.md, "Sign-in").
 *
 * A PIN's hash is also how its owner is found (hashPin: the tenant's salt, today's cost), so
 * raising the cost means setting every PIN again; a password is re-hashed at its next sign-in.
 */
export const SCRYPT_COST = { logN: 14, r: 8, p: 2 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface ScryptCost {
  logN: number;
  r: number;
  p: number;
}

/** Work that may run `limit` at a time; the rest waits, first come first served. */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    // the slot is handed over by the one that ends (running stays counted)
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/**
 * Hashes running at once: one core fewer than the machine has (one, on 2 cores), and one thread
 * fewer than libuv's pool (4 by default, UV_THREADPOOL_SIZE), the rest waiting their turn here.
 * A hash keeps a core busy for its whole duration: with a hash on every core (a burst of
 * sign-ins at the start of a shift), the event loop waits for a core and every other request of
 * the instance slows down, and the pool's other work (the SCRAM of a new PostgreSQL connection,
 * file writes, DNS) queues behind the hashes. Measured in docs/performance.md, "Sign-in".
 * Sign-in shares as many slots fairly between tenants and client addresses before it hashes
 * (src/common/fair-slots.ts), so its hashes seldom wait here.
 */
export const HASH_SLOT_COUNT = Math.max(
  1,
  Math.min(availableParallelism() - 1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1),
);
const HASH_SLOTS = new Slots(HASH_SLOT_COUNT);

function derive(secret: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** cost.logN,
    r: cost.r,
    p: cost.p,
    // scrypt needs 128·N·r bytes; the default bound (32 MiB) is left room above that
    maxmem: 256 * 2 ** cost.logN * cost.r,
  };
  return HASH_SLOTS.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

function format(cost: ScryptCost, salt: Buffer, key: Buffer): string {
  return `scrypt$${cost.logN}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 20 || r < 1 || r > 32)
    return undefined;
  if (p < 1 || p > 16) return undefined;
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (salt.length < SALT_LENGTH || key.length !== KEY_LENGTH) return undefined;
  return { cost: { logN, r, p }, salt, key };
}

/** A password's hash, with a salt of its own. */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST) {
  const salt = randomBytes(SALT_LENGTH);
  return format(cost, salt, await derive(password, salt, cost));
}

/**
 * A PIN's hash with the tenant's salt: the same PIN gives the same hash within a tenant, so the
 * PIN pad finds its owner with one hash (and a unique index keeps PINs apart).
 */
export async function hashPin(pin: string, tenantSalt: Buffer, cost: ScryptCost = SCRYPT_COST) {
  return format(cost, tenantSalt, await derive(pin, tenantSalt, cost));
}

/**
 * Whether `secret` matches `stored`, in constant time for a given cost. Without a stored hash
 * (unknown user, no password set) a hash is still computed against a throw-away salt, so the
 * answer takes as long as a real verification.
 */
export async function verifySecret(secret: string, stored: string | null | undefined) {
  const parsed = stored ? parse(stored) : undefined;
  const target = parsed ?? { cost: SCRYPT_COST, salt: DECOY_SALT, key: DECOY_KEY };
  const key = await derive(secret, target.salt, target.cost);
  return timingSafeEqual(key, target.key) && parsed !== undefined;
}

/** Whether two stored hashes are the same text, compared in constant time (a PIN's lookup). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether a stored hash was made with a lower cost than today's (re-hash it). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { logN, r, p } = parsed.cost;
  return (
    logN < SCRYPT_COST.logN || r < SCRYPT_COST.r || p < SCRYPT_COST.p || parsed.salt.length < 16
  );
}

const DECOY_SALT = randomBytes(SALT_LENGTH);
const DECOY_KEY = randomBytes(KEY_LENGTH);
