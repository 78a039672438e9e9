import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

describe('cobros', () => {
  let t: TestApp;
  let api: TenantApi;

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COBROS: 'true' });
    await t.dbs.createTenant('casa');
    await seedMenu(t.dbs, 'casa');
    api = tenantApi(t.http, 'casa');
  });
  afterAll(() => t.close());

  it('smoke', async () => {
    const metodos = await api.get('/metodos-pago').expect(200);
    console.log(metodos.body);
    const cajas = await api.get('/cajas').expect(200);
    console.log(JSON.stringify(cajas.body));
    const opened = await api.post('/cajas/1/sesiones', { monto_apertura: 200 });
    console.log(opened.status, JSON.stringify(opened.body, null, 1));
    const c = await api
      .post('/comandas', {
        items: [
          { id_producto: MENU.lomo.id, cantidad: 1 },
          { id_producto: MENU.chicha.id, cantidad: 1 },
        ],
      })
      .expect(201);
    console.log(JSON.stringify(c.body, null, 1));
    const paid = await api.post(`/comandas/${c.body.id_comanda}/pagos`, {
      id_metodo_pago: 1,
      monto: 100,
      propina: 2,
    });
    console.log(paid.status, JSON.stringify(paid.body, null, 1));
    const closed = await api.put(`/comandas/${c.body.id_comanda}`, { action: 'cerrar' });
    console.log(closed.status, JSON.stringify(closed.body));
    const x = await api
      .get(`/sesiones-caja/${opened.body.sesion.id_sesion}/reporte`)
      .set('Accept', 'text/plain');
    console.log(x.status, x.text);
    const z = await api.post(`/sesiones-caja/${opened.body.sesion.id_sesion}/cerrar`, {
      contado: [{ id_metodo_pago: 1, monto: 250 }],
    });
    console.log(z.status, JSON.stringify(z.body, null, 1));
  });
});
