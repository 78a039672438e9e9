import type { Response } from 'express';

/**
 * An answer decided before the handler ran, sent as it is: the stored answer of an idempotent
 * write sent again (src/idempotency). IdempotentWrites throws it from the @Idempotent()
 * handler's wrapper before the handler's own work runs, so that work never runs again; the
 * exception filter writes it (status, headers, body) instead of an error envelope.
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

  send(response: Response): void {
    for (const [name, value] of Object.entries(this.headers)) response.setHeader(name, value);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.status(this.status).send(JSON.stringify(this.body));
  }
}
