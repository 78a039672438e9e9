import request from 'supertest';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A statement that fails is logged without the values it was sent (docs/security.md, "What a
 * log holds"): an endpoint's signing secret and its URL's token, a new password's hash.
 * (A row's values in PostgreSQL's `detail`: src/common/logging/logger.spec.ts.)
 */

const SLUG = 'bitacora';
/** The token a receiver's URL carries in its path and query: it must never reach a log. */
const URL_TOKEN = 'tok9f8e7d6c5b4a';

describe('what a failed write leaves in the log', () => {
  let t: TestApp;
  const lines: string[] = [];
  const admin = () => tokenFor(SLUG, STAFF.admin.id);

  beforeAll(async () => {
    t = await startTestApp(
      {
        AUTH_MODE: 'jwt',
        AUTH_JWT_SECRET: TEST_SECRET,
        FEATURE_WEBHOOKS: 'true',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
      },
      undefined,
      [],
      { write: (line: string) => void lines.push(line) },
    );
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    await seedStaff(t.dbs, SLUG);
    // a failure PostgreSQL raises as the rows are written: the statements carry the values
    await t.dbs.query(
      t.dbs.tenantUrl(SLUG),
      `CREATE FUNCTION falla_escritura() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'disk quota exceeded' USING ERRCODE = 'XX000'; END $$;
       CREATE TRIGGER falla_webhooks BEFORE INSERT ON webhooks
         FOR EACH ROW EXECUTE FUNCTION falla_escritura();
       CREATE TRIGGER falla_credenciales BEFORE INSERT OR UPDATE ON credenciales
         FOR EACH ROW EXECUTE FUNCTION falla_escritura();`,
    );
  });

  afterAll(() => t.close());

  const api = (method: 'post' | 'put', path: string) =>
    request(t.http)
      [method](`/api/v1${path}`)
      .set('X-Tenant-ID', SLUG)
      .set('Authorization', `Bearer ${admin()}`);

  it('never writes a secret, a URL with its token or a row’s values, after any failed statement', async () => {
    const url = `http://127.0.0.1:9/hooks/${URL_TOKEN}?key=${URL_TOKEN}`;
    const created = await api('post', '/webhooks').send({
      url,
      eventos: ['comanda.*'],
      descripcion: 'contabilidad',
    });
    expect(created.status).toBe(500);
    const password = 'una-clave-de-prueba-larga';
    const credentials = await api('put', `/usuarios/${STAFF.cajero.id}/credenciales`).send({
      password,
    });
    expect(credentials.status).toBe(500);

    const logged = lines.join('');
    // the failures were logged, with what explains them
    const errors = lines
      .map((line) => JSON.parse(line) as { level: number; err?: Record<string, unknown> })
      .filter((line) => line.level === 50 && line.err);
    expect(errors).toHaveLength(2);
    for (const { err } of errors) {
      expect(err).toMatchObject({ message: 'disk quota exceeded', code: 'XX000' });
      expect(typeof err!.query).toBe('string');
      expect(err).not.toHaveProperty('parameters');
    }
    // and nothing of what the statements were sent
    expect(logged).not.toContain(URL_TOKEN);
    expect(logged).not.toContain('whsec_');
    expect(logged).not.toContain(password);
    expect(logged).not.toMatch(/scrypt\$\d+\$/);
    const rows = await t.dbs.query<{ n: number }>(
      t.dbs.tenantUrl(SLUG),
      'SELECT count(*)::int AS n FROM webhooks',
    );
    expect(rows[0].n).toBe(0);
  });
});
