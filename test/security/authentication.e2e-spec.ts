import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import fc from 'fast-check';
import request from 'supertest';
import { authedApi, rsaKeys, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

describe('authentication (AUTH_MODE=jwt)', () => {
  let t: TestApp;
  let dir: string;
  let privateKey: KeyObject;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comandas-auth-'));
    const keys = rsaKeys(dir);
    privateKey = keys.privateKey;
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      AUTH_JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    });
    for (const slug of ['alfa', 'beta']) {
      await t.dbs.createTenant(slug);
      await seedMenu(t.dbs, slug);
      await seedStaff(t.dbs, slug);
    }
    await t.dbs.createTenant('pausa', { status: 'suspended' });
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (token?: string, slug = 'alfa') => authedApi(t.http, slug, token).get('/comandas');
  const now = () => Math.floor(Date.now() / 1000);

  describe('the token matrix on GET /comandas', () => {
    it('no token: 401 UNAUTHENTICATED with the Bearer challenge and the envelope', async () => {
      const res = await list().expect(401);
      expect(res.body).toEqual({
        error: 'Authentication required: send Authorization: Bearer <token>',
        code: 'UNAUTHENTICATED',
        detail: { reason: 'missing' },
        requestId: expect.any(String),
      });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="comandas"');
    });

    it('a header that is not a Bearer JWT: 401 malformed', async () => {
      const basic = await request(t.http)
        .get('/api/v1/comandas')
        .set('X-Tenant-ID', 'alfa')
        .set('Authorization', 'Basic cm9zYTpzZWNyZXQ=')
        .expect(401);
      expect(basic.body.detail).toEqual({ reason: 'malformed' });
      expect((await list('garbage').expect(401)).body.detail).toEqual({ reason: 'malformed' });
    });

    it('an expired token: 401 expired, with error="invalid_token"', async () => {
      const expired = sign({ tenant: 'alfa', sub: '1', exp: now() - 5 }, TEST_SECRET);
      const res = await list(expired).expect(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', detail: { reason: 'expired' } });
      expect(res.body.error).toMatch(/^The token expired at \d{4}-\d\d-\d\dT/);
      expect(res.headers['www-authenticate']).toMatch(
        /^Bearer realm="comandas", error="invalid_token"/,
      );
    });

    it('a token signed with another secret or key: 401 invalid_signature', async () => {
      const forged = tokenFor('alfa', STAFF.admin.id, {}, `${TEST_SECRET}-guess`);
      expect((await list(forged).expect(401)).body.detail).toEqual({ reason: 'invalid_signature' });
      const { privateKey: otherKey } = rsaKeys(mkdtempSync(join(dir, 'other-')));
      const otherRsa = tokenFor('alfa', STAFF.admin.id, {}, otherKey);
      expect((await list(otherRsa).expect(401)).body.detail).toEqual({
        reason: 'invalid_signature',
      });
    });

    it('an unsigned token (alg none) or one without exp: 401', async () => {
      const unsigned = sign({ tenant: 'alfa', sub: '3', exp: now() + 60 }, '', {
        algorithm: 'none',
      });
      expect((await list(unsigned).expect(401)).body.detail).toEqual({
        reason: 'unsupported_algorithm',
      });
      const forever = sign({ tenant: 'alfa', sub: '3' }, TEST_SECRET);
      const res = await list(forever).expect(401);
      expect(res.body).toMatchObject({
        error: 'The token has no expiry (exp)',
        detail: { reason: 'invalid_claims' },
      });
    });

    it("a token of another tenant: 403 TENANT_MISMATCH, the other tenant's data stays unseen", async () => {
      const betaAdmin = tokenFor('beta', STAFF.admin.id);
      const res = await list(betaAdmin, 'alfa').expect(403);
      expect(res.body).toMatchObject({
        code: 'TENANT_MISMATCH',
        error: 'The token was issued for tenant "beta", not for "alfa"',
        detail: { tokenTenant: 'beta', requestedTenant: 'alfa' },
      });
      await list(betaAdmin, 'beta').expect(200);
    });

    it('a valid token of the tenant, HS256 or RS256: 200', async () => {
      await authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.mozo.id))
        .post('/comandas', { id_mesa: MENU.mesas[0] })
        .expect(201);
      const hs = await list(tokenFor('alfa', STAFF.cocina.id)).expect(200);
      const rs = await list(tokenFor('alfa', STAFF.cocina.id, {}, privateKey)).expect(200);
      expect(hs.body).toHaveLength(1);
      expect(rs.body).toEqual(hs.body);
    });

    it("a former employee's or an unknown user's token: 401 unknown_user", async () => {
      const ex = await list(tokenFor('alfa', STAFF.exEmpleado.id)).expect(401);
      expect(ex.body).toMatchObject({
        error: 'The token\'s user 6 is not an active user of tenant "alfa"',
        detail: { reason: 'unknown_user' },
      });
      const ghost = await list(tokenFor('alfa', 999)).expect(401);
      expect(ghost.body.detail).toEqual({ reason: 'unknown_user' });
    });

    it('deactivating a user ends their access at the next request', async () => {
      const token = tokenFor('alfa', STAFF.sinRol.id);
      await authedApi(t.http, 'alfa', token).get('/tenant').expect(200);
      await t.dbs.query(
        t.dbs.tenantUrl('alfa'),
        'UPDATE usuarios SET activo = false WHERE id_usuario = 5',
      );
      try {
        await authedApi(t.http, 'alfa', token).get('/tenant').expect(401);
      } finally {
        await t.dbs.query(
          t.dbs.tenantUrl('alfa'),
          'UPDATE usuarios SET activo = true WHERE id_usuario = 5',
        );
      }
    });
  });

  describe('hostile credentials (fast-check)', () => {
    it('any Authorization header is a 401, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.string().map((s) => `Bearer ${s}`),
            fc
              .tuple(fc.base64String(), fc.base64String(), fc.base64String())
              .map((parts) => `Bearer ${parts.join('.')}`),
          ),
          async (header) => {
            const res = await request(t.http)
              .get('/api/v1/comandas')
              .set('X-Tenant-ID', 'alfa')
              .set('Authorization', header.replace(/[\r\n]/g, ''));
            expect(res.status).toBe(401);
            expect(res.body.code).toBe('UNAUTHENTICATED');
          },
        ),
        { numRuns: 150 },
      );
    });

    it('well-signed tokens with arbitrary claims never reach a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record(
            {
              sub: fc.oneof(fc.string(), fc.integer(), fc.constantFrom('1', '3', '0', '-1', '1e3')),
              tenant: fc.oneof(fc.string(), fc.constantFrom('alfa', 'beta', 'ALFA', "alfa'--")),
              exp: fc.oneof(fc.integer(), fc.constant(now() + 600)),
              extra: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
          async (claims) => {
            const token = sign(claims, TEST_SECRET, { algorithm: 'HS256' });
            const res = await list(token);
            expect(res.status).toBeLessThan(500);
          },
        ),
        { numRuns: 150 },
      );
    });
  });

  describe('the tenant is checked after the token', () => {
    it('without a token nothing tells whether a tenant exists', async () => {
      const ghost = await list(undefined, 'fantasma').expect(401);
      const real = await list(undefined, 'alfa').expect(401);
      expect(ghost.body.error).toBe(real.body.error);
    });

    it('with a token: unknown 404, suspended 403, no header 400', async () => {
      expect((await list(tokenFor('fantasma', 1), 'fantasma').expect(404)).body.code).toBe(
        'TENANT_NOT_FOUND',
      );
      expect((await list(tokenFor('pausa', 1), 'pausa').expect(403)).body.code).toBe(
        'TENANT_SUSPENDED',
      );
      const noHeader = await request(t.http)
        .get('/api/v1/comandas')
        .set('Authorization', `Bearer ${tokenFor('alfa', STAFF.admin.id)}`)
        .expect(400);
      expect(noHeader.body.code).toBe('TENANT_REQUIRED');
    });
  });

  describe('routes without a user', () => {
    it('health answers without a token', async () => {
      expect((await request(t.http).get('/api/health').expect(200)).body.status).toBe('ok');
    });

    it('time clocks are authenticated by their registered serial, not by a token', async () => {
      const res = await request(t.http)
        .get('/iclock/cdata?SN=UNREGISTERED1&options=all')
        .expect(403);
      expect(res.body.code).toBe('DEVICE_NOT_REGISTERED');
    });

    it('the driver catalogue (no tenant) needs a valid token of any tenant, no role', async () => {
      await request(t.http).get('/api/v1/device-drivers').expect(401);
      const res = await request(t.http)
        .get('/api/v1/device-drivers')
        .set('Authorization', `Bearer ${tokenFor('beta', STAFF.sinRol.id)}`)
        .expect(200);
      expect(res.body.map((d: { name: string }) => d.name)).toContain('zkteco-attlog');
    });

    it('the OpenAPI document declares the bearer scheme, and health as open', async () => {
      const doc = (await request(t.http).get('/api/docs-json').expect(200)).body;
      expect(doc.components.securitySchemes.bearer).toMatchObject({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
      });
      expect(doc.security).toEqual([{ bearer: [] }]);
      expect(doc.paths['/api/health'].get.security).toEqual([]);
      expect(doc.paths['/api/v1/comandas'].post['x-permission']).toBe('comandas:write');
    });
  });

  describe('the token subject is the actor of the audit trail', () => {
    it('records who opened, added, closed and deleted a comanda', async () => {
      const waiter = authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.mozo.id));
      const cashier = authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.cajero.id));
      const admin = authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.admin.id, {}, privateKey));

      const created = await waiter
        .post('/comandas', { id_mesa: 2, items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
        .expect(201);
      const id = created.body.id_comanda as number;
      // the waiter who opens it is its waiter and the author of its lines
      expect(created.body).toMatchObject({ id_usuario: STAFF.mozo.id, mozo: 'Rosa Quispe' });
      expect(created.body.lineas[0]).toMatchObject({
        id_usuario: STAFF.mozo.id,
        usuario: 'Rosa Quispe',
      });
      await cashier.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      await admin.delete(`/comandas/${id}`).expect(200);

      const events = await cashier.get(`/comandas/${id}/eventos`).expect(200);
      expect(
        events.body.map((e: { accion: string; id_usuario: number }) => [e.accion, e.id_usuario]),
      ).toEqual([
        ['crear', STAFF.mozo.id],
        ['cerrar', STAFF.cajero.id],
        ['eliminar', STAFF.admin.id],
      ]);
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('alfa'),
        'SELECT accion, id_usuario FROM comanda_eventos WHERE id_comanda = $1 ORDER BY id_evento',
        [id],
      );
      expect(rows).toEqual([
        { accion: 'crear', id_usuario: 1 },
        { accion: 'cerrar', id_usuario: 2 },
        { accion: 'eliminar', id_usuario: 3 },
      ]);
    });
  });
});
