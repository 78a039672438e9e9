import { randomBytes } from 'node:crypto';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { connectionBudget } from '../../src/common/config/connection-budget';
import { MENU, seedMenu, tenantApi } from '../support/fixtures';
import { RedisProbe, TEST_REDIS_URL } from '../support/redis';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhooks' wake-ups within the connection budget (docs/architecture.md, docs/webhooks.md,
 * "How a message travels"): many tenants with the feature on cost an instance no connection of
 * their own; a write is delivered at once by the instance that committed it, by another one
 * through Redis, and a retry due later by the poll of `outbox_due`.
 *
 * No timing thresholds: the polls and sweeps that would hide a missing wake-up are set to ten
 * minutes where a test proves a wake-up, so a delivery that arrives within the test's timeout
 * came from the wake-up under test.
 */

const TENANTS = 30;
/** A small budget: 2 + 4 × (2 + 1) = 14 connections, below one per tenant. */
const POOLS = { CONTROL_POOL_MAX: '2', TENANT_POOL_MAX: '2', TENANT_DATASOURCE_MAX: '4' };
const WEBHOOKS = {
  FEATURE_WEBHOOKS: 'true',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_TIMEOUT_MS: '2000',
  WEBHOOKS_LEASE_MS: '5000',
};
const NEVER = '600000';
const slugs = Array.from({ length: TENANTS }, (_, i) => `local${String(i).padStart(2, '0')}`);

/** The connections to this file's databases now, by application name. */
async function connections(dbs: TestDatabases): Promise<{ application_name: string }[]> {
  return dbs.query<{ application_name: string }>(
    dbs.controlUrl,
    `SELECT application_name FROM pg_stat_activity
      WHERE datname LIKE $1 AND pid <> pg_backend_pid()`,
    [`${dbs.prefix.replace(/_/g, '\\_')}%`],
  );
}

const subscribeBySql = (dbs: TestDatabases, slug: string, url: string) =>
  dbs.query(
    dbs.tenantUrl(slug),
    "INSERT INTO webhooks (url, eventos, secreto) VALUES ($1, '{comanda.*}', $2)",
    [url, `whsec_${randomBytes(32).toString('base64')}`],
  );

describe('webhooks at many tenants: within the connection budget', () => {
  let dbs: TestDatabases;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    dbs = await TestDatabases.create();
    for (const slug of slugs) {
      await dbs.createTenant(slug);
      await subscribeBySql(dbs, slug, receiver.url);
    }
    await seedMenu(dbs, slugs[0]);
    // neither a poll nor a sweep but the start's: a delivery below is the commit's wake-up
    t = await startTestApp(
      { ...POOLS, ...WEBHOOKS, WEBHOOKS_POLL_MS: NEVER, WEBHOOKS_SWEEP_MS: NEVER },
      dbs,
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dbs?.drop();
    await receiver?.close();
  });

  it('visits every tenant at its start and stays within the budget: no connection per tenant', async () => {
    const budget = connectionBudget(dbs.config(POOLS));
    expect(budget).toBe(14);
    // the start's sweep visits the 30 tenants (four at a time, through the pools' LRU)
    await t.app.get(WebhookDispatcher).sweep();
    const open = await connections(dbs);
    expect(open.filter((c) => c.application_name.startsWith('comandas-webhooks'))).toEqual([]);
    expect(open.length).toBeLessThanOrEqual(budget);
  });

  it('delivers a write at once on the instance that committed it', async () => {
    receiver.received.length = 0;
    await tenantApi(t.http, slugs[0])
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    await receiver.until(() => receiver.received.length >= 1);
    expect(receiver.bodies[0].type).toBe('comanda.crear');
    expect((await connections(dbs)).length).toBeLessThanOrEqual(14);
  });
});

describe('webhooks: the poll of outbox_due and the sweep', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      ...WEBHOOKS,
      WEBHOOKS_RETRY_DELAYS: '2s',
      WEBHOOKS_POLL_MS: '500',
      WEBHOOKS_SWEEP_MS: NEVER,
    });
    await t.dbs.createTenant('reintento');
    await seedMenu(t.dbs, 'reintento');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers a retry due later through the poll, and forgets the tenant once delivered', async () => {
    const url = t.dbs.tenantUrl('reintento');
    const api = tenantApi(t.http, 'reintento');
    await api.post('/webhooks', { url: receiver.url, eventos: ['comanda.crear'] }).expect(201);
    let calls = 0;
    receiver.answer(() => (++calls === 1 ? 503 : 204));
    await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    await receiver.until(() => receiver.received.length >= 1);
    // the retry, 2 s later, is not before the next poll: outbox_due says when it is due
    const due = async () =>
      t.dbs.query<{ due_at: Date }>(
        t.dbs.controlUrl,
        `SELECT d.due_at FROM outbox_due d JOIN tenants t ON t.id = d.tenant_id
          WHERE d.consumer = 'webhooks' AND t.slug = 'reintento'`,
      );
    await receiver.until(() => receiver.received.length >= 2);
    // the delivery is recorded after the receiver's answer, and the tenant's row settled after it
    const message = async () =>
      (
        await t.dbs.query<{ estado: string; intentos: number }>(
          url,
          'SELECT estado, intentos FROM webhook_mensajes',
        )
      )[0];
    for (
      let i = 0;
      i < 100 && ((await message()).estado !== 'entregado' || (await due()).length > 0);
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await message()).toEqual({ estado: 'entregado', intentos: 2 });
    expect(await due()).toEqual([]);
  });

  it('delivers a message written with SQL (no write of the service) at the sweep', async () => {
    const url = t.dbs.tenantUrl('reintento');
    receiver.answer(() => 204);
    receiver.received.length = 0;
    await t.dbs.query(
      url,
      "INSERT INTO comanda_eventos (id_comanda, accion) SELECT min(id_comanda), 'crear' FROM comandas",
    );
    // no request wrote it: nothing wakes an instance, and the tenant has no due row
    expect(await receiver.quietFor(1_500)).toBe(0);
    await t.app.get(WebhookDispatcher).sweep();
    await receiver.until(() => receiver.received.length >= 1);
  });
});

describe('webhooks: another instance wakes through Redis (REDIS_URL)', () => {
  const redis = new RedisProbe('the Redis wake-up of the webhooks');
  let dbs: TestDatabases;
  let writer: TestApp;
  let sender: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    await redis.probe();
    if (!redis.client) return;
    receiver = await WebhookReceiver.start();
    dbs = await TestDatabases.create();
    await dbs.createTenant('redis');
    await seedMenu(dbs, 'redis');
    const env = {
      ...WEBHOOKS,
      REDIS_URL: TEST_REDIS_URL,
      WEBHOOKS_POLL_MS: NEVER,
      WEBHOOKS_SWEEP_MS: NEVER,
    };
    writer = await startTestApp(env, dbs);
    sender = await startTestApp(env, dbs);
    // the writer serves the requests and sends nothing: only a wake-up heard through Redis
    // makes the other instance send
    await writer.app.get(WebhookDispatcher).beforeApplicationShutdown();
  });
  afterAll(async () => {
    redis.close();
    await writer?.app.close();
    await sender?.app.close();
    await dbs?.drop();
    await receiver?.close();
  });

  it("delivers the write of one instance from the other, woken by the first's message", async () => {
    if (!redis.available()) return;
    const api = tenantApi(writer.http, 'redis');
    await api.post('/webhooks', { url: receiver.url, eventos: ['comanda.crear'] }).expect(201);
    await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    await receiver.until(() => receiver.received.length >= 1);
    expect(receiver.bodies[0].type).toBe('comanda.crear');
  });
});
