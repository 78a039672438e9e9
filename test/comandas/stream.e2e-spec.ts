import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { STAFF, seedStaff, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { SseClient } from '../support/sse-client';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * GET /api/v1/comandas/stream (docs/comandas.md, "Live updates") on a real PostgreSQL: every
 * change of a comanda, through any route, is one event after commit, in order, exactly once;
 * Last-Event-ID replays what was missed; a dropped LISTEN connection loses nothing.
 */

interface StreamEvent {
  id_evento: number;
  id_comanda: number;
  accion: string;
  comanda: { id_comanda: number; id_mesa: number | null; estado: string; version: number };
  _id: number;
}

const byId = (a: unknown[], b: unknown[]) => (a[0] as number) - (b[0] as number);

describe('live stream of comandas', () => {
  let t: TestApp;
  let api: TenantApi;
  const opened: SseClient[] = [];
  const db = (slug = 'vivo') => t.dbs.tenantUrl(slug);

  const stream = async (query = '', headers: Record<string, string> = {}, slug = 'vivo') => {
    const client = await SseClient.open(t.http, `/api/v1/comandas/stream${query}`, {
      'X-Tenant-ID': slug,
      ...headers,
    });
    opened.push(client);
    return client;
  };

  /** The audit trail after `after`, in id order, as the stream must show it. */
  const trail = async (after: number, slug = 'vivo') =>
    (
      await t.dbs.query<{ id: number; accion: string; id_comanda: number }>(
        db(slug),
        `SELECT id_evento::int AS id, accion, id_comanda::int AS id_comanda
           FROM comanda_eventos WHERE id_evento > $1 ORDER BY id_evento`,
        [after],
      )
    ).map((r) => [r.id, r.accion, r.id_comanda]);

  const newest = async (slug = 'vivo') =>
    (
      await t.dbs.query<{ n: number }>(
        db(slug),
        'SELECT coalesce(max(id_evento), 0)::int AS n FROM comanda_eventos',
      )
    )[0].n;

  const seen = (client: SseClient, after: number) =>
    client
      .comandaEvents<StreamEvent>()
      .filter((e) => e._id > after)
      .map((e) => [e._id, e.accion, e.id_comanda]);

  /** Waits until the client has shown every entry of the trail after `after`. */
  const caughtUp = async (client: SseClient, after: number, slug = 'vivo', timeoutMs = 10_000) => {
    const want = await newest(slug);
    await client.until(
      () => client.comandaEvents().some((e) => e._id >= want),
      timeoutMs,
      `event ${want}`,
    );
    return seen(client, after);
  };

  const open = async (mesa = 1) =>
    (
      await api
        .post('/comandas', {
          id_mesa: mesa,
          items: [{ id_producto: MENU.ceviche.id, cantidad: 2 }],
        })
        .expect(201)
    ).body as { id_comanda: number; lineas: { id_item: number }[]; version: number };

  beforeAll(async () => {
    t = await startTestApp({
      FEATURE_GENERIC_TABLES: 'true',
      SSE_MAX_CLIENTS: '400',
      SSE_MAX_PER_TENANT: '400',
    });
    await t.app.listen(0, '127.0.0.1');
    for (const slug of ['vivo', 'otro', 'rafaga']) {
      await t.dbs.createTenant(slug);
      await seedMenu(t.dbs, slug);
    }
    api = tenantApi(t.http, 'vivo');
  });

  afterAll(async () => {
    for (const client of opened) client.close();
    await t?.close();
  });

  it('answers text/event-stream with a retry and a first comment', async () => {
    const client = await stream();
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache, no-transform');
    await client.until(() => client.comments >= 1);
    client.close();
  });

  it('takes the tenant from ?tenant= for an EventSource (no headers), and only for one', async () => {
    const eventSource = await SseClient.open(t.http, '/api/v1/comandas/stream?tenant=vivo');
    opened.push(eventSource);
    expect(eventSource.status).toBe(200);
    eventSource.close();
    const unknown = await SseClient.open(t.http, '/api/v1/comandas/stream?tenant=nadie');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'TENANT_NOT_FOUND' });
    // any other request still sends X-Tenant-ID
    const list = await request(t.http).get('/api/v1/comandas?tenant=vivo');
    expect(list.status).toBe(400);
    expect(list.body.code).toBe('TENANT_REQUIRED');
  });

  it('delivers every change, through every route, once and in order', async () => {
    const start = await newest();
    const client = await stream();
    const other = await stream('', {}, 'otro');
    const a = await open(1);
    const b = await open(2);
    await api
      .post(`/comandas/${a.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
      .expect(201);
    await api.patch(`/comandas/${a.id_comanda}/items/${a.lineas[0].id_item}`, { cantidad: 3 });
    await api
      .post(`/comandas/${a.id_comanda}/split`, {
        lineas: [{ id_item: a.lineas[0].id_item, cantidad: 1 }],
      })
      .expect(201);
    await api.post(`/comandas/${a.id_comanda}/merge`, { comandas: [b.id_comanda] }).expect(200);
    await api.put(`/comandas/${a.id_comanda}`, { id_mesa: 3 }).expect(200);
    await api.put(`/comandas/${a.id_comanda}`, { action: 'cerrar' }).expect(200);
    // the generic table routes do not write comandas (a module owns them): no event
    await api.post('/table/comandas', { id_mesa: 1 }).expect(400);
    await api
      .post('/table/deta_comandas', {
        id_comanda: a.id_comanda,
        id_producto: MENU.lomo.id,
        cantidad: 1,
        precio_unitario: 42.5,
      })
      .expect(400);

    const expected = await trail(start);
    expect(expected.map(([, accion]) => accion)).toEqual([
      'crear',
      'crear',
      'agregar_item',
      'modificar_item',
      'dividir',
      'dividir',
      'unir',
      'unir',
      'transferir',
      'cerrar',
    ]);
    expect(await caughtUp(client, start)).toEqual(expected);
    // the summary is the comanda's as it is when the event is sent
    const last = client.comandaEvents<StreamEvent>().at(-1)!;
    expect(last.comanda).toMatchObject({ id_comanda: a.id_comanda, estado: 'cerrada' });
    // another tenant's stream sees none of it
    await sleep(300);
    expect(other.comandaEvents()).toEqual([]);
  });

  it('replays exactly what was missed with Last-Event-ID, then goes on live', async () => {
    const first = await stream();
    const c = await open(1);
    await first.until(() => first.comandaEvents().length >= 1);
    const lastSeen = first.comandaEvents().at(-1)!._id;
    first.close();

    await api.put(`/comandas/${c.id_comanda}`, { observacion: 'sin sal' }).expect(200);
    await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
    await api.put(`/comandas/${c.id_comanda}`, { action: 'abrir' }).expect(200);
    const missed = await trail(lastSeen);
    expect(missed).toHaveLength(3);

    const again = await stream('', { 'Last-Event-ID': String(lastSeen) });
    await again.until(() => again.comandaEvents().length >= 3);
    await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
    expect(await caughtUp(again, lastSeen)).toEqual(await trail(lastSeen));
    expect(again.comandaEvents()).toHaveLength(4);

    // the same with the query parameter (EventSource cannot set headers)
    const byQuery = await stream(`?lastEventId=${lastSeen}`);
    expect(await caughtUp(byQuery, lastSeen)).toEqual(await trail(lastSeen));
  });

  it('sends reset when the gap is beyond the retention (24 hours, 1,000 entries) or unknown', async () => {
    const c = await open(1);
    const before = (await newest()) - 1;
    await t.dbs.query(
      db(),
      `UPDATE comanda_eventos SET fec_evento = now() - interval '2 days' WHERE id_evento > $1`,
      [before],
    );
    const old = await stream('', { 'Last-Event-ID': String(before) });
    await old.until(() => old.events.length >= 1);
    expect(old.events[0].event).toBe('reset');
    expect(JSON.parse(old.events[0].data)).toMatchObject({ lastEventId: await newest() });
    // live after the reset
    await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
    await old.until(() => old.comandaEvents().length === 1);

    const future = await stream('', { 'Last-Event-ID': '999999999' });
    await future.until(() => future.events.length >= 1);
    expect(future.events[0]).toMatchObject({ event: 'reset' });

    const bad = await stream('', { 'Last-Event-ID': 'abc' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'INVALID_LAST_EVENT_ID' });
  });

  it('filters by id_mesa and estado, including the change that takes a comanda out of them', async () => {
    const start = await newest();
    const table2 = await stream('?id_mesa=2');
    const abiertas = await stream('?estado=abierta');
    const c = await open(2);
    const elsewhere = await open(3);
    await api.put(`/comandas/${c.id_comanda}`, { id_mesa: 1 }).expect(200); // leaves table 2
    await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200); // not at 2
    await api.put(`/comandas/${elsewhere.id_comanda}`, { action: 'cerrar' }).expect(200);
    await api.put(`/comandas/${elsewhere.id_comanda}`, { observacion: 'x' }).expect(409);
    await caughtUp(abiertas, start);
    await sleep(200);
    expect(seen(table2, start).map(([, accion, id]) => [accion, id])).toEqual([
      ['crear', c.id_comanda],
      ['transferir', c.id_comanda],
    ]);
    // the closes are shown to the abiertas' screen (they were abierta before), nothing after
    expect(seen(abiertas, start).map(([, accion]) => accion)).toEqual([
      'crear',
      'crear',
      'transferir',
      'cerrar',
      'cerrar',
    ]);
    const bad = await stream('?estado=nope');
    expect(bad.status).toBe(400);
  });

  it('loses no event when the LISTEN connection is killed: it reconnects and catches up', async () => {
    const start = await newest();
    const client = await stream();
    const c = await open(1);
    await client.until(() => client.comandaEvents().some((e) => e.id_comanda === c.id_comanda));
    const killed = await t.dbs.query<{ n: number }>(
      db(),
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE application_name = 'comandas-listener:vivo'`,
    );
    expect(killed[0].n).toBe(1);
    // changes while the listener is down
    for (let i = 0; i < 5; i++)
      await api
        .post(`/comandas/${c.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
        .expect(201);
    const got = await caughtUp(client, start, 'vivo', 15_000);
    expect([...got].sort(byId)).toEqual(await trail(start));
    const ids = got.map(([id]) => id as number).sort((x, y) => x - y);
    expect(ids).toEqual(ids.map((_, i) => ids[0] + i)); // a continuous id sequence
    // a new LISTEN connection is there again
    const listeners = await t.dbs.query<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'comandas-listener:vivo'`,
    );
    expect(listeners[0].n).toBe(1);
  });

  it('200 subscribers receive a burst of 1,000 changes, none missing', async () => {
    const burstApi = tenantApi(t.http, 'rafaga');
    const start = await newest('rafaga');
    const clients = await Promise.all(Array.from({ length: 200 }, () => stream('', {}, 'rafaga')));
    expect(clients.every((c) => c.status === 200)).toBe(true);
    const comandas: number[] = [];
    for (let i = 0; i < 10; i++)
      comandas.push((await burstApi.post('/comandas', { id_mesa: 1 }).expect(201)).body.id_comanda);
    let next = 0;
    const worker = async () => {
      while (next < 990) {
        const n = next++;
        await burstApi
          .post(`/comandas/${comandas[n % 10]}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
          .expect(201);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    const expected = await trail(start, 'rafaga');
    expect(expected).toHaveLength(1_000);
    const want = expected[expected.length - 1][0] as number;
    await Promise.all(
      clients.map((c) =>
        c.until(() => c.comandaEvents().some((e) => e._id >= want), 60_000, `event ${want}`),
      ),
    );
    for (const c of clients) {
      const got = seen(c, start);
      // every change exactly once (entries of different comandas arrive in commit order,
      // which is not always id order) ...
      expect([...got].sort(byId)).toEqual(expected);
      // ... and each comanda's in the order of its changes
      for (const id of comandas) {
        const ofOne = got.filter(([, , comanda]) => comanda === id).map(([eventId]) => eventId);
        expect(ofOne).toEqual([...ofOne].sort((x, y) => (x as number) - (y as number)));
      }
      c.close();
    }
  }, 120_000);

  describe('limits, authentication and shutdown (other instances on the same databases)', () => {
    it('refuses streams past SSE_MAX_CLIENTS with 503 TOO_MANY_STREAMS', async () => {
      const small = await startTestApp({ SSE_MAX_CLIENTS: '2' }, t.dbs);
      await small.app.listen(0, '127.0.0.1');
      try {
        const headers = { 'X-Tenant-ID': 'vivo' };
        const a = await SseClient.open(small.http, '/api/v1/comandas/stream', headers);
        const b = await SseClient.open(small.http, '/api/v1/comandas/stream', headers);
        const c = await SseClient.open(small.http, '/api/v1/comandas/stream', headers);
        expect([a.status, b.status, c.status]).toEqual([200, 200, 503]);
        expect(c.headers['retry-after']).toBe('5');
        expect(JSON.parse(c.body)).toMatchObject({ code: 'TOO_MANY_STREAMS' });
        a.close();
        await a.until(() => a.ended);
        await sleep(100);
        const d = await SseClient.open(small.http, '/api/v1/comandas/stream', headers);
        expect(d.status).toBe(200);
        // shutdown ends the open streams, so the server can close and clients reconnect elsewhere
        await small.close();
        await Promise.all([b.until(() => b.ended), d.until(() => d.ended)]);
      } finally {
        await small.close().catch(() => undefined);
      }
    });

    it('takes a short-lived token in the query (EventSource), never a long one, and the roles apply', async () => {
      await t.dbs.createTenant('jwt');
      await seedMenu(t.dbs, 'jwt');
      await seedStaff(t.dbs, 'jwt');
      const secured = await startTestApp(
        { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET, LOG_LEVEL: 'info' },
        t.dbs,
      );
      await secured.app.listen(0, '127.0.0.1');
      try {
        // as an EventSource: tenant and token in the query, no header
        const open_ = (query: string, headers: Record<string, string> = {}) =>
          SseClient.open(
            secured.http,
            `/api/v1/comandas/stream?tenant=jwt${query.replace('?', '&')}`,
            headers,
          );
        const short = tokenFor('jwt', STAFF.cocina.id, { expiresIn: 120 });
        const long = tokenFor('jwt', STAFF.cocina.id, { expiresIn: 3_600 });
        const ok = await open_(`?access_token=${short}`);
        expect(ok.status).toBe(200);
        ok.close();
        const tooLong = await open_(`?access_token=${long}`);
        expect(tooLong.status).toBe(401);
        expect(JSON.parse(tooLong.body)).toMatchObject({
          code: 'UNAUTHENTICATED',
          detail: { reason: 'query_token_too_long' },
        });
        const header = await open_('', { Authorization: `Bearer ${long}` });
        expect(header.status).toBe(200);
        header.close();
        expect((await open_('')).status).toBe(401);
        const noRole = tokenFor('jwt', STAFF.sinRol.id, { expiresIn: 120 });
        expect((await open_(`?access_token=${noRole}`)).status).toBe(403);
        // only this route takes a token in the query
        const elsewhere = await SseClient.open(
          secured.http,
          `/api/v1/comandas?access_token=${short}`,
          { 'X-Tenant-ID': 'jwt' },
        );
        expect(elsewhere.status).toBe(401);
      } finally {
        await secured.close();
      }
    });
  });
});
