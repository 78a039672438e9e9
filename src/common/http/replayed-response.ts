import type { Response } from 'express';
import type { DomainError } from '../errors/domain-error';
import { toEnvelope, type ErrorEnvelope } from '../errors/error-envelope';
import { setErrorLanguage, type Language } from '../errors/language';

/**
 * Where a stored refusal keeps its Spanish text, beside the envelope in English: a replay
 * answers in the language its own request asks for, as the first answer did. Never sent.
 */
const STORED_SPANISH = 'x-error-es';

/** A refusal as an idempotent write stores it: the envelope, with the text in both languages. */
export function storedRefusal(error: DomainError, requestId: string | undefined): object {
  const envelope: Record<string, unknown> = toEnvelope(error, requestId, 'en');
  if (error.spanish !== undefined) envelope[STORED_SPANISH] = error.spanish;
  return envelope;
}

/**
 * An answer decided before the handler ran, sent as it is: the stored answer of an idempotent
 * write sent again (src/idempotency). IdempotentWrites throws it from the @Idempotent()
 * handler's wrapper before the handler's own work runs, so that work never runs again; the
 * exception filter writes it (status, headers, body) instead of an error envelope. A stored
 * refusal is answered in the language the replay's request asks for (its Content-Language).
 */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {
    super(`Replayed answer ${status}`);
    this.name = 'ReplayedResponse';
  }

  send(response: Response, requested: Language): void {
    for (const [name, value] of Object.entries(this.headers)) response.setHeader(name, value);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    let body = this.body;
    if (this.status >= 400 && typeof body === 'object' && body !== null) {
      const { [STORED_SPANISH]: spanish, ...envelope } = body as ErrorEnvelope;
      const language = requested === 'es' && typeof spanish === 'string' ? 'es' : 'en';
      if (language === 'es') envelope.error = spanish as string;
      setErrorLanguage(response, language);
      body = envelope;
    }
    response.status(this.status).send(JSON.stringify(body));
  }
}
