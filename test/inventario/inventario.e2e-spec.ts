import { Client } from 'pg';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/** Materials of the fixture (ids in a fresh tenant): fish by the kg, limes, onions. */
const PESCADO = 1;
const LIMON = 2;
const CEBOLLA = 3;
/** The ceviche's recipe per portion. */
const RECETA_CEVICHE = { [PESCADO]: 0.2, [LIMON]: 0.1, [CEBOLLA]: 0.05 };

interface Saldo {
  id_mat_prima: number;
  cantidad: number;
  costo_promedio: number;
  valor: number;
  negativo: boolean;
  bajo_minimo: boolean;
}

interface Movimiento {
  id_movimiento: number;
  id_mat_prima: number;
  tipo: string;
  cantidad: number;
  costo_unitario: number;
  valor: number;
  origen: string;
  id_documento: number | null;
}

describe('inventario: stock from recipes', () => {
  let t: TestApp;
  let tenants = 0;

  beforeAll(async () => {
    t = await startTestApp({
      FEATURE_INVENTARIO: 'true',
      FEATURE_RPC: 'true',
      FEATURE_GENERIC_TABLES: 'true',
    });
  });
  afterAll(() => t.close());

  async function fresh(
    features: Record<string, boolean> = {},
  ): Promise<{ api: TenantApi; url: string; slug: string }> {
    tenants += 1;
    const slug = `inv${tenants}`;
    await t.dbs.createTenant(slug, { features });
    await seedMenu(t.dbs, slug);
    const url = t.dbs.tenantUrl(slug);
    await t.dbs.query(
      url,
      `INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'kg'), ('Cebolla roja', 'kg');
       UPDATE mate_primas SET stock_minimo = 2 WHERE id_mat_prima = 1;
       INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES
         (1, 1, 0.2), (1, 2, 0.1), (1, 3, 0.05);
       INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero');`,
    );
    return { api: tenantApi(t.http, slug), url, slug };
  }

  const saldos = async (api: TenantApi): Promise<Record<number, Saldo>> =>
    Object.fromEntries(
      ((await api.get('/inventario').expect(200)).body as Saldo[]).map((s) => [s.id_mat_prima, s]),
    );

  const movimientos = async (api: TenantApi, query = ''): Promise<Movimiento[]> =>
    (await api.get(`/inventario/movimientos?limit=500${query}`).expect(200)).body as Movimiento[];

  const buy = (api: TenantApi, detalles: object[], extra: object = {}) =>
    api.post('/rpc/save_compra', { id_proveedor: 1, detalles, ...extra }).expect(200);

  async function closedCeviche(api: TenantApi, cantidad = 1): Promise<number> {
    const c = await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad }] })
      .expect(201);
    await api.put(`/comandas/${c.body.id_comanda}`, { action: 'cerrar' }).expect(200);
    return c.body.id_comanda as number;
  }

  it('brings a purchase’s raw-material lines in and moves the average cost by the formula', async () => {
    const { api } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }]);
    await buy(api, [
      { id_mat_prima: PESCADO, cantidad: 5, costo_unitario: 36 },
      { id_producto: MENU.chicha.id, cantidad: 24, costo_unitario: 2.5 },
    ]);
    const s = await saldos(api);
    // (10 × 30 + 5 × 36) / 15 = 32
    expect(s[PESCADO]).toMatchObject({ cantidad: 15, costo_promedio: 32, valor: 480 });
    expect(s[LIMON]).toMatchObject({ cantidad: 0, costo_promedio: 0, valor: 0 });
    const m = await movimientos(api, `&id_mat_prima=${PESCADO}`);
    expect(m.map((x) => [x.tipo, x.cantidad, x.costo_unitario])).toEqual([
      ['compra', 5, 36],
      ['compra', 10, 30],
    ]);
  });

  it('writes reversals and new rows when a purchase is edited or deleted, never changing old ones', async () => {
    const { api } = await fresh();
    const saved = await buy(api, [{ id_mat_prima: LIMON, cantidad: 8, costo_unitario: 5 }]);
    const id = saved.body.id_compra as number;
    await api
      .post('/rpc/save_compra', {
        id_compra: id,
        id_proveedor: 1,
        detalles: [{ id_mat_prima: LIMON, cantidad: 6, costo_unitario: 5 }],
      })
      .expect(200);
    expect((await saldos(api))[LIMON]).toMatchObject({ cantidad: 6, valor: 30 });
    await api.post('/rpc/delete_compra', { id_compra: id }).expect(200);
    expect((await saldos(api))[LIMON]).toMatchObject({ cantidad: 0, valor: 0 });
    const m = await movimientos(api, `&id_mat_prima=${LIMON}`);
    expect(m.map((x) => [x.tipo, x.cantidad]).sort()).toEqual(
      [
        ['compra', 8],
        ['reverso_compra', -8],
        ['compra', 6],
        ['reverso_compra', -6],
      ].sort(),
    );
    expect(m.every((x) => x.id_documento === id)).toBe(true);
  });

  it('the generic routes cannot bring stock in past the ledger: purchases are save_compra’s', async () => {
    const { api } = await fresh();
    const before = (await saldos(api))[CEBOLLA];
    const saved = await buy(api, [{ id_mat_prima: CEBOLLA, cantidad: 1, costo_unitario: 3 }]);
    const id = saved.body.id_compra as number;
    const after = (await saldos(api))[CEBOLLA];
    for (const [table, body] of [
      ['compras', { id_proveedor: 1, total: 500 }],
      [
        'deta_comp_materias',
        { id_compra: id, id_mat_prima: CEBOLLA, cantidad: 4, costo_unitario: 3.2 },
      ],
    ] as const) {
      const res = await api.post(`/table/${table}`, body).expect(400);
      expect(res.body).toMatchObject({
        code: 'TABLE_READ_ONLY',
        detail: {
          table,
          routes: ['POST /api/v1/rpc/save_compra', 'POST /api/v1/rpc/delete_compra'],
        },
      });
    }
    expect((await saldos(api))[CEBOLLA]).toEqual(after);
    expect(after).not.toEqual(before);
  });

  it('consumes the recipe at the close, valued at the average cost, and stores the line’s cost', async () => {
    const { api, url } = await fresh();
    await buy(api, [
      { id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 },
      { id_mat_prima: LIMON, cantidad: 5, costo_unitario: 4 },
      { id_mat_prima: CEBOLLA, cantidad: 5, costo_unitario: 3 },
    ]);
    const id = await closedCeviche(api, 2);
    const s = await saldos(api);
    expect(s[PESCADO].cantidad).toBe(10 - 2 * RECETA_CEVICHE[PESCADO]);
    expect(s[LIMON].cantidad).toBe(5 - 2 * RECETA_CEVICHE[LIMON]);
    expect(s[CEBOLLA].cantidad).toBe(4.9);
    // an outflow leaves the average as it was
    expect(s[PESCADO].costo_promedio).toBe(30);
    const consumo = await movimientos(api, '&tipo=consumo_venta');
    expect(consumo).toHaveLength(3);
    expect(consumo.every((m) => m.id_documento === id && m.origen === 'consumo')).toBe(true);
    const [line] = await t.dbs.query<{ costo_teorico: string }>(
      url,
      'SELECT costo_teorico::text FROM consumos_venta WHERE id_comanda = $1',
      [id],
    );
    // 0.4 kg × 30 + 0.2 kg × 4 + 0.1 kg × 3
    expect(line.costo_teorico).toBe('13.1000');
  });

  it('a close, reopen and close nets exactly one consumption; a deleted closed comanda gives it back', async () => {
    const { api } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }]);
    const id = await closedCeviche(api);
    await api.put(`/comandas/${id}`, { action: 'abrir' }).expect(200);
    expect((await saldos(api))[PESCADO].cantidad).toBe(10);
    await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
    expect((await saldos(api))[PESCADO]).toMatchObject({ cantidad: 9.8, valor: 294 });
    const tipos = (await movimientos(api, `&id_mat_prima=${PESCADO}`)).map((m) => m.tipo);
    expect(tipos).toEqual(['consumo_venta', 'reverso_consumo', 'consumo_venta', 'compra']);
    await api.delete(`/comandas/${id}`).expect(200);
    expect((await saldos(api))[PESCADO].cantidad).toBe(10);
    await api.put(`/comandas/${id}`, { action: 'restaurar' }).expect(200);
    expect((await saldos(api))[PESCADO].cantidad).toBe(9.8);
  });

  it('uses the recipe as it is at the close: a later change leaves that close’s consumption as it was', async () => {
    const { api, url } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }]);
    await closedCeviche(api);
    await t.dbs.query(
      url,
      'UPDATE receta_producto SET cantidad = 0.5 WHERE id_producto = 1 AND id_mat_prima = 1',
    );
    expect((await saldos(api))[PESCADO].cantidad).toBe(9.8);
    await closedCeviche(api);
    expect((await saldos(api))[PESCADO].cantidad).toBe(9.3);
  });

  it('allows negative stock, flags it and never blocks a sale; flags stock under the minimum', async () => {
    const { api } = await fresh();
    await closedCeviche(api);
    const s = await saldos(api);
    expect(s[PESCADO]).toMatchObject({ cantidad: -0.2, negativo: true, bajo_minimo: true });
    expect(s[LIMON]).toMatchObject({ negativo: true, bajo_minimo: false });
    // stock comes back: the average becomes the incoming cost when the stock was at or below 0
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 40 }]);
    expect((await saldos(api))[PESCADO]).toMatchObject({
      cantidad: 0.8,
      costo_promedio: 40,
      negativo: false,
    });
  });

  it('records waste with its reason at the average cost; validates it', async () => {
    const { api } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }]);
    const res = await api
      .post('/inventario/mermas', {
        id_mat_prima: PESCADO,
        cantidad: 0.5,
        motivo: 'cadena de frío',
      })
      .expect(201);
    expect(res.body).toMatchObject({
      tipo: 'merma',
      cantidad: -0.5,
      costo_unitario: 30,
      valor: -15,
      origen: 'merma',
      motivo: 'cadena de frío',
      saldo_cantidad: 9.5,
    });
    const missing = await api
      .post('/inventario/mermas', { id_mat_prima: PESCADO, cantidad: 1 })
      .expect(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');
    const unknown = await api
      .post('/inventario/mermas', { id_mat_prima: 99, cantidad: 1, motivo: 'x' })
      .expect(400);
    expect(unknown.body).toMatchObject({ code: 'MATERIA_NOT_FOUND', detail: { id_mat_prima: 99 } });
    await api
      .post('/inventario/mermas', { id_mat_prima: PESCADO, cantidad: 0, motivo: 'x' })
      .expect(400);
    await api
      .post('/inventario/mermas', { id_mat_prima: PESCADO, cantidad: 0.00001, motivo: 'x' })
      .expect(400);
  });

  it('counts: a draft shows the differences, applying posts them once at the cut-off', async () => {
    const { api } = await fresh();
    await buy(api, [
      { id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 },
      { id_mat_prima: LIMON, cantidad: 5, costo_unitario: 4 },
    ]);
    const draft = await api
      .post('/inventario/conteos', {
        observacion: 'cierre de semana',
        lineas: [
          { id_mat_prima: PESCADO, contado: 9.5 },
          { id_mat_prima: LIMON, contado: 5 },
        ],
      })
      .expect(201);
    expect(draft.body).toMatchObject({
      estado: 'borrador',
      total_lineas: 2,
      valor_diferencias: -15,
      acciones: ['editar', 'aplicar', 'descartar'],
    });
    expect(draft.body.lineas).toEqual([
      expect.objectContaining({ id_mat_prima: LIMON, contado: 5, sistema: 5, diferencia: 0 }),
      expect.objectContaining({
        id_mat_prima: PESCADO,
        contado: 9.5,
        sistema: 10,
        diferencia: -0.5,
        valor_diferencia: -15,
      }),
    ]);
    const id = draft.body.id_conteo as number;
    const patched = await api
      .patch(`/inventario/conteos/${id}`, {
        lineas: [
          { id_mat_prima: LIMON, contado: null },
          { id_mat_prima: CEBOLLA, contado: 1 },
        ],
      })
      .expect(200);
    expect(patched.body.lineas.map((l: { id_mat_prima: number }) => l.id_mat_prima)).toEqual([
      CEBOLLA,
      PESCADO,
    ]);
    const applied = await api.post(`/inventario/conteos/${id}/aplicar`).expect(200);
    expect(applied.body).toMatchObject({ estado: 'aplicado', acciones: [] });
    const s = await saldos(api);
    expect(s[PESCADO].cantidad).toBe(9.5);
    expect(s[CEBOLLA]).toMatchObject({ cantidad: 1, costo_promedio: 0 });
    const ajustes = await movimientos(api, '&tipo=ajuste_conteo');
    expect(ajustes.map((m) => [m.id_mat_prima, m.cantidad]).sort()).toEqual(
      [
        [PESCADO, -0.5],
        [CEBOLLA, 1],
      ].sort(),
    );
    const again = await api.post(`/inventario/conteos/${id}/aplicar`).expect(409);
    expect(again.body).toMatchObject({ code: 'CONTEO_NO_BORRADOR' });
    await api.patch(`/inventario/conteos/${id}`, { lineas: [] }).expect(409);
    const list = await api.get('/inventario/conteos').expect(200);
    expect(list.headers['x-total-count']).toBe('1');
  });

  it('refuses anything dated before the last applied count’s cut-off (409 PERIODO_CERRADO)', async () => {
    const { api } = await fresh();
    const counted = await api
      .post('/inventario/conteos', {
        fec_corte: '2026-11-01T00:00:00-05:00',
        lineas: [{ id_mat_prima: PESCADO, contado: 0 }],
      })
      .expect(201);
    await api.post(`/inventario/conteos/${counted.body.id_conteo}/aplicar`).expect(200);
    const old = await api
      .post('/rpc/save_compra', {
        id_proveedor: 1,
        fec_compra: '2026-10-20T10:00:00-05:00',
        detalles: [{ id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 }],
      })
      .expect(409);
    expect(old.body).toMatchObject({ code: 'PERIODO_CERRADO' });
    await api
      .post('/inventario/mermas', {
        id_mat_prima: PESCADO,
        cantidad: 1,
        motivo: 'x',
        fec: '2026-10-31T12:00',
      })
      .expect(409);
    const earlier = await api
      .post('/inventario/conteos', {
        fec_corte: '2026-10-15T00:00:00-05:00',
        lineas: [{ id_mat_prima: PESCADO, contado: 0 }],
      })
      .expect(409);
    expect(earlier.body.code).toBe('PERIODO_CERRADO');
    const future = await api
      .post('/inventario/conteos', {
        fec_corte: '2099-01-01T00:00:00Z',
        lineas: [{ id_mat_prima: PESCADO, contado: 0 }],
      })
      .expect(400);
    expect(future.body.code).toBe('CORTE_FUTURO');
    // nothing of the refused purchase stayed
    expect((await api.get('/rpc/report_gastos?year=2026').expect(200)).body).toBeDefined();
    expect((await saldos(api))[PESCADO].cantidad).toBe(0);
  });

  it('counts a posting dated exactly at the cut-off in the closed period: refused, the count stays true', async () => {
    const { api } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }], {
      fec_compra: '2026-10-20T10:00:00-05:00',
    });
    const corte = '2026-11-01T00:00:00-05:00';
    const counted = await api
      .post('/inventario/conteos', {
        fec_corte: corte,
        lineas: [{ id_mat_prima: PESCADO, contado: 9 }],
      })
      .expect(201);
    await api.post(`/inventario/conteos/${counted.body.id_conteo}/aplicar`).expect(200);
    // a purchase, waste and another count dated at the cut-off itself fall in the closed period
    const atCut = await api
      .post('/rpc/save_compra', {
        id_proveedor: 1,
        fec_compra: corte,
        detalles: [{ id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 }],
      })
      .expect(409);
    expect(atCut.body).toMatchObject({
      code: 'PERIODO_CERRADO',
      detail: { cerrado_hasta: '2026-11-01T05:00:00.000000Z' },
    });
    await api
      .post('/inventario/mermas', {
        id_mat_prima: PESCADO,
        cantidad: 1,
        motivo: 'x',
        fec: '2026-11-01T00:00',
      })
      .expect(409);
    const sameCut = await api
      .post('/inventario/conteos', {
        fec_corte: corte,
        lineas: [{ id_mat_prima: PESCADO, contado: 5 }],
      })
      .expect(409);
    expect(sameCut.body.code).toBe('PERIODO_CERRADO');
    // the ledger up to the cut-off still holds what was counted
    const upTo = await movimientos(
      api,
      `&id_mat_prima=${PESCADO}&hasta=${encodeURIComponent(corte)}`,
    );
    expect(upTo.map((m) => [m.tipo, m.cantidad])).toEqual([
      ['ajuste_conteo', -1],
      ['compra', 10],
    ]);
    // a second later is the next period
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 }], {
      fec_compra: '2026-11-01T00:00:01-05:00',
    });
    expect((await saldos(api))[PESCADO].cantidad).toBe(10);
  });

  it('restores a deleted closed comanda after a count: consumed again at the restore, not refused', async () => {
    const { api, url } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 }]);
    const id = await closedCeviche(api);
    await api.delete(`/comandas/${id}`).expect(200);
    const conteo = await api
      .post('/inventario/conteos', { lineas: [{ id_mat_prima: PESCADO, contado: 10 }] })
      .expect(201);
    await api.post(`/inventario/conteos/${conteo.body.id_conteo}/aplicar`).expect(200);
    // the deletion gave the ingredients back before the cut-off; the restore takes them again now
    await api.put(`/comandas/${id}`, { action: 'restaurar' }).expect(200);
    expect((await saldos(api))[PESCADO].cantidad).toBe(9.8);
    const [last] = await movimientos(api, `&id_mat_prima=${PESCADO}`);
    expect(last).toMatchObject({ tipo: 'consumo_venta', cantidad: -0.2, id_documento: id });
    const [dated] = await t.dbs.query<{ after: boolean }>(
      url,
      `SELECT m.fec > c.fec_corte AS after FROM stock_movimientos m, conteos c
        WHERE m.id_movimiento = $1 AND c.id_conteo = $2`,
      [last.id_movimiento, conteo.body.id_conteo],
    );
    expect(dated.after).toBe(true);
  });

  it('applies a count while a change is half way through its postings: it waits, no deadlock', async () => {
    const { api, url } = await fresh();
    // none of the materials has a balance row yet, and Pescado's row was edited by the fixture:
    // the table holds it after Limón and Cebolla, whose ids are higher
    const draft = await api
      .post('/inventario/conteos', { lineas: [{ id_mat_prima: LIMON, contado: 0 }] })
      .expect(201);
    // a change posting waste of Pescado and then of Cebolla (ascending ids, as every change
    // posts), caught between the two while the count is applied
    const waste = (id: number) =>
      `WITH merma AS (
         INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec) VALUES (${id}, 1, 'x', now())
         RETURNING *)
       SELECT stock_asentar(m.id_mat_prima, 'merma', -m.cantidad, NULL, 'merma', m.id_merma, NULL,
                            m.fec, NULL, m.motivo)
         FROM merma m`;
    const change = new Client({ connectionString: url });
    await change.connect();
    try {
      await change.query('BEGIN');
      await change.query(waste(PESCADO));
      const applying = api
        .post(`/inventario/conteos/${draft.body.id_conteo}/aplicar`)
        .then((res) => res);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await change.query(waste(CEBOLLA));
      await change.query('COMMIT');
      const applied = await applying;
      expect(applied.status).toBe(200);
      expect(applied.body.estado).toBe('aplicado');
    } finally {
      await change.end();
    }
    const s = await saldos(api);
    expect([s[PESCADO].cantidad, s[LIMON].cantidad, s[CEBOLLA].cantidad]).toEqual([-1, 0, -1]);
  });

  it('the database refuses to change or delete a movement', async () => {
    const { api, url } = await fresh();
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 1, costo_unitario: 30 }]);
    await expect(t.dbs.query(url, 'UPDATE stock_movimientos SET cantidad = 2')).rejects.toThrow(
      /solo anexado/,
    );
    await expect(t.dbs.query(url, 'DELETE FROM stock_movimientos')).rejects.toThrow(/solo anexado/);
    await expect(t.dbs.query(url, 'TRUNCATE stock_movimientos')).rejects.toThrow(/solo anexado/);
    expect((await movimientos(api)).length).toBe(1);
  });

  it('the database keeps a material or a user a movement names, and deletes a material without any', async () => {
    const { api, url } = await fresh();
    await t.dbs.query(
      url,
      `INSERT INTO mate_primas (nombre, unidad) VALUES ('Sal', 'kg'), ('Ají', 'kg')`,
    );
    const [sal, aji] = [4, 5];
    await buy(api, [{ id_mat_prima: sal, cantidad: 2, costo_unitario: 1.5 }]);
    // the purchase's line goes first, so that only the ledger names the material
    await t.dbs.query(url, 'DELETE FROM deta_comp_materias WHERE id_mat_prima = $1', [sal]);
    await expect(
      t.dbs.query(url, 'DELETE FROM mate_primas WHERE id_mat_prima = $1', [sal]),
    ).rejects.toMatchObject({ code: '23503', constraint: 'fk_stock_movimientos_id_mat_prima' });
    await t.dbs.query(url, 'DELETE FROM mate_primas WHERE id_mat_prima = $1', [aji]);
    // a user who recorded a waste: refused as a foreign key (deactivate instead), no longer by
    // the ledger's refusal to be updated (ON DELETE SET NULL before migration 1765300000002)
    await t.dbs.query(
      url,
      `INSERT INTO usuarios (id_usuario, documento, nombre) VALUES (900, 'D-900', 'Eventual');
       SELECT stock_asentar(${sal}, 'merma', -0.25, NULL, 'merma', 900001, NULL, now(), 900, 'húmeda')`,
    );
    await expect(
      t.dbs.query(url, 'DELETE FROM usuarios WHERE id_usuario = 900'),
    ).rejects.toMatchObject({ code: '23503', constraint: 'fk_stock_movimientos_id_usuario' });
    const left = await t.dbs.query<{ tabla: string; id: number }>(
      url,
      `SELECT 'mate_primas' AS tabla, id_mat_prima AS id FROM mate_primas WHERE id_mat_prima IN ($1, $2)
       UNION ALL SELECT 'usuarios', id_usuario FROM usuarios WHERE id_usuario = 900`,
      [sal, aji],
    );
    expect(left).toEqual([
      { tabla: 'mate_primas', id: sal },
      { tabla: 'usuarios', id: 900 },
    ]);
    expect((await saldos(api))[sal]).toMatchObject({ cantidad: 1.75 });
  });

  it('reports theoretical against actual usage, waste, variance and food cost', async () => {
    const { api } = await fresh();
    await buy(api, [
      { id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 },
      { id_mat_prima: LIMON, cantidad: 5, costo_unitario: 4 },
      { id_mat_prima: CEBOLLA, cantidad: 5, costo_unitario: 3 },
    ]);
    await closedCeviche(api, 2);
    await closedCeviche(api, 1);
    await api
      .post('/inventario/mermas', { id_mat_prima: PESCADO, cantidad: 0.3, motivo: 'merma' })
      .expect(201);
    const conteo = await api
      .post('/inventario/conteos', { lineas: [{ id_mat_prima: PESCADO, contado: 9 }] })
      .expect(201);
    await api.post(`/inventario/conteos/${conteo.body.id_conteo}/aplicar`).expect(200);
    // the period since the start (by default it starts at the last applied count's cut-off)
    const r = await api.get('/inventario/consumo?desde=2000-01-01').expect(200);
    const pescado = r.body.materiales.find(
      (m: { id_mat_prima: number }) => m.id_mat_prima === PESCADO,
    );
    // sold 3 ceviches: 0.6 kg; waste 0.3; counted 9 against 9.1 on record: −0.1
    expect(pescado).toMatchObject({
      teorico_cantidad: 0.6,
      teorico_valor: 18,
      merma_cantidad: 0.3,
      merma_valor: 9,
      ajuste_cantidad: -0.1,
      ajuste_valor: -3,
      real_cantidad: 1,
      real_valor: 30,
      varianza_cantidad: 0.4,
      varianza_valor: 12,
    });
    // three ceviches at S/ 38 with IGV 18 %: 2 × 38 → 64.41 + 38 → 32.20
    expect(r.body.comandas).toBe(2);
    expect(r.body.ventas_netas).toBe(96.61);
    // theoretical 0.6 × 30 + 0.3 × 4 + 0.15 × 3 = 19.65
    expect(r.body.costo_teorico).toBe(19.65);
    expect(r.body.food_cost_teorico_pct).toBe(20.34);
    expect(r.body.costo_real).toBe(19.65 + 9 + 3);
  });

  it('costs a dish from its recipe at today’s average costs', async () => {
    const { api } = await fresh();
    await buy(api, [
      { id_mat_prima: PESCADO, cantidad: 10, costo_unitario: 30 },
      { id_mat_prima: LIMON, cantidad: 5, costo_unitario: 4 },
      { id_mat_prima: CEBOLLA, cantidad: 5, costo_unitario: 3 },
    ]);
    const res = await api.get(`/productos/${MENU.ceviche.id}/costo`).expect(200);
    expect(res.body).toMatchObject({
      id_producto: 1,
      precio: 38,
      tasa_igv: 0.18,
      precio_sin_igv: 32.2,
      costo: 6.55,
      food_cost_pct: 20.34,
      con_receta: true,
    });
    expect(res.body.ingredientes).toHaveLength(3);
    const lomo = await api.get(`/productos/${MENU.lomo.id}/costo`).expect(200);
    expect(lomo.body).toMatchObject({ costo: 0, con_receta: false, ingredientes: [] });
    await api.get('/productos/999/costo').expect(404);
  });

  it('keeps each tenant’s stock to itself', async () => {
    const a = await fresh();
    const b = await fresh();
    await buy(a.api, [{ id_mat_prima: PESCADO, cantidad: 3, costo_unitario: 30 }]);
    expect((await saldos(a.api))[PESCADO].cantidad).toBe(3);
    expect((await saldos(b.api))[PESCADO].cantidad).toBe(0);
    expect(await movimientos(b.api)).toEqual([]);
  });

  it('is off for a tenant whose switch is off: no routes, and purchases and closes post nothing', async () => {
    const { api, url } = await fresh({ inventario: false });
    await api.get('/inventario').expect(404);
    await api.get(`/productos/${MENU.ceviche.id}/costo`).expect(404);
    await buy(api, [{ id_mat_prima: PESCADO, cantidad: 3, costo_unitario: 30 }]);
    await closedCeviche(api);
    const [count] = await t.dbs.query<{ n: string }>(
      url,
      'SELECT (SELECT count(*) FROM stock_movimientos) + (SELECT count(*) FROM consumos_venta) AS n',
    );
    expect(count.n).toBe('0');
    expect((await api.get('/me').expect(200)).body.permissions).not.toContain('inventario:read');
  });

  it('answers with Idempotency-Key the first answer again and posts once', async () => {
    const { api } = await fresh();
    const body = { id_mat_prima: PESCADO, cantidad: 1, motivo: 'derrame' };
    const first = await api
      .post('/inventario/mermas', body)
      .set('Idempotency-Key', 'merma-1')
      .expect(201);
    const again = await api
      .post('/inventario/mermas', body)
      .set('Idempotency-Key', 'merma-1')
      .expect(201);
    expect(again.body).toEqual(first.body);
    expect(await movimientos(api, '&tipo=merma')).toHaveLength(1);
  });
});

describe('inventario with AUTH_MODE=jwt: who reads, counts and records waste', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_INVENTARIO: 'true',
    });
    await t.dbs.createTenant('roles');
    await seedMenu(t.dbs, 'roles');
    await seedStaff(t.dbs, 'roles');
    await t.dbs.query(
      t.dbs.tenantUrl('roles'),
      `INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg')`,
    );
  });
  afterAll(() => t.close());

  const as = (who: keyof typeof STAFF) =>
    authedApi(t.http, 'roles', tokenFor('roles', STAFF[who].id));

  it('gives reads to admin and cajero, writes to admin, waste to cocina too', async () => {
    const [admin, cajero, mozo, cocina] = [as('admin'), as('cajero'), as('mozo'), as('cocina')];
    await cajero.get('/inventario').expect(200);
    await mozo.get('/inventario').expect(403);
    await cocina.get('/inventario').expect(403);
    await cocina
      .post('/inventario/mermas', { id_mat_prima: 1, cantidad: 0.2, motivo: 'se quemó' })
      .expect(201);
    await cajero
      .post('/inventario/mermas', { id_mat_prima: 1, cantidad: 0.2, motivo: 'x' })
      .expect(403);
    // the kitchen picks what it throws away by name, without the stock or its value
    const materiales = await cocina.get('/inventario/materiales').expect(200);
    expect(materiales.body).toEqual([
      { id_mat_prima: 1, nombre: 'Pescado', unidad: 'kg', activo: true },
    ]);
    await admin.get('/inventario/materiales').expect(200);
    await cajero.get('/inventario/materiales').expect(403);
    await mozo.get('/inventario/materiales').expect(403);
    await cajero
      .post('/inventario/conteos', { lineas: [{ id_mat_prima: 1, contado: 0 }] })
      .expect(403);
    const draft = await admin
      .post('/inventario/conteos', { lineas: [{ id_mat_prima: 1, contado: 0 }] })
      .expect(201);
    expect(draft.body.acciones).toEqual(['editar', 'aplicar', 'descartar']);
    const seen = await cajero.get(`/inventario/conteos/${draft.body.id_conteo}`).expect(200);
    expect(seen.body.acciones).toEqual([]);
    await cajero.post(`/inventario/conteos/${draft.body.id_conteo}/aplicar`).expect(403);
    const discarded = await admin
      .post(`/inventario/conteos/${draft.body.id_conteo}/descartar`)
      .expect(200);
    expect(discarded.body).toMatchObject({ estado: 'descartado', acciones: [] });
  });
});
