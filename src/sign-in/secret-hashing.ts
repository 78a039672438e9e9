import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Slow salted hashes of passwords and PINs with Node's built-in scrypt (RFC 7914): no native
 * package to build, and it runs in libuv's thread pool, off the event loop. A hash is stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`, so the cost can be raised later and the
 * hashes made before still verify (a password is re-hashed at its next sign-in).
 *
 * N = 2^14, r = 8, p = 1 (16 MiB, about 80 ms on the reference machine: docs/performance.md):
 * a guess costs the same, and the lockout (5 failures in 15 minutes) is what stops guessing on
 * line. `npm run bench` measures one verification.
 */
export const SCRYPT_COST = { logN: 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface ScryptCost {
  logN: number;
  r: number;
  p: number;
}

function derive(secret: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** cost.logN,
    r: cost.r,
    p: cost.p,
    // scrypt needs 128·N·r bytes; the default bound (32 MiB) is left room above that
    maxmem: 256 * 2 ** cost.logN * cost.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
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
