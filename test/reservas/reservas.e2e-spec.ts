import request from 'supertest';
import { addDays, todayIn } from '../../src/common/time';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';

/** A reservation as the API answers it. */
interface Reserva {
  id_reserva: number;
  nombre: string;
  personas: number;
  fecha: string;
  hora: string;
  id_mesa: number | null;
  mesa: number | null;
  telefono: string | null;
  observacion: string | null;
  id_cliente: number | null;
  cliente: string | null;
  estado: string;
  id_comanda: number | null;
  motivo: string | null;
  id_usuario_registro: number | null;
  fec_registro: string;
  id_usuario_estado: number | null;
  fec_estado: string | null;
  version: number;
}

/** A reservation row as the database holds it. */
interface Row {
  estado: string;
  id_mesa: number | null;
  id_comanda: string | null;
  motivo: string | null;
  version: number;
  personas: number;
  fecha: string;
  hora: string;
  id_usuario_registro: number | null;
  id_usuario_estado: number | null;
  fec_estado: Date | null;
}

const ZONE = 'America/Lima';
/** A business day `n` days from today in the tenants' zone. */
const day = (n: number) => addDays(todayIn(ZONE), n);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/;

const ROUTES = (id: number) => [
  { method: 'get', path: `/reservas/${id}` },
  { method: 'patch', path: `/reservas/${id}`, body: { personas: 3 } },
  { method: 'post', path: `/reservas/${id}/sentar`, body: { id_mesa: 1 } },
  { method: 'post', path: `/reservas/${id}/cancelar`, body: { motivo: 'x' } },
  { method: 'post', path: `/reservas/${id}/no-show` },
];

function call(
  api: TenantApi,
  route: { method: string; path: string; body?: object },
): request.Test {
  if (route.method === 'get') return api.get(route.path);
  if (route.method === 'patch') return api.patch(route.path, route.body ?? {});
  return api.post(route.path, route.body);
}

async function row(t: TestApp, slug: string, id: number): Promise<Row | undefined> {
  const rows = await t.dbs.query<Row>(
    t.dbs.tenantUrl(slug),
    `SELECT estado, id_mesa, id_comanda, motivo, version, personas,
            to_char(fecha, 'YYYY-MM-DD') AS fecha, to_char(hora, 'HH24:MI') AS hora,
            id_usuario_registro, id_usuario_estado, fec_estado
       FROM reservas WHERE id_reserva = $1`,
    [id],
  );
  return rows[0];
}

async function count(t: TestApp, slug: string, table: 'reservas' | 'comandas' | 'comanda_eventos') {
  const [{ n }] = await t.dbs.query<{ n: number }>(
    t.dbs.tenantUrl(slug),
    `SELECT count(*)::int AS n FROM ${table}`,
  );
  return n;
}

describe('reservas', () => {
  let t: TestApp;
  let api: TenantApi;

  const book = async (body: object): Promise<Reserva> =>
    (await api.post('/reservas', { nombre: 'Familia Pérez', personas: 4, ...body }).expect(201))
      .body as Reserva;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('casa'); // America/Lima
    await t.dbs.createTenant('otra');
    await seedMenu(t.dbs, 'casa'); // products, tables 1-3, two waiters, a customer
    await seedMenu(t.dbs, 'otra');
    api = tenantApi(t.http, 'casa');
  });
  afterAll(() => t.close());

  describe('booking', () => {
    it('books a reservation and reads it back', async () => {
      const res = await api
        .post('/reservas', {
          nombre: 'Familia Pérez',
          personas: 4,
          fecha: day(1),
          hora: '20:30',
          id_mesa: 3,
          telefono: '987 654 321',
          observacion: 'cumpleaños',
          id_cliente: MENU.cliente,
        })
        .expect(201);
      const created = res.body as Reserva;
      expect(res.headers.location).toBe(`/api/v1/reservas/${created.id_reserva}`);
      expect(res.headers.etag).toBe('"1"');
      expect(created).toEqual({
        id_reserva: expect.any(Number),
        nombre: 'Familia Pérez',
        personas: 4,
        fecha: day(1),
        hora: '20:30',
        id_mesa: 3,
        mesa: 3,
        telefono: '987 654 321',
        observacion: 'cumpleaños',
        id_cliente: MENU.cliente,
        cliente: 'Ana Torres',
        estado: 'pendiente',
        id_comanda: null,
        motivo: null,
        id_usuario_registro: null,
        fec_registro: expect.stringMatching(ISO_INSTANT),
        id_usuario_estado: null,
        fec_estado: null,
        version: 1,
        // AUTH_MODE=off: every action a pendiente reservation allows
        acciones: ['editar', 'sentar', 'cancelar', 'no_show'],
      });

      const read = await api.get(`/reservas/${created.id_reserva}`).expect(200);
      expect(read.body).toEqual(created);
      expect(read.headers.etag).toBe('"1"');
      expect(await row(t, 'casa', created.id_reserva)).toEqual({
        estado: 'pendiente',
        id_mesa: 3,
        id_comanda: null,
        motivo: null,
        version: 1,
        personas: 4,
        fecha: day(1),
        hora: '20:30',
        id_usuario_registro: null,
        id_usuario_estado: null,
        fec_estado: null,
      });
    });

    it('books without a table (given later or when seated) and without the optional fields', async () => {
      const created = await book({ fecha: day(1), hora: '13:00' });
      expect(created).toMatchObject({
        id_mesa: null,
        mesa: null,
        telefono: null,
        observacion: null,
        id_cliente: null,
        cliente: null,
      });
    });

    it('books for today (a later hour the same day is the floor’s call)', async () => {
      const created = await book({ fecha: day(0), hora: '00:00' });
      expect(created.fecha).toBe(day(0));
    });

    it('refuses bodies that break the rules with one 400 message per field, and writes nothing', async () => {
      const before = await count(t, 'casa', 'reservas');
      const cases: [object, string, unknown][] = [
        [
          {},
          'VALIDATION_FAILED',
          expect.arrayContaining([
            'nombre is required',
            'personas is required',
            'fecha is required',
            'hora is required',
          ]),
        ],
        [
          { nombre: ' ', personas: 2, fecha: day(1), hora: '20:00' },
          'VALIDATION_FAILED',
          ['nombre must not be blank'],
        ],
        [
          { nombre: 'x', personas: 0, fecha: day(1), hora: '20:00' },
          'VALIDATION_FAILED',
          ['personas must not be less than 1'],
        ],
        [
          { nombre: 'x', personas: 51, fecha: day(1), hora: '20:00' },
          'VALIDATION_FAILED',
          ['personas must not be greater than 50'],
        ],
        [
          { nombre: 'x', personas: 2.5, fecha: day(1), hora: '20:00' },
          'VALIDATION_FAILED',
          ['personas must be an integer number'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: '2026-02-30', hora: '20:00' },
          'VALIDATION_FAILED',
          ['fecha must be a date YYYY-MM-DD'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(1), hora: '24:00' },
          'VALIDATION_FAILED',
          ['hora must be a time HH:MM (00:00 to 23:59)'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(1), hora: '8:30' },
          'VALIDATION_FAILED',
          ['hora must be a time HH:MM (00:00 to 23:59)'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(1), hora: '20:00:00' },
          'VALIDATION_FAILED',
          ['hora must be a time HH:MM (00:00 to 23:59)'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(1), hora: '20:00', id_mesa: 'tres' },
          'VALIDATION_FAILED',
          ['id_mesa must be an integer number'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(1), hora: '20:00', estado: 'sentada' },
          'VALIDATION_FAILED',
          ['property estado should not exist'],
        ],
        [
          { nombre: 'x', personas: 2, fecha: day(-1), hora: '20:00' },
          'RESERVA_IN_THE_PAST',
          { fecha: day(-1), hoy: day(0) },
        ],
      ];
      for (const [body, code, detail] of cases) {
        const res = await api.post('/reservas', body);
        expect({ status: res.status, code: res.body.code, detail: res.body.detail }).toEqual({
          status: 400,
          code,
          detail,
        });
      }
      const unknownTable = await api
        .post('/reservas', { nombre: 'x', personas: 2, fecha: day(1), hora: '20:00', id_mesa: 99 })
        .expect(400);
      expect(unknownTable.body).toMatchObject({
        code: '23503',
        column: 'id_mesa',
        constraint: 'fk_reservas_id_mesa',
      });
      const unknownCustomer = await api
        .post('/reservas', {
          nombre: 'x',
          personas: 2,
          fecha: day(1),
          hora: '20:00',
          id_cliente: 99,
        })
        .expect(400);
      expect(unknownCustomer.body).toMatchObject({ code: '23503', column: 'id_cliente' });
      expect(await count(t, 'casa', 'reservas')).toBe(before);
    });
  });

  describe('GET /reservas', () => {
    const fecha = day(10);
    let ids: number[];

    beforeAll(async () => {
      // booked out of order: the list is in time order
      const late = await book({ fecha, hora: '21:00', id_mesa: 1, nombre: 'Tarde' });
      const early = await book({ fecha, hora: '12:30', id_mesa: 2, nombre: 'Temprano' });
      const noon = await book({ fecha, hora: '13:00', nombre: 'Sin mesa' });
      const cancelled = await book({ fecha, hora: '19:00', id_mesa: 2, nombre: 'Cancelada' });
      await api.post(`/reservas/${cancelled.id_reserva}/cancelar`, { motivo: 'x' }).expect(200);
      await book({ fecha: day(11), hora: '12:00', id_mesa: 1, nombre: 'Otro día' });
      ids = [early, noon, cancelled, late].map((r) => r.id_reserva);
    });

    it('lists one business day in time order, with X-Total-Count', async () => {
      const res = await api.get(`/reservas?fecha=${fecha}`).expect(200);
      expect((res.body as Reserva[]).map((r) => r.id_reserva)).toEqual(ids);
      expect((res.body as Reserva[]).map((r) => r.hora)).toEqual([
        '12:30',
        '13:00',
        '19:00',
        '21:00',
      ]);
      expect(res.headers['x-total-count']).toBe('4');
    });

    it('is today’s book in the tenant’s zone without fecha', async () => {
      const res = await api.get('/reservas').expect(200);
      expect((res.body as Reserva[]).length).toBeGreaterThan(0);
      expect((res.body as Reserva[]).every((r) => r.fecha === day(0))).toBe(true);
    });

    it('filters by estado and id_mesa, and pages with limit and offset', async () => {
      const pendientes = await api.get(`/reservas?fecha=${fecha}&estado=pendiente`).expect(200);
      expect((pendientes.body as Reserva[]).map((r) => r.id_reserva)).toEqual([
        ids[0],
        ids[1],
        ids[3],
      ]);
      expect(pendientes.headers['x-total-count']).toBe('3');
      const mesa2 = await api.get(`/reservas?fecha=${fecha}&id_mesa=2`).expect(200);
      expect((mesa2.body as Reserva[]).map((r) => r.id_reserva)).toEqual([ids[0], ids[2]]);
      const page = await api.get(`/reservas?fecha=${fecha}&limit=2&offset=1`).expect(200);
      expect((page.body as Reserva[]).map((r) => r.id_reserva)).toEqual([ids[1], ids[2]]);
      expect(page.headers['x-total-count']).toBe('4');
    });

    it('refuses bad filters and pages with 400 VALIDATION_FAILED', async () => {
      for (const query of [
        'estado=nope',
        'fecha=2026-13-01',
        'id_mesa=0',
        'limit=501',
        'limit=0',
        'offset=-1',
        'desde=2026-01-01',
      ]) {
        const res = await api.get(`/reservas?${query}`);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    });
  });

  describe('the table rule: two pendiente reservations of a table at least 120 minutes apart', () => {
    const fecha = day(20);

    it('refuses a booking of the table less than the window away, with 409', async () => {
      const first = await book({ fecha, hora: '20:00', id_mesa: 1 });
      const res = await api
        .post('/reservas', { nombre: 'Rojas', personas: 2, fecha, hora: '21:30', id_mesa: 1 })
        .expect(409);
      expect(res.body).toMatchObject({
        code: 'MESA_ALREADY_BOOKED',
        detail: { id_mesa: 1, id_reserva: first.id_reserva, fecha, hora: '20:00', minutos: 120 },
      });
      const before = await api.post('/reservas', {
        nombre: 'x',
        personas: 2,
        fecha,
        hora: '18:30',
        id_mesa: 1,
      });
      expect(before.status).toBe(409);
      // exactly the window apart, another table, or no table: booked
      await book({ fecha, hora: '22:00', id_mesa: 1 });
      await book({ fecha, hora: '18:00', id_mesa: 1 });
      await book({ fecha, hora: '21:00', id_mesa: 2 });
      await book({ fecha, hora: '21:00' });
      const onMesa1 = await t.dbs.query(
        t.dbs.tenantUrl('casa'),
        `SELECT to_char(hora, 'HH24:MI') AS hora FROM reservas
          WHERE fecha = $1 AND id_mesa = 1 ORDER BY hora`,
        [fecha],
      );
      expect(onMesa1).toEqual([{ hora: '18:00' }, { hora: '20:00' }, { hora: '22:00' }]);
    });

    it('checks a change of table, day or time too, and frees the slot of a reservation no longer pendiente', async () => {
      const other = day(21);
      const a = await book({ fecha: other, hora: '20:00', id_mesa: 2 });
      const b = await book({ fecha: other, hora: '20:30' });
      const moved = await api.patch(`/reservas/${b.id_reserva}`, { id_mesa: 2 }).expect(409);
      expect(moved.body.detail).toMatchObject({ id_reserva: a.id_reserva });
      await api.patch(`/reservas/${b.id_reserva}`, { id_mesa: 2, hora: '22:00' }).expect(200);
      await api.patch(`/reservas/${b.id_reserva}`, { hora: '21:00' }).expect(409);
      // its own time is no conflict with itself
      await api.patch(`/reservas/${b.id_reserva}`, { hora: '22:15' }).expect(200);
      await api.post(`/reservas/${a.id_reserva}/no-show`).expect(200);
      await api.patch(`/reservas/${b.id_reserva}`, { hora: '20:30' }).expect(200);
      expect(await row(t, 'casa', b.id_reserva)).toMatchObject({
        id_mesa: 2,
        hora: '20:30',
        version: 4,
      });
    });

    it('compares wall-clock times across midnight', async () => {
      await book({ fecha: day(22), hora: '23:30', id_mesa: 3 });
      const res = await api
        .post('/reservas', { nombre: 'x', personas: 2, fecha: day(23), hora: '00:30', id_mesa: 3 })
        .expect(409);
      expect(res.body.detail).toMatchObject({ fecha: day(22), hora: '23:30' });
    });

    it('lets one of many simultaneous bookings of a table through', async () => {
      const fecha24 = day(24);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          api.post('/reservas', {
            nombre: `Grupo ${i}`,
            personas: 2,
            fecha: fecha24,
            hora: '20:00',
            id_mesa: 1,
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const rows = await t.dbs.query(
        t.dbs.tenantUrl('casa'),
        'SELECT count(*)::int AS n FROM reservas WHERE fecha = $1 AND id_mesa = 1',
        [fecha24],
      );
      expect(rows).toEqual([{ n: 1 }]);
    });
  });

  describe('the lifecycle', () => {
    it('changes a pendiente reservation, then seats it: the comanda opens on its table, both in the database', async () => {
      const created = await book({ fecha: day(30), hora: '20:00', id_cliente: MENU.cliente });
      const changed = await api
        .patch(`/reservas/${created.id_reserva}`, {
          personas: 6,
          id_mesa: 2,
          telefono: '999 111 222',
        })
        .set('If-Match', '"1"')
        .expect(200);
      expect(changed.headers.etag).toBe('"2"');
      expect(changed.body).toMatchObject({
        personas: 6,
        id_mesa: 2,
        mesa: 2,
        telefono: '999 111 222',
        version: 2,
        estado: 'pendiente',
      });
      const cleared = await api
        .patch(`/reservas/${created.id_reserva}`, { telefono: null })
        .expect(200);
      expect(cleared.body).toMatchObject({ telefono: null, personas: 6, version: 3 });

      const stale = await api
        .post(`/reservas/${created.id_reserva}/sentar`, {})
        .set('If-Match', '"2"')
        .expect(412);
      expect(stale.body).toMatchObject({
        code: 'STALE_VERSION',
        detail: { currentVersion: 3, expectedVersion: 2 },
      });
      expect((await row(t, 'casa', created.id_reserva))?.estado).toBe('pendiente');

      const comandasBefore = await count(t, 'casa', 'comandas');
      const seated = await api
        .post(`/reservas/${created.id_reserva}/sentar`, { id_usuario: MENU.luis })
        .set('If-Match', '"3"')
        .expect(200);
      const body = seated.body as Reserva;
      expect(seated.headers.etag).toBe('"4"');
      expect(body).toMatchObject({
        estado: 'sentada',
        id_mesa: 2,
        id_comanda: expect.any(Number),
        id_usuario_estado: null,
        fec_estado: expect.stringMatching(ISO_INSTANT),
        version: 4,
        // final: nothing more can be done to it
        acciones: [],
      });
      expect(await count(t, 'casa', 'comandas')).toBe(comandasBefore + 1);
      const [comanda] = await t.dbs.query(
        t.dbs.tenantUrl('casa'),
        `SELECT estado, id_mesa, id_usuario, id_cliente, observacion, eliminada,
                (SELECT array_agg(accion) FROM comanda_eventos e WHERE e.id_comanda = c.id_comanda) AS eventos
           FROM comandas c WHERE id_comanda = $1`,
        [body.id_comanda],
      );
      expect(comanda).toEqual({
        estado: 'abierta',
        id_mesa: 2,
        id_usuario: MENU.luis,
        id_cliente: MENU.cliente,
        observacion: `Reserva ${created.id_reserva}: Familia Pérez, 6 personas`,
        eliminada: false,
        eventos: ['crear'],
      });
      expect(await row(t, 'casa', created.id_reserva)).toMatchObject({
        estado: 'sentada',
        id_comanda: String(body.id_comanda),
        fec_estado: expect.any(Date),
        version: 4,
      });
      const viaComandas = await api.get(`/comandas/${body.id_comanda}`).expect(200);
      expect(viaComandas.body).toMatchObject({ id_mesa: 2, estado: 'abierta' });
    });

    it('seats at the table given in the request, which replaces the booked one', async () => {
      const created = await book({ fecha: day(31), hora: '20:00', id_mesa: 1 });
      const seated = await api
        .post(`/reservas/${created.id_reserva}/sentar`, { id_mesa: 3 })
        .expect(200);
      expect(seated.body).toMatchObject({ estado: 'sentada', id_mesa: 3, mesa: 3 });
      const [comanda] = await t.dbs.query(
        t.dbs.tenantUrl('casa'),
        'SELECT id_mesa FROM comandas WHERE id_comanda = $1',
        [seated.body.id_comanda],
      );
      expect(comanda).toEqual({ id_mesa: 3 });
    });

    it('needs a table to seat a reservation booked without one: 400 MESA_REQUIRED, still pendiente', async () => {
      const created = await book({ fecha: day(31), hora: '21:00' });
      const comandasBefore = await count(t, 'casa', 'comandas');
      const res = await api.post(`/reservas/${created.id_reserva}/sentar`, {}).expect(400);
      expect(res.body).toMatchObject({
        code: 'MESA_REQUIRED',
        detail: { id_reserva: created.id_reserva },
      });
      expect(await row(t, 'casa', created.id_reserva)).toMatchObject({
        estado: 'pendiente',
        version: 1,
      });
      expect(await count(t, 'casa', 'comandas')).toBe(comandasBefore);
    });

    it('leaves the reservation pendiente when the comanda cannot be opened', async () => {
      const created = await book({ fecha: day(32), hora: '20:00', id_mesa: 1 });
      const comandasBefore = await count(t, 'casa', 'comandas');
      const noTable = await api
        .post(`/reservas/${created.id_reserva}/sentar`, { id_mesa: 99 })
        .expect(400);
      expect(noTable.body).toMatchObject({ code: '23503', constraint: 'fk_comandas_id_mesa' });
      const noWaiter = await api
        .post(`/reservas/${created.id_reserva}/sentar`, { id_usuario: 99 })
        .expect(400);
      expect(noWaiter.body).toMatchObject({ code: '23503', constraint: 'fk_comandas_id_usuario' });
      expect(await row(t, 'casa', created.id_reserva)).toMatchObject({
        estado: 'pendiente',
        id_mesa: 1,
        id_comanda: null,
        fec_estado: null,
        version: 1,
      });
      expect(await count(t, 'casa', 'comandas')).toBe(comandasBefore);
      // and it can still be seated afterwards
      await api.post(`/reservas/${created.id_reserva}/sentar`, {}).expect(200);
    });

    it('cancels with a reason, and marks no-shows', async () => {
      const a = await book({ fecha: day(33), hora: '20:00', id_mesa: 1 });
      const missing = await api.post(`/reservas/${a.id_reserva}/cancelar`, {}).expect(400);
      expect(missing.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ['motivo is required'],
      });
      const blank = await api
        .post(`/reservas/${a.id_reserva}/cancelar`, { motivo: '  ' })
        .expect(400);
      expect(blank.body.detail).toEqual(['motivo must not be blank']);
      const cancelled = await api
        .post(`/reservas/${a.id_reserva}/cancelar`, { motivo: 'el cliente llamó' })
        .expect(200);
      expect(cancelled.body).toMatchObject({
        estado: 'cancelada',
        motivo: 'el cliente llamó',
        id_comanda: null,
        fec_estado: expect.stringMatching(ISO_INSTANT),
        version: 2,
        acciones: [],
      });
      expect(await row(t, 'casa', a.id_reserva)).toMatchObject({
        estado: 'cancelada',
        motivo: 'el cliente llamó',
      });

      const b = await book({ fecha: day(33), hora: '21:00', id_mesa: 2 });
      const noShow = await api.post(`/reservas/${b.id_reserva}/no-show`).expect(200);
      expect(noShow.body).toMatchObject({
        estado: 'no_show',
        motivo: null,
        version: 2,
        acciones: [],
      });
      expect(await row(t, 'casa', b.id_reserva)).toMatchObject({
        estado: 'no_show',
        fec_estado: expect.any(Date),
      });
    });

    it('answers 409 INVALID_TRANSITION to every change of a sentada, cancelada or no_show reservation', async () => {
      const made = async (then: 'sentar' | 'cancelar' | 'no-show', hora: string) => {
        const r = await book({ fecha: day(34), hora, id_mesa: 1 });
        await api
          .post(`/reservas/${r.id_reserva}/${then}`, then === 'cancelar' ? { motivo: 'x' } : {})
          .expect(200);
        return r.id_reserva;
      };
      const finals: [string, number][] = [
        ['sentada', await made('sentar', '12:00')],
        ['cancelada', await made('cancelar', '15:00')],
        ['no_show', await made('no-show', '18:00')],
      ];
      const comandasBefore = await count(t, 'casa', 'comandas');
      for (const [estado, id] of finals) {
        const before = await row(t, 'casa', id);
        const attempts: [string, request.Test][] = [
          ['editar', api.patch(`/reservas/${id}`, { personas: 2 })],
          ['sentar', api.post(`/reservas/${id}/sentar`, { id_mesa: 2 })],
          ['cancelar', api.post(`/reservas/${id}/cancelar`, { motivo: 'x' })],
          ['no_show', api.post(`/reservas/${id}/no-show`)],
        ];
        for (const [action, attempt] of attempts) {
          const res = await attempt;
          expect({ status: res.status, body: res.body }).toMatchObject({
            status: 409,
            body: {
              code: 'INVALID_TRANSITION',
              error: `Cannot ${action} a reserva that is ${estado}`,
              detail: { estado, action },
            },
          });
        }
        expect(await row(t, 'casa', id)).toEqual(before);
      }
      expect(await count(t, 'casa', 'comandas')).toBe(comandasBefore);
    });

    it('refuses an empty or invalid change with 400', async () => {
      const r = await book({ fecha: day(35), hora: '20:00' });
      expect((await api.patch(`/reservas/${r.id_reserva}`, {}).expect(400)).body.code).toBe(
        'EMPTY_CHANGE',
      );
      const nulls = await api
        .patch(`/reservas/${r.id_reserva}`, { nombre: null, hora: null })
        .expect(400);
      expect(nulls.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ['nombre must be a string', 'hora must be a string'],
      });
      const past = await api.patch(`/reservas/${r.id_reserva}`, { fecha: day(-2) }).expect(400);
      expect(past.body.code).toBe('RESERVA_IN_THE_PAST');
      const unknown = await api
        .patch(`/reservas/${r.id_reserva}`, { estado: 'sentada' })
        .expect(400);
      expect(unknown.body.detail).toEqual(['property estado should not exist']);
      const badMatch = await api
        .patch(`/reservas/${r.id_reserva}`, { personas: 2 })
        .set('If-Match', 'tres')
        .expect(400);
      expect(badMatch.body.code).toBe('INVALID_IF_MATCH');
      expect(await row(t, 'casa', r.id_reserva)).toMatchObject({ version: 1, personas: 4 });
    });
  });

  describe('errors of the path', () => {
    it('answers 404 RESERVA_NOT_FOUND on every route for an unknown id', async () => {
      for (const route of ROUTES(999999)) {
        const res = await call(api, route);
        expect({ route: route.path, status: res.status, body: res.body }).toMatchObject({
          route: route.path,
          status: 404,
          body: { code: 'RESERVA_NOT_FOUND', detail: { id_reserva: 999999 } },
        });
      }
    });

    it('answers 400 INVALID_ID for an id that is not one', async () => {
      for (const route of ROUTES(1)) {
        const res = await call(api, { ...route, path: route.path.replace('/1', '/abc') });
        expect({ status: res.status, code: res.body.code }).toEqual({
          status: 400,
          code: 'INVALID_ID',
        });
      }
    });
  });

  it('a retried booking or seating with the same Idempotency-Key acts once', async () => {
    const post = (path: string, body: object, key: string) =>
      request(t.http)
        .post(`/api/v1${path}`)
        .set('X-Tenant-ID', 'casa')
        .set('Idempotency-Key', key)
        .send(body);
    const reservas = await count(t, 'casa', 'reservas');
    const booking = { nombre: 'Familia Retry', personas: 2, fecha: day(3), hora: '13:00' };
    const first = await post('/reservas', booking, 'reserva-retry');
    const again = await post('/reservas', booking, 'reserva-retry');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await count(t, 'casa', 'reservas')).toBe(reservas + 1);

    const comandas = await count(t, 'casa', 'comandas');
    const id = (first.body as Reserva).id_reserva;
    const seat = await post(`/reservas/${id}/sentar`, { id_mesa: 2 }, 'sentar-retry');
    const seatAgain = await post(`/reservas/${id}/sentar`, { id_mesa: 2 }, 'sentar-retry');
    expect([seat.status, seatAgain.status]).toEqual([200, 200]);
    expect(seatAgain.headers['idempotent-replayed']).toBe('true');
    expect(seatAgain.body.id_comanda).toBe(seat.body.id_comanda);
    expect(await count(t, 'casa', 'comandas')).toBe(comandas + 1);
  });

  it('tenant B cannot see or change tenant A’s reservation', async () => {
    const mine = await book({ fecha: day(40), hora: '20:00', id_mesa: 1 });
    const before = await row(t, 'casa', mine.id_reserva);
    const other = tenantApi(t.http, 'otra');
    for (const route of ROUTES(mine.id_reserva)) {
      const res = await call(other, route);
      expect({ route: route.path, status: res.status, code: res.body.code }).toEqual({
        route: route.path,
        status: 404,
        code: 'RESERVA_NOT_FOUND',
      });
    }
    const list = await other.get(`/reservas?fecha=${day(40)}`).expect(200);
    expect(list.body).toEqual([]);
    expect(list.headers['x-total-count']).toBe('0');
    // the other tenant's table 1 is free at that time: its own book
    await other
      .post('/reservas', { nombre: 'x', personas: 2, fecha: day(40), hora: '20:00', id_mesa: 1 })
      .expect(201);
    expect(await row(t, 'casa', mine.id_reserva)).toEqual(before);
    expect(await count(t, 'otra', 'reservas')).toBe(1);
    expect(await count(t, 'otra', 'comandas')).toBe(0);
  });

  it('opens no comanda when recording the seating fails afterwards: one transaction', async () => {
    await t.dbs.createTenant('rota');
    await seedMenu(t.dbs, 'rota');
    // a constraint of this test's own that refuses any seated reservation, so the UPDATE of the
    // reservation fails after its comanda was inserted
    await t.dbs.query(
      t.dbs.tenantUrl('rota'),
      "ALTER TABLE reservas ADD CONSTRAINT ck_reservas_prueba CHECK (estado <> 'sentada')",
    );
    const rota = tenantApi(t.http, 'rota');
    const created = (
      await rota
        .post('/reservas', { nombre: 'x', personas: 2, fecha: day(1), hora: '20:00', id_mesa: 1 })
        .expect(201)
    ).body as Reserva;
    const res = await rota.post(`/reservas/${created.id_reserva}/sentar`, {}).expect(400);
    expect(res.body).toMatchObject({ code: '23514', constraint: 'ck_reservas_prueba' });
    expect(await row(t, 'rota', created.id_reserva)).toMatchObject({
      estado: 'pendiente',
      version: 1,
    });
    expect(await count(t, 'rota', 'comandas')).toBe(0);
    expect(await count(t, 'rota', 'comanda_eventos')).toBe(0);
  });

  describe('the feature switch', () => {
    it('answers 404 like an unknown route on every route for a tenant that switched it off', async () => {
      await t.dbs.createTenant('sinreservas', { features: { reservas: false } });
      const off = tenantApi(t.http, 'sinreservas');
      const unknown = await off.get('/nada').expect(404);
      for (const route of [
        { method: 'get', path: '/reservas' },
        { method: 'post', path: '/reservas', body: { nombre: 'x' } },
        ...ROUTES(1),
      ]) {
        const res = await call(off, route);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 404,
          body: {
            ...unknown.body,
            error: `Cannot ${route.method.toUpperCase()} /api/v1${route.path}`,
            requestId: res.headers['x-request-id'],
          },
        });
      }
      const tenant = await off.get('/tenant').expect(200);
      expect(tenant.body.features).toMatchObject({ reservas: false });
      expect((await api.get('/tenant').expect(200)).body.features).toMatchObject({
        reservas: true,
      });
    });

    it('is off for every tenant with FEATURE_RESERVAS=false, and on again for one whose override says so', async () => {
      const dbs = await TestDatabases.create();
      try {
        await dbs.createTenant('casa');
        await dbs.createTenant('optada', { features: { reservas: true } });
        const off = await startTestApp({ FEATURE_RESERVAS: 'false' }, dbs);
        try {
          const res = await tenantApi(off.http, 'casa').get('/reservas').expect(404);
          expect(res.body.code).toBe('NOT_FOUND');
          await tenantApi(off.http, 'optada').get('/reservas').expect(200);
        } finally {
          await off.close();
        }
      } finally {
        await dbs.drop();
      }
    });
  });
});

describe('reservas without the table rule (RESERVAS_WINDOW_MINUTES=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RESERVAS_WINDOW_MINUTES: '0' });
    await t.dbs.createTenant('casa');
    await seedMenu(t.dbs, 'casa');
  });
  afterAll(() => t.close());

  it('books a table as often as asked', async () => {
    const api = tenantApi(t.http, 'casa');
    for (const hora of ['20:00', '20:00', '20:30'])
      await api
        .post('/reservas', { nombre: 'x', personas: 2, fecha: day(1), hora, id_mesa: 1 })
        .expect(201);
    expect(await count(t, 'casa', 'reservas')).toBe(3);
  });
});

type Role = 'admin' | 'cajero' | 'mozo' | 'cocina' | 'sinRol';
const ROLES: Role[] = ['admin', 'cajero', 'mozo', 'cocina', 'sinRol'];

describe('reservas: who may do what (AUTH_MODE=jwt)', () => {
  let t: TestApp;
  let days = 0;
  const as = (role: Role) => authedApi(t.http, 'alfa', tokenFor('alfa', STAFF[role].id));
  /** A fresh pendiente reservation of table 1, each on its own day, booked by the admin. */
  const fresh = async (): Promise<number> => {
    days += 1;
    const res = await as('admin')
      .post('/reservas', { nombre: 'x', personas: 2, fecha: day(days), hora: '20:00', id_mesa: 1 })
      .expect(201);
    return res.body.id_reserva as number;
  };

  const CASES: {
    route: string;
    permission: string;
    allowed: Role[];
    status: number;
    call: (api: ReturnType<typeof authedApi>, id: number) => request.Test;
  }[] = [
    {
      route: 'GET /reservas',
      permission: 'reservas:read',
      allowed: ['admin', 'cajero', 'mozo', 'cocina'],
      status: 200,
      call: (a) => a.get('/reservas'),
    },
    {
      route: 'GET /reservas/:id',
      permission: 'reservas:read',
      allowed: ['admin', 'cajero', 'mozo', 'cocina'],
      status: 200,
      call: (a, id) => a.get(`/reservas/${id}`),
    },
    {
      route: 'POST /reservas',
      permission: 'reservas:write',
      allowed: ['admin', 'cajero', 'mozo'],
      status: 201,
      call: (a) => a.post('/reservas', { nombre: 'x', personas: 2, fecha: day(60), hora: '20:00' }),
    },
    {
      route: 'PATCH /reservas/:id',
      permission: 'reservas:write',
      allowed: ['admin', 'cajero', 'mozo'],
      status: 200,
      call: (a, id) => a.patch(`/reservas/${id}`, { personas: 3 }),
    },
    {
      route: 'POST /reservas/:id/cancelar',
      permission: 'reservas:write',
      allowed: ['admin', 'cajero', 'mozo'],
      status: 200,
      call: (a, id) => a.post(`/reservas/${id}/cancelar`, { motivo: 'x' }),
    },
    {
      route: 'POST /reservas/:id/sentar',
      permission: 'reservas:seat',
      allowed: ['admin', 'mozo'],
      status: 200,
      call: (a, id) => a.post(`/reservas/${id}/sentar`, {}),
    },
    {
      route: 'POST /reservas/:id/no-show',
      permission: 'reservas:no-show',
      allowed: ['admin', 'cajero'],
      status: 200,
      call: (a, id) => a.post(`/reservas/${id}/no-show`),
    },
  ];

  async function footprint() {
    const [state] = await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      `SELECT (SELECT count(*) FROM reservas)::int AS reservas,
              (SELECT coalesce(sum(version), 0) FROM reservas)::int AS versions,
              (SELECT count(*) FROM comandas)::int AS comandas`,
    );
    return state;
  }

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    await t.dbs.createTenant('alfa');
    await seedMenu(t.dbs, 'alfa');
    await seedStaff(t.dbs, 'alfa');
  });
  afterAll(() => t.close());

  describe.each(CASES)('$route', (c) => {
    it.each(ROLES)('as %s', async (role) => {
      const id = await fresh();
      const before = await footprint();
      const res = await c.call(as(role), id);
      if (c.allowed.includes(role)) {
        expect({ status: res.status, body: res.body }).toMatchObject({ status: c.status });
        return;
      }
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 403,
        body: {
          code: 'FORBIDDEN',
          detail: { permission: c.permission, roles: role === 'sinRol' ? [] : [role] },
        },
      });
      expect(await footprint()).toEqual(before);
    });
  });

  it('records who booked and who seated, and the comanda’s waiter is who seated', async () => {
    const waiter = as('mozo');
    const booked = await waiter
      .post('/reservas', {
        nombre: 'Quispe',
        personas: 2,
        fecha: day(61),
        hora: '20:00',
        id_mesa: 2,
      })
      .expect(201);
    expect(booked.body.id_usuario_registro).toBe(STAFF.mozo.id);
    const seated = await waiter.post(`/reservas/${booked.body.id_reserva}/sentar`, {}).expect(200);
    expect(seated.body).toMatchObject({ estado: 'sentada', id_usuario_estado: STAFF.mozo.id });
    const [comanda] = await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      `SELECT c.id_usuario, e.id_usuario AS actor FROM comandas c
         JOIN comanda_eventos e ON e.id_comanda = c.id_comanda AND e.accion = 'crear'
        WHERE c.id_comanda = $1`,
      [seated.body.id_comanda],
    );
    expect(comanda).toEqual({ id_usuario: STAFF.mozo.id, actor: STAFF.mozo.id });

    const cancelled = await as('cajero')
      .post('/reservas', { nombre: 'Rojas', personas: 2, fecha: day(61), hora: '13:00' })
      .expect(201);
    await as('cajero')
      .post(`/reservas/${cancelled.body.id_reserva}/cancelar`, { motivo: 'llamó' })
      .expect(200);
    const [row] = await t.dbs.query(
      t.dbs.tenantUrl('alfa'),
      'SELECT id_usuario_registro, id_usuario_estado, motivo FROM reservas WHERE id_reserva = $1',
      [cancelled.body.id_reserva],
    );
    expect(row).toEqual({
      id_usuario_registro: STAFF.cajero.id,
      id_usuario_estado: STAFF.cajero.id,
      motivo: 'llamó',
    });
  });
});
