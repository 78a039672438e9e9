import type { DomainError } from './domain-error';
import type { Language } from './language';

/** The body of every error response (docs/api-contract.md, errors). */
export interface ErrorEnvelope {
  error: string;
  code: string;
  detail?: unknown;
  requestId?: string;
  [extra: string]: unknown;
}

const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
}

/**
 * The language an error is answered in: the one the request asks for (requestedLanguage), when
 * the error has its text in it; English otherwise (an error without Spanish text).
 */
export function answerLanguage(error: DomainError, requested: Language): Language {
  return requested === 'es' && error.spanish !== undefined ? 'es' : 'en';
}

/**
 * The envelope of an error, its text in `language`: every other field is the same in both
 * languages.
 */
export function toEnvelope(
  error: DomainError,
  requestId: string | undefined,
  language: Language = 'en',
): ErrorEnvelope {
  const text = answerLanguage(error, language) === 'es' ? error.spanish! : error.message;
  const envelope: ErrorEnvelope = { error: text, code: error.code };
  if (error.detail !== undefined) envelope.detail = error.detail;
  if (error.extra) Object.assign(envelope, error.extra);
  if (requestId) envelope.requestId = requestId;
  return envelope;
}
