import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
  status: number;
}

/**
 * A real HTTP receiver of webhooks on 127.0.0.1: records every request and answers what the
 * test says (`respond`: a status, or a status after a delay), 204 by default.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private respond: (request: {
    body: string;
    headers: IncomingHttpHeaders;
  }) => number | { status: number; delayMs: number } = () => 204;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const answer = receiver.respond({ body, headers: request.headers });
          const { status, delayMs } =
            typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
          const reply = () => {
            receiver.received.push({ headers: request.headers, body, at: Date.now(), status });
            response.writeHead(status).end();
            for (const wake of receiver.waiters) wake();
          };
          if (delayMs > 0) setTimeout(reply, delayMs);
          else reply();
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** What the next requests are answered. */
  answer(
    respond: (request: {
      body: string;
      headers: IncomingHttpHeaders;
    }) => number | { status: number; delayMs: number },
  ): void {
    this.respond = respond;
  }

  /** The bodies received, parsed. */
  get bodies(): { type: string; timestamp: string; data: Record<string, unknown> }[] {
    return this.received.map((r) => JSON.parse(r.body) as never);
  }

  /** Resolves once `done()` holds (checked on every request), or fails after `timeoutMs`. */
  async until(
    done: () => boolean,
    timeoutMs = 20_000,
    what = 'the expected requests',
  ): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}: ${this.received.length} received`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Waits `ms` and says whether anything arrived meanwhile (for "nothing is sent"). */
  async quietFor(ms: number): Promise<number> {
    const before = this.received.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.received.length - before;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** Whether the Standard Webhooks reference library accepts the request as signed by `secret`. */
export function signedWith(secret: string, request: Received): boolean {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}
