import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import type { Ventas } from './oracle';

/**
 * A tenant that has the reports or the webhooks off pays nothing for their triggers (their
 * WHEN clauses read the session setting the service's connections carry), and a report asked
 * for once the feature is on again still counts every sale, those closed while it was off too.
 */
describe('the triggers of a feature that is off', () => {
  let t: TestApp;

  beforeAll(async () => {
    // the global switches on: each tenant turns them off in its catalog row
    t = await startTestApp({ FEATURE_REPORTES: 'true', FEATURE_WEBHOOKS: 'true' });
  });
  afterAll(() => t.close());

  const count = async (slug: string, table: string): Promise<number> =>
    Number(
      (
        await t.dbs.query<{ n: string }>(
          t.dbs.tenantUrl(slug),
          `SELECT count(*) AS n FROM ${table}`,
        )
      )[0].n,
    );

  const features = (slug: string, value: object) =>
    t.dbs.query(t.dbs.controlUrl, 'UPDATE tenants SET features = $2 WHERE slug = $1', [
      slug,
      JSON.stringify(value),
    ]);

  /** Opens a comanda of one ceviche and closes it: the bill is S/ 38. */
  async function sale(api: TenantApi): Promise<number> {
    const created = await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    const id = (created.body as { id_comanda: number }).id_comanda;
    await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
    return id;
  }

  async function tenant(slug: string, off: object): Promise<TenantApi> {
    await t.dbs.createTenant(slug, { features: off });
    await seedMenu(t.dbs, slug);
    // an endpoint kept from when the feature was on
    await t.dbs.query(
      t.dbs.tenantUrl(slug),
      "INSERT INTO webhooks (url, eventos, secreto) VALUES ('https://example.com/hook', '{comanda.*}', 'whsec_x')",
    );
    return tenantApi(t.http, slug);
  }

  it('writes no report marks and no webhook messages while both are off', async () => {
    const api = await tenant('apagado', { reportes: false, webhooks: false });
    for (let i = 0; i < 3; i += 1) await sale(api);
    expect(await count('apagado', 'reportes_cambios')).toBe(0);
    expect(await count('apagado', 'webhook_mensajes')).toBe(0);
  });

  it('marks and queues as before while they are on', async () => {
    const api = await tenant('encendido', {});
    await sale(api);
    expect(await count('encendido', 'reportes_cambios')).toBeGreaterThan(0);
    expect(await count('encendido', 'webhook_mensajes')).toBeGreaterThan(0);
  });

  it('counts in the report the sales closed while the reports were off', async () => {
    const api = await tenant('vuelta', {});
    await sale(api);
    const before = (await api.get('/reportes/ventas').expect(200)).body as Ventas;
    expect(before.totales).toMatchObject({ comandas: 1, venta_bruta: 38 });

    await features('vuelta', { reportes: false });
    await api.get('/reportes/ventas').expect(404);
    await sale(api);
    await sale(api);
    expect(await count('vuelta', 'reportes_cambios')).toBe(0);

    await features('vuelta', {});
    const after = (await api.get('/reportes/ventas').expect(200)).body as Ventas;
    expect(after.totales).toMatchObject({ comandas: 3, venta_bruta: 114 });
  });
});
