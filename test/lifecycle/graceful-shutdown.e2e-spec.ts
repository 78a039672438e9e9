import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { seedMenu } from '../support/fixtures';
import { freePort, MAIN_JS, RunningProcess } from '../support/processes';
import { TestDatabases } from '../support/test-databases';

/**
 * SIGTERM while requests are in flight (held on a row lock taken from outside): the service
 * stops accepting, answers every one of them, closes its pools and exits 0.
 */
describe('graceful shutdown', () => {
  let dbs: TestDatabases;
  let locker: Client | undefined;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('cierre');
    await seedMenu(dbs, 'cierre');
  });

  afterAll(async () => {
    await locker?.end().catch(() => undefined);
    await RunningProcess.stopAll();
    await dbs.drop();
  });

  it('answers the requests in flight on SIGTERM, refuses new ones, and exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = new RunningProcess(
      MAIN_JS,
      dbs.env({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    );
    await service.waitForOutput('is listening on');
    const created = await request(base)
      .post('/api/v1/comandas')
      .set('X-Tenant-ID', 'cierre')
      .send({ id_mesa: 1, items: [{ id_producto: 1, cantidad: 2 }] })
      .expect(201);
    const id = created.body.id_comanda as number;

    // hold the comanda's row: every change to it waits inside the service
    locker = new Client({ connectionString: dbs.tenantUrl('cierre') });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM comandas WHERE id_comanda = $1 FOR UPDATE', [id]);
    const inFlight = Array.from({ length: 8 }, (_, i) =>
      request(base)
        .put(`/api/v1/comandas/${id}`)
        .set('X-Tenant-ID', 'cierre')
        .send({ action: i % 2 === 0 ? 'cerrar' : 'abrir' })
        .then(
          (res) => res.status,
          (error: NodeJS.ErrnoException) => `failed: ${error.code ?? error.message}`,
        ),
    );
    // wait until the service's transactions are blocked on the lock
    for (let i = 0; i < 100; i += 1) {
      const { rows } = await locker.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].n >= 1) break;
      await sleep(50);
    }
    await sleep(200); // the other requests reach the service and wait for a pool connection

    const stopping = Date.now();
    service.child.kill('SIGTERM');
    // the same signal again a moment later, as `npm start` under a terminal, systemd or
    // `timeout` gets it (to the process group, then forwarded by npm): one graceful shutdown
    await sleep(30);
    service.child.kill('SIGTERM');
    await sleep(300);
    // no new request is accepted while the others finish
    const refused = await request(base)
      .get('/api/v1/comandas')
      .set('X-Tenant-ID', 'cierre')
      .then(
        (res) => res.status,
        (error: NodeJS.ErrnoException) => error.code,
      );
    expect(refused).toBe('ECONNREFUSED');
    expect(service.child.exitCode).toBeNull(); // still finishing its requests

    await locker.query('COMMIT');
    const statuses = await Promise.all(inFlight);
    // every request answered: each transition either applied (200) or refused by the state
    // machine because another one applied first (409)
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    const exit = await service.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    expect(exit.stdout).toContain('Stopped');
  });
});
