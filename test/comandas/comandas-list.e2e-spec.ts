import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * GET /comandas on known rows. The tenant is in America/Lima (UTC-5): business days are Lima
 * days, so 2026-03-01 23:30 in Lima (04:30 UTC on the 2nd) belongs to 2026-03-01.
 */
describe('GET /comandas (list, filters, paging)', () => {
  let t: TestApp;
  let api: TenantApi;
  const ids = (body: { id_comanda: number }[]) => body.map((c) => c.id_comanda);

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('lista', { timeZone: 'America/Lima' });
    await seedMenu(t.dbs, 'lista');
    api = tenantApi(t.http, 'lista');
    // id: opened at (Lima time), estado, mesa, waiter, deleted
    await t.dbs.query(
      t.dbs.tenantUrl('lista'),
      `INSERT INTO comandas (id_comanda, numero_ticket, id_mesa, id_usuario, estado, fec_apertura, fec_cierre, total, eliminada, fec_eliminacion)
       VALUES
        (1, 1, 1, 1, 'cerrada', '2026-02-28 12:00-05', '2026-02-28 13:00-05', 50, false, NULL),
        (2, 2, 2, 1, 'cerrada', '2026-03-01 00:10-05', '2026-03-01 01:00-05', 20, false, NULL),
        (3, 3, 1, 2, 'abierta', '2026-03-01 23:30-05', NULL, 0, false, NULL),
        (4, 4, 3, 2, 'cerrada', '2026-03-02 09:00-05', '2026-03-02 10:00-05', 30, true, '2026-03-02 11:00-05'),
        (5, 5, NULL, 1, 'abierta', '2026-03-03 19:00-05', NULL, 0, false, NULL),
        (6, 6, 2, 2, 'abierta', '2026-03-03 19:00-05', NULL, 0, true, '2026-03-03 19:30-05');
       INSERT INTO deta_comandas (id_comanda, id_producto, cantidad, precio_unitario)
       VALUES (1, 1, 1, 38), (1, 3, 1.5, 8), (2, 3, 2.5, 8), (3, 2, 1, 42.5);
       SELECT setval(pg_get_serial_sequence('comandas', 'id_comanda'), 6);
       SELECT setval('comandas_numero_ticket_seq', 6);`,
    );
  });

  afterAll(() => t.close());

  it('lists the visible comandas newest first, with their summary and X-Total-Count', async () => {
    const res = await api.get('/comandas').expect(200);
    expect(res.headers['x-total-count']).toBe('4');
    // 5 and 6 share the same opening time: the id breaks the tie (and 6 is deleted)
    expect(ids(res.body)).toEqual([5, 3, 2, 1]);
    expect(res.body[3]).toEqual({
      id_comanda: 1,
      numero_ticket: 1,
      id_mesa: 1,
      mesa: 1,
      id_usuario: MENU.rosa,
      mozo: 'Rosa Quispe',
      id_cliente: null,
      cliente: null,
      estado: 'cerrada',
      fec_apertura: '2026-02-28T12:00:00-05:00',
      fec_cierre: '2026-02-28T13:00:00-05:00',
      total: 50,
      n_items: 2,
      items: 2,
      eliminada: false,
      version: 1,
      // AUTH_MODE=off: every action the state allows
      acciones: ['abrir', 'eliminar'],
    });
  });

  it('shows only the deleted ones with eliminada=true', async () => {
    const res = await api.get('/comandas?eliminada=true').expect(200);
    expect(ids(res.body)).toEqual([6, 4]);
    expect(res.headers['x-total-count']).toBe('2');
    expect(ids((await api.get('/comandas?eliminada=false').expect(200)).body)).toEqual([
      5, 3, 2, 1,
    ]);
  });

  it.each([
    ['estado=abierta', [5, 3]],
    ['estado=cerrada', [2, 1]],
    ['id_mesa=1', [3, 1]],
    ['id_usuario=2', [3]],
    ['id_usuario=2&eliminada=true', [6, 4]],
    ['estado=cerrada&id_mesa=2', [2]],
    ['desde=2026-03-01', [5, 3, 2]],
    ['hasta=2026-03-01', [3, 2, 1]],
    ['desde=2026-03-01&hasta=2026-03-01', [3, 2]],
    ['desde=2026-03-04', []],
    ['id_mesa=42', []],
  ])('filters %s', async (query, expected) => {
    const res = await api.get(`/comandas?${query}`).expect(200);
    expect(ids(res.body)).toEqual(expected);
    expect(res.headers['x-total-count']).toBe(String(expected.length));
  });

  it('pages with limit and offset, the total staying the full count', async () => {
    const first = await api.get('/comandas?limit=2').expect(200);
    expect(ids(first.body)).toEqual([5, 3]);
    const second = await api.get('/comandas?limit=2&offset=2').expect(200);
    expect(ids(second.body)).toEqual([2, 1]);
    const beyond = await api.get('/comandas?limit=2&offset=10').expect(200);
    expect(beyond.body).toEqual([]);
    for (const res of [first, second, beyond]) expect(res.headers['x-total-count']).toBe('4');
  });

  it('defaults to 50 per page and accepts at most 500', async () => {
    await t.dbs.query(
      t.dbs.tenantUrl('lista'),
      `INSERT INTO comandas (id_usuario, fec_apertura) SELECT 1, timestamptz '2025-01-01 12:00-05' - n * interval '1 minute' FROM generate_series(1, 60) n`,
    );
    const res = await api.get('/comandas').expect(200);
    expect(res.body).toHaveLength(50);
    expect(res.headers['x-total-count']).toBe('64');
    expect((await api.get('/comandas?limit=500').expect(200)).body).toHaveLength(64);
    await t.dbs.query(
      t.dbs.tenantUrl('lista'),
      "DELETE FROM comandas WHERE fec_apertura < '2026-01-01'",
    );
  });

  it.each([
    'estado=pagada',
    'id_mesa=abc',
    'id_mesa=0',
    'id_mesa=1.5',
    'id_usuario=-1',
    'desde=2026-02-30',
    'desde=01/03/2026',
    'hasta=yesterday',
    'eliminada=yes',
    'limit=0',
    'limit=501',
    'limit=ten',
    'offset=-1',
    'offset=1.5',
    'orden=asc',
    "estado=abierta' OR '1'='1",
  ])('refuses %s with 400 VALIDATION_FAILED in the envelope, never 500', async (query) => {
    const res = await api.get(`/comandas?${query}`).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Validation failed' });
    expect(res.body.detail.length).toBeGreaterThan(0);
  });

  it('answers an inverted range (desde after hasta) with an empty list', async () => {
    const res = await api.get('/comandas?desde=2026-03-03&hasta=2026-03-01').expect(200);
    expect(res.body).toEqual([]);
  });
});
