import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { SseClient } from '../support/sse-client';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The live streams under AUTH_MODE=jwt (docs/comandas.md, "Live updates"): each tenant and each
 * user has a bounded share of an instance's streams, so that one cook holding every slot leaves
 * the other restaurants' floors and kitchens served; and a stream lasts as long as the session
 * it was opened with: a sign-out, a deactivation, a change of credentials or the token's expiry
 * end it, as they end requests.
 */

const SHARES = { SSE_MAX_CLIENTS: '12', SSE_MAX_PER_TENANT: '6', SSE_MAX_PER_USER: '3' };
/** How long a test waits for the service to end a stream before calling it a failure. */
const PATIENCE_MS = 15_000;

describe('live streams: shares per tenant and user, and the end of a session', () => {
  let t: TestApp;
  const opened: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_COCINA: 'true',
      ...SHARES,
    });
    await t.app.listen(0, '127.0.0.1');
    for (const slug of ['alfa', 'beta']) {
      await t.dbs.createTenant(slug);
      await seedMenu(t.dbs, slug);
      await seedStaff(t.dbs, slug);
    }
  });

  afterAll(async () => {
    for (const client of opened) client.close();
    await t.close();
  });

  const open = async (tenant: string, token: string, path = '/api/v1/comandas/stream') => {
    const client = await SseClient.open(t.http, path, {
      'X-Tenant-ID': tenant,
      Authorization: `Bearer ${token}`,
    });
    opened.push(client);
    if (client.status === 200) await client.until(() => client.comments >= 1);
    return client;
  };
  const errorOf = (client: SseClient) => JSON.parse(client.body) as Record<string, unknown>;

  it('keeps a user and a tenant to their share: another restaurant’s floor and kitchen are still served', async () => {
    // what broke: a cook of one tenant opening SSE_MAX_CLIENTS streams
    const cook = tokenFor('beta', STAFF.cocina.id);
    const attempts = [];
    for (let i = 0; i < Number(SHARES.SSE_MAX_CLIENTS); i += 1)
      attempts.push(await open('beta', cook, '/api/v1/cocina/stream?estacion=1'));
    const served = attempts.filter((c) => c.status === 200);
    expect(served).toHaveLength(3);
    const refused = attempts.find((c) => c.status !== 200)!;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(errorOf(refused)).toMatchObject({
      code: 'TOO_MANY_STREAMS',
      detail: { scope: 'user', limit: 3 },
    });
    // the tenant's other staff share the rest of its share, and no more
    const waiter = tokenFor('beta', STAFF.mozo.id);
    const more = [];
    for (let i = 0; i < 4; i += 1) more.push(await open('beta', waiter));
    expect(more.map((c) => c.status)).toEqual([200, 200, 200, 429]);
    expect(errorOf(more[3])).toMatchObject({ detail: { scope: 'tenant', limit: 6 } });
    // the other restaurant's floor and kitchen are served
    expect((await open('alfa', tokenFor('alfa', STAFF.mozo.id))).status).toBe(200);
    expect(
      (await open('alfa', tokenFor('alfa', STAFF.cocina.id), '/api/v1/cocina/stream?estacion=1'))
        .status,
    ).toBe(200);
    // closing a stream gives its slot back
    served[0].close();
    await served[0].until(() => served[0].ended);
    let again: SseClient | undefined;
    for (let i = 0; i < 50 && again?.status !== 200; i += 1) {
      again = await open('beta', cook, '/api/v1/cocina/stream?estacion=1');
      if (again.status !== 200) await sleep(100);
    }
    expect(again!.status).toBe(200);
    for (const client of opened) client.close();
  });

  /** A PIN sign-in of the mozo of `tenant`: a session token with a jti. */
  async function signIn(tenant: string, pin: string): Promise<string> {
    const admin = authedApi(t.http, tenant, tokenFor(tenant, STAFF.admin.id));
    await admin.put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin }).expect(200);
    const res = await request(t.http)
      .post('/api/v1/auth/pin')
      .set('X-Tenant-ID', tenant)
      .send({ pin })
      .expect(200);
    return res.body.access_token as string;
  }

  /** Opens a stream, then a change after `end` must not reach it: it has ended. */
  async function expectEnded(client: SseClient, tenant: string, reason: string) {
    await client.until(() => client.ended, PATIENCE_MS, 'the end of the stream');
    expect(client.events.at(-1)).toMatchObject({ event: 'end' });
    expect(JSON.parse(client.events.at(-1)!.data)).toMatchObject({ reason });
    const before = client.events.length;
    const admin = authedApi(t.http, tenant, tokenFor(tenant, STAFF.admin.id));
    await admin
      .post('/comandas', { id_mesa: 1, items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    await sleep(300);
    expect(client.events.length).toBe(before);
  }

  it('ends a stream when its session is signed out', async () => {
    const token = await signIn('alfa', '2468');
    const stream = await open('alfa', token);
    expect(stream.status).toBe(200);
    await request(t.http)
      .post('/api/v1/auth/logout')
      .set('X-Tenant-ID', 'alfa')
      .set('Authorization', `Bearer ${token}`)
      .expect(204);
    await expectEnded(stream, 'alfa', 'session_ended');
    await request(t.http)
      .get('/api/v1/me')
      .set('X-Tenant-ID', 'alfa')
      .set('Authorization', `Bearer ${token}`)
      .expect(401);
  });

  it('ends a stream when its user’s credentials change', async () => {
    const token = await signIn('alfa', '3579');
    const stream = await open('alfa', token);
    const admin = authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.admin.id));
    await admin.put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '8642' }).expect(200);
    await expectEnded(stream, 'alfa', 'session_ended');
  });

  it('ends every stream of a user deactivated in the database, sessions and plain tokens alike; reactivating revives none', async () => {
    const session = await signIn('beta', '1357');
    const plain = tokenFor('beta', STAFF.mozo.id);
    const streams = [await open('beta', session), await open('beta', plain)];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    await t.dbs.query(
      t.dbs.tenantUrl('beta'),
      'UPDATE usuarios SET activo = false WHERE id_usuario = $1',
      [STAFF.mozo.id],
    );
    for (const stream of streams) await expectEnded(stream, 'beta', 'unknown_user');

    // back at work: the tokens held before do not come back to life
    await t.dbs.query(
      t.dbs.tenantUrl('beta'),
      'UPDATE usuarios SET activo = true WHERE id_usuario = $1',
      [STAFF.mozo.id],
    );
    for (const token of [session, plain]) {
      const me = await request(t.http)
        .get('/api/v1/me')
        .set('X-Tenant-ID', 'beta')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expect(me.body.detail).toMatchObject({ reason: 'session_ended' });
      expect((await open('beta', token)).status).toBe(401);
    }
    // a sign-in after the reactivation works
    const fresh = await signIn('beta', '9753');
    await request(t.http)
      .get('/api/v1/me')
      .set('X-Tenant-ID', 'beta')
      .set('Authorization', `Bearer ${fresh}`)
      .expect(200);
    const rows = await t.dbs.query<{ n: number }>(
      t.dbs.tenantUrl('beta'),
      `SELECT count(*)::int AS n FROM sesiones_usuario WHERE id_usuario = $1 AND revocada IS NULL AND expira > now()`,
      [STAFF.mozo.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('ends a stream when its token expires', async () => {
    const short = tokenFor('alfa', STAFF.cajero.id, { expiresIn: 2 });
    const stream = await open('alfa', short);
    expect(stream.status).toBe(200);
    await expectEnded(stream, 'alfa', 'expired');
  });
});
