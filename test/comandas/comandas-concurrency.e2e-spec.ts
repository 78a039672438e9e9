import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Waiters and cashiers act at the same time: requests are fired in parallel, then the
 * database is checked. The pool has several connections, so the requests really overlap.
 */
describe('comandas under concurrent requests', () => {
  let t: TestApp;
  let api: TenantApi;
  const db = () => t.dbs.tenantUrl('rush');

  beforeAll(async () => {
    t = await startTestApp({ TENANT_POOL_MAX: '10' });
    await t.dbs.createTenant('rush');
    await seedMenu(t.dbs, 'rush');
    api = tenantApi(t.http, 'rush');
  });

  afterAll(() => t.close());

  const open = async () =>
    (
      await api
        .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
        .expect(201)
    ).body as {
      id_comanda: number;
    };

  it('closes a comanda exactly once when many cashiers press cerrar together', async () => {
    const { id_comanda: id } = await open();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => api.put(`/comandas/${id}`, { action: 'cerrar' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    for (const r of results.filter((r) => r.status === 409))
      expect(r.body.code).toBe('INVALID_TRANSITION');
    const events = await t.dbs.query(
      db(),
      "SELECT 1 FROM comanda_eventos WHERE id_comanda = $1 AND accion = 'cerrar'",
      [id],
    );
    expect(events).toHaveLength(1);
    const [row] = await t.dbs.query(
      db(),
      'SELECT estado, version FROM comandas WHERE id_comanda = $1',
      [id],
    );
    expect(row).toEqual({ estado: 'cerrada', version: 2 });
  });

  it('keeps every line added in parallel, and the closed total is the sum of the lines', async () => {
    const { id_comanda: id } = await open();
    const adds = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api.post(`/comandas/${id}/items`, {
          id_producto: i % 2 ? MENU.lomo.id : MENU.chicha.id,
          cantidad: 1 + (i % 3),
        }),
      ),
    );
    expect(adds.map((r) => r.status)).toEqual(Array(25).fill(201));
    const closed = await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
    const [sums] = await t.dbs.query<{
      lines: number;
      sum: string;
      total: string;
      version: number;
    }>(
      db(),
      `SELECT (SELECT count(*)::int FROM deta_comandas WHERE id_comanda = $1) AS lines,
              (SELECT sum(subtotal) FROM deta_comandas WHERE id_comanda = $1) AS sum,
              total, version FROM comandas WHERE id_comanda = $1`,
      [id],
    );
    expect(sums.lines).toBe(26);
    expect(sums.total).toBe(sums.sum);
    expect(closed.body.total).toBe(Number(sums.sum));
    expect(sums.version).toBe(27); // one version per change: nothing was lost
  });

  it('lets one of several edits carrying the same If-Match win; the others get 412', async () => {
    const { id_comanda: id } = await open();
    const results = await Promise.all(
      [1, 2, 3, 1, 2, 3].map((mesa) =>
        api.put(`/comandas/${id}`, { id_mesa: mesa }).set('If-Match', '"1"'),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(5);
    const winner = results.find((r) => r.status === 200)!;
    const [row] = await t.dbs.query<{ id_mesa: number; version: number }>(
      db(),
      'SELECT id_mesa, version FROM comandas WHERE id_comanda = $1',
      [id],
    );
    expect(row).toEqual({ id_mesa: winner.body.id_mesa, version: 2 });
  });

  it('never lets a line slip into a comanda that is being closed', async () => {
    const { id_comanda: id } = await open();
    const [close, ...adds] = await Promise.all([
      api.put(`/comandas/${id}`, { action: 'cerrar' }),
      ...Array.from({ length: 10 }, () =>
        api.post(`/comandas/${id}/items`, { id_producto: MENU.chicha.id, cantidad: 1 }),
      ),
    ]);
    expect(close.status).toBe(200);
    const accepted = adds.filter((r) => r.status === 201).length;
    expect(
      adds.every(
        (r) => r.status === 201 || (r.status === 409 && r.body.code === 'INVALID_TRANSITION'),
      ),
    ).toBe(true);
    const [row] = await t.dbs.query<{ total: string; sum: string; lines: number }>(
      db(),
      `SELECT total, (SELECT sum(subtotal) FROM deta_comandas WHERE id_comanda = $1) AS sum,
              (SELECT count(*)::int FROM deta_comandas WHERE id_comanda = $1) AS lines
         FROM comandas WHERE id_comanda = $1`,
      [id],
    );
    expect(row.lines).toBe(1 + accepted);
    expect(row.total).toBe(row.sum);
  });
});
