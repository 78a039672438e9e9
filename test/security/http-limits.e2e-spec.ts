import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The HTTP server's limits (docs/security.md, "The HTTP server's limits"), on a service
 * listening on 127.0.0.1 with small values: connections beyond the cap closed, idle connections
 * and slow heads closed, a body trickled too slowly cut with 408, a big head refused with 431,
 * and a request being answered never cut however long its handler takes.
 */

const SLUG = 'limites';
const LIMITS = {
  HTTP_MAX_CONNECTIONS: '20',
  SSE_MAX_CLIENTS: '10',
  HTTP_HEADERS_TIMEOUT_MS: '600',
  HTTP_REQUEST_TIMEOUT_MS: '20000',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '400',
  HTTP_BODY_MIN_BYTES_PER_S: '2000',
  HTTP_MAX_HEADER_BYTES: '4096',
};
/** How long a test waits for the server to act before it calls it a failure. */
const PATIENCE_MS = 15_000;

interface RawConnection {
  socket: Socket;
  /** What the server sent. */
  received: () => string;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
}

describe('the HTTP server’s limits', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp(LIMITS);
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    port = (t.http.address() as AddressInfo).port;
  });

  afterAll(() => t.close());

  function open(): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      socket.once('error', () => undefined);
      socket.once('connect', () => resolve({ socket, received: () => text, closed }));
      socket.once('error', reject);
    });
  }

  /** Whether `promise` settles before the test's patience runs out. */
  const settles = (promise: Promise<unknown>) =>
    Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PATIENCE_MS)),
    ]);

  const health = () => request(`http://127.0.0.1:${port}`).get('/api/health');

  it('closes connections past HTTP_MAX_CONNECTIONS at once, and idle ones that send nothing', async () => {
    const connections = await Promise.all(Array.from({ length: 30 }, () => open()));
    // every one of them is closed by the server: 10 over the cap at once, the rest once idle
    const closed = await Promise.all(connections.map((c) => settles(c.closed)));
    expect(closed.every(Boolean)).toBe(true);
    for (const c of connections) expect(c.received()).toBe('');
    // and the server serves again
    expect((await health()).status).toBe(200);
  });

  it('closes a connection whose request head comes too slowly', async () => {
    const c = await open();
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => c.socket.writable && c.socket.write('X-Slow: a\r\n'), 150);
    const ended = await settles(c.closed);
    clearInterval(drip);
    expect(ended).toBe(true);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts a body trickled slower than HTTP_BODY_MIN_BYTES_PER_S with 408', async () => {
    const c = await open();
    const body = JSON.stringify({ observacion: 'x'.repeat(4000) });
    c.socket.write(
      `POST /api/v1/comandas HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tenant-ID: ${SLUG}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const drip = setInterval(() => {
      if (c.socket.writable && sent < body.length) c.socket.write(body[sent++]);
    }, 100);
    const ended = await settles(c.closed);
    clearInterval(drip);
    expect(ended).toBe(true);
    expect(sent).toBeLessThan(body.length);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.received()).toContain('"code":"REQUEST_TIMEOUT"');
    const rows = await t.dbs.query<{ n: number }>(
      t.dbs.tenantUrl(SLUG),
      'SELECT count(*)::int AS n FROM comandas',
    );
    expect(rows[0].n).toBe(0);
  });

  it('takes a body sent at a normal pace, in pieces', async () => {
    const c = await open();
    const body = JSON.stringify({ observacion: 'mesa del fondo' });
    c.socket.write(
      `POST /api/v1/comandas HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tenant-ID: ${SLUG}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    c.socket.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    c.socket.write(body.slice(10));
    expect(await settles(c.closed)).toBe(true);
    expect(c.received()).toMatch(/^HTTP\/1\.1 201 /);
  });

  it('closes a kept-alive connection left idle between requests', async () => {
    const c = await open();
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await settles(c.closed)).toBe(true);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses a request head larger than HTTP_MAX_HEADER_BYTES with 431', async () => {
    const res = await health().set('X-Padding', 'p'.repeat(5_000));
    expect(res.status).toBe(431);
  });

  it('never cuts a request being answered, however long its handler takes', async () => {
    const created = await request(t.http)
      .post('/api/v1/comandas')
      .set('X-Tenant-ID', SLUG)
      .send({ id_mesa: 1, items: [{ id_producto: 1, cantidad: 1 }] })
      .expect(201);
    const id = created.body.id_comanda as number;
    // hold the comanda's row: the change waits well past every timeout of the connection
    const holder = new Client({ connectionString: t.dbs.tenantUrl(SLUG) });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM comandas WHERE id_comanda = $1 FOR UPDATE', [id]);
    const change = request(`http://127.0.0.1:${port}`)
      .put(`/api/v1/comandas/${id}`)
      .set('X-Tenant-ID', SLUG)
      .send({ observacion: 'con vista al mar' });
    const pending = change.then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await holder.query('COMMIT');
    await holder.end();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.observacion).toBe('con vista al mar');
  });
});
