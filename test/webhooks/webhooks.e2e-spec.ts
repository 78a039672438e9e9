import request from 'supertest';
import { TenantContext } from '../../src/tenancy/tenant-context';
import { EVENT_TYPES_BY_MODULE } from '../../src/webhooks/webhook-events';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { signedWith, WebhookReceiver } from '../support/webhook-receiver';

/** An endpoint as the API answers it. */
interface Endpoint {
  id_webhook: number;
  url: string;
  eventos: string[];
  activo: boolean;
  estado: string;
  motivo_desactivacion: string | null;
  secreto_anterior_hasta: string | null;
  acciones: string[];
  secreto?: string;
}

interface Entrega {
  id_entrega: number;
  webhook_id: string;
  tipo: string;
  estado: string;
  intentos: number;
  ultimo_status: number | null;
  ultimo_error: string | null;
  historial: { status: number | null; error: string | null }[];
  acciones: string[];
}

const ENV = {
  FEATURE_WEBHOOKS: 'true',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_RETRY_DELAYS: '1s,1s',
  WEBHOOKS_POLL_MS: '500',
  WEBHOOKS_TIMEOUT_MS: '2000',
  WEBHOOKS_LEASE_MS: '5000',
};

describe('webhooks', () => {
  let t: TestApp;
  let api: TenantApi;
  let receiver: WebhookReceiver;
  const db = () => t.dbs.tenantUrl('casa');

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp(ENV);
    await t.dbs.createTenant('casa');
    await t.dbs.createTenant('otra');
    await seedMenu(t.dbs, 'casa');
    await seedMenu(t.dbs, 'otra');
    api = tenantApi(t.http, 'casa');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(async () => {
    receiver.answer(() => 204);
    await t.dbs.query(db(), 'DELETE FROM webhooks');
    receiver.received.length = 0;
  });

  const subscribe = async (eventos: string[], url = receiver.url) =>
    (await api.post('/webhooks', { url, eventos }).expect(201)).body as Endpoint;
  const openComanda = async () =>
    (
      await api
        .post('/comandas', { id_mesa: 1, items: [{ id_producto: MENU.ceviche.id, cantidad: 2 }] })
        .expect(201)
    ).body as { id_comanda: number; version: number };
  const entregas = async (id: number, query = '') =>
    (await api.get(`/webhooks/${id}/entregas${query}`).expect(200)).body as Entrega[];

  it('has an event type for every action the audit trails accept', async () => {
    const checks = await t.dbs.query<{ conname: string; def: string }>(
      db(),
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname IN ('ck_caja_eventos_accion')`,
    );
    const actionsOf = (name: string) =>
      [...checks.find((c) => c.conname === name)!.def.matchAll(/'([a-z_]+)'::text/g)].map(
        (m) => m[1],
      );
    // the comandas' audit trail takes the actions of acciones_comanda (its foreign key)
    const comandaActions = await t.dbs.query<{ accion: string }>(
      db(),
      'SELECT accion FROM acciones_comanda',
    );
    const byModule = EVENT_TYPES_BY_MODULE;
    expect([...byModule.comanda, ...byModule.pago, ...byModule.cocina].sort()).toEqual(
      comandaActions.map((row) => row.accion).sort(),
    );
    expect([...byModule.sesion_caja].sort()).toEqual(actionsOf('ck_caja_eventos_accion').sort());
  });

  it('adds an endpoint: its secret once, never in a read; an unknown event type is refused', async () => {
    const res = await api
      .post('/webhooks', {
        url: receiver.url,
        eventos: ['comanda.cerrar', 'pago.*'],
        descripcion: 'Contabilidad',
      })
      .expect(201);
    const created = res.body as Endpoint;
    expect(created).toMatchObject({
      url: receiver.url,
      eventos: ['comanda.cerrar', 'pago.*'],
      activo: true,
      estado: 'activo',
      acciones: ['editar', 'probar', 'rotar', 'desactivar', 'eliminar'],
    });
    expect(created.secreto).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(res.headers.location).toBe(`/api/v1/webhooks/${created.id_webhook}`);

    const list = (await api.get('/webhooks').expect(200)).body as Endpoint[];
    expect(list.map((w) => w.id_webhook)).toEqual([created.id_webhook]);
    expect(list[0]).not.toHaveProperty('secreto');
    const one = (await api.get(`/webhooks/${created.id_webhook}`).expect(200)).body as Endpoint;
    expect(one).not.toHaveProperty('secreto');

    const bad = await api
      .post('/webhooks', { url: receiver.url, eventos: ['comanda.pagada', 'comanda.*'] })
      .expect(400);
    expect(bad.body).toMatchObject({
      code: 'WEBHOOK_UNKNOWN_EVENT',
      detail: { desconocidos: ['comanda.pagada'] },
    });
    const empty = await api.post('/webhooks', { url: receiver.url, eventos: [] }).expect(400);
    expect(empty.body.code).toBe('VALIDATION_FAILED');
    const ftp = await api.post('/webhooks', { url: 'ftp://example.com/x', eventos: ['comanda.*'] });
    expect(ftp.status).toBe(400);
    expect(ftp.body.code).toBe('WEBHOOK_URL_NOT_ALLOWED');
    const [{ n }] = await t.dbs.query<{ n: string }>(db(), 'SELECT count(*) AS n FROM webhooks');
    expect(Number(n)).toBe(1);
  });

  it('sends each change of a comanda, signed so that the standardwebhooks library verifies it', async () => {
    const endpoint = await subscribe(['comanda.*']);
    const comanda = await openComanda();
    await api
      .post(`/comandas/${comanda.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
      .expect(201);
    await api.put(`/comandas/${comanda.id_comanda}`, { action: 'cerrar' }).expect(200);
    await receiver.until(() => receiver.received.length >= 3, 20_000, 'three messages');

    expect(receiver.bodies.map((b) => b.type)).toEqual([
      'comanda.crear',
      'comanda.agregar_item',
      'comanda.cerrar',
    ]);
    const closed = receiver.bodies[2];
    expect(closed.data).toMatchObject({
      id_comanda: comanda.id_comanda,
      estado: 'cerrada',
      version: 3,
      total: 84,
      id_mesa: 1,
    });
    expect(closed.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    for (const request of receiver.received) {
      expect(signedWith(endpoint.secreto!, request)).toBe(true);
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Buffer.byteLength(request.body)).toBeLessThan(20_000);
    }
    expect(
      signedWith('whsec_' + Buffer.alloc(32, 1).toString('base64'), receiver.received[0]),
    ).toBe(false);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);

    // recorded once the batch's sends are done, a moment after the receiver has the last one
    const delivered = await waitFor(
      () => entregas(endpoint.id_webhook),
      (rows) => rows.every((e) => e.estado === 'entregado'),
    );
    expect(delivered.map((e) => [e.tipo, e.estado, e.intentos])).toEqual([
      ['comanda.cerrar', 'entregado', 1],
      ['comanda.agregar_item', 'entregado', 1],
      ['comanda.crear', 'entregado', 1],
    ]);
    expect(delivered[0].historial).toEqual([expect.objectContaining({ status: 204, error: null })]);
  });

  it('sends only the subscribed types, and nothing for a change that rolled back', async () => {
    await subscribe(['comanda.cerrar']);
    const comanda = await openComanda();
    // a change whose transaction rolls back: its audit entry goes, and its message with it
    await t.dbs.query(
      db(),
      `DO $$ BEGIN
         INSERT INTO comanda_eventos (id_comanda, accion) VALUES (${comanda.id_comanda}, 'cerrar');
         RAISE EXCEPTION 'rolled back';
       EXCEPTION WHEN raise_exception THEN NULL;
       END $$`,
    );
    const [{ n }] = await t.dbs.query<{ n: string }>(
      db(),
      'SELECT count(*) AS n FROM webhook_mensajes',
    );
    expect(Number(n)).toBe(0);
    // an API change that fails (closing twice) sends nothing either
    await api.put(`/comandas/${comanda.id_comanda}`, { action: 'cerrar' }).expect(200);
    await api.put(`/comandas/${comanda.id_comanda}`, { action: 'cerrar' }).expect(409);
    await receiver.until(() => receiver.received.length >= 1);
    expect(await receiver.quietFor(1_500)).toBe(0);
    expect(receiver.bodies.map((b) => b.type)).toEqual(['comanda.cerrar']);
  });

  it('retries a failed attempt under the same webhook-id, then gives up after the last wait', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    let calls = 0;
    receiver.answer(() => (++calls === 1 ? 503 : 200));
    await openComanda();
    await receiver.until(() => receiver.received.length >= 2);
    const [first, second] = receiver.received;
    expect(first.status).toBe(503);
    expect(second.status).toBe(200);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(signedWith(endpoint.secreto!, second)).toBe(true);
    const [entrega] = await waitFor(
      () => entregas(endpoint.id_webhook),
      ([row]) => row.estado === 'entregado',
    );
    expect(entrega).toMatchObject({ estado: 'entregado', intentos: 2, ultimo_status: 200 });
    expect(entrega.historial.map((h) => [h.status, h.error])).toEqual([
      [503, 'HTTP 503'],
      [200, null],
    ]);

    // always failing: three attempts (the first and a retry after each of the two waits)
    receiver.received.length = 0;
    receiver.answer(() => 500);
    await openComanda();
    await receiver.until(() => receiver.received.length >= 3);
    expect(await receiver.quietFor(2_500)).toBe(0);
    const [failed] = await entregas(endpoint.id_webhook, '?estado=fallido');
    expect(failed).toMatchObject({ estado: 'fallido', intentos: 3, ultimo_status: 500 });
    // an endpoint that failed but was not gone stays on, its failure on record
    const after = (await api.get(`/webhooks/${endpoint.id_webhook}`).expect(200))
      .body as Endpoint & {
      fallando_desde: string | null;
    };
    expect(after).toMatchObject({ activo: true });
    expect(after.fallando_desde).not.toBeNull();
  });

  it('switches the endpoint off when the receiver answers 410, and sends it nothing more', async () => {
    const endpoint = await subscribe(['comanda.*']);
    receiver.answer(() => 410);
    await openComanda();
    await receiver.until(() => receiver.received.length >= 1);
    const off = await waitFor(
      async () => (await api.get(`/webhooks/${endpoint.id_webhook}`).expect(200)).body as Endpoint,
      (w) => !w.activo,
    );
    expect(off).toMatchObject({
      activo: false,
      estado: 'inactivo',
      motivo_desactivacion: 'the receiver answered 410 Gone',
      acciones: ['editar', 'rotar', 'activar', 'eliminar'],
    });
    await openComanda();
    expect(await receiver.quietFor(1_500)).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [{ n }] = await t.dbs.query<{ n: string }>(
      db(),
      'SELECT count(*) AS n FROM webhook_mensajes',
    );
    expect(Number(n)).toBe(1);
    const test = await api.post(`/webhooks/${endpoint.id_webhook}/probar`).expect(409);
    expect(test.body.code).toBe('WEBHOOK_INACTIVE');
    // its deliveries are not re-sent while it is off: not listed, and refused
    const [gone] = await entregas(endpoint.id_webhook);
    expect(gone).toMatchObject({ estado: 'fallido', ultimo_status: 410, acciones: [] });
    const resend = await api.post(`/webhooks/entregas/${gone.id_entrega}/reenviar`).expect(409);
    expect(resend.body.code).toBe('WEBHOOK_INACTIVE');

    // switched on again: its reason and failure record are cleared
    const on = (await api.patch(`/webhooks/${endpoint.id_webhook}`, { activo: true }).expect(200))
      .body as Endpoint & { fallando_desde: string | null };
    expect(on).toMatchObject({ activo: true, motivo_desactivacion: null, fallando_desde: null });
  });

  it('switches off an endpoint that has failed for five days', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    await t.dbs.query(
      db(),
      "UPDATE webhooks SET fallando_desde = now() - interval '5 days 1 minute' WHERE id_webhook = $1",
      [endpoint.id_webhook],
    );
    receiver.answer(() => 502);
    await openComanda();
    const off = await waitFor(
      async () => (await api.get(`/webhooks/${endpoint.id_webhook}`).expect(200)).body as Endpoint,
      (w) => !w.activo,
    );
    expect(off.motivo_desactivacion).toBe('no message delivered for 5 days');
  });

  it('rotates the secret: both sign for 24 hours, each verifies on its own', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    const rotated = (await api.post(`/webhooks/${endpoint.id_webhook}/rotar`).expect(200))
      .body as Endpoint;
    expect(rotated.secreto).not.toBe(endpoint.secreto);
    expect(rotated.secreto_anterior_hasta).not.toBeNull();
    await openComanda();
    await receiver.until(() => receiver.received.length >= 1);
    const [request] = receiver.received;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signedWith(rotated.secreto!, request)).toBe(true);
    expect(signedWith(endpoint.secreto!, request)).toBe(true);
  });

  it('sends a test message, and a delivery again with the same webhook-id', async () => {
    const endpoint = await subscribe(['comanda.cerrar']);
    const queued = (await api.post(`/webhooks/${endpoint.id_webhook}/probar`).expect(202))
      .body as Entrega;
    expect(queued).toMatchObject({ tipo: 'webhook.prueba', estado: 'pendiente', intentos: 0 });
    await receiver.until(() => receiver.received.length >= 1);
    expect(receiver.bodies[0]).toMatchObject({
      type: 'webhook.prueba',
      data: { id_webhook: endpoint.id_webhook },
    });
    const again = (await api.post(`/webhooks/entregas/${queued.id_entrega}/reenviar`).expect(202))
      .body as Entrega;
    expect(again).toMatchObject({
      estado: 'pendiente',
      webhook_id: queued.webhook_id,
      acciones: ['reenviar'],
    });
    await receiver.until(() => receiver.received.length >= 2);
    expect(receiver.received[1].headers['webhook-id']).toBe(queued.webhook_id);
    const [entrega] = await waitFor(
      () => entregas(endpoint.id_webhook),
      (list) => list[0]?.estado === 'entregado',
    );
    expect(entrega.historial).toHaveLength(2);
    await api.post('/webhooks/entregas/999999/reenviar').expect(404);
  });

  it('pages an endpoint’s deliveries and counts them', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    for (let i = 0; i < 3; i++) await openComanda();
    await receiver.until(() => receiver.received.length >= 3);
    const res = await api
      .get(`/webhooks/${endpoint.id_webhook}/entregas?limit=2&offset=1`)
      .expect(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect((res.body as Entrega[]).length).toBe(2);
    await api.get(`/webhooks/${endpoint.id_webhook}/entregas?estado=roto`).expect(400);
  });

  it('edits and deletes an endpoint (with its messages); an empty change is refused', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    await openComanda();
    await receiver.until(() => receiver.received.length >= 1);
    const edited = (
      await api
        .patch(`/webhooks/${endpoint.id_webhook}`, {
          eventos: ['comanda.*', 'cocina.*'],
          descripcion: 'ERP',
        })
        .expect(200)
    ).body as Endpoint;
    expect(edited.eventos).toEqual(['comanda.*', 'cocina.*']);
    expect((await api.patch(`/webhooks/${endpoint.id_webhook}`, {}).expect(400)).body.code).toBe(
      'EMPTY_CHANGE',
    );
    await api.delete(`/webhooks/${endpoint.id_webhook}`).expect(204);
    await api.get(`/webhooks/${endpoint.id_webhook}`).expect(404);
    const [{ n }] = await t.dbs.query<{ n: string }>(
      db(),
      'SELECT count(*) AS n FROM webhook_mensajes',
    );
    expect(Number(n)).toBe(0);
  });

  it('opens no connection of its own per tenant: the first message wakes the committing instance', async () => {
    // casa and otra have the feature on: neither costs a LISTEN connection (docs/architecture.md)
    const webhookConnections = async () =>
      t.dbs.query(
        t.dbs.controlUrl,
        `SELECT pid FROM pg_stat_activity
          WHERE application_name LIKE 'comandas-webhooks%' AND datname LIKE $1`,
        [`${t.dbs.prefix.replace(/_/g, '\\_')}%`],
      );
    await subscribe(['comanda.crear']);
    await openComanda();
    await receiver.until(() => receiver.received.length >= 1);
    expect(await webhookConnections()).toEqual([]);
    const health = (await request(t.http).get('/api/health').expect(200)).body as {
      connections: Record<string, number>;
    };
    expect(Object.keys(health.connections).sort()).toEqual(['budget', 'listeners', 'streams']);
  });

  it('purges messages older than 30 days', async () => {
    const endpoint = await subscribe(['comanda.crear']);
    await openComanda();
    await openComanda();
    await receiver.until(() => receiver.received.length >= 2);
    await t.dbs.query(
      db(),
      `UPDATE webhook_mensajes SET fec_creacion = now() - interval '31 days'
        WHERE id_mensaje = (SELECT min(id_mensaje) FROM webhook_mensajes)`,
    );
    const purged = await t.app
      .get(TenantContext)
      .run('casa', () => t.app.get(WebhooksRepository).purge());
    expect(purged).toBe(1);
    expect(await entregas(endpoint.id_webhook)).toHaveLength(1);
  });

  it('tenant B cannot see or change tenant A’s endpoint, and gets none of its messages', async () => {
    const endpoint = await subscribe(['comanda.*']);
    const other = tenantApi(t.http, 'otra');
    await other.get(`/webhooks/${endpoint.id_webhook}`).expect(404);
    await other.patch(`/webhooks/${endpoint.id_webhook}`, { activo: false }).expect(404);
    await other.post(`/webhooks/${endpoint.id_webhook}/rotar`).expect(404);
    await other.delete(`/webhooks/${endpoint.id_webhook}`).expect(404);
    expect((await other.get('/webhooks').expect(200)).body).toEqual([]);
    await other
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    expect(await receiver.quietFor(1_500)).toBe(0);
    const [row] = await t.dbs.query(db(), 'SELECT activo FROM webhooks WHERE id_webhook = $1', [
      endpoint.id_webhook,
    ]);
    expect(row).toEqual({ activo: true });
  });
});

describe('webhooks: the safety rules and the switch', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_WEBHOOKS: 'true' });
    await t.dbs.createTenant('casa');
  });
  afterAll(() => t.close());

  it.each([
    ['http://127.0.0.1:9/hooks', 'loopback'],
    ['http://localhost:9/hooks', 'loopback, resolved'],
    ['http://10.1.2.3/hooks', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[::1]:8080/', 'IPv6 loopback'],
  ])('refuses %s (%s) without WEBHOOKS_ALLOW_PRIVATE', async (url) => {
    const api = tenantApi(t.http, 'casa');
    const res = await api.post('/webhooks', { url, eventos: ['comanda.*'] }).expect(400);
    expect(res.body).toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED', detail: { url } });
  });

  it('answers 404 on every route while the feature is off', async () => {
    const off = await startTestApp({}, t.dbs);
    try {
      const api = tenantApi(off.http, 'casa');
      await api.get('/webhooks').expect(404);
      await api
        .post('/webhooks', { url: 'https://example.com', eventos: ['comanda.*'] })
        .expect(404);
    } finally {
      await off.close();
    }
  });
});

/** Reads until `done` holds (the dispatcher works in the background), for 20 s at most. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhooks with AUTH_MODE=jwt: the admin’s alone', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_WEBHOOKS: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    await t.dbs.createTenant('roles');
    await seedMenu(t.dbs, 'roles');
    await seedStaff(t.dbs, 'roles');
  });
  afterAll(() => t.close());

  it.each([
    ['admin', 201],
    ['cajero', 403],
    ['mozo', 403],
    ['cocina', 403],
  ] as const)('%s → %i', async (role, status) => {
    const api = authedApi(t.http, 'roles', tokenFor('roles', STAFF[role].id));
    const res = await api
      .post('/webhooks', { url: 'http://127.0.0.1:9/hooks', eventos: ['comanda.*'] })
      .expect(status);
    if (status === 403) {
      expect(res.body.code).toBe('FORBIDDEN');
      await api.get('/webhooks').expect(403);
    } else {
      expect((res.body as Endpoint).acciones).toEqual([
        'editar',
        'probar',
        'rotar',
        'desactivar',
        'eliminar',
      ]);
    }
    const me = await api.get('/me').expect(200);
    expect((me.body as { permissions: string[] }).permissions.includes('webhooks:manage')).toBe(
      role === 'admin',
    );
  });
});

describe('webhooks: a shutdown hands back the messages it claimed and did not send', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    receiver.answer(() => ({ status: 204, delayMs: 1_500 }));
    t = await startTestApp({
      ...ENV,
      WEBHOOKS_CONCURRENCY: '1',
      WEBHOOKS_TIMEOUT_MS: '5000',
      WEBHOOKS_LEASE_MS: '60000',
    });
    await t.dbs.createTenant('cierre');
    await seedMenu(t.dbs, 'cierre');
  });
  afterAll(async () => {
    // the test closes the application itself; a second close is harmless
    await t.close();
    await receiver.close();
  });

  it('leaves none of them leased: another instance takes them at once', async () => {
    const url = t.dbs.tenantUrl('cierre');
    const api = tenantApi(t.http, 'cierre');
    for (let i = 0; i < 4; i++)
      await api
        .post('/comandas', { items: [{ id_producto: MENU.chicha.id, cantidad: 1 }] })
        .expect(201);
    await api.post('/webhooks', { url: receiver.url, eventos: ['comanda.editar'] }).expect(201);
    // four messages committed at once: one claim takes them all, one is sent at a time
    await t.dbs.query(
      url,
      "INSERT INTO comanda_eventos (id_comanda, accion) SELECT id_comanda, 'editar' FROM comandas",
    );
    // written with SQL, not by a request: the sweep finds them (it runs at the start and every
    // WEBHOOKS_SWEEP_MS)
    void t.app.get(WebhookDispatcher).sweep();
    await receiver.until(() => receiver.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.close();
    // what was sent is recorded, what was not is due now (not 60 s from now)
    const rows = await t.dbs.query<{ estado: string; leased: boolean }>(
      url,
      `SELECT estado, proximo_intento > clock_timestamp() AS leased FROM webhook_mensajes
        ORDER BY id_mensaje`,
    );
    expect(rows).toHaveLength(4);
    expect(rows[0].estado).toBe('entregado');
    expect(rows.filter((r) => r.estado === 'pendiente').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.estado === 'pendiente' && r.leased)).toEqual([]);
    expect(rows.filter((r) => r.estado === 'entregado').length).toBe(receiver.received.length);
  }, 60_000);
});
