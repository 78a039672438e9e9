import { defineError } from '../common/errors/error-catalogue';

/** The error codes of idempotent writes (docs/comandas.md, "Retrying a write"). */

/** What is wrong with an Idempotency-Key header. */
export type IdempotencyKeyProblem = 'sent-twice' | 'empty' | 'too-long' | 'not-ascii';

const KEY_PROBLEMS: Record<IdempotencyKeyProblem, { en: string; es: string }> = {
  'sent-twice': { en: 'is sent more than once', es: 'se envió más de una vez' },
  empty: { en: 'is empty', es: 'está vacía' },
  'too-long': { en: 'is longer than 255 characters', es: 'tiene más de 255 caracteres' },
  'not-ascii': {
    en: 'has a character that is not visible ASCII',
    es: 'tiene un carácter que no es ASCII visible',
  },
};

export const idempotencyKeyInvalid = defineError({
  status: 400,
  code: 'IDEMPOTENCY_KEY_INVALID',
  summary: 'Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice',
  en: (problem: IdempotencyKeyProblem) => `Idempotency-Key ${KEY_PROBLEMS[problem].en}`,
  es: (problem) => `La cabecera Idempotency-Key ${KEY_PROBLEMS[problem].es}`,
  detail: () => ({ rule: '1 to 255 visible ASCII characters, sent once' }),
  example: ['not-ascii'],
});

/** 409: the first request with the key has not finished yet. */
export const idempotencyKeyInUse = defineError({
  status: 409,
  code: 'IDEMPOTENCY_KEY_IN_USE',
  summary: 'A request with this Idempotency-Key is still running: retry after Retry-After seconds',
  en: () => 'A request with this Idempotency-Key is still running',
  es: () => 'Todavía se está atendiendo una solicitud con esta Idempotency-Key',
  detail: () => ({ retryAfterSeconds: 1 }),
  headers: () => ({ 'Retry-After': '1' }),
  example: [],
});

/** 422: the key was used for another request. */
export const idempotencyKeyReused = defineError({
  status: 422,
  code: 'IDEMPOTENCY_KEY_REUSED',
  summary: 'This Idempotency-Key was used for another request (method, route, ids or body)',
  en: (_method: string, _route: string) => 'This Idempotency-Key was used for another request',
  es: () => 'Esta Idempotency-Key ya se usó para otra solicitud',
  detail: (method, route) => ({ method, route }),
  example: ['POST', '/api/v1/comandas'],
});
