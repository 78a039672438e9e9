import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { expectError, expectStatus, type ContractClient } from './client';
import { discoverData, type ContractData } from './data';
import { openContract, type Contract } from './setup';

/**
 * The comanda contract (docs/comandas.md) as a client sees it, over plain HTTP, against any
 * instance (E2E_BASE_URL) or one started in process. The suite is never alone on the tenant: it
 * finds its table and product through the API, asserts only on the comandas it created (by id)
 * and on relative facts of lists, tags what it creates and voids all of it at the end.
 */

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;
/** No comanda has this id (ids are bigint, the API takes up to 2^53 - 1). */
const UNKNOWN_ID = 999_999_999_999_999;
/** An int4 id no table or product has. */
const UNKNOWN_INT4 = 2_147_483_647;

interface Linea {
  id_item: number;
  id_producto: number;
  producto: string;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  nota: string | null;
  id_usuario: number | null;
  usuario: string | null;
  fec_registro: string;
}

interface Summary {
  id_comanda: number;
  numero_ticket: number;
  id_mesa: number | null;
  mesa: number | null;
  id_usuario: number | null;
  mozo: string | null;
  id_cliente: number | null;
  cliente: string | null;
  estado: 'abierta' | 'cerrada';
  fec_apertura: string;
  fec_cierre: string | null;
  total: number;
  n_items: number;
  items: number;
  eliminada: boolean;
  version: number;
  acciones: string[];
}

/**
 * The `acciones` of a comanda in each state, as the suite's caller sees them: it is an admin
 * (E2E_TOKEN) or, without authentication, holds every permission, so every action the state
 * allows (docs/comandas.md, "Acciones").
 */
const ACCIONES = {
  abierta: [
    'cerrar',
    'editar',
    'eliminar',
    'agregar_item',
    'modificar_item',
    'quitar_item',
    'dividir',
    'unir',
    'transferir',
  ],
  cerrada: ['abrir', 'eliminar'],
  eliminada: ['restaurar'],
};

interface Detail extends Summary {
  observacion: string | null;
  fec_eliminacion: string | null;
  lineas: Linea[];
}

interface Evento {
  id_evento: number;
  accion: string;
  id_usuario: number | null;
  usuario: string | null;
  motivo: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
  fec_evento: string;
}

const nullable = (type: 'number' | 'string') => (value: unknown) =>
  value === null || typeof value === type;

/** A summary of the list (also the first fields of a detail). */
function expectSummary(s: Summary): void {
  expect(s).toEqual(
    expect.objectContaining({
      id_comanda: expect.any(Number),
      numero_ticket: expect.any(Number),
      estado: expect.stringMatching(/^(abierta|cerrada)$/),
      fec_apertura: expect.stringMatching(INSTANT),
      total: expect.any(Number),
      n_items: expect.any(Number),
      eliminada: expect.any(Boolean),
      version: expect.any(Number),
    }),
  );
  for (const key of ['id_mesa', 'mesa', 'id_usuario', 'id_cliente'] as const)
    expect(nullable('number')(s[key])).toBe(true);
  for (const key of ['mozo', 'cliente'] as const) expect(nullable('string')(s[key])).toBe(true);
  expect(s.fec_cierre === null || INSTANT.test(s.fec_cierre)).toBe(true);
  // `items` is the deprecated alias of `n_items`, kept one release (docs/comandas.md)
  expect(s.items).toBe(s.n_items);
  expect(s.acciones).toEqual(ACCIONES[s.eliminada ? 'eliminada' : s.estado]);
}

/** A detail: the summary, its observacion, fec_eliminacion and lines, total = sum of lines. */
function expectDetail(d: Detail): void {
  expectSummary(d);
  expect(nullable('string')(d.observacion)).toBe(true);
  expect(d.fec_eliminacion === null || INSTANT.test(d.fec_eliminacion)).toBe(true);
  expect(Array.isArray(d.lineas)).toBe(true);
  expect(d.n_items).toBe(d.lineas.length);
  for (const l of d.lineas) {
    expect(l).toEqual(
      expect.objectContaining({
        id_item: expect.any(Number),
        id_producto: expect.any(Number),
        producto: expect.any(String),
        cantidad: expect.any(Number),
        precio_unitario: expect.any(Number),
        subtotal: expect.any(Number),
        fec_registro: expect.stringMatching(INSTANT),
      }),
    );
    expect(nullable('string')(l.nota)).toBe(true);
    expect(nullable('number')(l.id_usuario)).toBe(true);
    expect(nullable('string')(l.usuario)).toBe(true);
    expect(l.subtotal).toBeCloseTo(l.cantidad * l.precio_unitario, 2);
  }
  expect(d.total).toBeCloseTo(
    d.lineas.reduce((sum, l) => sum + l.subtotal, 0),
    2,
  );
}

/** The business day (tenant time zone) of an instant the API gave: its date part. */
const dayOf = (instant: string) => instant.slice(0, 10);
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const ids = (rows: Summary[]) => rows.map((r) => r.id_comanda);
const totalCount = (res: Response) => Number(res.headers['x-total-count']);

describe('comandas contract (docs/comandas.md), over HTTP', () => {
  let contract: Contract;
  let api: ContractClient;
  let data: ContractData;
  let tag: string;

  beforeAll(async () => {
    contract = await openContract();
    api = contract.api;
    tag = contract.tag;
    data = await discoverData(api, tag);
    // The comanda contract is the one without the money rules: with the feature cobros on, a
    // comanda closes only paid and a paid one is not deleted (docs/cobros.md).
    const tenant = await api.get('/tenant');
    expectStatus(tenant, 200);
    if ((tenant.body as { features?: { cobros?: boolean } }).features?.cobros)
      throw new Error(
        `The comanda contract is checked on a tenant with the feature cobros off, and ` +
          `${contract.target.tenant} has it on: npm run tenant -- feature ` +
          `${contract.target.tenant} cobros off (or E2E_TENANT=<a tenant with it off>)`,
      );
  });

  afterAll(async () => {
    if (!contract) return;
    try {
      await api.cleanup();
    } finally {
      await contract.target.close();
    }
  });

  /** Opens a tagged comanda at the suite's table with `cantidad` of its product (201). */
  async function open(
    options: { cantidad?: number | null; nota?: string; extra?: Record<string, unknown> } = {},
  ): Promise<Detail> {
    const cantidad = options.cantidad === undefined ? 2 : options.cantidad;
    const body = {
      id_mesa: data.mesa.id,
      observacion: tag,
      ...(cantidad === null
        ? {}
        : {
            items: [
              { id_producto: data.product.id, cantidad, nota: options.nota ?? 'contract suite' },
            ],
          }),
      ...options.extra,
    };
    const res = await api.post('/comandas', body);
    expectStatus(res, 201);
    return res.body as Detail;
  }

  async function list(query: string): Promise<Response> {
    const res = await api.get(`/comandas?${query}`);
    expectStatus(res, 200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.headers['x-total-count']).toMatch(/^\d+$/);
    expect(totalCount(res)).toBeGreaterThanOrEqual((res.body as unknown[]).length);
    return res;
  }

  async function put(id: number, body: object, ifMatch?: string): Promise<Response> {
    return api.put(`/comandas/${id}`, body, ifMatch ? { headers: { 'If-Match': ifMatch } } : {});
  }

  async function events(id: number): Promise<Evento[]> {
    const res = await api.get(`/comandas/${id}/eventos`);
    expectStatus(res, 200);
    return res.body as Evento[];
  }

  describe('POST /comandas', () => {
    it('opens a comanda with its lines: 201, Location, ETag "1", the detail', async () => {
      const res = await api.post('/comandas', {
        id_mesa: data.mesa.id,
        observacion: tag,
        items: [{ id_producto: data.product.id, cantidad: 2, nota: 'sin ají' }],
      });
      expectStatus(res, 201);
      const c = res.body as Detail;
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.location).toBe(`/api/v1/comandas/${c.id_comanda}`);
      expect(res.headers.etag).toBe('"1"');
      expectDetail(c);
      expect(c).toMatchObject({
        id_mesa: data.mesa.id,
        mesa: data.mesa.numero,
        estado: 'abierta',
        fec_cierre: null,
        eliminada: false,
        fec_eliminacion: null,
        version: 1,
        observacion: tag,
        n_items: 1,
        items: 1,
      });
      // the waiter: the one named, else the token's user (none without authentication)
      expect(c.id_usuario).toBe(contract.actor);
      expect(c.lineas[0]).toMatchObject({
        id_producto: data.product.id,
        producto: data.product.name,
        cantidad: 2,
        nota: 'sin ají',
      });
      expect(c.lineas[0].subtotal).toBeCloseTo(2 * c.lineas[0].precio_unitario, 2);
      expect(c.total).toBeCloseTo(c.lineas[0].subtotal, 2);

      const again = await api.get(res.headers.location.replace(/^\/api\/v1/, ''));
      expectStatus(again, 200);
      expect(again.body).toEqual(c);
    });

    it('opens a take-away comanda without lines, and one for a named waiter', async () => {
      const empty = await api.post('/comandas', { observacion: tag });
      expectStatus(empty, 201);
      expect(empty.body).toMatchObject({
        id_mesa: null,
        mesa: null,
        total: 0,
        n_items: 0,
        lineas: [],
        estado: 'abierta',
      });
      const waiter = data.waiter ?? contract.actor;
      if (waiter !== null && waiter !== undefined) {
        const named = await open({ extra: { id_usuario: waiter } });
        expect(named.id_usuario).toBe(waiter);
        expect(named.mozo).toEqual(expect.any(String));
      }
    });

    it('refuses a bad body with 400 VALIDATION_FAILED listing every violation', async () => {
      const res = await api.post('/comandas', { id_mesa: 'x', color: 'rojo', observacion: tag });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.detail).toEqual(
        expect.arrayContaining([
          'property color should not exist',
          'id_mesa must be an integer number',
        ]),
      );
      const line = await api.post('/comandas', {
        observacion: tag,
        items: [{ id_producto: data.product.id, cantidad: 0 }],
      });
      expectError(line, 400, 'VALIDATION_FAILED', ['items.0.cantidad must not be less than 0.001']);
    });

    it('refuses an unknown product (PRODUCT_NOT_FOUND) and an unknown table (23503)', async () => {
      const product = await api.post('/comandas', {
        observacion: tag,
        items: [{ id_producto: UNKNOWN_INT4, cantidad: 1 }],
      });
      expectError(product, 400, 'PRODUCT_NOT_FOUND', { id_producto: [UNKNOWN_INT4] });
      const mesa = await api.post('/comandas', { id_mesa: UNKNOWN_INT4, observacion: tag });
      expectError(mesa, 400, '23503');
      expect(mesa.body).toMatchObject({ column: 'id_mesa', constraint: 'fk_comandas_id_mesa' });
    });

    it('refuses a form body with 415 and a JSON body that is not an object with 400', async () => {
      const form = await api.post('/comandas', `id_mesa=${data.mesa.id}&observacion=x`, {
        type: 'form',
      });
      expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE', {
        expected: ['application/json'],
        received: 'application/x-www-form-urlencoded',
      });
      const array = await api.post('/comandas', [{ id_mesa: data.mesa.id }]);
      expectError(array, 400, 'INVALID_BODY', { received: 'array' });
    });
  });

  describe('GET /comandas (list)', () => {
    it('lists summaries newest first, with X-Total-Count', async () => {
      const older = await open();
      const newer = await open();
      const res = await list(`id_mesa=${data.mesa.id}&limit=50`);
      const rows = res.body as Summary[];
      rows.forEach(expectSummary);
      expect(totalCount(res)).toBeGreaterThanOrEqual(2);
      const [at, atNewer] = [
        ids(rows).indexOf(older.id_comanda),
        ids(rows).indexOf(newer.id_comanda),
      ];
      expect(atNewer).toBeGreaterThanOrEqual(0);
      expect(at).toBeGreaterThan(atNewer);
      for (let i = 1; i < rows.length; i++) {
        expect(Date.parse(rows[i - 1].fec_apertura)).toBeGreaterThanOrEqual(
          Date.parse(rows[i].fec_apertura),
        );
      }
      // a summary is the detail without observacion, fec_eliminacion and lineas
      const { observacion, fec_eliminacion, lineas, ...summary } = newer;
      expect([observacion, fec_eliminacion, lineas.length]).toEqual([tag, null, 1]);
      expect(rows[atNewer]).toEqual(summary);
    });

    it('filters by estado and id_mesa', async () => {
      const abierta = await open();
      const cerrada = await open();
      expectStatus(await put(cerrada.id_comanda, { action: 'cerrar' }), 200);

      const closed = (await list(`estado=cerrada&id_mesa=${data.mesa.id}`)).body as Summary[];
      expect(ids(closed)).toContain(cerrada.id_comanda);
      expect(ids(closed)).not.toContain(abierta.id_comanda);
      expect(closed.every((r) => r.estado === 'cerrada' && r.id_mesa === data.mesa.id)).toBe(true);

      const open_ = (await list(`estado=abierta&id_mesa=${data.mesa.id}`)).body as Summary[];
      expect(ids(open_)).toContain(abierta.id_comanda);
      expect(ids(open_)).not.toContain(cerrada.id_comanda);
      expect(open_.every((r) => r.estado === 'abierta' && r.id_mesa === data.mesa.id)).toBe(true);
    });

    it('filters by id_usuario (the waiter)', async () => {
      const waiter = data.waiter ?? contract.actor;
      if (waiter === null || waiter === undefined) {
        // no waiter known on this tenant: the filter still returns only that waiter's comandas
        const rows = (await list('id_usuario=1')).body as Summary[];
        expect(rows.every((r) => r.id_usuario === 1)).toBe(true);
        return;
      }
      const mine = await open({ extra: { id_usuario: waiter } });
      const rows = (await list(`id_usuario=${waiter}&limit=100`)).body as Summary[];
      expect(ids(rows)).toContain(mine.id_comanda);
      expect(rows.every((r) => r.id_usuario === waiter)).toBe(true);
    });

    it('filters by business day (desde, hasta, both inclusive); an inverted range is empty', async () => {
      const c = await open();
      const day = dayOf(c.fec_apertura);
      const that = (await list(`desde=${day}&hasta=${day}&id_mesa=${data.mesa.id}`))
        .body as Summary[];
      expect(ids(that)).toContain(c.id_comanda);
      expect(that.every((r) => dayOf(r.fec_apertura) === day)).toBe(true);

      const since = (await list(`desde=${day}&id_mesa=${data.mesa.id}`)).body as Summary[];
      expect(ids(since)).toContain(c.id_comanda);

      const before = (await list(`hasta=${dayBefore(day)}&id_mesa=${data.mesa.id}`))
        .body as Summary[];
      expect(ids(before)).not.toContain(c.id_comanda);
      expect(before.every((r) => dayOf(r.fec_apertura) <= dayBefore(day))).toBe(true);

      const inverted = await list(`desde=${day}&hasta=${dayBefore(day)}`);
      expect(inverted.body).toEqual([]);
      expect(inverted.headers['x-total-count']).toBe('0');
    });

    it('pages with limit and offset: consecutive pages make the longer page', async () => {
      await open();
      await open();
      await open();
      const base = `id_mesa=${data.mesa.id}&estado=abierta`;
      // other clients may change the list between two requests: retry until it held still
      for (let attempt = 1; ; attempt++) {
        const whole = await list(`${base}&limit=4&offset=0`);
        const first = await list(`${base}&limit=2&offset=0`);
        const second = await list(`${base}&limit=2&offset=2`);
        const again = await list(`${base}&limit=4&offset=0`);
        const counts = [whole, first, second, again].map(totalCount);
        const still =
          new Set(counts).size === 1 &&
          JSON.stringify(ids(whole.body)) === JSON.stringify(ids(again.body));
        if (!still && attempt < 5) continue;
        expect(still).toBe(true);
        expect(counts[0]).toBeGreaterThanOrEqual(3);
        expect(first.body).toHaveLength(2);
        expect([...ids(first.body), ...ids(second.body)]).toEqual(ids(whole.body));
        break;
      }
    });

    it('lists only the voided comandas with eliminada=true, and hides them otherwise', async () => {
      const voided = await open();
      const kept = await open();
      expectStatus(await api.delete(`/comandas/${voided.id_comanda}?motivo=contract%20suite`), 200);

      const deleted = await list(`eliminada=true&id_mesa=${data.mesa.id}`);
      expect(totalCount(deleted)).toBeGreaterThanOrEqual(1);
      const rows = deleted.body as Summary[];
      expect(ids(rows)).toContain(voided.id_comanda);
      expect(ids(rows)).not.toContain(kept.id_comanda);
      expect(rows.every((r) => r.eliminada)).toBe(true);
      expect(rows.find((r) => r.id_comanda === voided.id_comanda)).toMatchObject({
        estado: 'abierta',
        eliminada: true,
      });

      for (const query of [`id_mesa=${data.mesa.id}`, `eliminada=false&id_mesa=${data.mesa.id}`]) {
        const visible = (await list(query)).body as Summary[];
        expect(ids(visible)).toContain(kept.id_comanda);
        expect(ids(visible)).not.toContain(voided.id_comanda);
        expect(visible.every((r) => !r.eliminada)).toBe(true);
      }
    });

    it.each([
      ['estados=abierta', 'property estados should not exist'],
      ['estado=borrada', 'estado must be one of the following values: abierta, cerrada'],
      ['limit=501', 'limit must not be greater than 500'],
      ['offset=-1', 'offset must not be less than 0'],
      ['desde=2026-02-30', 'desde must be a date YYYY-MM-DD'],
      ['eliminada=quizas', 'eliminada must be true or false'],
    ])('refuses ?%s with 400 VALIDATION_FAILED', async (query, message) => {
      const res = await api.get(`/comandas?${query}`);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.detail).toContain(message);
    });
  });

  describe('GET /comandas/:id', () => {
    it('answers the detail with its lines and product names, and ETag', async () => {
      const c = await open({ cantidad: 1.5, nota: 'bien helado' });
      const added = await api.post(`/comandas/${c.id_comanda}/items`, {
        id_producto: data.product.id,
        cantidad: 1,
      });
      expectStatus(added, 201);
      const res = await api.get(`/comandas/${c.id_comanda}`);
      expectStatus(res, 200);
      expect(res.headers.etag).toBe('"2"');
      const d = res.body as Detail;
      expectDetail(d);
      expect(d).toMatchObject({ id_comanda: c.id_comanda, n_items: 2, version: 2 });
      expect(d.lineas.map((l) => [l.id_producto, l.producto, l.cantidad, l.nota])).toEqual([
        [data.product.id, data.product.name, 1.5, 'bien helado'],
        [data.product.id, data.product.name, 1, null],
      ]);
      expect(d).toEqual(added.body);
    });

    it('answers 404 COMANDA_NOT_FOUND for an unknown id and 400 INVALID_ID for a bad one', async () => {
      expectError(await api.get(`/comandas/${UNKNOWN_ID}`), 404, 'COMANDA_NOT_FOUND', {
        id_comanda: UNKNOWN_ID,
      });
      for (const bad of ['abc', '1.5', '0'])
        expectError(await api.get(`/comandas/${bad}`), 400, 'INVALID_ID', { id: bad });
    });
  });

  describe('lines: POST /comandas/:id/items, PATCH and DELETE /comandas/:id/items/:itemId', () => {
    it('adds, changes and removes a line, keeping the total equal to the lines', async () => {
      const c = await open({ cantidad: 2 });
      const first = c.lineas[0];

      const added = await api.post(`/comandas/${c.id_comanda}/items`, {
        id_producto: data.product.id,
        cantidad: 1,
        nota: 'para llevar',
      });
      expectStatus(added, 201);
      expect(added.headers.etag).toBe('"2"');
      let d = added.body as Detail;
      expectDetail(d);
      expect(d).toMatchObject({ version: 2, n_items: 2, estado: 'abierta' });
      const line = d.lineas.find((l) => l.id_item !== first.id_item)!;
      expect(line).toMatchObject({
        id_producto: data.product.id,
        cantidad: 1,
        nota: 'para llevar',
      });

      const changed = await api.patch(`/comandas/${c.id_comanda}/items/${line.id_item}`, {
        cantidad: 3,
        nota: 'bien cocido',
      });
      expectStatus(changed, 200);
      expect(changed.headers.etag).toBe('"3"');
      d = changed.body as Detail;
      expectDetail(d);
      expect(d.lineas.find((l) => l.id_item === line.id_item)).toMatchObject({
        cantidad: 3,
        nota: 'bien cocido',
        precio_unitario: line.precio_unitario,
      });
      expect(d.version).toBe(3);

      const removed = await api.delete(`/comandas/${c.id_comanda}/items/${line.id_item}`);
      expectStatus(removed, 200);
      expect(removed.headers.etag).toBe('"4"');
      d = removed.body as Detail;
      expectDetail(d);
      expect(d).toMatchObject({ version: 4, n_items: 1 });
      expect(d.lineas.map((l) => l.id_item)).toEqual([first.id_item]);
      expect(d.total).toBeCloseTo(first.subtotal, 2);

      expectError(
        await api.delete(`/comandas/${c.id_comanda}/items/${line.id_item}`),
        404,
        'ITEM_NOT_FOUND',
        { id_comanda: c.id_comanda, id_item: line.id_item },
      );
    });

    it('refuses a line of another comanda, an empty change, a bad quantity and an unknown product', async () => {
      const a = await open();
      const b = await open();
      const other = b.lineas[0].id_item;
      expectError(
        await api.patch(`/comandas/${a.id_comanda}/items/${other}`, { cantidad: 1 }),
        404,
        'ITEM_NOT_FOUND',
        { id_comanda: a.id_comanda, id_item: other },
      );
      expectError(
        await api.patch(`/comandas/${a.id_comanda}/items/${a.lineas[0].id_item}`, {}),
        400,
        'EMPTY_CHANGE',
      );
      expectError(
        await api.post(`/comandas/${a.id_comanda}/items`, {
          id_producto: data.product.id,
          cantidad: -1,
        }),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await api.post(`/comandas/${a.id_comanda}/items`, {
          id_producto: UNKNOWN_INT4,
          cantidad: 1,
        }),
        400,
        'PRODUCT_NOT_FOUND',
      );
      expectError(
        await api.post(`/comandas/${UNKNOWN_ID}/items`, {
          id_producto: data.product.id,
          cantidad: 1,
        }),
        404,
        'COMANDA_NOT_FOUND',
      );
      const after = await api.get(`/comandas/${a.id_comanda}`);
      expect(after.body).toMatchObject({ version: 1, n_items: 1 });
    });

    it('refuses line changes on a closed comanda with 409 INVALID_TRANSITION', async () => {
      const c = await open();
      expectStatus(await put(c.id_comanda, { action: 'cerrar' }), 200);
      expectError(
        await api.post(`/comandas/${c.id_comanda}/items`, {
          id_producto: data.product.id,
          cantidad: 1,
        }),
        409,
        'INVALID_TRANSITION',
        { estado: 'cerrada', action: 'agregar_item' },
      );
      expectError(
        await api.delete(`/comandas/${c.id_comanda}/items/${c.lineas[0].id_item}`),
        409,
        'INVALID_TRANSITION',
        { estado: 'cerrada', action: 'quitar_item' },
      );
    });
  });

  describe('transitions: PUT {action} and DELETE', () => {
    it('walks cerrar, abrir, DELETE (motivo in the body), restaurar, DELETE (motivo in the query)', async () => {
      const c = await open({ cantidad: 3 });

      const closed = await put(c.id_comanda, { action: 'cerrar' });
      expectStatus(closed, 200);
      expect(closed.headers.etag).toBe('"2"');
      expectDetail(closed.body);
      expect(closed.body).toMatchObject({ estado: 'cerrada', version: 2, eliminada: false });
      expect(closed.body.fec_cierre).toMatch(INSTANT);
      expect(closed.body.total).toBeCloseTo(c.lineas[0].subtotal, 2);
      expectError(await put(c.id_comanda, { action: 'cerrar' }), 409, 'INVALID_TRANSITION', {
        estado: 'cerrada',
        action: 'cerrar',
      });

      const reopened = await put(c.id_comanda, { action: 'abrir' });
      expectStatus(reopened, 200);
      expect(reopened.body).toMatchObject({ estado: 'abierta', fec_cierre: null, version: 3 });
      expectError(await put(c.id_comanda, { action: 'abrir' }), 409, 'INVALID_TRANSITION', {
        estado: 'abierta',
        action: 'abrir',
      });
      expectError(await put(c.id_comanda, { action: 'restaurar' }), 409, 'INVALID_TRANSITION', {
        estado: 'abierta',
        action: 'restaurar',
      });

      const voided = await api.delete(`/comandas/${c.id_comanda}`, {
        motivo: 'contract suite: motivo in the body',
      });
      expectStatus(voided, 200);
      expect(voided.headers.etag).toBe('"4"');
      expect(voided.body).toMatchObject({ estado: 'abierta', eliminada: true, version: 4 });
      expect(voided.body.fec_eliminacion).toMatch(INSTANT);
      // the detail still answers, with eliminada
      const seen = await api.get(`/comandas/${c.id_comanda}`);
      expectStatus(seen, 200);
      expect(seen.body).toEqual(voided.body);
      expectError(await api.delete(`/comandas/${c.id_comanda}`), 409, 'INVALID_TRANSITION', {
        estado: 'eliminada',
        action: 'eliminar',
      });
      expectError(await put(c.id_comanda, { action: 'cerrar' }), 409, 'INVALID_TRANSITION', {
        estado: 'eliminada',
        action: 'cerrar',
      });

      const restored = await put(c.id_comanda, { action: 'restaurar' });
      expectStatus(restored, 200);
      expect(restored.body).toMatchObject({
        estado: 'abierta',
        eliminada: false,
        fec_eliminacion: null,
        version: 5,
      });

      expectStatus(await put(c.id_comanda, { action: 'cerrar' }), 200);
      const voidedClosed = await api.delete(
        `/comandas/${c.id_comanda}?motivo=${encodeURIComponent('contract suite: motivo in the query')}`,
      );
      expectStatus(voidedClosed, 200);
      // a delete keeps estado: restaurar gives back the closed comanda
      expect(voidedClosed.body).toMatchObject({ estado: 'cerrada', eliminada: true, version: 7 });
      const back = await put(c.id_comanda, { action: 'restaurar' });
      expectStatus(back, 200);
      expect(back.body).toMatchObject({ estado: 'cerrada', eliminada: false, version: 8 });
      expect(back.body.fec_cierre).toMatch(INSTANT);

      const trail = await events(c.id_comanda);
      expect(trail.map((e) => [e.accion, e.motivo])).toEqual([
        ['crear', null],
        ['cerrar', null],
        ['abrir', null],
        ['eliminar', 'contract suite: motivo in the body'],
        ['restaurar', null],
        ['cerrar', null],
        ['eliminar', 'contract suite: motivo in the query'],
        ['restaurar', null],
      ]);
    });

    it('refuses to close a comanda without lines: 409 COMANDA_EMPTY', async () => {
      const c = await open({ cantidad: null });
      expectError(await put(c.id_comanda, { action: 'cerrar' }), 409, 'COMANDA_EMPTY', {
        id_comanda: c.id_comanda,
      });
      expect((await api.get(`/comandas/${c.id_comanda}`)).body).toMatchObject({
        estado: 'abierta',
        version: 1,
      });
    });

    it('refuses an action with fields, an empty change, an unknown action, an unknown comanda', async () => {
      const c = await open();
      expectError(
        await put(c.id_comanda, { action: 'cerrar', id_mesa: data.mesa.id }),
        400,
        'ACTION_WITH_FIELDS',
        { fields: ['id_mesa'] },
      );
      expectError(await put(c.id_comanda, {}), 400, 'EMPTY_CHANGE');
      expectError(await put(c.id_comanda, { action: 'pagar' }), 400, 'VALIDATION_FAILED', [
        'action must be one of the following values: abrir, cerrar, restaurar',
      ]);
      expectError(await put(UNKNOWN_ID, { action: 'cerrar' }), 404, 'COMANDA_NOT_FOUND');
      expectError(await api.delete(`/comandas/${UNKNOWN_ID}`), 404, 'COMANDA_NOT_FOUND');
      expect((await api.get(`/comandas/${c.id_comanda}`)).body).toMatchObject({ version: 1 });
    });
  });

  describe('partial change: PUT with fields', () => {
    it('changes the table and the observacion of an open comanda, and records it', async () => {
      const c = await open();
      const changed = await put(c.id_comanda, {
        id_mesa: null,
        observacion: `${tag} (para llevar)`,
      });
      expectStatus(changed, 200);
      expect(changed.headers.etag).toBe('"2"');
      expectDetail(changed.body);
      expect(changed.body).toMatchObject({
        id_mesa: null,
        mesa: null,
        observacion: `${tag} (para llevar)`,
        estado: 'abierta',
        version: 2,
        total: c.total,
      });
      const back = await put(c.id_comanda, { id_mesa: data.mesa.id });
      expectStatus(back, 200);
      expect(back.body).toMatchObject({
        id_mesa: data.mesa.id,
        mesa: data.mesa.numero,
        version: 3,
      });

      // a change of the table alone is a transfer (docs/comandas.md, split, merge, transfer)
      const edits = (await events(c.id_comanda)).filter((e) =>
        ['editar', 'transferir'].includes(e.accion),
      );
      expect(edits.map((e) => [e.accion, e.antes, e.despues])).toEqual([
        [
          'editar',
          { id_mesa: data.mesa.id, observacion: tag },
          { id_mesa: null, observacion: `${tag} (para llevar)` },
        ],
        ['transferir', { id_mesa: null }, { id_mesa: data.mesa.id }],
      ]);
    });

    it('refuses an unknown table (23503), an unknown field (400) and a change of a closed comanda (409)', async () => {
      const c = await open();
      expectError(await put(c.id_comanda, { id_mesa: UNKNOWN_INT4 }), 400, '23503');
      expectError(await put(c.id_comanda, { color: 'rojo' }), 400, 'VALIDATION_FAILED', [
        'property color should not exist',
      ]);
      expectStatus(await put(c.id_comanda, { action: 'cerrar' }), 200);
      expectError(await put(c.id_comanda, { observacion: tag }), 409, 'INVALID_TRANSITION', {
        estado: 'cerrada',
        action: 'editar',
      });
    });
  });

  describe('ETag and If-Match', () => {
    it('applies a change only to the version named: 412 STALE_VERSION otherwise', async () => {
      const c = await open();
      const first = await put(c.id_comanda, { observacion: `${tag} v2` }, '"1"');
      expectStatus(first, 200);
      expect(first.headers.etag).toBe('"2"');

      const stale = await put(c.id_comanda, { observacion: `${tag} lost update` }, '"1"');
      expectError(stale, 412, 'STALE_VERSION', { currentVersion: 2, expectedVersion: 1 });
      const now = await api.get(`/comandas/${c.id_comanda}`);
      expect(now.headers.etag).toBe('"2"');
      expect(now.body).toMatchObject({ version: 2, observacion: `${tag} v2` });

      // the forms an ETag may take: weak, bare, any
      expectStatus(await put(c.id_comanda, { observacion: `${tag} v3` }, 'W/"2"'), 200);
      expectStatus(await put(c.id_comanda, { observacion: `${tag} v4` }, '3'), 200);
      const any = await put(c.id_comanda, { observacion: tag }, '*');
      expectStatus(any, 200);
      expect(any.headers.etag).toBe('"5"');
      expectError(await put(c.id_comanda, { observacion: tag }, 'zz'), 400, 'INVALID_IF_MATCH', {
        'If-Match': 'zz',
      });
    });

    it('guards the line routes, the transitions and DELETE too', async () => {
      const c = await open();
      const stale = { headers: { 'If-Match': '"9"' } };
      const item = c.lineas[0].id_item;
      const expected = { currentVersion: 1, expectedVersion: 9 };
      expectError(
        await api.post(
          `/comandas/${c.id_comanda}/items`,
          { id_producto: data.product.id, cantidad: 1 },
          stale,
        ),
        412,
        'STALE_VERSION',
        expected,
      );
      expectError(
        await api.patch(`/comandas/${c.id_comanda}/items/${item}`, { cantidad: 5 }, stale),
        412,
        'STALE_VERSION',
        expected,
      );
      expectError(
        await api.delete(`/comandas/${c.id_comanda}/items/${item}`, undefined, stale),
        412,
        'STALE_VERSION',
        expected,
      );
      expectError(await put(c.id_comanda, { action: 'cerrar' }, '"9"'), 412, 'STALE_VERSION');
      expectError(
        await api.delete(`/comandas/${c.id_comanda}`, undefined, stale),
        412,
        'STALE_VERSION',
        expected,
      );
      expect((await api.get(`/comandas/${c.id_comanda}`)).body).toMatchObject({
        version: 1,
        eliminada: false,
        n_items: 1,
      });
      const voided = await api.delete(`/comandas/${c.id_comanda}`, undefined, {
        headers: { 'If-Match': '"1"' },
      });
      expectStatus(voided, 200);
      expect(voided.headers.etag).toBe('"2"');
    });
  });

  describe('GET /comandas/:id/eventos (audit trail)', () => {
    it('records every change, oldest first, with its actor', async () => {
      const c = await open({ cantidad: 2 });
      const added = await api.post(`/comandas/${c.id_comanda}/items`, {
        id_producto: data.product.id,
        cantidad: 1,
      });
      expectStatus(added, 201);
      const line = (added.body as Detail).lineas.find((l) => l.id_item !== c.lineas[0].id_item)!;
      expectStatus(
        await api.patch(`/comandas/${c.id_comanda}/items/${line.id_item}`, { cantidad: 2 }),
        200,
      );
      expectStatus(await api.delete(`/comandas/${c.id_comanda}/items/${line.id_item}`), 200);
      expectStatus(await put(c.id_comanda, { observacion: `${tag} (editada)` }), 200);
      const closed = await put(c.id_comanda, { action: 'cerrar' });
      expectStatus(closed, 200);

      const trail = await events(c.id_comanda);
      expect(trail.map((e) => e.accion)).toEqual([
        'crear',
        'agregar_item',
        'modificar_item',
        'quitar_item',
        'editar',
        'cerrar',
      ]);
      for (const e of trail) {
        expect(e).toEqual(
          expect.objectContaining({
            id_evento: expect.any(Number),
            fec_evento: expect.stringMatching(INSTANT),
          }),
        );
        expect(e.id_usuario).toBe(contract.actor);
        expect(nullable('string')(e.usuario)).toBe(true);
      }
      for (let i = 1; i < trail.length; i++) {
        expect(trail[i].id_evento).toBeGreaterThan(trail[i - 1].id_evento);
        expect(Date.parse(trail[i].fec_evento)).toBeGreaterThanOrEqual(
          Date.parse(trail[i - 1].fec_evento),
        );
      }
      const [crear, agregar, modificar, quitar, , cerrar] = trail;
      expect(crear.antes).toBeNull();
      expect(crear.despues).toMatchObject({ estado: 'abierta', version: 1, observacion: tag });
      expect(agregar.despues).toMatchObject({ id_item: line.id_item, cantidad: 1 });
      expect([modificar.antes, modificar.despues]).toMatchObject([
        { cantidad: 1 },
        { cantidad: 2 },
      ]);
      expect(quitar).toMatchObject({ antes: { id_item: line.id_item }, despues: null });
      expect(cerrar).toMatchObject({
        antes: { estado: 'abierta' },
        despues: { estado: 'cerrada', total: closed.body.total, version: closed.body.version },
      });
    });

    it('answers 404 COMANDA_NOT_FOUND for an unknown comanda', async () => {
      expectError(await api.get(`/comandas/${UNKNOWN_ID}/eventos`), 404, 'COMANDA_NOT_FOUND');
    });
  });

  describe('floor operations: Idempotency-Key, split, merge, transfer', () => {
    it('a retry with the same Idempotency-Key gets the first answer and changes nothing', async () => {
      const c = await open({ cantidad: 1 });
      const key = { 'Idempotency-Key': randomUUID() };
      const line = { id_producto: data.product.id, cantidad: 1, nota: 'contract suite' };
      const first = await api.post(`/comandas/${c.id_comanda}/items`, line, { headers: key });
      expectStatus(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await api.post(`/comandas/${c.id_comanda}/items`, line, { headers: key });
      expectStatus(again, 201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.etag).toBe(first.headers.etag);
      const now = await api.get(`/comandas/${c.id_comanda}`);
      expect((now.body as Detail).lineas).toHaveLength(2);
      expect((now.body as Detail).version).toBe(2);

      const other = await api.post(
        `/comandas/${c.id_comanda}/items`,
        { ...line, cantidad: 2 },
        { headers: key },
      );
      expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
      const bad = await api.post(
        '/comandas',
        { observacion: contract.tag },
        {
          headers: { 'Idempotency-Key': 'con espacio' },
        },
      );
      expectError(bad, 400, 'IDEMPOTENCY_KEY_INVALID');
    });

    it('splits part of a line to a new comanda and merges it back', async () => {
      const c = await open({ cantidad: 3 });
      const split = await api.post(
        `/comandas/${c.id_comanda}/split`,
        { lineas: [{ id_item: c.lineas[0].id_item, cantidad: 1 }] },
        { headers: { 'If-Match': `"${c.version}"` } },
      );
      expectStatus(split, 201);
      const { origen, nueva } = split.body as { origen: Detail; nueva: Detail };
      expect(split.headers.location).toBe(`/api/v1/comandas/${nueva.id_comanda}`);
      expect(origen.lineas.map((l) => l.cantidad)).toEqual([2]);
      expect(nueva).toMatchObject({ estado: 'abierta', version: 1, id_mesa: data.mesa.id });
      expect(nueva.lineas.map((l) => [l.id_producto, l.cantidad])).toEqual([[data.product.id, 1]]);
      expect(origen.total + nueva.total).toBeCloseTo(c.total, 2);

      const merged = await api.post(`/comandas/${c.id_comanda}/merge`, {
        comandas: [nueva.id_comanda],
      });
      expectStatus(merged, 200);
      expect((merged.body as Detail).lineas.reduce((n, l) => n + l.cantidad, 0)).toBe(3);
      expect((merged.body as Detail).total).toBeCloseTo(c.total, 2);
      const gone = await api.get(`/comandas/${nueva.id_comanda}`);
      expect(gone.body).toMatchObject({ eliminada: true, lineas: [] });
      const trail = await events(nueva.id_comanda);
      expect(trail.map((e) => e.accion)).toEqual(['dividir', 'unir']);
      expect(trail[1].motivo).toBe(`unida a ${c.numero_ticket}`);

      const again = await api.post(`/comandas/${c.id_comanda}/merge`, {
        comandas: [nueva.id_comanda],
      });
      expectError(again, 409, 'INVALID_TRANSITION');
    });

    it('a change of the table alone is a transfer in the audit trail', async () => {
      const c = await open();
      const moved = await put(c.id_comanda, { id_mesa: data.mesa.id });
      expectStatus(moved, 200);
      const [last] = (await events(c.id_comanda)).slice(-1);
      expect(last).toMatchObject({
        accion: 'transferir',
        antes: { id_mesa: data.mesa.id },
        despues: { id_mesa: data.mesa.id },
      });
    });
  });

  describe('methods and routes', () => {
    it('answers 405 with Allow for a method the path does not serve', async () => {
      const list_ = await api.patch('/comandas', {});
      expectError(list_, 405, 'METHOD_NOT_ALLOWED', { allowed: ['GET', 'HEAD', 'POST'] });
      expect(list_.headers.allow).toBe('GET, HEAD, POST');
      const one = await api.post(`/comandas/${data.probe}`, {});
      expectError(one, 405, 'METHOD_NOT_ALLOWED');
      expect(one.headers.allow).toBe('DELETE, GET, HEAD, PUT');
      const trail = await api.delete(`/comandas/${data.probe}/eventos`);
      expectError(trail, 405, 'METHOD_NOT_ALLOWED');
      expect(trail.headers.allow).toBe('GET, HEAD');
    });

    it('answers 404 NOT_FOUND for a route that does not exist', async () => {
      const res = await api.get('/no-such-route');
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error).toBe('Cannot GET /api/v1/no-such-route');
    });
  });
});
