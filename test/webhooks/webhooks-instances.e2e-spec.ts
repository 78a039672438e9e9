import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { MENU, seedMenu } from '../support/fixtures';
import { RedisProbe, TEST_REDIS_URL } from '../support/redis';
import { freePort, MAIN_JS, RunningProcess } from '../support/processes';
import { TestDatabases } from '../support/test-databases';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhook dispatcher on two service processes sharing one PostgreSQL, as behind a load
 * balancer: they share the outbox and nothing else (FOR UPDATE SKIP LOCKED and a lease).
 *
 * What each process did is read from the database, not guessed from timings: each process's
 * connections carry a setting naming it (PGOPTIONS="-c comandas.instancia=a", a startup
 * parameter node-pg sends on every connection), and a trigger added to this file's tenant
 * database records every update of an outbox row with the process that made it: a claim
 * (still pending, no attempt counted), a delivery recorded (entregado). The service's own SQL
 * is not changed by it.
 */

/** The steps of the outbox rows, by process (see above). */
const INSTRUMENT = `
  CREATE TABLE prueba_pasos (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id_mensaje  bigint NOT NULL,
    instancia   text NULL,
    paso        text NOT NULL
  );
  CREATE FUNCTION prueba_pasos() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO prueba_pasos (id_mensaje, instancia, paso)
    VALUES (NEW.id_mensaje, current_setting('comandas.instancia', true),
            CASE WHEN NEW.estado = 'pendiente' AND NEW.intentos = OLD.intentos THEN 'reclamo'
                 ELSE NEW.estado END);
    RETURN NULL;
  END $$;
  CREATE TRIGGER tr_prueba_pasos AFTER UPDATE ON webhook_mensajes
    FOR EACH ROW EXECUTE FUNCTION prueba_pasos();`;

/** Every outbox row at the end, with its attempts and what each process did to it. */
const OUTBOX = `
  SELECT m.webhook_id, m.estado,
         (SELECT count(*) FROM webhook_intentos i WHERE i.id_mensaje = m.id_mensaje)::int
           AS intentos,
         (SELECT count(*) FROM prueba_pasos p
           WHERE p.id_mensaje = m.id_mensaje AND p.paso = 'reclamo')::int AS reclamos,
         coalesce((SELECT array_agg(DISTINCT p.instancia) FROM prueba_pasos p
                    WHERE p.id_mensaje = m.id_mensaje AND p.paso = 'reclamo'), '{}') AS reclamado_por,
         coalesce((SELECT array_agg(p.instancia ORDER BY p.id) FROM prueba_pasos p
                    WHERE p.id_mensaje = m.id_mensaje AND p.paso = 'entregado'), '{}')
           AS entregado_por
    FROM webhook_mensajes m
   ORDER BY m.id_mensaje`;

interface OutboxRow {
  webhook_id: string;
  estado: string;
  intentos: number;
  reclamos: number;
  reclamado_por: string[];
  entregado_por: string[];
}

interface Instance {
  name: string;
  service: RunningProcess;
  base: string;
}

const WEBHOOKS = { FEATURE_WEBHOOKS: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' };
/** Each test takes 15 to 40 s; two processes starting on a busy 2-core machine, more. */
const TEST_TIMEOUT_MS = 120_000;

describe('webhooks across instances (real processes)', () => {
  let dbs: TestDatabases;
  let receiver: WebhookReceiver | undefined;
  let db: Client | undefined;

  const start = async (name: string, env: Record<string, string>): Promise<Instance> => {
    const port = await freePort();
    const service = new RunningProcess(
      MAIN_JS,
      dbs.env({
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PGOPTIONS: `-c comandas.instancia=${name}`,
        ...WEBHOOKS,
        ...env,
      }),
    );
    await service.waitForOutput('is listening on');
    return { name, service, base: `http://127.0.0.1:${port}` };
  };

  /** A tenant with the menu, the steps recorded, and a connection of the test to it. */
  const tenant = async (slug: string): Promise<Client> => {
    await dbs.createTenant(slug);
    await seedMenu(dbs, slug);
    await dbs.query(dbs.tenantUrl(slug), INSTRUMENT);
    db = new Client({ connectionString: dbs.tenantUrl(slug) });
    await db.connect();
    return db;
  };

  const subscribe = async (via: Instance, slug: string, url: string) => {
    const res = await request(via.base)
      .post('/api/v1/webhooks')
      .set('X-Tenant-ID', slug)
      .send({ url, eventos: ['comanda.*'] })
      .expect(201);
    return res.body as { id_webhook: number; secreto: string };
  };

  /**
   * `chains` comandas side by side, each changed `perChain` times one change after the other
   * (opened, then a line added each time), the changes going to `via` in turn. One change is
   * one audit entry, so one message for a `comanda.*` endpoint.
   */
  const change = (via: Instance[], slug: string, chains: number, perChain: number) =>
    Promise.all(
      Array.from({ length: chains }, async (_, chain) => {
        const at = (step: number) => request(via[(chain + step) % via.length].base);
        const created = await at(0)
          .post('/api/v1/comandas')
          .set('X-Tenant-ID', slug)
          .send({ items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
          .expect(201);
        const id = created.body.id_comanda as number;
        for (let step = 1; step < perChain; step += 1) {
          await at(step)
            .post(`/api/v1/comandas/${id}/items`)
            .set('X-Tenant-ID', slug)
            .send({ id_producto: MENU.chicha.id, cantidad: 1 })
            .expect(201);
        }
      }),
    );

  /** Reads until `done` holds, or fails after `timeoutMs` saying what it waited for. */
  const waitFor = async <T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    what: string,
    timeoutMs = 40_000,
  ): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await sleep(50);
    }
  };

  const count = async (sql: string, params: unknown[] = []) =>
    (await db!.query<{ n: number }>(sql, params)).rows[0].n;

  /** webhook-id → how many times the receiver got it. */
  const receivedIds = () => {
    const times = new Map<string, number>();
    for (const r of receiver!.received) {
      const id = String(r.headers['webhook-id']);
      times.set(id, (times.get(id) ?? 0) + 1);
    }
    return times;
  };

  const redis = new RedisProbe('the webhooks of an instance killed mid-delivery');

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await redis.probe();
  });

  afterEach(async () => {
    await RunningProcess.stopAll();
    await db?.end().catch(() => undefined);
    db = undefined;
    await receiver?.close();
    receiver = undefined;
  });

  afterAll(async () => {
    redis.close();
    await RunningProcess.stopAll();
    await dbs.drop();
  });

  it(
    'delivers every message exactly once when two instances share the outbox',
    async () => {
      const slug = 'dos';
      await tenant(slug);
      receiver = await WebhookReceiver.start();
      // a healthy receiver, a little slow so that the instances' deliveries overlap
      receiver.answer(() => ({ status: 204, delayMs: 10 }));
      // the default lease and timeout (60 s, 15 s): no lease can end in this test, so a second
      // delivery of a message could only come from two instances claiming it at once
      const env = { WEBHOOKS_POLL_MS: '500', WEBHOOKS_CONCURRENCY: '4' };
      const [a, b] = await Promise.all([start('a', env), start('b', env)]);
      await subscribe(a, slug, receiver.url);
      // 150 changes: 15 comandas changed side by side, through both instances in turn
      await change([a, b], slug, 15, 10);
      const total = await count('SELECT count(*)::int AS n FROM webhook_mensajes');
      expect(total).toBe(150);
      await receiver.until(() => receiver!.received.length >= total, 40_000, `${total} messages`);
      await waitFor(
        () => count(`SELECT count(*)::int AS n FROM webhook_mensajes WHERE estado <> 'entregado'`),
        (n) => n === 0,
        'every message recorded as delivered',
      );
      // several polls of both instances later, nothing more arrives
      expect(await receiver.quietFor(1_500)).toBe(0);

      const rows = (await db!.query<OutboxRow>(OUTBOX)).rows;
      expect(rows).toHaveLength(total);
      const times = receivedIds();
      // each webhook-id received exactly once, and the ids received are the outbox's
      expect([...times.values()].filter((n) => n !== 1)).toEqual([]);
      expect(receiver.received).toHaveLength(total);
      expect([...times.keys()].sort()).toEqual(rows.map((r) => r.webhook_id).sort());
      // each message claimed once, attempted once, recorded delivered once, by one instance
      for (const row of rows) {
        expect(row).toMatchObject({ estado: 'entregado', intentos: 1, reclamos: 1 });
        expect(row.entregado_por).toEqual(row.reclamado_por);
        expect(['a', 'b']).toContain(row.entregado_por[0]);
      }
      // and both instances delivered some of them
      const byA = rows.filter((r) => r.entregado_por[0] === 'a').length;
      expect(byA).toBeGreaterThan(0);
      expect(byA).toBeLessThan(total);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'delivers the messages of an instance killed mid-delivery (SIGKILL) from the other, after the lease',
    async () => {
      // the changes go to B: A hears of them through Redis (docs/webhooks.md)
      if (!redis.available()) return;
      const slug = 'caida';
      await tenant(slug);
      receiver = await WebhookReceiver.start();
      // healthy but slow: an instance has deliveries in flight most of the time
      receiver.answer(() => ({ status: 204, delayMs: 200 + Math.floor(Math.random() * 200) }));
      const concurrency = 2;
      const env = {
        WEBHOOKS_POLL_MS: '300',
        WEBHOOKS_TIMEOUT_MS: '1000',
        // a message is started only with a whole timeout of its lease left: a delivery by a
        // live instance is recorded well before its lease ends
        WEBHOOKS_LEASE_MS: '4000',
        WEBHOOKS_CONCURRENCY: String(concurrency),
        REDIS_URL: TEST_REDIS_URL,
      };
      const [a, b] = await Promise.all([start('a', env), start('b', env)]);
      await subscribe(b, slug, receiver.url);

      // 80 changes through B, side by side; both instances deliver them
      const changes = change([b], slug, 8, 10);
      changes.catch(() => undefined); // awaited below
      // A has delivered some and holds claims it has not finished (being sent, or waiting)
      const latest = `SELECT DISTINCT ON (id_mensaje) id_mensaje, instancia, paso
                      FROM prueba_pasos ORDER BY id_mensaje, id DESC`;
      await waitFor(
        () =>
          db!
            .query<{ entregados: number; abiertos: number }>(
              `SELECT count(*) FILTER (WHERE paso = 'entregado')::int AS entregados,
                    count(*) FILTER (WHERE paso = 'reclamo')::int AS abiertos
               FROM (${latest}) l WHERE instancia = 'a'`,
            )
            .then((r) => r.rows[0]),
        (s) => s.entregados >= 1 && s.abiertos >= 4,
        'instance A in the middle of its deliveries',
        30_000,
      );
      a.service.child.kill('SIGKILL');
      expect((await a.service.exited).signal).toBe('SIGKILL');
      // the requests under way keep their delay; B's next ones are answered at once
      receiver.answer(() => 204);
      await changes;

      const total = await count('SELECT count(*)::int AS n FROM webhook_mensajes');
      expect(total).toBe(80);
      await waitFor(
        () => count(`SELECT count(*)::int AS n FROM webhook_mensajes WHERE estado <> 'entregado'`),
        (n) => n === 0,
        'every message recorded as delivered',
      );
      expect(await receiver.quietFor(1_000)).toBe(0);

      const rows = (await db!.query<OutboxRow>(OUTBOX)).rows;
      expect(rows).toHaveLength(total);
      const times = receivedIds();
      // every message was received, at least once; nothing else was
      expect([...times.keys()].sort()).toEqual(rows.map((r) => r.webhook_id).sort());
      expect(rows.every((r) => r.estado === 'entregado')).toBe(true);

      // A's unfinished claims: left to B after their lease, and delivered by B
      const orphaned = rows.filter(
        (r) => r.reclamado_por.includes('a') && !r.entregado_por.includes('a'),
      );
      expect(orphaned.length).toBeGreaterThan(0);
      for (const row of orphaned) expect(row.entregado_por).toEqual(['b']);
      // A delivered some before it died, B the rest; every delivery recorded once
      expect(rows.some((r) => r.entregado_por[0] === 'a')).toBe(true);
      for (const row of rows) expect(row.entregado_por).toHaveLength(1);

      // At least once: the only extra receptions are A's attempts cut off by the kill (sent, not
      // recorded), at most one per message, only of A's unfinished claims, at most one per
      // delivery lane of A. Every other reception is a recorded attempt.
      const unrecorded = rows.map((r) => ({ ...r, extra: times.get(r.webhook_id)! - r.intentos }));
      expect(unrecorded.filter((r) => r.extra < 0 || r.extra > 1)).toEqual([]);
      const duplicated = unrecorded.filter((r) => r.extra === 1);
      const orphanIds = new Set(orphaned.map((r) => r.webhook_id));
      expect(duplicated.filter((r) => !orphanIds.has(r.webhook_id))).toEqual([]);
      expect(duplicated.length).toBeLessThanOrEqual(concurrency);
      // a duplicate is the same message: same webhook-id, same bytes
      for (const { webhook_id } of duplicated) {
        const bodies = receiver.received
          .filter((r) => r.headers['webhook-id'] === webhook_id)
          .map((r) => r.body);
        expect(bodies.length).toBeGreaterThanOrEqual(2);
        expect(bodies.filter((body) => body !== bodies[0])).toEqual([]);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
