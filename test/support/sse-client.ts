import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** One Server-Sent Event as a client receives it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A Server-Sent Events client over plain node:http, as a browser's EventSource would read the
 * stream: frames of `id:`, `event:`, `data:` lines ended by a blank line; comments (`:`) are
 * counted apart. Collects everything; tests wait for what they expect.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  headers: IncomingMessage['headers'] = {};
  body = '';
  ended = false;
  private buffer = '';
  private req: ClientRequest | null = null;
  private res: IncomingMessage | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor() {}

  /** Opens `path` (under the origin) with headers; resolves once the status is known. */
  static open(
    origin: string | Server,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<SseClient> {
    const base =
      typeof origin === 'string'
        ? origin
        : `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${base}${path}`,
        { headers: { Accept: 'text/event-stream', ...headers } },
        (res) => {
          client.status = res.statusCode ?? 0;
          client.headers = res.headers;
          client.res = res;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => client.receive(chunk));
          res.on('end', () => client.finish());
          res.on('close', () => client.finish());
          res.on('error', () => client.finish());
          resolve(client);
        },
      );
      req.on('error', (error) => (client.status ? client.finish() : reject(error)));
      req.end();
      client.req = req;
    });
  }

  /** The `comanda` events, with their data parsed. */
  comandaEvents<T = Record<string, unknown>>(): (T & { _id: number })[] {
    return this.events
      .filter((e) => e.event === 'comanda')
      .map((e) => ({ ...(JSON.parse(e.data) as T), _id: Number(e.id) }));
  }

  /** Waits until `done()` holds (checked on every frame), or fails after `timeoutMs`. */
  async until(
    done: () => boolean,
    timeoutMs = 10_000,
    what = 'the expected events',
  ): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `Timed out waiting for ${what}: ${this.events.length} events so far (ended: ${this.ended})`,
          ),
        );
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

  close(): void {
    this.req?.destroy();
  }

  /**
   * Stops reading, like a client that hangs: what the server sends waits in the socket (once
   * the response's own buffer is full, node stops reading the socket), until `resume()`.
   */
  pause(): void {
    this.res?.pause();
  }

  resume(): void {
    this.res?.resume();
  }

  private receive(chunk: string): void {
    this.body += this.status === 200 ? '' : chunk;
    if (this.status !== 200) return;
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { event: 'message', data: '' };
      let isEvent = false;
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) this.comments += 1;
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) {
          event.data = line.slice(6);
          isEvent = true;
        }
      }
      if (isEvent) this.events.push(event);
    }
    for (const waiter of [...this.waiters]) waiter();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of [...this.waiters]) waiter();
  }
}
