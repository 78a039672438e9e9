import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../src/common/http/hostile-input';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Input that no route accepts is refused as the request is read, on every route of the
 * document, before the route, its guards or its validation (docs/security.md, "Hostile
 * input"): JSON nested deeper than 32 levels, control characters in a string of the body, the
 * query or the path, and property names of JavaScript's object prototype. Each is 400
 * VALIDATION_FAILED naming where it was found, with or without a token.
 */

const FEATURES_ON = {
  FEATURE_GENERIC_TABLES: 'true',
  FEATURE_RPC: 'true',
  FEATURE_COBROS: 'true',
  FEATURE_INVENTARIO: 'true',
  FEATURE_COCINA: 'true',
  FEATURE_REPORTES: 'true',
  FEATURE_WEBHOOKS: 'true',
};
const SLUG = 'hostil';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** The OpenAPI document, loosely typed like a response body. */
type Json = ReturnType<typeof JSON.parse>;

interface Operation {
  method: Method;
  /** The path with every path parameter filled with 1. */
  url: string;
  /** The JSON body's property names, when the operation takes a JSON body. */
  bodyFields?: string[];
  queryParameters: string[];
}

function operationsOf(document: Json): Operation[] {
  const schemaOf = (schema: Json): Json =>
    schema?.$ref ? document.components.schemas[String(schema.$ref).split('/').pop()!] : schema;
  const list: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const parameters: Json[] = op.parameters ?? [];
      const json = op.requestBody?.content?.['application/json'];
      const schema = json ? schemaOf(json.schema) : undefined;
      list.push({
        method: method as Method,
        url: path.replace(/\{[^}]+\}/g, '1'),
        bodyFields: json ? Object.keys(schema?.properties ?? { campo: {} }) : undefined,
        queryParameters: parameters.filter((p) => p.in === 'query').map((p) => p.name as string),
      });
    }
  }
  return list;
}

describe('hostile input is refused as the request is read', () => {
  let t: TestApp;
  let document: Json;
  const mozo = () => tokenFor(SLUG, STAFF.mozo.id);

  beforeAll(async () => {
    t = await startTestApp({ ...FEATURES_ON, AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    await seedStaff(t.dbs, SLUG);
    document = (await request(t.http).get('/api/docs-json').expect(200)).body;
  });

  afterAll(() => t.close());

  const call = (method: Method, url: string, token?: string) => {
    const req = request(t.http)[method](url.startsWith('/api/') ? url : `/api/v1${url}`);
    req.set('X-Tenant-ID', SLUG);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req;
  };
  const comandas = async () =>
    (
      await t.dbs.query<{ n: number }>(
        t.dbs.tenantUrl(SLUG),
        'SELECT count(*)::int AS n FROM comandas',
      )
    )[0].n;

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels before parsing it, without a token`, async () => {
    // what broke: about 800 kB of [[[[ on the sign-in route, which needs no token
    const deep = '['.repeat(800_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call('post', '/auth/pin').set('Content-Type', 'application/json').send(deep),
      ),
    );
    const health = await request(t.http).get('/api/health');
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: [`the body must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels`],
      });
    }
    expect(health.status).toBe(200);

    // 32 levels are read, and meet the route's own validation
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const at32 = await call('post', '/auth/pin')
      .set('Content-Type', 'application/json')
      .send(`{"pin": ${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(at32.status).toBe(400);
    expect(at32.body.detail).toEqual(['pin must be a string']);
    const at33 = await call('post', '/auth/pin')
      .set('Content-Type', 'application/json')
      .send(`{"pin": ${nested(MAX_JSON_DEPTH)}}`);
    expect(at33.body.detail[0]).toMatch(/deeper than 32 levels/);
    // brackets inside a string are text
    const inString = await call('post', '/auth/pin')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pin: '['.repeat(100), x: '\\"[[' }));
    expect(inString.body.detail).not.toContainEqual(expect.stringMatching(/deeper/));
  });

  it('refuses a NUL in any string field of the body of every route, naming the field', async () => {
    const withBody = operationsOf(document).filter((op) => op.bodyFields);
    expect(withBody.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const op of withBody) {
      for (const field of op.bodyFields!) {
        const res = await call(op.method, op.url)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ [field]: 'a\u0000b' }));
        const expected = `${field} must not contain control characters (U+0000)`;
        if (
          res.status !== 400 ||
          res.body.code !== 'VALIDATION_FAILED' ||
          !res.body.detail?.includes(expected)
        )
          wrong.push(`${op.method} ${op.url} ${field}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names a nested field, and every control character but tab, line feed and carriage return', async () => {
    const before = await comandas();
    const nested = await call('post', '/comandas', mozo()).send({
      id_mesa: 1,
      items: [{ id_producto: 1, cantidad: 1, nota: 'sin ají\u001b@' }],
    });
    expect(nested.status).toBe(400);
    expect(nested.body.detail).toEqual([
      'items.0.nota must not contain control characters (U+001B)',
    ]);
    for (const code of [0x01, 0x07, 0x08, 0x0b, 0x0c, 0x0e, 0x1f, 0x7f]) {
      const res = await call('post', '/comandas', mozo()).send({
        observacion: `mesa ${String.fromCharCode(code)}`,
      });
      expect(res.body.detail).toEqual([
        `observacion must not contain control characters (U+${code.toString(16).toUpperCase().padStart(4, '0')})`,
      ]);
    }
    const keyed = await call('post', '/comandas', mozo()).send({ 'obser\u0000vacion': 'x' });
    expect(keyed.body.detail).toEqual([
      'property names must not contain control characters (U+0000): "obser\\u0000vacion"',
    ]);
    expect(await comandas()).toBe(before);
    // text keeps its tabs and line breaks
    const text = await call('post', '/comandas', mozo())
      .send({ observacion: 'cumpleaños\tmesa larga\r\nvela en el postre' })
      .expect(201);
    expect(text.body.observacion).toBe('cumpleaños\tmesa larga\r\nvela en el postre');
  });

  it('refuses a NUL in any query parameter of every route, and in the path', async () => {
    const withQuery = operationsOf(document).filter((op) => op.queryParameters.length > 0);
    expect(withQuery.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const op of withQuery) {
      for (const name of op.queryParameters) {
        const res = await call(op.method, `${op.url}?${name}=a%00b`);
        const expected = `${name} must not contain control characters (U+0000)`;
        if (res.status !== 400 || !res.body.detail?.includes(expected))
          wrong.push(`${op.method} ${op.url}?${name}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong).toEqual([]);
    for (const url of ['/comandas/1%00', '/schema/comandas%00', '/webhooks/%001']) {
      const res = await call('get', url, mozo());
      expect(res.status).toBe(400);
      expect(res.body.detail).toEqual(['the path must not contain control characters (U+0000)']);
    }
    // the time clocks' paths are read the same way
    const clock = await request(t.http).get('/iclock/cdata?SN=AB%00C&options=all');
    expect(clock.status).toBe(400);
    expect(clock.body.detail).toEqual(['SN must not contain control characters (U+0000)']);
  });

  it('refuses the names of the object prototype as unknown fields, in the body and the query', async () => {
    const before = await comandas();
    for (const key of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'prototype',
    ]) {
      const body = `{"id_mesa": 1, ${JSON.stringify(key)}: {"x": 1}}`;
      const res = await call('post', '/comandas', mozo())
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: [`property ${key} should not exist`],
      });
      const inLine = await call('post', '/comandas', mozo())
        .set('Content-Type', 'application/json')
        .send(`{"items": [{"id_producto": 1, "cantidad": 1, ${JSON.stringify(key)}: 1}]}`);
      expect(inLine.body.detail).toEqual([`property items.0.${key} should not exist`]);
      const query = await call('get', `/comandas?${encodeURIComponent(key)}=1`, mozo());
      expect(query.status).toBe(400);
      expect(query.body.detail).toEqual([`property ${key} should not exist`]);
    }
    expect(await comandas()).toBe(before);
  });
});
