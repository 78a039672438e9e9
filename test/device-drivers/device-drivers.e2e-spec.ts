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

const CSV = [
  'doc,fecha,hora,modo',
  '40000001,2026-03-05,08:00:00,entrada',
  '40000001,2026-03-05,17:00:00,salida',
  '40000001,2026-02-30,09:00:00,entrada',
].join('\n');

describe('device drivers (DESIGN §8)', () => {
  let t: TestApp;
  let work: string;
  const count = (slug: string, where = 'true') =>
    t.dbs
      .query<{ n: number }>(
        t.dbs.tenantUrl(slug),
        `SELECT count(*)::int AS n FROM asistencia_detalle WHERE ${where}`,
      )
      .then((r) => r[0].n);
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
    t = await startTestApp({
      DEVICE_DRIVERS_PATH: join(work, 'drivers'),
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
    });
    await t.dbs.createTenant('reloj', { timeZone: 'America/Lima' });
    await t.dbs.createTenant('otro');
    await seedMenu(t.dbs, 'reloj'); // users 40000001 (id 1) and 40000002 (id 2)
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
        'generic-csv',
        'zkteco-attlog',
        'zkteco-push',
      ]);
      expect(res.body[0]).toEqual({
        name: 'acme-csv',
        source: 'external',
        manifest: expect.objectContaining({ vendor: 'Acme', transport: 'file', delimiter: ';' }),
      });
      expect(res.body[3]).toMatchObject({
        name: 'zkteco-push',
        source: 'builtin',
        manifest: { transport: 'http' },
      });
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
      expect(good.body).toEqual({ valid: true, errors: [] });
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
      expect(settings.body).toEqual({
        valid: false,
        errors: [{ path: '/columns/doc', message: 'is required' }],
      });
      const array = await request(t.http)
        .post('/api/v1/device-drivers/validate')
        .send([])
        .expect(200);
      expect(array.body).toEqual({
        valid: false,
        errors: [{ path: '', message: 'must be object' }],
      });
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
        expect(service.stdout).toContain(
          'device driver broken skipped: /capabilities/0 must be string; /model is required; /transport must be one of file, tcp, http; /vendor must not be empty; /version is required',
        );
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
      const usage = await runNode(CLI('drivers'), ['frobnicate'], {});
      expect(usage.code).toBe(2);
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
        CLI('asistencia-import'),
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
        CLI('asistencia-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/inserted\s+2\n/);
      expect(human.stdout).toContain('line 4: date 2026-02-30 does not exist');
      expect(await count('reloj', "origen = 'export.csv'")).toBe(2);
      const again = await runNode(
        CLI('asistencia-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(again.stdout).toMatch(/inserted\s+0\n/);
      expect(again.stdout).toMatch(/duplicates\s+2\n/);
      expect(await count('reloj', "origen = 'export.csv'")).toBe(2);
    });

    it('npm run asistencia:import refuses wrong usage, an unknown tenant or driver with exit code 2', async () => {
      const env = t.dbs.env();
      const file = join(work, 'export.csv');
      const usage = await runNode(CLI('asistencia-import'), ['--tenant', 'reloj'], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--tenant, --driver and --file are required');
      const noFile = await runNode(
        CLI('asistencia-import'),
        ['--tenant', 'reloj', '--driver', 'generic-csv', '--file', join(work, 'none.csv')],
        env,
      );
      expect(noFile.code).toBe(2);
      const ghost = await runNode(
        CLI('asistencia-import'),
        ['--tenant', 'fantasma', '--driver', 'generic-csv', '--file', file],
        env,
      );
      expect(ghost.code).toBe(2);
      expect(ghost.stderr).toContain('fantasma');
      const driver = await runNode(
        CLI('asistencia-import'),
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
      await request(t.http).get('/iclock/cdata').expect(403);
      await request(t.http).get("/iclock/cdata?SN=' OR 1=1 --").expect(403);
      expect(await count('reloj')).toBe(before);
      const [known] = await t.dbs.query(
        t.dbs.controlUrl,
        `SELECT count(*)::int AS n FROM devices WHERE serial = 'UNKNOWN123'`,
      );
      expect(known).toEqual({ n: 0 });
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
});
