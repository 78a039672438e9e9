import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { isAlive } from '../../src/database/embedded-postgres';
import { freePort, MAIN_JS, RunningProcess, runNode, TENANT_CLI_JS } from '../support/processes';

/**
 * PostgreSQL going away under a stream of writes: a crash (the postmaster killed with SIGKILL)
 * of the service's own embedded PostgreSQL, run with the service's real settings. After a
 * restart, every write the service answered 2xx is there: a 2xx means the write is durable.
 *
 * The writes: comandas opened (with and without an Idempotency-Key) and comandas paid and
 * closed in one step (feature cobros), by several clients at once, each loop bounded.
 */

/** The tenant's one product, and what the comandas of the writes hold. */
const PRODUCTO = { id: 1, precio: 25 };
const ITEMS = [{ id_producto: PRODUCTO.id, cantidad: 1 }];
/** The till the tenant starts with, and its card method (nothing to count in the drawer). */
const CAJA = 1;
const TARJETA = 2;

/** Clients writing at once; enough that some are always between two statements of a write. */
const WRITERS = 12;
/** Bounds on each client's loop, whatever happens to PostgreSQL. */
const MAX_WRITES_PER_WRITER = 400;

interface Answer {
  route: string;
  status: number;
  code?: string;
  retryAfter?: string;
}

type Agent = ReturnType<typeof request>;

/** The tenant's product and an open session of its till (pay-and-close needs one). */
async function seedTenant(url: string, api: () => Agent, slug: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO categorias (nombre) VALUES ('Platos');
       INSERT INTO productos (nombre, precio, id_categoria, activo)
         VALUES ('Ceviche clásico', ${PRODUCTO.precio}, 1, true);`,
    );
  } finally {
    await client.end();
  }
  await api()
    .post(`/api/v1/cajas/${CAJA}/sesiones`)
    .set('X-Tenant-ID', slug)
    .send({ monto_apertura: 100 })
    .expect(201);
}

/**
 * One client's writes, one after the other: open a comanda (every third with an
 * Idempotency-Key), and every other one pay it by card and close it in the same request.
 * Each answer is given to `seen`; the ids of the comandas answered 2xx are kept in `opened`
 * and `closed`. Runs until `done()` says so, or MAX_WRITES_PER_WRITER writes.
 */
async function writeUntil(
  api: () => Agent,
  slug: string,
  writer: number,
  done: () => boolean,
  seen: (answer: Answer) => void,
  acknowledged: { opened: Set<number>; closed: Set<number> },
): Promise<void> {
  for (let i = 0; i < MAX_WRITES_PER_WRITER && !done(); i += 1) {
    const create = api().post('/api/v1/comandas').set('X-Tenant-ID', slug);
    if ((writer + i) % 3 === 0) create.set('Idempotency-Key', randomUUID());
    const created = await answerOf('POST /comandas', create.send({ items: ITEMS }), seen);
    if (created.status !== 201) continue;
    const id = (created.body as { id_comanda: number }).id_comanda;
    acknowledged.opened.add(id);
    if ((writer + i) % 2 === 0 || done()) continue;
    const closed = await answerOf(
      'PUT /comandas/:id cerrar',
      api()
        .put(`/api/v1/comandas/${id}`)
        .set('X-Tenant-ID', slug)
        .send({ action: 'cerrar', pagos: [{ id_metodo_pago: TARJETA, monto: PRODUCTO.precio }] }),
      seen,
    );
    if (closed.status === 200) acknowledged.closed.add(id);
  }
}

/** The answer of a request; a request the service never answered is status 0. */
async function answerOf(
  route: string,
  pending: Promise<request.Response>,
  seen: (answer: Answer) => void,
): Promise<{ status: number; body: unknown }> {
  try {
    const res = await pending;
    const body = res.body as { code?: string };
    seen({ route, status: res.status, code: body.code, retryAfter: res.headers['retry-after'] });
    return { status: res.status, body: res.body };
  } catch {
    seen({ route, status: 0 });
    return { status: 0, body: undefined };
  }
}

/** Waits, a bounded number of times, until `ready()`. */
async function waitFor(ready: () => boolean, what: string, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts && !ready(); i += 1) await sleep(25);
  if (!ready()) throw new Error(`gave up waiting for ${what}`);
}

describe('a write answered 2xx survives a crash of PostgreSQL', () => {
  const slug = 'durable';
  let workDir: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'comandas-durability-'));
    const port = await freePort();
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DATA_DIR: join(workDir, 'pg'),
      DEMO_TENANT: 'false',
      FEATURE_COBROS: 'true',
      RATE_LIMIT_MAX: '0',
      LOG_LEVEL: 'error',
    };
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await RunningProcess.stopAll();
    await rm(workDir, { recursive: true, force: true });
  });

  it('keeps every comanda answered 201 and every pay-and-close answered 200', async () => {
    const api = () => request(base);
    const first = new RunningProcess(MAIN_JS, env);
    await first.waitForOutput('is listening on', 90_000);
    // the tenant CLI shares the embedded server of the running service
    const created = await runNode(TENANT_CLI_JS, ['create', slug], env);
    expect(created.code).toBe(0);
    const { user, password } = JSON.parse(
      await readFile(join(workDir, 'pg.credentials.json'), 'utf8'),
    ) as { user: string; password: string };
    const tenantUrl = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${env.EMBEDDED_PG_PORT}/comandas_${slug}`;
    await seedTenant(tenantUrl, api, slug);

    const acknowledged = { opened: new Set<number>(), closed: new Set<number>() };
    let killed = false;
    /** Writers that saw a failure after the kill: each stops at its first. */
    const failedAfterKill = new Set<number>();
    const writers = Array.from({ length: WRITERS }, (_, w) =>
      writeUntil(
        api,
        slug,
        w,
        () => failedAfterKill.has(w),
        (answer) => {
          if (killed && answer.status >= 300) failedAfterKill.add(w);
        },
        acknowledged,
      ),
    );

    // the writes are under way: the postmaster dies at once, without a shutdown
    await waitFor(() => acknowledged.closed.size >= 20, 'the first writes');
    const postmaster = Number(
      (await readFile(join(workDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    process.kill(postmaster, 'SIGKILL');
    killed = true;
    await Promise.all(writers);
    expect(failedAfterKill.size).toBe(WRITERS);
    for (let i = 0; i < 200 && isAlive(postmaster); i += 1) await sleep(25);
    expect(isAlive(postmaster)).toBe(false);

    first.child.kill('SIGTERM');
    await first.exited;

    // the next start finds the lock of a dead server and starts PostgreSQL again (recovery)
    const second = new RunningProcess(MAIN_JS, env);
    await second.waitForOutput('is listening on', 90_000);
    const lost: string[] = [];
    const ids = [...acknowledged.opened];
    for (let i = 0; i < ids.length; i += 20) {
      await Promise.all(
        ids.slice(i, i + 20).map(async (id) => {
          const res = await api().get(`/api/v1/comandas/${id}`).set('X-Tenant-ID', slug);
          if (res.status !== 200) lost.push(`comanda ${id} answered 201, now ${res.status}`);
          else if (acknowledged.closed.has(id) && res.body.estado !== 'cerrada')
            lost.push(`comanda ${id} closed (200), now ${String(res.body.estado)}`);
        }),
      );
    }
    expect(ids.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
