import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AttendanceImporter } from '../../src/device-drivers/attendance-importer';
import type { ParsedLine, PullDriver } from '../../src/device-drivers/driver.types';
import { TenantContext } from '../../src/tenancy/tenant-context';
import { seedMenu } from '../support/fixtures';
import { freePort, MAIN_JS, RunningProcess, runNode } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';

const CLI = (name: string) => join(__dirname, '..', '..', 'dist', 'cli', `${name}.cli.js`);
const UPLOAD_MAX_BYTES = 64 * 1024;

/** A ZKTeco attlog.dat as the USB export writes it: BOM, CRLF, tab-separated, one bad line. */
const ATTLOG = [
  '\uFEFF40000001\t2026-03-02 08:00:12\t1\t0\t1\t0',
  '40000001\t2026-03-02 16:31:40\t1\t1\t1\t0',
  '',
  '40000002\t2026-03-02 18:00:00\t1\t0\t1\t0',
  '40000002\t2026-03-03 01:30:00\t1\t1\t1\t0',
  '99999999\t2026-03-02 09:00:00\t1\t0\t1\t0',
  'esto no es una marca',
  '',
].join('\r\n');

/** The contract's manifest at its smallest: no record format named. */
const K40 = { vendor: 'ZKTeco', model: 'K40', transport: 'file', version: '1.0.0' };
const ATTLOG_ASSUMED = {
  path: '/format',
  message: 'not named: the ZKTeco attlog.dat layout is assumed',
};
const NUL_PIN = 'doc (column 1) contains control characters';

const CSV = [
  'doc,fecha,hora,modo',
  '40000001,2026-03-05,08:00:00,entrada',
  '40000001,2026-03-05,17:00:00,salida',
  '40000001,2026-02-30,09:00:00,entrada',
].join('\n');

describe('device drivers', () => {
  let t: TestApp;
  let work: string;
  const count = (slug: string, where = 'true') =>
    t.dbs
      .query<{ n: number }>(
        t.dbs.tenantUrl(slug),
        `SELECT count(*)::int AS n FROM asistencia_detalle WHERE ${where}`,
      )
      .then((r) => r[0].n);
  /** A registration as `devices register` writes it, for drivers the CLI refuses to register. */
  const registerDirectly = (serial: string, slug: string, driver: string) =>
    t.dbs.query(
      t.dbs.controlUrl,
      `INSERT INTO devices (serial, tenant_id, driver) SELECT $1, id, $2 FROM tenants WHERE slug = $3`,
      [serial, driver, slug],
    );
  const upload = (slug: string, driver: string, content: string | Buffer, name: string) =>
    request(t.http)
      .post('/api/v1/asistencia/import')
      .set('X-Tenant-ID', slug)
      .field('driver', driver)
      .attach('file', Buffer.from(content), name);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'comandas-drivers-'));
    // a drivers directory with one valid and one invalid driver
    await mkdir(join(work, 'drivers', 'acme-csv'), { recursive: true });
    await mkdir(join(work, 'drivers', 'broken'), { recursive: true });
    await writeFile(
      join(work, 'drivers', 'acme-csv', 'manifest.json'),
      JSON.stringify({
        vendor: 'Acme',
        model: 'T1',
        transport: 'file',
        version: '2.1',
        format: 'csv',
        delimiter: ';',
        columns: { doc: 'PIN', datetime: 'Marca', status: 'Tipo' },
        statusMap: { E: 'entrada', S: 'salida' },
      }),
    );
    await writeFile(
      join(work, 'drivers', 'broken', 'manifest.json'),
      JSON.stringify({ vendor: '', transport: 'usb', capabilities: [1] }),
    );
    // the contract's minimal manifest: no format, read with the attlog.dat layout
    await mkdir(join(work, 'drivers', 'zk-k40'), { recursive: true });
    await writeFile(join(work, 'drivers', 'zk-k40', 'manifest.json'), JSON.stringify(K40));
    // valid manifests that cannot import: an unknown format, settings the format refuses
    await mkdir(join(work, 'drivers', 'acme-xml'), { recursive: true });
    await writeFile(
      join(work, 'drivers', 'acme-xml', 'manifest.json'),
      JSON.stringify({
        vendor: 'Acme',
        model: 'X1',
        transport: 'file',
        version: '1',
        format: 'xml',
      }),
    );
    await mkdir(join(work, 'drivers', 'push-bad'), { recursive: true });
    await writeFile(
      join(work, 'drivers', 'push-bad', 'manifest.json'),
      JSON.stringify({
        vendor: 'ZKTeco',
        model: 'push',
        transport: 'http',
        version: '1',
        format: 'zk-attlog',
        columns: { doc: 'PIN', datetime: 1 },
      }),
    );
    t = await startTestApp({
      DEVICE_DRIVERS_PATH: join(work, 'drivers'),
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
    });
    await t.dbs.createTenant('reloj', { timeZone: 'America/Lima' });
    await t.dbs.createTenant('otro');
    await seedMenu(t.dbs, 'reloj'); // users 40000001 (id 1) and 40000002 (id 2)
    await t.dbs.createTenant('k40', { timeZone: 'America/Lima' });
    await seedMenu(t.dbs, 'k40');
    await t.dbs.createTenant('kolkata', { timeZone: 'Asia/Kolkata' });
  });

  afterAll(async () => {
    await t.close();
    await rm(work, { recursive: true, force: true });
  });

  describe('manifests and registry', () => {
    it('lists the built-in drivers and the valid external one, skipping the invalid one', async () => {
      const res = await request(t.http).get('/api/v1/device-drivers').expect(200);
      expect(res.body.map((d: { name: string }) => d.name)).toEqual([
        'acme-csv',
        'acme-xml',
        'generic-csv',
        'push-bad',
        'zk-k40',
        'zkteco-attlog',
        'zkteco-push',
      ]);
      expect(res.body[0]).toEqual({
        name: 'acme-csv',
        source: 'external',
        manifest: expect.objectContaining({ vendor: 'Acme', transport: 'file', delimiter: ';' }),
        importable: true,
        warnings: [],
      });
      // a push clock's driver reads the records the clock sends, not an uploaded file
      expect(res.body[6]).toMatchObject({
        name: 'zkteco-push',
        source: 'builtin',
        manifest: { transport: 'http' },
        importable: false,
        warnings: [],
      });
    });

    it('lists as importable exactly the drivers the upload takes', async () => {
      const res = await request(t.http).get('/api/v1/device-drivers').expect(200);
      const refusals = ['DRIVER_NOT_FILE', 'DRIVER_NOT_IMPORTABLE'];
      for (const driver of res.body as { name: string; importable: boolean }[]) {
        const answer = await upload('otro', driver.name, '', 'empty.dat');
        const refused = answer.status === 400 && refusals.includes(answer.body.code);
        expect({ driver: driver.name, refused }).toEqual({
          driver: driver.name,
          refused: !driver.importable,
        });
      }
    });

    it('POST /device-drivers/validate lists every violation with its path', async () => {
      const bad = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .send({ vendor: '', transport: 'usb', capabilities: [1] })
        .expect(200);
      expect(bad.body).toEqual({
        valid: false,
        errors: [
          { path: '/capabilities/0', message: 'must be string' },
          { path: '/model', message: 'is required' },
          { path: '/transport', message: 'must be one of file, tcp, http' },
          { path: '/vendor', message: 'must not be empty' },
          { path: '/version', message: 'is required' },
        ],
        warnings: [],
      });
      const good = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .send({
          vendor: 'ZK',
          model: 'K40',
          transport: 'tcp',
          version: '1',
          custom: { anything: true },
        })
        .expect(200);
      expect(good.body).toEqual({ valid: true, errors: [], warnings: [] });
      const settings = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .send({
          vendor: 'ZK',
          model: 'K40',
          transport: 'file',
          version: '1',
          format: 'zk-attlog',
          columns: { datetime: 1 },
        })
        .expect(200);
      // format settings never make a manifest invalid: they are warnings
      expect(settings.body).toEqual({
        valid: true,
        errors: [],
        warnings: [{ path: '/columns/doc', message: 'is required' }],
      });
      // a body that is not a JSON object is refused before the route (any JSON route alike)
      const array = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .send([])
        .expect(400);
      expect(array.body.code).toBe('INVALID_BODY');
      const malformed = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .set('Content-Type', 'application/json')
        .send('{"vendor": ')
        .expect(400);
      expect(malformed.body.code).toBeDefined();
    });

    it('the service starts with an invalid driver in DEVICE_DRIVERS_PATH, logging why it skipped it', async () => {
      const port = await freePort();
      const service = new RunningProcess(
        MAIN_JS,
        t.dbs.env({
          LOG_LEVEL: 'warn',
          PORT: String(port),
          HOST: '127.0.0.1',
          DEVICE_DRIVERS_PATH: join(work, 'drivers'),
        }),
      );
      try {
        await service.waitForOutput('is listening on');
        // the log lines and the banner reach the pipe in separate writes: wait for the last one
        await service.waitForOutput('device driver acme-xml loaded but cannot import', 5_000);
        expect(service.stdout).toContain(
          'device driver broken skipped: /capabilities/0 must be string; /model is required; /transport must be one of file, tcp, http; /vendor must not be empty; /version is required',
        );
        expect(service.stdout).toContain(
          'device driver acme-xml loaded but cannot import: /format must be one of zk-attlog, csv',
        );
        expect(service.stdout).not.toContain('zk-k40 skipped');
        const res = await request(`http://127.0.0.1:${port}`)
          .get('/api/v1/device-drivers')
          .expect(200);
        expect(res.body.map((d: { name: string }) => d.name)).toContain('acme-csv');
      } finally {
        service.child.kill('SIGTERM');
        expect((await service.exited).code).toBe(0);
      }
    });

    it('npm run drivers -- validate exits 1 on an invalid manifest and 0 on a valid one; list shows the skipped', async () => {
      const invalid = await runNode(
        CLI('drivers'),
        ['validate', join(work, 'drivers', 'broken', 'manifest.json')],
        {},
      );
      expect(invalid.code).toBe(1);
      expect(invalid.stdout).toContain('/transport: must be one of file, tcp, http');
      expect(invalid.stdout).toContain('/model: is required');
      const valid = await runNode(
        CLI('drivers'),
        ['validate', join(work, 'drivers', 'acme-csv', 'manifest.json')],
        {},
      );
      expect(valid.code).toBe(0);
      expect(valid.stdout).toContain('valid');
      const missing = await runNode(CLI('drivers'), ['validate', join(work, 'nope.json')], {});
      expect(missing.code).toBe(1);
      const list = await runNode(CLI('drivers'), ['list'], {
        DEVICE_DRIVERS_PATH: join(work, 'drivers'),
      });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/acme-csv\s+file/);
      expect(list.stdout).toMatch(/zkteco-push\s+http/);
      expect(list.stderr).toContain('skipped broken');
      // loaded, but marked: they cannot import, and why
      expect(list.stdout).toMatch(
        /acme-xml\s+file\s+xml .*CANNOT IMPORT\n {2}warning \/format: must be one of zk-attlog, csv\n/,
      );
      expect(list.stdout).toMatch(
        /push-bad\s+http .*CANNOT IMPORT\n {2}warning \/columns\/doc: must be integer\n/,
      );
      expect(list.stdout).toMatch(
        /zk-k40\s+file\s+-\s+ZKTeco K40 \(v1\.0\.0, external\)\n {2}warning \/format: not named: the ZKTeco attlog\.dat layout is assumed\n/,
      );
      expect(list.stdout).not.toMatch(/zk-k40.*CANNOT IMPORT/);
      const usage = await runNode(CLI('drivers'), ['frobnicate'], {});
      expect(usage.code).toBe(2);
    });

    it('the contract’s smallest manifest (no format) is valid through the route and the CLI, with a warning', async () => {
      const validate = (body: object) =>
        request(t.http).post('/api/v1/device-drivers/validate').send(body).expect(200);
      expect((await validate(K40)).body).toEqual({
        valid: true,
        errors: [],
        warnings: [ATTLOG_ASSUMED],
      });
      expect((await validate({ ...K40, transport: 'http' })).body).toEqual({
        valid: true,
        errors: [],
        warnings: [
          { path: '/format', message: 'not named: the ZKTeco push ATTLOG layout is assumed' },
        ],
      });
      expect((await validate({ ...K40, format: 'xml' })).body).toEqual({
        valid: true,
        errors: [],
        warnings: [{ path: '/format', message: 'must be one of zk-attlog, csv' }],
      });
      const cli = await runNode(
        CLI('drivers'),
        ['validate', join(work, 'drivers', 'zk-k40', 'manifest.json')],
        {},
      );
      expect(cli.code).toBe(0);
      expect(cli.stdout).toMatch(
        /manifest\.json: valid \(ZKTeco K40, transport file\)\n {2}warning \/format: not named: the ZKTeco attlog\.dat layout is assumed\n$/,
      );
      const xml = await runNode(
        CLI('drivers'),
        ['validate', join(work, 'drivers', 'acme-xml', 'manifest.json')],
        {},
      );
      expect(xml.code).toBe(0);
      expect(xml.stdout).toContain(
        'valid (Acme X1, transport file), but it cannot import records\n  warning /format: must be one of zk-attlog, csv\n',
      );
    });

    it('lists the drivers that cannot import with importable false and why; the others importable', async () => {
      const res = await request(t.http).get('/api/v1/device-drivers').expect(200);
      const byName = Object.fromEntries(
        (res.body as { name: string }[]).map((driver) => [driver.name, driver]),
      );
      expect(byName['zk-k40']).toEqual({
        name: 'zk-k40',
        source: 'external',
        manifest: K40,
        importable: true,
        warnings: [ATTLOG_ASSUMED],
      });
      expect(byName['acme-xml']).toMatchObject({
        importable: false,
        warnings: [{ path: '/format', message: 'must be one of zk-attlog, csv' }],
      });
      expect(byName['push-bad']).toMatchObject({
        importable: false,
        warnings: [{ path: '/columns/doc', message: 'must be integer' }],
      });
      expect(byName['zkteco-attlog']).toMatchObject({ importable: true, warnings: [] });
    });
  });

  describe('file import', () => {
    it('imports an uploaded attlog.dat, reporting unknown documents and bad lines, idempotently', async () => {
      const first = await upload('reloj', 'zkteco-attlog', ATTLOG, 'attlog.dat').expect(200);
      expect(first.body).toEqual({
        driver: 'zkteco-attlog',
        origen: 'attlog.dat',
        read: 6,
        punches: 5,
        inserted: 4,
        duplicates: 0,
        unknownDocuments: ['99999999'],
        unknownDocumentPunches: 1,
        badLineCount: 1,
        badLines: [{ line: 7, reason: 'no datetime (column 2)' }],
        daysRecalculated: 2,
      });
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        `SELECT id_usuario, fecha::text, hora::text, modo, origen, datos FROM asistencia_detalle ORDER BY id_raw`,
      );
      expect(rows[0]).toEqual({
        id_usuario: 1,
        fecha: '2026-03-02',
        hora: '08:00:12',
        modo: 'entrada',
        origen: 'attlog.dat',
        datos: { device: '1', status: '0', verify: '1', workcode: '0' },
      });
      expect(rows).toHaveLength(4);
      // the late shift 18:00 -> 01:30 is one interval of March 2nd
      const intervals = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        'SELECT fecha_trabajo::text, minutos FROM asistencia_intervalo WHERE id_usuario = 2',
      );
      expect(intervals).toEqual([{ fecha_trabajo: '2026-03-02', minutos: 450 }]);

      const again = await upload('reloj', 'zkteco-attlog', ATTLOG, 'attlog.dat').expect(200);
      expect(again.body).toMatchObject({
        read: 6,
        inserted: 0,
        duplicates: 4,
        unknownDocumentPunches: 1,
        badLineCount: 1,
      });
      expect(await count('reloj')).toBe(4);
      // tenant isolation: nothing reached the other tenant
      expect(await count('otro')).toBe(0);
    });

    it('imports a CSV with an external driver’s own delimiter, columns and status map', async () => {
      const csv = [
        'PIN;Marca;Tipo',
        '40000002;2026-03-06 09:00:00;E',
        '40000002;2026-03-06 13:00:00;S',
      ].join('\n');
      const res = await upload('reloj', 'acme-csv', csv, 'marcaciones_año.csv').expect(200);
      expect(res.body).toMatchObject({
        origen: 'marcaciones_año.csv',
        read: 2,
        punches: 2,
        inserted: 2,
        badLineCount: 0,
      });
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        "SELECT modo FROM asistencia_detalle WHERE origen = 'marcaciones_año.csv' ORDER BY hora",
      );
      expect(rows).toEqual([{ modo: 'entrada' }, { modo: 'salida' }]);
    });

    it('refuses a CSV whose header lacks the driver’s columns, importing nothing', async () => {
      const before = await count('reloj');
      const res = await upload(
        'reloj',
        'acme-csv',
        'Documento;Hora\n40000002;09:00',
        'otro.csv',
      ).expect(400);
      expect(res.body).toMatchObject({
        code: 'EXPORT_HEADER_MISMATCH',
        detail: { line: 1, missing: ['PIN', 'Marca', 'Tipo'], header: ['Documento', 'Hora'] },
      });
      expect(await count('reloj')).toBe(before);
    });

    it('refuses a missing file, a missing or unknown driver, a push driver and extra fields with 400', async () => {
      const noFile = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'reloj')
        .field('driver', 'zkteco-attlog')
        .expect(400);
      expect(noFile.body.code).toBe('FILE_REQUIRED');
      const noDriver = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'reloj')
        .attach('file', Buffer.from(CSV), 'x.csv')
        .expect(400);
      expect(noDriver.body.code).toBe('VALIDATION_FAILED');
      const unknown = await upload('reloj', 'nope', CSV, 'x.csv').expect(400);
      expect(unknown.body).toMatchObject({
        code: 'UNKNOWN_DRIVER',
        detail: { drivers: expect.arrayContaining(['generic-csv']) },
      });
      const push = await upload('reloj', 'zkteco-push', ATTLOG, 'x.dat').expect(400);
      expect(push.body.code).toBe('DRIVER_NOT_FILE');
      const extra = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'reloj')
        .field('driver', 'generic-csv')
        .field('origen', 'x')
        .attach('file', Buffer.from(CSV), 'x.csv')
        .expect(400);
      expect(extra.body.code).toBe('VALIDATION_FAILED');
      const wrongField = await request(t.http)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'reloj')
        .field('driver', 'generic-csv')
        .attach('export', Buffer.from(CSV), 'x.csv')
        .expect(400);
      expect(wrongField.body.error).toBeDefined();
      expect(await count('reloj', "origen = 'x.csv'")).toBe(0);
    });

    it('refuses a driver that cannot import: 400 DRIVER_NOT_IMPORTABLE naming why, in the upload and the CLI', async () => {
      const res = await upload('reloj', 'acme-xml', ATTLOG, 'xml.dat').expect(400);
      expect(res.body).toMatchObject({
        code: 'DRIVER_NOT_IMPORTABLE',
        error: 'Driver acme-xml cannot import records: /format must be one of zk-attlog, csv',
        detail: {
          driver: 'acme-xml',
          problems: [{ path: '/format', message: 'must be one of zk-attlog, csv' }],
        },
      });
      const file = join(work, 'xml.dat');
      await writeFile(file, ATTLOG);
      const cli = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'acme-xml', '--file', file],
        t.dbs.env({ DEVICE_DRIVERS_PATH: join(work, 'drivers') }),
      );
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain(
        'Driver acme-xml cannot import records: /format must be one of zk-attlog, csv',
      );
      expect(await count('reloj', "origen = 'xml.dat'")).toBe(0);
    });

    it('stores every good line around a PIN with a NUL byte, reporting it by its line number', async () => {
      const file = [
        '40000001\t2026-04-06 08:00:00\t1\t0\t1\t0',
        '4000\u00000001\t2026-04-06 09:00:00\t1\t0\t1\t0',
        '40000002\t2026-04-06 10:00:00\t1\t0\t1\t0',
        '\u0000'.repeat(16),
        '40000001\t2026-04-06 17:00:00\t1\t1\t1\t0',
      ].join('\r\n');
      const res = await upload('reloj', 'zkteco-attlog', file, 'nul.dat').expect(200);
      expect(res.body).toMatchObject({
        read: 5,
        punches: 3,
        inserted: 3,
        badLineCount: 2,
        badLines: [
          { line: 2, reason: NUL_PIN },
          { line: 4, reason: `${NUL_PIN}; no datetime (column 2)` },
        ],
      });
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        "SELECT id_usuario, hora::text FROM asistencia_detalle WHERE origen = 'nul.dat' ORDER BY hora",
      );
      expect(rows).toEqual([
        { id_usuario: 1, hora: '08:00:00' },
        { id_usuario: 2, hora: '10:00:00' },
        { id_usuario: 1, hora: '17:00:00' },
      ]);
    });

    it('refuses a file larger than UPLOAD_MAX_BYTES with 413, and an unknown tenant with 404', async () => {
      const big = Buffer.alloc(UPLOAD_MAX_BYTES + 1, 'x');
      const res = await upload('reloj', 'zkteco-attlog', big, 'big.dat').expect(413);
      expect(res.body.code).toBeDefined();
      const ghost = await upload('fantasma', 'zkteco-attlog', ATTLOG, 'attlog.dat').expect(404);
      expect(ghost.body.code).toBe('TENANT_NOT_FOUND');
    });

    it('leaves no uploaded file behind, whatever the outcome', async () => {
      const uploads = join(tmpdir(), 'comandas-uploads');
      let left = await readdir(uploads);
      for (let i = 0; i < 20 && left.length > 0; i += 1) {
        await sleep(100); // removal runs as the response ends
        left = await readdir(uploads);
      }
      expect(left).toEqual([]);
    });

    it('npm run asistencia:import streams a file into the tenant and prints the summary', async () => {
      const file = join(work, 'export.csv');
      await writeFile(file, CSV);
      const env = t.dbs.env();
      const first = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'otro', '--driver', 'generic-csv', '--file', file, '--json'],
        env,
      );
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      // tenant 'otro' has no users: both punches are reported, nothing is lost silently
      expect(JSON.parse(first.stdout)).toEqual({
        driver: 'generic-csv',
        origen: 'export.csv',
        read: 3,
        punches: 2,
        inserted: 0,
        duplicates: 0,
        unknownDocuments: ['40000001'],
        unknownDocumentPunches: 2,
        badLineCount: 1,
        badLines: [{ line: 4, reason: 'date 2026-02-30 does not exist' }],
        daysRecalculated: 0,
      });
      const human = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/inserted\s+2\n/);
      expect(human.stdout).toContain('line 4: date 2026-02-30 does not exist');
      expect(human.stdout).toContain('unknown documents   0, 0 punches not stored\n');
      expect(await count('reloj', "origen = 'export.csv'")).toBe(2);
      const again = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(again.stdout).toMatch(/inserted\s+0\n/);
      expect(again.stdout).toMatch(/duplicates\s+2\n/);
      expect(await count('reloj', "origen = 'export.csv'")).toBe(2);
    });

    it('npm run asistencia:import reports a NUL-byte PIN as a bad line and writes 1 punch, 2 punches', async () => {
      const env = t.dbs.env();
      const one = join(work, 'uno.dat');
      await writeFile(
        one,
        [
          '99999999\t2026-04-07 08:00:00\t1\t0\t1\t0',
          '4000\u00000001\t2026-04-07 09:00:00\t1\t0\t1\t0',
          '40000001\t2026-04-07 10:00:00\t1\t0\t1\t0',
        ].join('\n'),
      );
      const first = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'zkteco-attlog', '--file', one],
        env,
      );
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('unknown documents   1 (99999999), 1 punch not stored\n');
      expect(first.stdout).toContain(`line 2: ${NUL_PIN}\n`);
      expect(await count('reloj', "origen = 'uno.dat'")).toBe(1);
      const two = join(work, 'dos.dat');
      await writeFile(
        two,
        '99999999\t2026-04-08 08:00:00\t1\t0\t1\t0\n99999999\t2026-04-08 17:00:00\t1\t1\t1\t0\n',
      );
      const second = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'zkteco-attlog', '--file', two],
        env,
      );
      expect(second.stdout).toContain('unknown documents   1 (99999999), 2 punches not stored\n');
    });

    it('npm run asistencia:import refuses wrong usage, an unknown tenant or driver with exit code 2', async () => {
      const env = t.dbs.env();
      const file = join(work, 'export.csv');
      const usage = await runNode(CLI('attendance-import'), ['--tenant', 'reloj'], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--tenant, --driver and --file are required');
      const noFile = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', join(work, 'none.csv')],
        env,
      );
      expect(noFile.code).toBe(2);
      const ghost = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'fantasma', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(ghost.code).toBe(2);
      expect(ghost.stderr).toContain('fantasma');
      const driver = await runNode(
        CLI('attendance-import'),
        ['--tenant', 'reloj', '--driver', 'zkteco-push', '--file', file],
        env,
      );
      expect(driver.code).toBe(2);
      expect(driver.stderr).toContain('only file drivers import files');
    });

    it('a pull driver’s records take the same path (importRecords)', async () => {
      const clock: PullDriver = {
        connect: async () => ({
          async *records(): AsyncGenerator<ParsedLine> {
            yield {
              kind: 'record',
              line: 1,
              record: { doc: '40000001', fecha: '2026-03-20', hora: '08:00:00', modo: 'entrada' },
            };
            yield { kind: 'bad', line: 2, reason: 'checksum mismatch' };
          },
          close: async () => undefined,
        }),
      };
      const session = await clock.connect({ host: '127.0.0.1', port: 4370, timeoutMs: 1000 });
      const summary = await t.app
        .get(TenantContext)
        .run('reloj', () =>
          t.app.get(AttendanceImporter).importRecords(session.records(), 'test-pull', 'tcp:test'),
        );
      await session.close();
      expect(summary).toMatchObject({
        read: 2,
        inserted: 1,
        badLines: [{ line: 2, reason: 'checksum mismatch' }],
      });
      expect(await count('reloj', "origen = 'tcp:test'")).toBe(1);
    });
  });

  describe('iClock push (ADMS)', () => {
    const SN = 'CQZ7232260011';

    beforeAll(async () => {
      const registered = await runNode(
        CLI('devices'),
        ['register', SN, '--tenant', 'reloj', '--driver', 'zkteco-push'],
        t.dbs.env(),
      );
      expect(registered.stderr).toBe('');
      expect(registered.code).toBe(0);
    });

    it('answers the handshake of a registered device with its options', async () => {
      const res = await request(t.http)
        .get(`/iclock/cdata?SN=${SN}&options=all&pushver=2.4.1`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text.split('\n')).toEqual(
        expect.arrayContaining([
          `GET OPTION FROM: ${SN}`,
          'ATTLOGStamp=None',
          'TimeZone=-5',
          'TransFlag=TransData AttLog',
          'Realtime=1',
        ]),
      );
    });

    it('imports pushed ATTLOG lines into the device’s tenant only, answers OK and resumes from the stamp', async () => {
      const body =
        '40000001\t2026-03-09 08:02:00\t0\t1\t0\t0\t0\n40000001\t2026-03-09 17:05:00\t1\t1\t0\t0\t0\n';
      const res = await request(t.http)
        .post(`/iclock/cdata?SN=${SN}&table=ATTLOG&Stamp=9999`)
        .set('Content-Type', 'text/plain')
        .send(body)
        .expect(200);
      expect(res.text).toBe('OK: 2');
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        "SELECT modo, origen, datos FROM asistencia_detalle WHERE fecha = '2026-03-09' ORDER BY hora",
      );
      expect(rows).toEqual([
        {
          modo: 'entrada',
          origen: `iclock:${SN}`,
          datos: { status: '0', verify: '1', workcode: '0' },
        },
        {
          modo: 'salida',
          origen: `iclock:${SN}`,
          datos: { status: '1', verify: '1', workcode: '0' },
        },
      ]);
      expect(await count('otro', "fecha = '2026-03-09'")).toBe(0);
      const [device] = await t.dbs.query(
        t.dbs.controlUrl,
        `SELECT last_seen_at IS NOT NULL AS seen, attlog_stamp FROM devices WHERE serial = '${SN}'`,
      );
      expect(device).toEqual({ seen: true, attlog_stamp: '9999' });
      const handshake = await request(t.http).get(`/iclock/cdata?SN=${SN}&options=all`).expect(200);
      expect(handshake.text).toContain('ATTLOGStamp=9999');

      // the same lines again (a clock that did not get the answer): nothing doubles
      await request(t.http)
        .post(`/iclock/cdata?SN=${SN}&table=ATTLOG&Stamp=9999`)
        .set('Content-Type', 'text/plain')
        .send(body)
        .expect(200, 'OK: 2');
      expect(await count('reloj', "fecha = '2026-03-09'")).toBe(2);

      await request(t.http).get(`/iclock/getrequest?SN=${SN}`).expect(200, 'OK');
      await request(t.http)
        .post(`/iclock/cdata?SN=${SN}&table=OPERLOG`)
        .set('Content-Type', 'text/plain')
        .send('OPLOG 4\t0\t2026-03-09 08:00:00')
        .expect(200, 'OK');
    });

    it('refuses an unregistered serial, importing nothing', async () => {
      const before = await count('reloj');
      const res = await request(t.http)
        .post('/iclock/cdata?SN=UNKNOWN123&table=ATTLOG')
        .set('Content-Type', 'text/plain')
        .send('40000001\t2026-03-10 08:00:00\t0\t1\t0\t0\t0\n')
        .expect(403);
      expect(res.body.code).toBe('DEVICE_NOT_REGISTERED');
      await request(t.http).get('/iclock/cdata?SN=UNKNOWN123&options=all').expect(403);
      await request(t.http).get('/iclock/getrequest?SN=UNKNOWN123').expect(403);
      await request(t.http).get('/iclock/cdata').expect(400);
      await request(t.http).get("/iclock/cdata?SN=' OR 1=1 --").expect(403);
      expect(await count('reloj')).toBe(before);
      const [known] = await t.dbs.query(
        t.dbs.controlUrl,
        `SELECT count(*)::int AS n FROM devices WHERE serial = 'UNKNOWN123'`,
      );
      expect(known).toEqual({ n: 0 });
    });

    it('tells a half-hour zone its offset in minutes: TimeZone=330 for Kolkata', async () => {
      await registerDirectly('KOLKATA1', 'kolkata', 'zkteco-push');
      const res = await request(t.http).get('/iclock/cdata?SN=KOLKATA1&options=all').expect(200);
      expect(res.text.split('\n')).toContain('TimeZone=330');
      const lima = await request(t.http).get(`/iclock/cdata?SN=${SN}&options=all`).expect(200);
      expect(lima.text.split('\n')).toContain('TimeZone=-5');
    });

    it('answers cdata?type=time with the tenant’s local time and offset, not the handshake', async () => {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const lima = await request(t.http).get(`/iclock/cdata?SN=${SN}&type=time`).expect(200);
      const kolkata = await request(t.http).get('/iclock/cdata?SN=KOLKATA1&type=time').expect(200);
      const after = Date.now();
      expect(lima.headers['content-type']).toMatch(/^text\/plain/);
      expect(lima.text).toMatch(/^Time=\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
      expect(kolkata.text).toMatch(/^Time=\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
      for (const res of [lima, kolkata]) {
        const instant = Date.parse(res.text.slice('Time='.length));
        expect(instant).toBeGreaterThanOrEqual(before);
        expect(instant).toBeLessThanOrEqual(after);
      }
    });

    it('answers ping and devicecmd of a registered clock with OK; every route updates its last-seen time', async () => {
      const calls = [
        () => request(t.http).get(`/iclock/ping?SN=${SN}`),
        () =>
          request(t.http)
            .post(`/iclock/devicecmd?SN=${SN}`)
            .set('Content-Type', 'text/plain')
            .send('ID=1&Return=0&CMD=DATA\nID=2&Return=-1002&CMD=DATA\n'),
        () => request(t.http).get(`/iclock/cdata?SN=${SN}&type=time`),
      ];
      for (const call of calls) {
        await t.dbs.query(
          t.dbs.controlUrl,
          `UPDATE devices SET last_seen_at = NULL WHERE serial = '${SN}'`,
        );
        const res = await call().expect(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        if (!res.text.startsWith('Time=')) expect(res.text).toBe('OK');
        const [device] = await t.dbs.query(
          t.dbs.controlUrl,
          `SELECT last_seen_at IS NOT NULL AS seen FROM devices WHERE serial = '${SN}'`,
        );
        expect(device).toEqual({ seen: true });
      }
    });

    it('refuses the new routes to an unregistered serial (403), and any route without a serial (400)', async () => {
      for (const res of [
        await request(t.http).get('/iclock/ping?SN=UNKNOWN123'),
        await request(t.http)
          .post('/iclock/devicecmd?SN=UNKNOWN123')
          .set('Content-Type', 'text/plain')
          .send('ID=1&Return=0&CMD=DATA'),
        await request(t.http).get('/iclock/cdata?SN=UNKNOWN123&type=time'),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('DEVICE_NOT_REGISTERED');
      }
      for (const res of [
        await request(t.http).get('/iclock/cdata?options=all'),
        await request(t.http).get('/iclock/cdata?SN=&options=all'),
        await request(t.http).get('/iclock/cdata?type=time'),
        await request(t.http)
          .post('/iclock/cdata?table=ATTLOG')
          .set('Content-Type', 'text/plain')
          .send('40000001\t2026-03-10 08:00:00\t0\t1\t0\t0\t0\n'),
        await request(t.http).get('/iclock/getrequest'),
        await request(t.http).get('/iclock/ping?SN='),
        await request(t.http).post('/iclock/devicecmd').set('Content-Type', 'text/plain').send(''),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'DEVICE_SERIAL_MISSING',
          error: 'The device serial (SN query parameter) is missing',
        });
      }
      expect(await count('reloj', "fecha = '2026-03-10'")).toBe(0);
    });

    it('stores every good pushed line around a PIN with a NUL byte, answering OK', async () => {
      const body = [
        '40000001\t2026-03-11 08:00:00\t0\t1\t0\t0\t0',
        '4000\u00000002\t2026-03-11 08:30:00\t0\t1\t0\t0\t0',
        '40000002\t2026-03-11 09:00:00\t0\t1\t0\t0\t0',
        '',
      ].join('\n');
      const res = await request(t.http)
        .post(`/iclock/cdata?SN=${SN}&table=ATTLOG&Stamp=10000`)
        .set('Content-Type', 'text/plain')
        .send(body)
        .expect(200);
      expect(res.text).toBe('OK: 3');
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('reloj'),
        "SELECT id_usuario, hora::text, origen FROM asistencia_detalle WHERE fecha = '2026-03-11' ORDER BY hora",
      );
      expect(rows).toEqual([
        { id_usuario: 1, hora: '08:00:00', origen: `iclock:${SN}` },
        { id_usuario: 2, hora: '09:00:00', origen: `iclock:${SN}` },
      ]);
    });

    it('answers 503 with Retry-After to a registered clock whose driver cannot import, storing nothing', async () => {
      await registerDirectly('PUSHBAD1', 'reloj', 'push-bad');
      const before = await count('reloj');
      const res = await request(t.http)
        .post('/iclock/cdata?SN=PUSHBAD1&table=ATTLOG&Stamp=1')
        .set('Content-Type', 'text/plain')
        .send('40000001\t2026-03-12 08:00:00\t0\t1\t0\t0\t0\n')
        .expect(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body).toMatchObject({
        code: 'DRIVER_NOT_IMPORTABLE',
        detail: {
          driver: 'push-bad',
          problems: [{ path: '/columns/doc', message: 'must be integer' }],
        },
      });
      expect(await count('reloj')).toBe(before);
      const [device] = await t.dbs.query(
        t.dbs.controlUrl,
        "SELECT attlog_stamp FROM devices WHERE serial = 'PUSHBAD1'",
      );
      expect(device).toEqual({ attlog_stamp: null }); // the clock resends from where it was
    });

    it('npm run devices refuses a file driver, an unknown tenant and a bad serial; lists and unregisters', async () => {
      const env = t.dbs.env();
      const fileDriver = await runNode(
        CLI('devices'),
        ['register', 'SN2', '--tenant', 'reloj', '--driver', 'zkteco-attlog'],
        env,
      );
      expect(fileDriver.code).toBe(2);
      expect(fileDriver.stderr).toContain('not http');
      const cannotImport = await runNode(
        CLI('devices'),
        ['register', 'SN3', '--tenant', 'reloj', '--driver', 'push-bad'],
        { ...env, DEVICE_DRIVERS_PATH: join(work, 'drivers') },
      );
      expect(cannotImport.code).toBe(2);
      expect(cannotImport.stderr).toContain(
        'Driver "push-bad" cannot import records: /columns/doc must be integer',
      );
      const noTenant = await runNode(
        CLI('devices'),
        ['register', 'SN2', '--tenant', 'ghost', '--driver', 'zkteco-push'],
        env,
      );
      expect(noTenant.code).toBe(2);
      const badSerial = await runNode(
        CLI('devices'),
        ['register', 'S N', '--tenant', 'reloj', '--driver', 'zkteco-push'],
        env,
      );
      expect(badSerial.code).toBe(2);
      const again = await runNode(
        CLI('devices'),
        ['register', SN, '--tenant', 'reloj', '--driver', 'zkteco-push'],
        env,
      );
      expect(again.code).toBe(0);
      const list = await runNode(CLI('devices'), ['list'], env);
      expect(list.stdout).toMatch(new RegExp(`${SN}\\s+reloj\\s+zkteco-push`));
      await runNode(
        CLI('devices'),
        ['register', 'TEMP1', '--tenant', 'otro', '--driver', 'zkteco-push'],
        env,
      );
      const gone = await runNode(CLI('devices'), ['unregister', 'TEMP1'], env);
      expect(gone.code).toBe(0);
      await request(t.http).get('/iclock/getrequest?SN=TEMP1').expect(403);
    });
  });

  describe('the service started as a process, with DEVICE_DRIVERS_PATH', () => {
    let service: RunningProcess;
    let base: string;
    /** The JSON log lines of the service with this message. */
    const logged = async (msg: string) => {
      await service.waitForOutput(msg);
      return service.stdout
        .split('\n')
        .filter((line) => line.includes(msg))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };

    beforeAll(async () => {
      await registerDirectly('K40PUSH', 'k40', 'zkteco-push');
      await registerDirectly('K40BAD', 'k40', 'push-bad');
      const port = await freePort();
      service = new RunningProcess(
        MAIN_JS,
        t.dbs.env({
          LOG_LEVEL: 'info',
          PORT: String(port),
          HOST: '127.0.0.1',
          DEVICE_DRIVERS_PATH: join(work, 'drivers'),
        }),
      );
      await service.waitForOutput('is listening on');
      base = `http://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    });

    it('loads the manifest naming no format, lists it importable, and imports an attlog.dat with it', async () => {
      const list = await request(base).get('/api/v1/device-drivers').expect(200);
      expect(list.body).toContainEqual({
        name: 'zk-k40',
        source: 'external',
        manifest: K40,
        importable: true,
        warnings: [ATTLOG_ASSUMED],
      });
      const res = await request(base)
        .post('/api/v1/asistencia/import')
        .set('X-Tenant-ID', 'k40')
        .field('driver', 'zk-k40')
        .attach('file', Buffer.from(ATTLOG), 'k40.dat')
        .expect(200);
      expect(res.body).toMatchObject({
        driver: 'zk-k40',
        read: 6,
        punches: 5,
        inserted: 4,
        unknownDocuments: ['99999999'],
        badLines: [{ line: 7, reason: 'no datetime (column 2)' }],
      });
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('k40'),
        "SELECT id_usuario, fecha::text, hora::text, modo, datos FROM asistencia_detalle WHERE origen = 'k40.dat' ORDER BY id_raw",
      );
      expect(rows).toHaveLength(4);
      expect(rows[0]).toEqual({
        id_usuario: 1,
        fecha: '2026-03-02',
        hora: '08:00:12',
        modo: 'entrada',
        datos: { device: '1', status: '0', verify: '1', workcode: '0' },
      });
    });

    it('logs a pushed NUL-byte PIN as a bad line with its number, storing the lines around it', async () => {
      const body =
        '40000001\t2026-03-13 08:00:00\t0\t1\t0\t0\t0\n' +
        '\u00004000001\t2026-03-13 08:30:00\t0\t1\t0\t0\t0\n' +
        '40000002\t2026-03-13 09:00:00\t0\t1\t0\t0\t0\n';
      await request(base)
        .post('/iclock/cdata?SN=K40PUSH&table=ATTLOG&Stamp=5')
        .set('Content-Type', 'text/plain')
        .send(body)
        .expect(200, 'OK: 3');
      const [log] = await logged('pushed attendance lines were not all stored');
      expect(log).toMatchObject({
        serial: 'K40PUSH',
        tenant: 'k40',
        inserted: 2,
        badLineCount: 1,
        badLines: [{ line: 2, reason: NUL_PIN }],
      });
      expect(
        await t.dbs.query(
          t.dbs.tenantUrl('k40'),
          "SELECT id_usuario FROM asistencia_detalle WHERE origen = 'iclock:K40PUSH' ORDER BY hora",
        ),
      ).toEqual([{ id_usuario: 1 }, { id_usuario: 2 }]);
    });

    it('answers 503 to a push whose driver cannot import, and logs an error', async () => {
      const res = await request(base)
        .post('/iclock/cdata?SN=K40BAD&table=ATTLOG')
        .set('Content-Type', 'text/plain')
        .send('40000001\t2026-03-14 08:00:00\t0\t1\t0\t0\t0\n')
        .expect(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      const [log] = await logged('cannot import: its pushes are answered 503');
      expect(log).toMatchObject({
        level: 50,
        serial: 'K40BAD',
        driver: 'push-bad',
        problems: [{ path: '/columns/doc', message: 'must be integer' }],
      });
    });

    it('logs the command results a clock reports, with its serial', async () => {
      await request(base)
        .post('/iclock/devicecmd?SN=K40PUSH')
        .set('Content-Type', 'text/plain')
        .send('ID=1&Return=0&CMD=DATA\nID=2&Return=-1002&CMD=DATA\n')
        .expect(200, 'OK');
      const [log] = await logged('device command results');
      expect(log).toMatchObject({
        level: 30,
        serial: 'K40PUSH',
        count: 2,
        results: [
          { ID: '1', Return: '0', CMD: 'DATA' },
          { ID: '2', Return: '-1002', CMD: 'DATA' },
        ],
      });
    });
  });
});
