import { MENU, seedMenu, tenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

describe('comandas: tenant B cannot reach tenant A’s comandas', () => {
  let t: TestApp;
  let idA: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant('tenant-a');
    await t.dbs.createTenant('tenant-b');
    await seedMenu(t.dbs, 'tenant-a');
    await seedMenu(t.dbs, 'tenant-b');
    const created = await tenantApi(t.http, 'tenant-a')
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    idA = created.body.id_comanda;
  });

  afterAll(() => t.close());

  it('B gets 404 reading, changing, closing, deleting or adding to A’s comanda, and A’s row is untouched', async () => {
    const b = tenantApi(t.http, 'tenant-b');
    const attempts = [
      b.get(`/comandas/${idA}`),
      b.get(`/comandas/${idA}/eventos`),
      b.put(`/comandas/${idA}`, { action: 'cerrar' }),
      b.put(`/comandas/${idA}`, { observacion: 'hola' }),
      b.delete(`/comandas/${idA}`),
      b.post(`/comandas/${idA}/items`, { id_producto: MENU.chicha.id, cantidad: 1 }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('COMANDA_NOT_FOUND');
    }
    expect((await b.get('/comandas').expect(200)).body).toEqual([]);
    const [row] = await t.dbs.query(
      t.dbs.tenantUrl('tenant-a'),
      'SELECT estado, eliminada, version, observacion FROM comandas WHERE id_comanda = $1',
      [idA],
    );
    expect(row).toEqual({ estado: 'abierta', eliminada: false, version: 1, observacion: null });
    const lines = await t.dbs.query(
      t.dbs.tenantUrl('tenant-a'),
      'SELECT count(*)::int AS n FROM deta_comandas',
    );
    expect(lines).toEqual([{ n: 1 }]);
  });

  it('A still sees its comanda', async () => {
    const res = await tenantApi(t.http, 'tenant-a').get('/comandas').expect(200);
    expect(res.body.map((c: { id_comanda: number }) => c.id_comanda)).toEqual([idA]);
  });
});
