import request from 'supertest';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The language of an error's text (docs/api-contract.md, "Errors"): Spanish when the request's
 * Accept-Language prefers it, English otherwise (byte for byte what it always was), and every
 * other part of the answer the same in both: status, code, detail, the other fields and headers.
 */

type Call = (language?: string) => request.Test;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  language: string | undefined;
}

async function answer(call: Call, language?: string): Promise<Answer> {
  const res = await call(language);
  return {
    status: res.status,
    body: res.body as Record<string, unknown>,
    language: res.headers['content-language'],
  };
}

/** The answer in English (no header) and in Spanish (es-PE), with all but the text the same. */
async function bothLanguages(call: Call): Promise<{ en: Answer; es: Answer }> {
  const en = await answer(call);
  const es = await answer(call, 'es-PE,es;q=0.9,en;q=0.8');
  expect(en.language).toBe('en');
  expect(es.language).toBe('es');
  expect(es.status).toBe(en.status);
  // the same but for the text (and the request id, each request's own)
  const rest = ({ error: _error, requestId: _id, ...others }: Record<string, unknown>) => others;
  expect(rest(es.body)).toEqual(rest(en.body));
  const [enText, esText] = [en.body.error, es.body.error];
  expect(typeof esText).toBe('string');
  expect(esText).not.toBe(enText);
  return { en, es };
}

describe('the language of errors', () => {
  let t: TestApp;
  const at = (path: string) => `/api/v1${path}`;
  const as = (tenant: string | null) => (req: request.Test, language?: string) => {
    if (tenant !== null) req.set('X-Tenant-ID', tenant);
    if (language !== undefined) req.set('Accept-Language', language);
    return req;
  };
  const lamar = as('lamar');

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COBROS: 'true' });
    await t.dbs.createTenant('lamar');
    await seedMenu(t.dbs, 'lamar');
    // a tenant's database starts with its till, Caja 1
  });
  afterAll(() => t.close());

  it('a module’s 404: COMANDA_NOT_FOUND', async () => {
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).get(at('/comandas/9999')), l),
    );
    expect(en).toMatchObject({
      status: 404,
      body: {
        error: 'Comanda 9999 does not exist',
        code: 'COMANDA_NOT_FOUND',
        detail: { id_comanda: 9999 },
      },
    });
    expect(es.body.error).toBe('La comanda 9999 no existe');
  });

  it('a module’s 409: SESION_YA_ABIERTA', async () => {
    const first = await lamar(request(t.http).post(at('/cajas/1/sesiones'))).send({
      monto_apertura: 100,
    });
    expect(first.status).toBe(201);
    const id = (first.body as { sesion: { id_sesion: number } }).sesion.id_sesion;
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).post(at('/cajas/1/sesiones')), l).send({ monto_apertura: 100 }),
    );
    expect(en).toMatchObject({
      status: 409,
      body: {
        error: `Caja 1 already has an open session (${id}): close it first`,
        code: 'SESION_YA_ABIERTA',
        detail: { id_caja: 1, id_sesion: id },
      },
    });
    expect(es.body.error).toBe(`La caja 1 ya tiene una sesión abierta (${id}): ciérrela primero`);
  });

  it('a refused transition: INVALID_TRANSITION', async () => {
    const created = await lamar(request(t.http).post(at('/comandas'))).send({
      id_mesa: 1,
      id_usuario: MENU.rosa,
      items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }],
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id_comanda: number }).id_comanda;
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).put(at(`/comandas/${id}`)), l).send({ action: 'restaurar' }),
    );
    expect(en.body).toMatchObject({
      error: 'Cannot restaurar a comanda that is abierta',
      code: 'INVALID_TRANSITION',
    });
    expect(es.body.error).toBe('No se puede restaurar una comanda que está abierta');
  });

  it('validation: VALIDATION_FAILED, each field said in Spanish, the detail as it is', async () => {
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).post(at('/comandas')), l).send({
        id_mesa: 'tres',
        id_usuario: MENU.rosa,
        items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }],
        propina: 5,
      }),
    );
    expect(en).toMatchObject({
      status: 400,
      body: {
        error: 'Validation failed',
        code: 'VALIDATION_FAILED',
        detail: ['property propina should not exist', 'id_mesa must be an integer number'],
      },
    });
    expect(es.body.error).toBe(
      'Los datos enviados no son válidos: el campo propina no se admite; id_mesa debe ser un número entero',
    );
  });

  it('the hostile-input middleware’s 400', async () => {
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).post(at('/comandas')), l).send({
        id_mesa: 1,
        id_usuario: MENU.rosa,
        items: [{ id_producto: MENU.ceviche.id, cantidad: 1, nota: 'sin\u001bají' }],
      }),
    );
    expect(en.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: ['items.0.nota must not contain control characters (U+001B)'],
    });
    expect(es.body.error).toBe(
      'Los datos enviados no son válidos: items.0.nota no debe contener caracteres de control (U+001B)',
    );
  });

  it('the database’s refusal: an unknown table, 23503', async () => {
    const { en, es } = await bothLanguages((l) =>
      lamar(request(t.http).post(at('/comandas')), l).send({
        id_mesa: 99,
        id_usuario: MENU.rosa,
        items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }],
      }),
    );
    expect(en.body).toMatchObject({
      error: 'foreign-key violation: fk_comandas_id_mesa (id_mesa)',
      code: '23503',
      column: 'id_mesa',
      constraint: 'fk_comandas_id_mesa',
    });
    expect(es.body.error).toBe('violación de clave foránea: fk_comandas_id_mesa (id_mesa)');
  });

  it('an unknown tenant: TENANT_NOT_FOUND', async () => {
    const { en, es } = await bothLanguages((l) =>
      as('nadie')(request(t.http).get(at('/comandas')), l),
    );
    expect(en).toMatchObject({
      status: 404,
      body: { error: 'Tenant "nadie" does not exist', code: 'TENANT_NOT_FOUND' },
    });
    expect(es.body.error).toBe('El restaurante "nadie" no existe');
  });

  it('a path no route serves, answered outside the router', async () => {
    const { en, es } = await bothLanguages((l) => as(null)(request(t.http).get('/nada'), l));
    expect(en.body).toMatchObject({ error: 'Cannot GET /nada', code: 'NOT_FOUND' });
    expect(es.body.error).toBe('No existe la ruta GET /nada');
  });

  it('a replayed refusal of an idempotent write answers in its own request’s language', async () => {
    const send = (l?: string) =>
      lamar(request(t.http).post(at('/comandas/9999/items')), l)
        .set('Idempotency-Key', 'idioma-1')
        .send({ id_producto: MENU.ceviche.id, cantidad: 1 });
    const first = await send('es');
    expect(first.status).toBe(404);
    expect(first.headers['content-language']).toBe('es');
    expect(first.body).toMatchObject({ error: 'La comanda 9999 no existe' });
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-language']).toBe('en');
    expect(again.body).toEqual({ ...first.body, error: 'Comanda 9999 does not exist' });
    const inSpanish = await send('es');
    expect(inSpanish.headers['content-language']).toBe('es');
    expect(inSpanish.body).toEqual(first.body);
  });

  it.each([
    ['es', 'es'],
    ['es-419', 'es'],
    ['en;q=0.5, es', 'es'],
    ['es;q=0.4, en;q=0.6', 'en'],
    ['es;q=0', 'en'],
    ['fr', 'en'],
    ['en-US', 'en'],
    ['*', 'en'],
  ])('Accept-Language %j answers %s', async (header, language) => {
    const res = await lamar(request(t.http).get(at('/comandas/9999')), header).expect(404);
    expect(res.headers['content-language']).toBe(language);
    expect((res.body as { error: string }).error).toBe(
      language === 'es' ? 'La comanda 9999 no existe' : 'Comanda 9999 does not exist',
    );
  });

  it('says nothing of a language on a success', async () => {
    const res = await lamar(request(t.http).get(at('/tenant')), 'es').expect(200);
    expect(res.headers['content-language']).toBeUndefined();
  });
});

describe('the language of authentication errors', () => {
  let t: TestApp;
  const at = (path: string) => `/api/v1${path}`;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    await t.dbs.createTenant('lamar');
    await seedMenu(t.dbs, 'lamar');
    await seedStaff(t.dbs, 'lamar');
  });
  afterAll(() => t.close());

  const get = (path: string, token: string | undefined, language?: string) => {
    const req = request(t.http).get(at(path)).set('X-Tenant-ID', 'lamar');
    if (token) req.set('Authorization', `Bearer ${token}`);
    if (language) req.set('Accept-Language', language);
    return req;
  };

  it('no token: 401 UNAUTHENTICATED, the challenge the same in both', async () => {
    const en = await get('/comandas', undefined).expect(401);
    const es = await get('/comandas', undefined, 'es').expect(401);
    expect(en.body).toMatchObject({
      error: 'Authentication required: send Authorization: Bearer <token>',
      code: 'UNAUTHENTICATED',
      detail: { reason: 'missing' },
    });
    expect(es.body).toMatchObject({
      error: 'Se necesita autenticación: envíe Authorization: Bearer <token>',
      code: 'UNAUTHENTICATED',
      detail: { reason: 'missing' },
    });
    expect(es.headers['www-authenticate']).toBe(en.headers['www-authenticate']);
    expect([en.headers['content-language'], es.headers['content-language']]).toEqual(['en', 'es']);
  });

  it('a token of a user the roles do not allow: 403 FORBIDDEN', async () => {
    const none = tokenFor('lamar', STAFF.sinRol.id);
    const en = await get('/comandas', none).expect(403);
    const es = await get('/comandas', none, 'es').expect(403);
    expect(en.body).toMatchObject({
      error: 'This needs the permission "comandas:read" and the user holds no role',
      code: 'FORBIDDEN',
      detail: { permission: 'comandas:read', roles: [] },
    });
    expect(es.body).toMatchObject({
      error: 'Se necesita el permiso "comandas:read" y el usuario no tiene ningún rol',
      code: 'FORBIDDEN',
      detail: { permission: 'comandas:read', roles: [] },
    });
    const waiter = await request(t.http)
      .delete(at('/comandas/1'))
      .set('X-Tenant-ID', 'lamar')
      .set('Authorization', `Bearer ${tokenFor('lamar', STAFF.mozo.id)}`)
      .set('Accept-Language', 'es')
      .expect(403);
    expect(waiter.body).toMatchObject({
      error: 'Se necesita el permiso "comandas:delete", que el rol mozo no da',
      detail: { permission: 'comandas:delete', roles: ['mozo'] },
    });
  });

  it('another tenant’s token: 403 TENANT_MISMATCH', async () => {
    const token = tokenFor('otro', STAFF.admin.id);
    const en = await get('/comandas', token).expect(403);
    const es = await get('/comandas', token, 'es').expect(403);
    expect(en.body).toMatchObject({
      error: 'The token was issued for tenant "otro", not for "lamar"',
      code: 'TENANT_MISMATCH',
    });
    expect((es.body as { error: string }).error).toBe(
      'El token se emitió para el restaurante "otro", no para "lamar"',
    );
  });
});
