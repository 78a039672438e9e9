import request from 'supertest';
import { MENU, seedMenu } from '../support/fixtures';
import { freePort, MAIN_JS, RunningProcess } from '../support/processes';
import { SseClient } from '../support/sse-client';
import { TestDatabases } from '../support/test-databases';

/**
 * Two service processes on one PostgreSQL, as behind a load balancer: a subscriber of one sees
 * the changes made through the other, in order and exactly once, because the database (the
 * audit trail and its NOTIFY) is the only thing they share, and a killed LISTEN connection
 * loses nothing. SIGTERM ends the streams cleanly.
 */
describe('live stream across instances (real processes)', () => {
  let dbs: TestDatabases;
  const clients: SseClient[] = [];

  const start = async () => {
    const port = await freePort();
    const service = new RunningProcess(
      MAIN_JS,
      dbs.env({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    );
    await service.waitForOutput('is listening on');
    return { service, base: `http://127.0.0.1:${port}` };
  };

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('cadena');
    await seedMenu(dbs, 'cadena');
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await RunningProcess.stopAll();
    await dbs.drop();
  });

  it('subscribers on A see the changes made through B, in order, exactly once; SIGTERM ends the streams', async () => {
    const a = await start();
    const b = await start();
    const subscribers = await Promise.all(
      Array.from({ length: 3 }, () =>
        SseClient.open(a.base, '/api/v1/comandas/stream', { 'X-Tenant-ID': 'cadena' }),
      ),
    );
    clients.push(...subscribers);
    expect(subscribers.map((s) => s.status)).toEqual([200, 200, 200]);

    const viaB = (method: 'post' | 'put', path: string, body: object) =>
      request(b.base)[method](`/api/v1${path}`).set('X-Tenant-ID', 'cadena').send(body);
    const created = await viaB('post', '/comandas', {
      id_mesa: 1,
      items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }],
    }).expect(201);
    const id = created.body.id_comanda as number;
    const addLines = async (n: number) => {
      for (let i = 0; i < n; i++)
        await viaB('post', `/comandas/${id}/items`, {
          id_producto: MENU.chicha.id,
          cantidad: 1,
        }).expect(201);
    };
    await addLines(10);
    // A's LISTEN connection dies (a failover, a killed backend) while changes go on through B
    const killed = await dbs.query<{ n: number }>(
      dbs.tenantUrl('cadena'),
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE application_name = 'comandas-listener:cadena'`,
    );
    expect(killed[0].n).toBe(1); // A's: B has no subscriber, so no listener
    await addLines(10);
    await viaB('put', `/comandas/${id}`, { action: 'cerrar' }).expect(200);

    const trail = (
      await dbs.query<{ id: number; accion: string }>(
        dbs.tenantUrl('cadena'),
        'SELECT id_evento::int AS id, accion FROM comanda_eventos ORDER BY id_evento',
      )
    ).map((r) => [r.id, r.accion]);
    expect(trail).toHaveLength(22);
    const last = trail[trail.length - 1][0] as number;
    for (const s of subscribers) {
      await s.until(() => s.comandaEvents().some((e) => e._id === last), 10_000);
      expect(s.comandaEvents<{ accion: string }>().map((e) => [e._id, e.accion])).toEqual(trail);
      // every summary is the comanda's, versions one after the other
      expect(
        s.comandaEvents<{ comanda: { version: number } }>().map((e) => e.comanda.version),
      ).toEqual(expect.arrayContaining([22]));
    }

    // SIGTERM on A: its streams end (clients reconnect elsewhere) and it exits 0, promptly
    a.service.child.kill('SIGTERM');
    await Promise.all(subscribers.map((s) => s.until(() => s.ended, 10_000, 'the end')));
    const exit = await a.service.exited;
    expect(exit.code).toBe(0);

    // and they resume on B from their Last-Event-ID with nothing missed
    await viaB('put', `/comandas/${id}`, { action: 'abrir' }).expect(200);
    const resumed = await SseClient.open(b.base, '/api/v1/comandas/stream', {
      'X-Tenant-ID': 'cadena',
      'Last-Event-ID': String(last),
    });
    clients.push(resumed);
    await resumed.until(() => resumed.comandaEvents().length === 1, 10_000);
    expect(resumed.comandaEvents<{ accion: string }>().map((e) => e.accion)).toEqual(['abrir']);
  });
});
