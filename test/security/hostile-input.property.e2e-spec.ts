import fc from 'fast-check';
import request from 'supertest';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/** Values an attacker or a broken client sends in place of ids, fields and names. */
const HOSTILE_STRINGS = [
  '1; DROP TABLE comandas; --',
  "' OR '1'='1",
  '1 OR 1=1',
  '1)); SELECT pg_sleep(10); --',
  '$1',
  '%00',
  '\u0000',
  '../../etc/passwd',
  '9'.repeat(40),
  '-1',
  '0x10',
  '1e309',
  'NaN',
  'Infinity',
  '{"$gt":0}',
  '<script>alert(1)</script>',
  'a'.repeat(5_000),
  'ñandú ☕',
];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 40 }));
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER, 1e-7, -4e-323),
);
const hostileValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(hostileString, hostileNumber), { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);
/** A body built from the routes' own field names (so validation is reached) and others. */
const FIELDS = [
  'action',
  'id_mesa',
  'id_usuario',
  'id_cliente',
  'observacion',
  'motivo',
  'items',
  'id_producto',
  'cantidad',
  'nota',
  'estado',
  'eliminada',
  'version',
  'total',
  'vendor',
  'model',
  'transport',
  'version',
  'capabilities',
  'format',
  'columns',
  'statusMap',
  '__proto__',
  'constructor',
];
const hostileBody = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), hostileString), hostileValue, { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);
const hostileId = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  hostileString.map((s) => encodeURIComponent(s)),
  hostileNumber.map((n) => encodeURIComponent(String(n))),
);
const QUERY_KEYS = [
  'estado',
  'id_mesa',
  'id_usuario',
  'desde',
  'hasta',
  'limit',
  'offset',
  'eliminada',
  'motivo',
];
const hostileQuery = fc
  .dictionary(fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileString), hostileString, {
    maxKeys: 4,
  })
  .map((q) => new URLSearchParams(q).toString());

const RUNS = { numRuns: 60 };

describe('every active route under random and hostile input (fast-check): never a 500', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('fuzz');
    await seedMenu(t.dbs, 'fuzz');
    // a few comandas with lines for the routes that need one
    for (let i = 0; i < 5; i += 1) {
      await request(t.http)
        .post('/api/v1/comandas')
        .set('X-Tenant-ID', 'fuzz')
        .send({ id_mesa: 1, items: [{ id_producto: 1, cantidad: 1 }] })
        .expect(201);
    }
  });

  afterAll(() => t.close());

  /** A client error answers with the envelope; nothing answers 5xx. */
  function expectHandled(res: request.Response, what: string) {
    if (res.status >= 500)
      throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.status >= 400) {
      expect(typeof res.body.error).toBe('string');
      expect(typeof res.body.code).toBe('string');
    }
  }

  const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) =>
    request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', 'fuzz');

  it('GET /comandas with any query', async () => {
    await fc.assert(
      fc.asyncProperty(hostileQuery, async (query) => {
        expectHandled(await api('get', `/comandas?${query}`), `GET /comandas?${query}`);
      }),
      RUNS,
    );
  });

  it('GET /comandas/:id and /comandas/:id/eventos with any id', async () => {
    await fc.assert(
      fc.asyncProperty(hostileId, async (id) => {
        expectHandled(await api('get', `/comandas/${id}`), `GET /comandas/${id}`);
        expectHandled(await api('get', `/comandas/${id}/eventos`), `GET /comandas/${id}/eventos`);
      }),
      RUNS,
    );
  });

  it('POST /comandas with any body', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBody, async (body) => {
        expectHandled(
          await api('post', '/comandas')
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body)),
          `POST /comandas ${JSON.stringify(body)}`,
        );
      }),
      RUNS,
    );
  });

  it('PUT and DELETE /comandas/:id with any id, body, query and If-Match', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileId,
        hostileBody,
        hostileQuery,
        hostileString,
        async (id, body, query, ifMatch) => {
          const what = `${id} ${JSON.stringify(body)} ?${query} If-Match ${ifMatch}`;
          const safeIfMatch = ifMatch.replace(/[^\x20-\x7e]/g, '');
          expectHandled(
            await api('put', `/comandas/${id}`)
              .set('If-Match', safeIfMatch)
              .set('Content-Type', 'application/json')
              .send(JSON.stringify(body)),
            `PUT ${what}`,
          );
          expectHandled(
            await api('delete', `/comandas/${id}?${query}`)
              .set('Content-Type', 'application/json')
              .send(JSON.stringify(body)),
            `DELETE ${what}`,
          );
        },
      ),
      RUNS,
    );
  });

  it('the line routes with any ids and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(hostileId, hostileId, hostileBody, async (id, itemId, body) => {
        const what = `${id}/${itemId} ${JSON.stringify(body)}`;
        expectHandled(
          await api('post', `/comandas/${id}/items`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body)),
          `POST items ${what}`,
        );
        expectHandled(
          await api('patch', `/comandas/${id}/items/${itemId}`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body)),
          `PATCH ${what}`,
        );
        expectHandled(await api('delete', `/comandas/${id}/items/${itemId}`), `DELETE ${what}`);
      }),
      RUNS,
    );
  });

  it('POST /device-drivers/validate with any body', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBody, async (body) => {
        const res = await request(t.http)
          .post('/api/v1/device-drivers/validate')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expectHandled(res, `validate ${JSON.stringify(body)}`);
        if (res.status === 200) expect(typeof res.body.valid).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('POST /asistencia/import with any driver name and file content', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('zkteco-attlog', 'generic-csv'),
          hostileString.filter((s) => s.length > 0 && !s.includes('\u0000')),
        ),
        fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom(...HOSTILE_STRINGS)),
        async (driver, content) => {
          const res = await api('post', '/asistencia/import')
            .field('driver', driver)
            .attach('file', Buffer.from(content), 'fuzz.dat');
          expectHandled(res, `import ${driver} ${JSON.stringify(content)}`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the iClock routes with any serial, table and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString,
        hostileString,
        fc.string({ maxLength: 200 }),
        async (sn, table, body) => {
          const q = new URLSearchParams({ SN: sn, table }).toString();
          expectHandled(await request(t.http).get(`/iclock/cdata?${q}`), `handshake ${q}`);
          expectHandled(
            await request(t.http)
              .post(`/iclock/cdata?${q}`)
              .set('Content-Type', 'text/plain')
              .send(body),
            `push ${q}`,
          );
          expectHandled(await request(t.http).get(`/iclock/getrequest?${q}`), `getrequest ${q}`);
        },
      ),
      RUNS,
    );
  });

  it('nothing reached the database as SQL text: the tables are intact', async () => {
    const rows = await t.dbs.query<{ n: number }>(
      t.dbs.tenantUrl('fuzz'),
      `SELECT (SELECT count(*) FROM mesas)::int + (SELECT count(*) FROM productos)::int AS n`,
    );
    expect(rows[0].n).toBe(3 + 4);
  });
});
