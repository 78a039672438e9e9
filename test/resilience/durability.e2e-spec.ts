import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { domainErrorOf } from '../../src/common/errors/all-exceptions.filter';
import { EmbeddedPostgres, isAlive } from '../../src/database/embedded-postgres';
import { withDatabase } from '../../src/database/pg-url';
import { inTransaction } from '../../src/database/transaction';
import { freePort, MAIN_JS, RunningProcess, runNode, TENANT_CLI_JS } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';

/**
 * PostgreSQL going away under a stream of writes.
 *
 * 1. A crash (the postmaster killed with SIGKILL) of the service's own embedded PostgreSQL, run
 *    with the service's real settings: after a restart, every write the service answered 2xx
 *    is there. A 2xx means the write is durable.
 * 2. A stop (`pg_ctl stop -m fast`, then `-m immediate`) of the server of a tenant's database:
 *    every write in flight is answered 2xx or 503 DATABASE_UNAVAILABLE with Retry-After, never
 *    500, and the tenant is served again once its server is back.
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

  // two starts of the service and one of the CLI: on a busy machine, more than a test's minute
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
  }, 180_000);
});

describe('writes in flight when the database of their tenant stops', () => {
  const slug = 'remoto';
  let t: TestApp;
  let dir: string;
  let remote: EmbeddedPostgres;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'comandas-stop-'));
    await chmod(dir, 0o755);
    // its writes need not survive the machine: fsync off (a stop, even immediate, loses nothing)
    remote = new EmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: await freePort(),
      settings: { fsync: 'off' },
    });
    const server = await remote.start();
    t = await startTestApp({ DB_CONNECT_TIMEOUT_MS: '2000', FEATURE_COBROS: 'true' });
    const url = withDatabase(server.adminUrl, `comandas_${slug}`);
    const created = await runNode(
      TENANT_CLI_JS,
      ['create', slug, '--database-url', url],
      t.dbs.env(),
    );
    expect(created.code).toBe(0);
    await seedTenant(url, () => request(t.http), slug);
  });

  afterAll(async () => {
    await t?.close();
    await remote?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['fast', 'immediate'] as const)(
    'answers 2xx or 503 DATABASE_UNAVAILABLE, never 500, on a stop -m %s, and serves again',
    async (mode) => {
      const api = () => request(t.http);
      const answers: Answer[] = [];
      const acknowledged = { opened: new Set<number>(), closed: new Set<number>() };
      let back = false;
      /** Writers served again after the restart: each stops at its first 2xx then. */
      const servedAgain = new Set<number>();
      const writers = Array.from({ length: WRITERS }, (_, w) =>
        writeUntil(
          api,
          slug,
          w,
          () => servedAgain.has(w),
          (answer) => {
            answers.push(answer);
            if (back && answer.status >= 200 && answer.status < 300) servedAgain.add(w);
          },
          acknowledged,
        ),
      );

      await waitFor(() => acknowledged.closed.size >= 10, 'the first writes');
      const before = answers.length;
      await remote.stop(mode);
      await waitFor(() => answers.length >= before + 2 * WRITERS, 'answers while it is down');
      await remote.start();
      back = true;
      await Promise.all(writers);

      const wrong = answers.filter(
        (a) =>
          !(a.status >= 200 && a.status < 300) &&
          !(a.status === 503 && a.code === 'DATABASE_UNAVAILABLE' && Number(a.retryAfter) > 0),
      );
      expect(wrong).toEqual([]);
      expect(answers.some((a) => a.status === 503)).toBe(true);
      expect(servedAgain.size).toBe(WRITERS);
    },
  );
});

describe('a transaction whose query runner is released under it', () => {
  let dbs: TestDatabases;
  let dataSource: DataSource;
  let url: string;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await dbs.createTenant('runner');
    url = dbs.tenantUrl('runner');
    dataSource = await new DataSource({ type: 'postgres', url, poolSize: 2 }).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await dbs?.drop();
  });

  it('fails with the connection’s error (503) when PostgreSQL ended it between two statements', async () => {
    const failure = await inTransaction(dataSource, async (tx) => {
      await tx.query('INSERT INTO categorias (nombre) VALUES ($1)', ['perdida']);
      const [{ pid }] = await tx.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      // as a shutdown does to an idle session: TypeORM releases the runner when told
      await dbs.query(url, 'SELECT pg_terminate_backend($1, 10000)', [pid]);
      await waitFor(() => tx.queryRunner!.isReleased, 'the connection to report its end');
      await tx.query('INSERT INTO categorias (nombre) VALUES ($1)', ['perdida también']);
    }).catch((error: unknown) => error);
    expect(domainErrorOf(failure)).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    // and nothing of it committed
    expect(await dbs.query(url, "SELECT 1 FROM categorias WHERE nombre LIKE 'perdida%'")).toEqual(
      [],
    );
  });

  it('stays a bug (500) when the code itself released it', async () => {
    const failure = await inTransaction(dataSource, async (tx) => {
      await tx.query('SELECT 1');
      await tx.queryRunner!.release();
      await tx.query('SELECT 1');
    }).catch((error: unknown) => error);
    expect(domainErrorOf(failure)).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
  });
});
