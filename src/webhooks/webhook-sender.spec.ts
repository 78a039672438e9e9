import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook, type WebhookRequest } from './webhook-sender';

const SIGNATURE = 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=';
const BODY = JSON.stringify({ type: 'comanda.closed', data: { id: 42, mesa: 'Terraza 3' } });

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 whose routes answer as the test says, recording what it was sent. */
class Receiver {
  readonly requests: Received[] = [];
  connections = 0;
  private readonly server: Server;
  private readonly routes = new Map<string, (res: ServerResponse) => void>();

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.requests.push({
          method: req.method ?? '',
          url: path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const route = this.routes.get(path.split('?')[0]);
        if (route) route(res);
        else res.writeHead(404).end();
      });
    });
    this.server.on('connection', () => (this.connections += 1));
  }

  on(path: string, answer: (res: ServerResponse) => void): this {
    this.routes.set(path, answer);
    return this;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function delivery(url: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest {
  return {
    url,
    headers: {
      'webhook-id': 'msg_2xKq7Wn4',
      'webhook-timestamp': '1767225600',
      'webhook-signature': SIGNATURE,
    },
    body: BODY,
    timeoutMs: 2000,
    allowPrivate: true,
    ...overrides,
  };
}

describe('sendWebhook', () => {
  let receiver: Receiver;
  /** Bytes the endless route wrote before the sender hung up. */
  let streamed = 0;

  beforeAll(async () => {
    receiver = new Receiver()
      .on('/ok', (res) => res.writeHead(204).end())
      .on('/fails', (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('se cayó'))
      .on('/moved', (res) => res.writeHead(301, { location: '/ok' }).end())
      .on('/silent', () => undefined)
      .on('/slow-body', (res) => res.writeHead(200).write('recibido'))
      .on('/huge', (res) => {
        // 10 MB in 64 kB writes, each one once the last has drained
        const piece = Buffer.alloc(64 * 1024, 'x');
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.on('error', () => undefined);
        const write = () => {
          while (streamed < 10 * 1024 * 1024 && !res.destroyed) {
            streamed += piece.length;
            if (!res.write(piece)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      });
    await receiver.start();
  });

  afterAll(() => receiver.stop());

  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.connections = 0;
  });

  it('posts the body and headers as given, with its own content headers, and takes a 2xx', async () => {
    const result = await sendWebhook(
      delivery(receiver.url('/ok?tenant=7'), {
        // a caller's own spelling of the content headers gives way to the module's
        headers: { ...delivery('').headers, 'Content-Type': 'text/plain' },
      }),
    );
    expect(result).toEqual({
      ok: true,
      status: 204,
      error: null,
      durationMs: expect.any(Number),
      responseBody: '',
    });
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/ok?tenant=7');
    expect(received.body).toBe(BODY);
    expect(received.headers).toMatchObject({
      'webhook-id': 'msg_2xKq7Wn4',
      'webhook-timestamp': '1767225600',
      'webhook-signature': SIGNATURE,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'user-agent': 'comandas-webhooks/1',
    });
  });

  it('counts the body in bytes, not characters', async () => {
    const body = JSON.stringify({ item: 'ají de gallina 🌶' });
    await sendWebhook(delivery(receiver.url('/ok'), { body }));
    expect(receiver.requests[0].headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(receiver.requests[0].body).toBe(body);
  });

  it('reports a 500 as not ok, with its status and body', async () => {
    const result = await sendWebhook(delivery(receiver.url('/fails')));
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      error: 'HTTP 500',
      responseBody: 'se cayó',
    });
  });

  it('does not follow a redirect', async () => {
    const result = await sendWebhook(delivery(receiver.url('/moved')));
    expect(result).toMatchObject({
      ok: false,
      status: 301,
      error: 'redirect not followed (301)',
    });
    expect(receiver.requests.map((r) => r.url)).toEqual(['/moved']);
  });

  it('reads at most 64 kB of a 10 MB answer, then hangs up, and the status decides', async () => {
    streamed = 0;
    const result = await sendWebhook(delivery(receiver.url('/huge')));
    expect(result.ok).toBe(true);
    expect(result.status).toBe(200);
    expect(Buffer.byteLength(result.responseBody)).toBe(64 * 1024);
    expect(result.responseBody).toMatch(/^x+$/);
    expect(result.durationMs).toBeLessThan(1000);
    // the receiver stopped writing well before the 10 MB
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(streamed).toBeLessThan(10 * 1024 * 1024);
  });

  it('keeps to a smaller maxResponseBytes', async () => {
    const result = await sendWebhook(delivery(receiver.url('/fails'), { maxResponseBytes: 3 }));
    expect(result).toMatchObject({ ok: false, status: 500, responseBody: 'se ' });
  });

  it('gives up on a receiver that never answers, after timeoutMs', async () => {
    const result = await sendWebhook(delivery(receiver.url('/silent'), { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('keeps the status of a receiver that answers 2xx but never ends its body', async () => {
    const result = await sendWebhook(delivery(receiver.url('/slow-body'), { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: true, status: 200, error: null, responseBody: 'recibido' });
  });

  it('reports a refused connection', async () => {
    const closed = new Receiver();
    await closed.start();
    const url = closed.url('/ok');
    await closed.stop();
    const result = await sendWebhook(delivery(url));
    expect(result).toMatchObject({ ok: false, status: null, responseBody: '' });
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(result.error).not.toContain(SIGNATURE);
  });

  it('refuses 127.0.0.1 before connecting unless private addresses are allowed', async () => {
    const result = await sendWebhook(delivery(receiver.url('/ok'), { allowPrivate: false }));
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error: 'WEBHOOK_ADDRESS_NOT_ALLOWED: the host is a private address (127.0.0.1)',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it('resolves a name at delivery and refuses it when it points to a private address', async () => {
    const refused = await sendWebhook(
      delivery(receiver.url('/ok', 'localhost'), { allowPrivate: false }),
    );
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.error).toMatch(
      /^WEBHOOK_ADDRESS_NOT_ALLOWED: the host resolves to a private address/,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.connections).toBe(0);
    // the same name, allowed, goes through the same lookup and arrives
    const allowed = await sendWebhook(delivery(receiver.url('/ok', 'localhost')));
    expect(allowed).toMatchObject({ ok: true, status: 204 });
    expect(receiver.requests).toHaveLength(1);
    // and no connection is kept from it for a later attempt to skip the lookup with
    const again = await sendWebhook(
      delivery(receiver.url('/ok', 'localhost'), { allowPrivate: false }),
    );
    expect(again.error).toMatch(/^WEBHOOK_ADDRESS_NOT_ALLOWED/);
    expect(receiver.requests).toHaveLength(1);
  });

  it('guards https the same way, and reports a failed TLS handshake as an error', async () => {
    const https = (allowPrivate: boolean) =>
      sendWebhook(
        delivery(`https://localhost:${receiver.port}/ok`, { allowPrivate, timeoutMs: 1000 }),
      );
    expect((await https(false)).error).toMatch(/^WEBHOOK_ADDRESS_NOT_ALLOWED/);
    expect(receiver.connections).toBe(0);
    // the receiver speaks plain http: the handshake fails and no request is made
    const result = await https(true);
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).not.toBeNull();
    expect(result.error).not.toMatch(/timeout|\n$/);
    expect(receiver.requests.filter((r) => r.url === '/ok')).toHaveLength(0);
  });

  it('never quotes a header value, and never throws, on a request it cannot send', async () => {
    const result = await sendWebhook(
      delivery(receiver.url('/ok'), {
        headers: { 'webhook-signature': `${SIGNATURE}\r\nx-injected: 1` },
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error: 'invalid header "webhook-signature"',
    });
    expect(receiver.connections).toBe(0);
    await expect(sendWebhook(delivery('not a url'))).resolves.toMatchObject({
      ok: false,
      error: 'not a valid absolute URL',
    });
    await expect(sendWebhook(delivery('ftp://127.0.0.1/'))).resolves.toMatchObject({
      ok: false,
      error: 'unsupported scheme (ftp:)',
    });
  });
});
