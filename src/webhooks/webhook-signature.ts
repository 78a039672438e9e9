import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures of outbound webhooks as the Standard Webhooks specification defines them
 * (https://www.standardwebhooks.com): a receiver checks them with any of the specification's
 * libraries, given the secret shown once when its endpoint was registered.
 *
 * A secret is `whsec_` followed by the standard base64 (with padding) of its key bytes. The
 * signed text is `<message id>.<timestamp in seconds>.<body>`, and the signature is
 * `v1,<base64 of its HMAC-SHA256>`.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** The specification asks for keys of 24 to 64 bytes. */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** A new secret for an endpoint: 32 random bytes (the key length of HMAC-SHA256). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The key bytes of a well-formed secret, or undefined. */
function secretKey(value: string): Buffer | undefined {
  if (!value.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = value.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  // Node's decoder skips what it cannot read: only the canonical text of the bytes counts
  if (key.toString('base64') !== encoded) return undefined;
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) return undefined;
  return key;
}

/**
 * Whether `value` is a secret this module signs with: `whsec_` and the canonical base64 of 24 to
 * 64 bytes. For checking a secret that comes from outside (a stored or imported one) before it
 * is used.
 */
export function isSecret(value: string): boolean {
  return secretKey(value) !== undefined;
}

/**
 * The `v1,` signature of one message with one secret. Throws on a malformed secret or a
 * timestamp that is not a whole number of seconds: either would give a signature no receiver
 * can match, so it is a bug to find, not a message to send. The error never quotes the secret.
 */
export function signature(
  secret: string,
  msgId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = secretKey(secret);
  if (!key) throw new TypeError('not a webhook secret (whsec_ and base64 of 24 to 64 bytes)');
  if (!Number.isSafeInteger(timestampSeconds)) {
    throw new RangeError(`the timestamp must be whole seconds (got ${timestampSeconds})`);
  }
  const mac = createHmac('sha256', key).update(`${msgId}.${timestampSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/**
 * The value of the `webhook-signature` header: the signature of every secret, separated by a
 * space. While an endpoint's secret is rotated both the old and the new secret sign, so the
 * receiver accepts the message with whichever of the two it holds.
 */
export function signatureHeader(
  secrets: readonly string[],
  msgId: string,
  timestampSeconds: number,
  body: string,
): string {
  if (secrets.length === 0) throw new RangeError('a webhook needs at least one secret to sign');
  return secrets.map((secret) => signature(secret, msgId, timestampSeconds, body)).join(' ');
}
