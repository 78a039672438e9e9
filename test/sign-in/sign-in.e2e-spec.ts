import { decode } from 'jsonwebtoken';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { authedApi, rsaKeys, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import {
  DEMO_ADMIN_DOCUMENTO,
  DEMO_ADMIN_PASSWORD,
  DEMO_PINS,
} from '../../src/database/demo/sections/credentials';
import { seedDemo, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Staff sign-in (docs/sign-in.md) on PostgreSQL: credentials set by an admin, sign-in by
 * password and by PIN, one answer for every wrong credential, the lockout and its reset,
 * sign-out and the sessions a change of credentials ends.
 */
describe('staff sign-in (AUTH_MODE=jwt)', () => {
  let t: TestApp;
  const admin = () => authedApi(t.http, 'alfa', tokenFor('alfa', STAFF.admin.id));
  const anonymous = (slug = 'alfa') => authedApi(t.http, slug);
  const bearer = (token: string, slug = 'alfa') => authedApi(t.http, slug, token);
  const ROSA_PASSWORD = 'ceviche-de-lunes';

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    for (const slug of ['alfa', 'beta']) {
      await t.dbs.createTenant(slug);
      await seedMenu(t.dbs, slug);
      await seedStaff(t.dbs, slug);
    }
  });

  afterAll(() => t.close());

  /** Forgets the lockout counts of every test before: each test starts unlocked. */
  const fresh = async () => {
    await t.dbs.query(t.dbs.tenantUrl('alfa'), 'DELETE FROM credenciales');
  };

  describe('credentials, set by an admin', () => {
    beforeEach(fresh);

    it('stores a password and a PIN as scrypt hashes only, and answers what the user has', async () => {
      const res = await admin()
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { password: ROSA_PASSWORD, pin: '4827' })
        .expect(200);
      expect(res.body).toEqual({
        id_usuario: STAFF.mozo.id,
        password: true,
        pin: true,
        sesiones_cerradas: 0,
      });
      expect(JSON.stringify(res.body)).not.toContain('scrypt');
      const [row] = await t.dbs.query<{ password_hash: string; pin_hash: string }>(
        t.dbs.tenantUrl('alfa'),
        'SELECT password_hash, pin_hash FROM credenciales WHERE id_usuario = $1',
        [STAFF.mozo.id],
      );
      expect(row.password_hash).toMatch(/^scrypt\$14\$8\$2\$/);
      expect(row.pin_hash).toMatch(/^scrypt\$14\$8\$2\$/);
      expect(row.password_hash).not.toContain(ROSA_PASSWORD);
      expect(row.pin_hash).not.toContain('4827');

      const removed = await admin()
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { password: null })
        .expect(200);
      expect(removed.body).toMatchObject({ password: false, pin: true });
    });

    it('refuses short passwords, trivial PINs and malformed ones with 400, naming the rule', async () => {
      const put = (body: object) => admin().put(`/usuarios/${STAFF.mozo.id}/credenciales`, body);
      expect((await put({ password: 'corto1234' }).expect(400)).body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ['password must be at least 10 characters long'],
      });
      for (const pin of ['0000', '1234', '9876', '1212', '123456']) {
        expect((await put({ pin }).expect(400)).body.error).toMatch(/^pin is too easy to guess/);
      }
      expect((await put({ pin: '12a4' }).expect(400)).body.detail).toEqual([
        'pin must be 4 to 6 digits',
      ]);
      expect((await put({}).expect(400)).body.code).toBe('EMPTY_CHANGE');
      expect((await put({ pin: 4827 }).expect(400)).body.code).toBe('VALIDATION_FAILED');
      // nothing was stored by a refused change
      const rows = await t.dbs.query(t.dbs.tenantUrl('alfa'), 'SELECT 1 FROM credenciales');
      expect(rows).toHaveLength(0);
    });

    it('keeps PINs unique among active staff; a former employee’s PIN goes to the new one', async () => {
      await admin().put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '5173' }).expect(200);
      const taken = await admin()
        .put(`/usuarios/${STAFF.cajero.id}/credenciales`, { pin: '5173' })
        .expect(409);
      expect(taken.body).toMatchObject({ code: 'PIN_IN_USE' });
      expect(taken.body.error).not.toMatch(/Rosa|40000001/);

      await admin()
        .put(`/usuarios/${STAFF.exEmpleado.id}/credenciales`, { pin: '6284' })
        .expect(200);
      await admin().put(`/usuarios/${STAFF.cajero.id}/credenciales`, { pin: '6284' }).expect(200);
      const [ex] = await t.dbs.query<{ pin_hash: string | null }>(
        t.dbs.tenantUrl('alfa'),
        'SELECT pin_hash FROM credenciales WHERE id_usuario = $1',
        [STAFF.exEmpleado.id],
      );
      expect(ex.pin_hash).toBeNull();
    });

    it('only an admin sets credentials; an unknown user is a 404', async () => {
      const mozo = bearer(tokenFor('alfa', STAFF.mozo.id));
      const res = await mozo
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '4827' })
        .expect(403);
      expect(res.body).toMatchObject({
        code: 'FORBIDDEN',
        detail: { permission: 'usuarios:credenciales' },
      });
      await bearer(tokenFor('alfa', STAFF.cajero.id))
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '4827' })
        .expect(403);
      expect(
        (await admin().put('/usuarios/9999/credenciales', { pin: '4827' }).expect(404)).body.code,
      ).toBe('USER_NOT_FOUND');
    });
  });

  describe('signing in', () => {
    beforeAll(async () => {
      await fresh();
      await admin()
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { password: ROSA_PASSWORD, pin: '4827' })
        .expect(200);
      await admin().put(`/usuarios/${STAFF.cajero.id}/credenciales`, { pin: '3951' }).expect(200);
    });

    it('with documento and password: a token of the user, for the tenant, a shift long', async () => {
      const before = Date.now();
      const res = await anonymous()
        .post('/auth/login', { documento: STAFF.mozo.documento, password: ROSA_PASSWORD })
        .expect(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_at: expect.any(String),
        usuario: {
          id_usuario: STAFF.mozo.id,
          nombre: expect.stringMatching(/^Rosa/),
          roles: ['mozo'],
          permissions: expect.arrayContaining(['comandas:read', 'comandas:write']),
        },
      });
      const claims = decode(res.body.access_token) as Record<string, unknown>;
      expect(claims).toMatchObject({ sub: String(STAFF.mozo.id), tenant: 'alfa' });
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
      const hours = (Date.parse(res.body.expires_at) - before) / 3_600_000;
      expect(hours).toBeGreaterThan(11.99);
      expect(hours).toBeLessThanOrEqual(12.01);
      expect(claims.exp).toBe(Date.parse(res.body.expires_at) / 1000);
      // the token works where tokens are asked for
      const me = await bearer(res.body.access_token).get('/me').expect(200);
      expect(me.body).toMatchObject({ id_usuario: STAFF.mozo.id, roles: ['mozo'] });
      const list = await bearer(res.body.access_token).get('/comandas').expect(200);
      // what a comanda lists (its acciones) depends on who asks: no shared copy in a cache
      expect(list.headers.vary).toMatch(/Authorization/i);
      // and only for its tenant
      await bearer(res.body.access_token, 'beta').get('/comandas').expect(403);
    });

    it('with a PIN alone, or with the user it belongs to', async () => {
      const alone = await anonymous().post('/auth/pin', { pin: '3951' }).expect(200);
      expect(alone.body.usuario).toMatchObject({ id_usuario: STAFF.cajero.id, roles: ['cajero'] });
      const named = await anonymous()
        .post('/auth/pin', { pin: '4827', id_usuario: STAFF.mozo.id })
        .expect(200);
      expect(named.body.usuario.id_usuario).toBe(STAFF.mozo.id);
      await bearer(named.body.access_token).get('/comandas').expect(200);
    });

    it('answers one 401 for an unknown documento, a wrong password and a wrong PIN', async () => {
      const bodies = [
        await anonymous().post('/auth/login', { documento: '99999999', password: 'lo-que-sea-1' }),
        await anonymous().post('/auth/login', {
          documento: STAFF.mozo.documento,
          password: 'ceviche-de-martes',
        }),
        // a user without a password
        await anonymous().post('/auth/login', {
          documento: STAFF.cajero.documento,
          password: 'ceviche-de-lunes',
        }),
        await anonymous().post('/auth/pin', { pin: '8642' }),
        await anonymous().post('/auth/pin', { pin: '3951', id_usuario: STAFF.mozo.id }),
        await anonymous().post('/auth/pin', { pin: '4827', id_usuario: 9999 }),
      ];
      for (const res of bodies) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          error: 'The credentials are not valid',
          code: 'INVALID_CREDENTIALS',
          requestId: expect.any(String),
        });
      }
    });

    it('refuses an inactive user with the same 401, even with the right password', async () => {
      await admin()
        .put(`/usuarios/${STAFF.admin.id}/credenciales`, { password: 'gerencia-2026' })
        .expect(200);
      await t.dbs.query(
        t.dbs.tenantUrl('alfa'),
        'UPDATE usuarios SET activo = false WHERE id_usuario = $1',
        [STAFF.admin.id],
      );
      try {
        const res = await anonymous()
          .post('/auth/login', { documento: STAFF.admin.documento, password: 'gerencia-2026' })
          .expect(401);
        expect(res.body.code).toBe('INVALID_CREDENTIALS');
      } finally {
        await t.dbs.query(
          t.dbs.tenantUrl('alfa'),
          'UPDATE usuarios SET activo = true WHERE id_usuario = $1',
          [STAFF.admin.id],
        );
        // a token without a session issued in the second of a deactivation is refused
        // (docs/sign-in.md, "Revocation"): the next tests' admin tokens come from the next one
        await new Promise((resolve) => setTimeout(resolve, 1_010 - (Date.now() % 1_000)));
      }
    });

    it('validates the bodies (400) before any credential is checked', async () => {
      expect((await anonymous().post('/auth/pin', { pin: '12' }).expect(400)).body.detail).toEqual([
        'pin must be 4 to 6 digits',
      ]);
      await anonymous().post('/auth/login', { documento: STAFF.mozo.documento }).expect(400);
      await request(t.http).post('/api/v1/auth/pin').send({ pin: '4827' }).expect(400);
    });
  });

  describe('the lockout', () => {
    it('locks an account after 5 failures within 15 minutes, whatever the password', async () => {
      await admin()
        .put(`/usuarios/${STAFF.cocina.id}/credenciales`, { password: 'cocina-caliente' })
        .expect(200);
      const attempt = (password: string) =>
        anonymous().post('/auth/login', { documento: STAFF.cocina.documento, password });
      for (let i = 0; i < 5; i += 1) await attempt(`equivocada-${i}`).expect(401);
      const locked = await attempt('cocina-caliente').expect(429);
      expect(locked.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // another account is not locked by it
      await anonymous()
        .post('/auth/login', { documento: STAFF.mozo.documento, password: ROSA_PASSWORD })
        .expect(200);
    });

    it('counts unknown documents like known ones (the lockout says nothing about who exists)', async () => {
      const attempt = () =>
        anonymous().post('/auth/login', { documento: '77777777', password: 'no-existe-123' });
      for (let i = 0; i < 5; i += 1) await attempt().expect(401);
      expect((await attempt().expect(429)).body.code).toBe('TOO_MANY_ATTEMPTS');
    });

    it('forgets an account’s failures when it signs in', async () => {
      await admin()
        .put(`/usuarios/${STAFF.sinRol.id}/credenciales`, { password: 'sin-rol-todavia' })
        .expect(200);
      const attempt = (password: string) =>
        anonymous().post('/auth/login', { documento: STAFF.sinRol.documento, password });
      for (let i = 0; i < 4; i += 1) await attempt('equivocada').expect(401);
      await attempt('sin-rol-todavia').expect(200);
      for (let i = 0; i < 4; i += 1) await attempt('equivocada').expect(401);
      await attempt('sin-rol-todavia').expect(200);
    });

    it('locks PIN sign-in from one client address after 5 wrong PINs; a right PIN does not unlock it', async () => {
      const slug = 'beta';
      const betaAdmin = authedApi(t.http, slug, tokenFor(slug, STAFF.admin.id));
      await betaAdmin.put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '2468' }).expect(200);
      const pad = (pin: string) => anonymous(slug).post('/auth/pin', { pin });
      for (let i = 0; i < 4; i += 1) await pad(`50${i}7`).expect(401);
      await pad('2468').expect(200);
      await pad('5097').expect(401);
      const locked = await pad('2468').expect(429);
      expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // a client cannot pick another address: X-Forwarded-For counts only through TRUST_PROXY
      await pad('2468').set('X-Forwarded-For', '10.9.8.7').expect(429);
      // the lockout is the tenant's: the same address signs in to another restaurant
      await anonymous('alfa').post('/auth/pin', { pin: '3951' }).expect(200);
    });

    it('behind the proxies TRUST_PROXY names, counts each device by its forwarded address', async () => {
      const proxied = await startTestApp(
        { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET, TRUST_PROXY: 'loopback' },
        t.dbs,
      );
      try {
        const pad = (pin: string, device: string) =>
          authedApi(proxied.http, 'beta').post('/auth/pin', { pin }).set('X-Forwarded-For', device);
        for (let i = 0; i < 5; i += 1) await pad(`61${i}9`, '192.168.1.21').expect(401);
        await pad('2468', '192.168.1.21').expect(429);
        await pad('2468', '192.168.1.22').expect(200);
      } finally {
        await proxied.app.close();
      }
    });
  });

  describe('sessions', () => {
    const signIn = async () =>
      (
        await anonymous()
          .post('/auth/login', { documento: STAFF.mozo.documento, password: ROSA_PASSWORD })
          .expect(200)
      ).body.access_token as string;

    beforeAll(async () => {
      await fresh();
      await admin()
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { password: ROSA_PASSWORD })
        .expect(200);
    });

    it('sign-out ends that session at once, and only that one', async () => {
      const first = await signIn();
      const second = await signIn();
      await bearer(first).post('/auth/logout').expect(204);
      const refused = await bearer(first).get('/comandas').expect(401);
      expect(refused.body).toMatchObject({
        code: 'UNAUTHENTICATED',
        detail: { reason: 'session_ended' },
      });
      await bearer(second).get('/comandas').expect(200);
      const [row] = await t.dbs.query<{ revocada: Date | null }>(
        t.dbs.tenantUrl('alfa'),
        'SELECT revocada FROM sesiones_usuario WHERE jti = $1',
        [(decode(first) as { jti: string }).jti],
      );
      expect(row.revocada).not.toBeNull();
    });

    it('a change of credentials ends every session of that user', async () => {
      const open = await signIn();
      const change = await admin()
        .put(`/usuarios/${STAFF.mozo.id}/credenciales`, { pin: '7315' })
        .expect(200);
      expect(change.body.sesiones_cerradas).toBeGreaterThanOrEqual(1);
      expect((await bearer(open).get('/comandas').expect(401)).body.detail).toEqual({
        reason: 'session_ended',
      });
      // the new credentials work at once
      await anonymous().post('/auth/pin', { pin: '7315' }).expect(200);
    });

    it('a token not made by sign-in cannot be signed out (409): it ends when it expires', async () => {
      const res = await bearer(tokenFor('alfa', STAFF.mozo.id)).post('/auth/logout').expect(409);
      expect(res.body.code).toBe('TOKEN_NOT_REVOCABLE');
      await anonymous().post('/auth/logout').expect(401);
    });
  });
});

describe('staff sign-in where this service issues no tokens', () => {
  it('answers 404 SIGN_IN_NOT_AVAILABLE when only a public key verifies tokens (RS256)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'comandas-sign-in-'));
    const { publicKeyFile } = rsaKeys(dir);
    const t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_PUBLIC_KEY_FILE: publicKeyFile });
    try {
      await t.dbs.createTenant('delta');
      await seedMenu(t.dbs, 'delta');
      const login = await authedApi(t.http, 'delta')
        .post('/auth/login', { documento: '40000001', password: 'ceviche-de-lunes' })
        .expect(404);
      expect(login.body).toMatchObject({ code: 'SIGN_IN_NOT_AVAILABLE' });
      expect(login.body.error).toMatch(/AUTH_JWT_PUBLIC_KEY_FILE/);
      await authedApi(t.http, 'delta').post('/auth/pin', { pin: '4827' }).expect(404);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 SIGN_IN_NOT_AVAILABLE with AUTH_MODE=off', async () => {
    const t = await startTestApp({ AUTH_MODE: 'off' });
    try {
      await t.dbs.createTenant('gamma');
      await seedMenu(t.dbs, 'gamma');
      const res = await authedApi(t.http, 'gamma').post('/auth/pin', { pin: '4827' }).expect(404);
      expect(res.body.code).toBe('SIGN_IN_NOT_AVAILABLE');
      // an admin may still set credentials before switching authentication on
      await authedApi(t.http, 'gamma').put('/usuarios/1/credenciales', { pin: '4827' }).expect(200);
    } finally {
      await t.close();
    }
  });
});

describe('the demo restaurant’s development credentials (README)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    await t.dbs.createTenant('demo');
    await seedDemo(t.dbs, 'demo');
  });

  afterAll(() => t.close());

  it('each of the staff signs in with the PIN the README gives; the manager with her password', async () => {
    const api = authedApi(t.http, 'demo');
    const names: string[] = [];
    for (const pin of DEMO_PINS) {
      const res = await api.post('/auth/pin', { pin }).expect(200);
      names.push(res.body.usuario.nombre);
    }
    expect(names).toEqual([
      'Carmen Rosa Salazar Vega',
      'Luis Alberto Quispe Mamani',
      'Milagros Huamán Torres',
      'Jorge Luis Rojas Chávez',
      'Diana Flores Paredes',
      'Kevin Ramírez Soto',
      'Wilmer Condori Apaza',
      'Rosa Elvira Mendoza Cárdenas',
    ]);
    const res = await api
      .post('/auth/login', { documento: DEMO_ADMIN_DOCUMENTO, password: DEMO_ADMIN_PASSWORD })
      .expect(200);
    expect(res.body.usuario).toMatchObject({ id_usuario: 1, roles: ['admin', 'cajero'] });
  });
});
