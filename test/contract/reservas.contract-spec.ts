import { expectError, expectStatus, type ContractClient } from './client';
import { discoverData, type ContractData } from './data';
import { openContract, type Contract } from './setup';

/**
 * The reservation contract (docs/reservas.md) as a client sees it, over plain HTTP, against any
 * instance (E2E_BASE_URL) or one started in process. The suite is never alone on the tenant: it
 * books without a table (so the table rule never meets another's booking), seats on the table
 * it found through the API, asserts only on its own reservations (by id), and at the end cancels
 * what is still pendiente and voids the comandas that seating opened.
 *
 * When `GET /tenant` says reservas is off for the tenant, every test checks instead that its
 * routes answer 404 like routes that do not exist.
 */

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
  estado: 'pendiente' | 'sentada' | 'cancelada' | 'no_show';
  id_comanda: number | null;
  motivo: string | null;
  id_usuario_registro: number | null;
  fec_registro: string;
  id_usuario_estado: number | null;
  fec_estado: string | null;
  version: number;
  acciones: string[];
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;
/** No reserva has this id. */
const UNKNOWN_ID = 999_999_999_999_999;

/** A day `days` after today in UTC: two days ahead is after today in every time zone. */
const dayAhead = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('reservas contract (docs/reservas.md), over HTTP', () => {
  let contract: Contract;
  let api: ContractClient;
  let data: ContractData;
  let on: boolean;
  const fecha = dayAhead(2);

  beforeAll(async () => {
    contract = await openContract();
    api = contract.api;
    const tenant = await api.get('/tenant');
    expectStatus(tenant, 200);
    on = (tenant.body as { features: { reservas: boolean } }).features.reservas;
    if (on) data = await discoverData(api, contract.tag);
  });

  afterAll(async () => {
    if (!contract) return;
    try {
      await api.cleanup();
    } finally {
      await contract.target.close();
    }
  });

  /** Switched off: the routes answer exactly like routes that do not exist. */
  async function expectOff(): Promise<void> {
    const list = await api.get(`/reservas?fecha=${fecha}`);
    expectError(list, 404, 'NOT_FOUND');
    expect(list.body.error).toBe('Cannot GET /api/v1/reservas');
    const book = await api.post('/reservas', { nombre: 'x', personas: 1, fecha, hora: '20:00' });
    expectError(book, 404, 'NOT_FOUND');
    expect(book.body.error).toBe('Cannot POST /api/v1/reservas');
  }

  /** A test of the routes when reservas is on for the tenant; the off answer otherwise. */
  function whenOn(name: string, test: () => Promise<void>): void {
    it(name, async () => {
      if (!on) return expectOff();
      await test();
    });
  }

  /** Books a tagged reservation without a table for the suite's day (201). */
  async function book(extra: Record<string, unknown> = {}): Promise<Reserva> {
    const res = await api.post('/reservas', {
      nombre: 'Contract suite',
      personas: 2,
      fecha,
      hora: '21:15',
      observacion: contract.tag,
      ...extra,
    });
    expectStatus(res, 201);
    return res.body as Reserva;
  }

  whenOn('books a reservation: 201, Location, ETag "1", the reservation pendiente', async () => {
    const res = await api.post('/reservas', {
      nombre: 'Familia Contract',
      personas: 4,
      fecha,
      hora: '20:30',
      telefono: '987 654 321',
      observacion: contract.tag,
    });
    expectStatus(res, 201);
    const r = res.body as Reserva;
    expect(res.headers.location).toBe(`/api/v1/reservas/${r.id_reserva}`);
    expect(res.headers.etag).toBe('"1"');
    expect(r).toEqual({
      id_reserva: expect.any(Number),
      nombre: 'Familia Contract',
      personas: 4,
      fecha,
      hora: '20:30',
      id_mesa: null,
      mesa: null,
      telefono: '987 654 321',
      observacion: contract.tag,
      id_cliente: null,
      cliente: null,
      estado: 'pendiente',
      id_comanda: null,
      motivo: null,
      id_usuario_registro: contract.actor,
      fec_registro: expect.stringMatching(INSTANT),
      id_usuario_estado: null,
      fec_estado: null,
      version: 1,
      // the suite's caller is an admin, or anyone without authentication: every action
      acciones: ['editar', 'sentar', 'cancelar', 'no_show'],
    });

    const read = await api.get(`/reservas/${r.id_reserva}`);
    expectStatus(read, 200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.body).toEqual(r);
  });

  whenOn('lists a day in time order, with X-Total-Count and the filters', async () => {
    const late = await book({ hora: '22:45' });
    const early = await book({ hora: '12:05' });
    const res = await api.get(`/reservas?fecha=${fecha}&estado=pendiente&limit=200`);
    expectStatus(res, 200);
    const rows = res.body as Reserva[];
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(rows.length);
    const ids = rows.map((r) => r.id_reserva);
    expect(ids).toEqual(expect.arrayContaining([early.id_reserva, late.id_reserva]));
    expect(ids.indexOf(early.id_reserva)).toBeLessThan(ids.indexOf(late.id_reserva));
    for (const r of rows) expect(r).toMatchObject({ fecha, estado: 'pendiente' });
    const hours = rows.map((r) => r.hora);
    expect(hours).toEqual([...hours].sort());

    expectError(await api.get('/reservas?estado=nope'), 400, 'VALIDATION_FAILED');
  });

  whenOn('changes a pendiente reservation under If-Match; a stale version is 412', async () => {
    const r = await book();
    const changed = await api.patch(
      `/reservas/${r.id_reserva}`,
      { personas: 6, hora: '21:30' },
      { headers: { 'If-Match': '"1"' } },
    );
    expectStatus(changed, 200);
    expect(changed.headers.etag).toBe('"2"');
    expect(changed.body).toMatchObject({ personas: 6, hora: '21:30', version: 2 });

    const stale = await api.patch(
      `/reservas/${r.id_reserva}`,
      { personas: 3 },
      { headers: { 'If-Match': '"1"' } },
    );
    expectError(stale, 412, 'STALE_VERSION');
    expectError(await api.patch(`/reservas/${r.id_reserva}`, {}), 400, 'EMPTY_CHANGE');
    expect((await api.get(`/reservas/${r.id_reserva}`)).body).toMatchObject({ personas: 6 });
  });

  whenOn('seats a party: sentada, and its comanda is open on the table', async () => {
    const r = await book();
    const seated = await api.post(`/reservas/${r.id_reserva}/sentar`, { id_mesa: data.mesa.id });
    expectStatus(seated, 200);
    const s = seated.body as Reserva;
    expect(s).toMatchObject({
      estado: 'sentada',
      id_mesa: data.mesa.id,
      id_comanda: expect.any(Number),
      fec_estado: expect.stringMatching(INSTANT),
      version: 2,
    });

    const comanda = await api.get(`/comandas/${s.id_comanda}`);
    expectStatus(comanda, 200);
    expect(comanda.body).toMatchObject({ estado: 'abierta', id_mesa: data.mesa.id });

    const again = await api.post(`/reservas/${r.id_reserva}/sentar`, { id_mesa: data.mesa.id });
    expectError(again, 409, 'INVALID_TRANSITION');
  });

  whenOn('seating without a table is 400 MESA_REQUIRED and leaves it pendiente', async () => {
    const r = await book();
    expectError(await api.post(`/reservas/${r.id_reserva}/sentar`, {}), 400, 'MESA_REQUIRED');
    expect((await api.get(`/reservas/${r.id_reserva}`)).body).toMatchObject({
      estado: 'pendiente',
      id_comanda: null,
    });
  });

  whenOn('cancels with a motivo and marks a no-show; both are final', async () => {
    const r = await book();
    expectError(await api.post(`/reservas/${r.id_reserva}/cancelar`, {}), 400, 'VALIDATION_FAILED');
    const cancelled = await api.post(`/reservas/${r.id_reserva}/cancelar`, {
      motivo: 'llamó para cancelar',
    });
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({
      estado: 'cancelada',
      motivo: 'llamó para cancelar',
      acciones: [],
    });
    expectError(
      await api.patch(`/reservas/${r.id_reserva}`, { personas: 3 }),
      409,
      'INVALID_TRANSITION',
    );

    const other = await book();
    const noShow = await api.post(`/reservas/${other.id_reserva}/no-show`);
    expectStatus(noShow, 200);
    expect(noShow.body).toMatchObject({ estado: 'no_show', id_comanda: null });
    expectError(
      await api.post(`/reservas/${other.id_reserva}/cancelar`, { motivo: 'tarde' }),
      409,
      'INVALID_TRANSITION',
    );
  });

  whenOn('refuses a booking for a past day, bad values and unknown ids', async () => {
    const past = await api.post('/reservas', {
      nombre: 'Ayer',
      personas: 2,
      fecha: dayAhead(-2),
      hora: '20:00',
    });
    expectError(past, 400, 'RESERVA_IN_THE_PAST');
    const bad = await api.post('/reservas', { nombre: 'x', personas: 51, fecha, hora: '25:00' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expectError(await api.get(`/reservas/${UNKNOWN_ID}`), 404, 'RESERVA_NOT_FOUND');
    expectError(await api.get('/reservas/abc'), 400, 'INVALID_ID');
  });
});
