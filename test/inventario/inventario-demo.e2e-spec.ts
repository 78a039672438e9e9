import { replayDemoLedger } from '../support/demo-ledger-replay';
import { seedDemo, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The demo restaurant's stock ledger: the purchases and sales since the stock went live (the
 * first of the month two months back) as the module would have posted them, as an owner
 * opening "Inventario" on the demo would read it.
 */
describe('inventario: the demo tenant’s year in the ledger', () => {
  let t: TestApp;
  let api: TenantApi;
  let url: string;

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_INVENTARIO: 'true' });
    await t.dbs.createTenant('demo', { timeZone: 'America/Lima' });
    await seedDemo(t.dbs, 'demo');
    api = tenantApi(t.http, 'demo');
    url = t.dbs.tenantUrl('demo');
  });
  afterAll(() => t.close());

  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    t.dbs.query<T>(url, text, params);

  it('food cost since the stock went live is what a cevichería runs at (28–35 %), actual above theoretical', async () => {
    const [{ alta }] = await sql<{ alta: Date }>(
      `SELECT min(fec) AS alta FROM stock_movimientos WHERE tipo = 'inicial'`,
    );
    const desde = alta.toISOString().slice(0, 10);
    const res = await api.get(`/inventario/consumo?desde=${desde}`).expect(200);
    const body = res.body as {
      comandas: number;
      ventas_netas: number;
      food_cost_teorico_pct: number;
      food_cost_real_pct: number;
      materiales: { merma_cantidad: number; ajuste_cantidad: number }[];
    };
    const [{ cerradas }] = await sql<{ cerradas: number }>(
      `SELECT count(*)::int AS cerradas FROM comandas
        WHERE estado = 'cerrada' AND NOT eliminada
          AND fec_cierre >= (($1::date)::timestamp AT TIME ZONE 'America/Lima')`,
      [desde],
    );
    expect(body.comandas).toBe(cerradas);
    expect(body.ventas_netas).toBeGreaterThan(0);
    expect(body.food_cost_teorico_pct).toBeGreaterThanOrEqual(28);
    expect(body.food_cost_real_pct).toBeLessThanOrEqual(35);
    expect(body.food_cost_real_pct).toBeGreaterThan(body.food_cost_teorico_pct);
    // the difference is the waste recorded and what the counts found missing
    expect(body.materiales.some((m) => m.merma_cantidad > 0)).toBe(true);
    expect(body.materiales.some((m) => m.ajuste_cantidad < 0)).toBe(true);
  });

  it('every line with a recipe closed since the stock went live is consumed once, at the close; voided and earlier ones not at all', async () => {
    const lines = await sql<{
      estado: string;
      eliminada: boolean;
      desde_alta: boolean;
      vivos: number;
      fuera: number;
    }>(
      `SELECT c.estado, c.eliminada,
              c.fec_cierre > (SELECT min(fec) FROM stock_movimientos WHERE tipo = 'inicial') AS desde_alta,
              count(v.id_consumo)::int AS vivos,
              count(*) FILTER (WHERE v.id_consumo IS NOT NULL AND v.fec <> c.fec_cierre)::int AS fuera
         FROM deta_comandas d
         JOIN comandas c ON c.id_comanda = d.id_comanda
         LEFT JOIN consumos_venta v ON v.id_item = d.id_deta_comanda AND NOT v.revertido
        WHERE EXISTS (SELECT 1 FROM receta_producto r WHERE r.id_producto = d.id_producto)
        GROUP BY d.id_deta_comanda, c.estado, c.eliminada, c.fec_cierre`,
    );
    expect(lines.filter((l) => l.desde_alta && l.vivos === 1).length).toBeGreaterThan(10_000);
    for (const line of lines) {
      expect(line.vivos).toBe(
        line.estado === 'cerrada' && !line.eliminada && line.desde_alta ? 1 : 0,
      );
      expect(line.fuera).toBe(0);
    }
  });

  it('balances are the sums of the movements, none negative, every purchase line since the stock went live in the book', async () => {
    const sums = await sql<{ iguales: boolean }>(
      `SELECT s.cantidad = coalesce(sum(m.cantidad), 0) AND s.valor = coalesce(sum(m.valor), 0) AS iguales
         FROM stock_saldos s LEFT JOIN stock_movimientos m ON m.id_mat_prima = s.id_mat_prima
        GROUP BY s.id_mat_prima, s.cantidad, s.valor`,
    );
    expect(sums.length).toBeGreaterThan(30);
    expect(sums.every((s) => s.iguales)).toBe(true);

    const [purchases] = await sql<{ lineas: number; asentadas: number }>(
      `SELECT count(*)::int AS lineas,
              count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM stock_movimientos m
                 WHERE m.origen = 'compra' AND m.id_origen = d.id_deta_comp_materia
                   AND m.tipo = 'compra' AND m.cantidad = d.cantidad))::int AS asentadas
         FROM deta_comp_materias d
         JOIN compras c ON c.id_compra = d.id_compra
        WHERE c.fec_compra > (SELECT min(fec) FROM stock_movimientos WHERE tipo = 'inicial')`,
    );
    expect(purchases.lineas).toBeGreaterThan(100);
    expect(purchases.asentadas).toBe(purchases.lineas);

    const saldos = (await api.get('/inventario').expect(200)).body as {
      nombre: string;
      cantidad: number;
      costo_promedio: number;
      negativo: boolean;
    }[];
    expect(saldos.filter((s) => s.negativo)).toEqual([]);
    // every material used by a recipe has a price: nothing was sold at cost 0
    const [{ sin_costo }] = await sql<{ sin_costo: number }>(
      `SELECT count(*)::int AS sin_costo FROM stock_movimientos
        WHERE tipo = 'consumo_venta' AND costo_unitario = 0`,
    );
    expect(sin_costo).toBe(0);
  });

  it('the computed ledger is what the module’s own functions post, row for row', async () => {
    // a second demo of the same day, its ledger posted again one effect at a time
    await t.dbs.createTenant('replay', { timeZone: 'America/Lima' });
    await seedDemo(t.dbs, 'replay');
    const replayUrl = t.dbs.tenantUrl('replay');
    await replayDemoLedger(replayUrl);
    const tables = {
      stock_movimientos: `SELECT id_movimiento, id_mat_prima, tipo, cantidad, costo_unitario, valor,
                                 saldo_cantidad, saldo_costo, origen, id_origen, id_documento, fec,
                                 id_usuario, motivo
                            FROM stock_movimientos ORDER BY id_movimiento`,
      consumos_venta: `SELECT id_consumo, id_item, id_comanda, id_producto, cantidad, costo_teorico,
                              fec, revertido
                         FROM consumos_venta ORDER BY id_consumo`,
      stock_saldos: `SELECT id_mat_prima, cantidad, valor, costo_promedio, movimientos
                       FROM stock_saldos ORDER BY id_mat_prima`,
      conteo_lineas: `SELECT id_conteo, id_mat_prima, contado, sistema FROM conteo_lineas
                       ORDER BY id_conteo, id_mat_prima`,
      conteos: `SELECT id_conteo, estado, fec_corte, fec_aplicacion, id_usuario_aplica FROM conteos
                 ORDER BY id_conteo`,
      inventario_periodo: 'SELECT cerrado_hasta FROM inventario_periodo',
    };
    for (const [table, query] of Object.entries(tables)) {
      const computed = await t.dbs.query(url, query);
      const posted = await t.dbs.query(replayUrl, query);
      expect({ table, rows: computed.length }).toEqual({ table, rows: posted.length });
      expect(computed.length).toBeGreaterThan(0);
      // compared in slices, so a difference names its rows instead of one huge diff
      for (let i = 0; i < computed.length; i += 5000) {
        expect({ table, rows: computed.slice(i, i + 5000) }).toEqual({
          table,
          rows: posted.slice(i, i + 5000),
        });
      }
    }
  }, 300_000);

  it('counts were applied at the end of each past month: the period is closed at the last one', async () => {
    const counts = (await api.get('/inventario/conteos?limit=50').expect(200)).body as {
      estado: string;
      fec_corte: string;
      acciones: string[];
    }[];
    // the two months that ended since the stock went live
    expect(counts.length).toBe(2);
    expect(counts.every((c) => c.estado === 'aplicado' && c.acciones.length === 0)).toBe(true);
    const [{ cerrado_hasta, ultimo }] = await sql<{ cerrado_hasta: Date; ultimo: Date }>(
      `SELECT p.cerrado_hasta, (SELECT max(fec_corte) FROM conteos) AS ultimo FROM inventario_periodo p`,
    );
    expect(cerrado_hasta.toISOString()).toBe(ultimo.toISOString());
    // a month-end cut-off at 23:00 in Lima, the next day being the 1st
    const local = new Date(ultimo.getTime() - 5 * 3_600_000 + 3_600_000);
    expect(local.getUTCDate()).toBe(1);
    expect(local.getUTCHours()).toBe(0);
  });
});
