import { createHash } from 'node:crypto';
import { DomainError } from '../common/errors/domain-error';
import { idempotencyKeyInvalid, type IdempotencyKeyProblem } from './idempotency.errors';

/** The request header (the IETF httpapi draft's name). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to `true` on an answer that is a stored one sent again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 visible ASCII characters (no space, no control). */
const KEY = /^[\x21-\x7e]{1,255}$/;

export class InvalidIdempotencyKeyError extends DomainError {
  constructor(problem: IdempotencyKeyProblem) {
    super(idempotencyKeyInvalid.options(problem));
  }
}

/**
 * The key of a request: undefined without the header; 400 IDEMPOTENCY_KEY_INVALID when it is
 * empty, too long, has a space or a character outside visible ASCII, or is sent twice. A key
 * sent as a structured-field string (`"abc"`, as the draft writes it) is the text between the
 * quotes, so `"abc"` and `abc` are the same key.
 */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new InvalidIdempotencyKeyError('sent-twice');
  const quoted = /^"(.*)"$/.exec(raw);
  const key = quoted ? quoted[1] : raw;
  if (key.length === 0) throw new InvalidIdempotencyKeyError('empty');
  if (key.length > 255) throw new InvalidIdempotencyKeyError('too-long');
  if (!KEY.test(key)) {
    throw new InvalidIdempotencyKeyError('not-ascii');
  }
  return key;
}

/** What makes two requests "the same request" for a key. */
export interface RequestShape {
  method: string;
  /** The route pattern (`/api/v1/comandas/:id/items`), not the path. */
  route: string;
  /** The path parameters (the ids). */
  params: Record<string, unknown>;
  query: unknown;
  body: unknown;
}

/** JSON with object keys sorted at every level: equal values give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fingerprint of a request: SHA-256 of its method, route, ids, query and body, the body
 * compared as JSON values (key order and spacing do not matter; a different value does).
 */
export function fingerprintOf(request: RequestShape): string {
  const text = canonical({
    method: request.method.toUpperCase(),
    route: request.route,
    params: request.params,
    query: request.query ?? {},
    body: request.body ?? null,
  });
  return createHash('sha256').update(text).digest('hex');
}
