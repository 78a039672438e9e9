import { Client } from 'pg';
import { todayIn } from '../../src/common/time';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/** The methods and till every tenant starts with. */
const EFECTIVO = 1;
const TARJETA = 2;
const YAPE = 3;
const CAJA = 1;
/** Products added to the small menu: a price with céntimos, and a courtesy at S/ 0. */
const CAUSA = { id: 5, precio: 12.35 };
const CORTESIA = { id: 6, precio: 0 };

interface Pago {
  id_pago: number;
  id_metodo_pago: number;
  monto: number;
  propina: number;
  recibido: number | null;
  vuelto: number;
  estado: string;
  reembolsado: number;
  id_sesion: number;
  acciones: string[];
}

interface Cuenta {
  id_comanda: number;
  estado: string;
  version: number;
  acciones: string[];
  subtotal: number;
  descuento: number;
  descuento_tipo: string | null;
  recargo_consumo: number;
  total: number;
  igv: { tasa: number; base: number; monto: number };
  redondeo: number;
  propinas: number;
  pagado: number;
  reembolsado: number;
  saldo: number;
  saldo_efectivo: number;
  estado_pago: string;
  pagos: Pago[];
}

interface Figura {
  id_metodo_pago: number;
  pagos: number;
  ventas: number;
  propinas: number;
  reembolsos: number;
  apertura: number;
  ingresos: number;
  retiros: number;
  esperado: number;
  contado: number | null;
  diferencia: number | null;
}

interface Reporte {
  tipo: 'X' | 'Z';
  sesion: { id_sesion: number; estado: string; numero_z: number | null; acciones: string[] };
  metodos: Figura[];
  totales: Record<string, number | null>;
}

const figure = (r: Reporte, metodo: number) => r.metodos.find((m) => m.id_metodo_pago === metodo)!;

describe('cobros: payments, tills and the day’s close', () => {
  let t: TestApp;
  let tenants = 0;

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COBROS: 'true' });
  });
  afterAll(() => t.close());

  /** A new tenant with the small menu (and two more products): each case starts clean. */
  async function fresh(): Promise<{ api: TenantApi; slug: string; url: string }> {
    tenants += 1;
    const slug = `caja${tenants}`;
    await t.dbs.createTenant(slug);
    await seedMenu(t.dbs, slug);
    await t.dbs.query(
      t.dbs.tenantUrl(slug),
      `INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES
         ('Causa limeña', 12.35, 1, true), ('Cancha de cortesía', 0, 1, true)`,
    );
    return { api: tenantApi(t.http, slug), slug, url: t.dbs.tenantUrl(slug) };
  }

  async function openSession(api: TenantApi, monto = 200): Promise<number> {
    const res = await api.post(`/cajas/${CAJA}/sesiones`, { monto_apertura: monto }).expect(201);
    return (res.body as Reporte).sesion.id_sesion;
  }

  async function comanda(
    api: TenantApi,
    items: { id: number; cantidad: number }[],
  ): Promise<Cuenta> {
    const res = await api
      .post('/comandas', { items: items.map((i) => ({ id_producto: i.id, cantidad: i.cantidad })) })
      .expect(201);
    return res.body as Cuenta;
  }

  const pay = (api: TenantApi, id: number, body: object) => api.post(`/comandas/${id}/pagos`, body);

  it('starts every tenant with five payment methods and one till', async () => {
    const { api } = await fresh();
    const metodos = await api.get('/metodos-pago').expect(200);
    expect(metodos.body).toEqual([
      { id_metodo_pago: 1, nombre: 'Efectivo', tipo: 'efectivo', cuenta_en_caja: true },
      { id_metodo_pago: 2, nombre: 'Tarjeta', tipo: 'tarjeta', cuenta_en_caja: false },
      { id_metodo_pago: 3, nombre: 'Yape', tipo: 'billetera', cuenta_en_caja: false },
      { id_metodo_pago: 4, nombre: 'Plin', tipo: 'billetera', cuenta_en_caja: false },
      { id_metodo_pago: 5, nombre: 'Transferencia', tipo: 'transferencia', cuenta_en_caja: false },
    ]);
    const cajas = await api.get('/cajas').expect(200);
    expect(cajas.body).toEqual([
      {
        id_caja: 1,
        nombre: 'Caja 1',
        id_sesion_abierta: null,
        monto_apertura: null,
        fec_apertura: null,
        abierta_por: null,
        acciones: ['abrir_sesion'],
      },
    ]);
  });

  it('opens one session per till with its float, and lists the sessions', async () => {
    const { api, url } = await fresh();
    const opened = await api.post('/cajas/1/sesiones', { monto_apertura: 150.5 }).expect(201);
    expect(opened.body).toMatchObject({
      tipo: 'X',
      sesion: {
        id_caja: 1,
        caja: 'Caja 1',
        estado: 'abierta',
        numero_z: null,
        monto_apertura: 150.5,
      },
    });
    expect((opened.body as Reporte).sesion.acciones).toEqual(['registrar_movimiento', 'cerrar']);
    const again = await api.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(409);
    expect(again.body).toMatchObject({ code: 'SESION_YA_ABIERTA', detail: { id_caja: 1 } });
    await api.post('/cajas/9/sesiones', { monto_apertura: 100 }).expect(404);
    const bad = await api.post('/cajas/1/sesiones', { monto_apertura: 10.005 }).expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const cajas = await api.get('/cajas').expect(200);
    expect(cajas.body[0]).toMatchObject({
      id_sesion_abierta: 1,
      monto_apertura: 150.5,
      acciones: [],
    });

    const list = await api.get('/sesiones-caja?estado=abierta').expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body).toHaveLength(1);
    expect(
      (await api.get('/sesiones-caja?estado=cerrada').expect(200)).headers['x-total-count'],
    ).toBe('0');
    const today = todayIn('America/Lima');
    expect(
      (await api.get(`/sesiones-caja?desde=${today}&hasta=${today}&id_caja=1`).expect(200)).body,
    ).toHaveLength(1);
    expect(await t.dbs.query(url, 'SELECT accion FROM caja_eventos')).toEqual([
      { accion: 'abrir' },
    ]);
  });

  it('takes no payment without an open session', async () => {
    const { api } = await fresh();
    const c = await comanda(api, [{ id: MENU.lomo.id, cantidad: 1 }]);
    const res = await pay(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 50 }).expect(409);
    expect(res.body.code).toBe('SIN_SESION_ABIERTA');
    await openSession(api);
    const named = await pay(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 5, id_caja: 9 });
    expect(named.status).toBe(400);
    expect(named.body.code).toBe('CAJA_NOT_FOUND');
  });

  it('gives change on cash and refuses a card above the balance', async () => {
    const { api, url } = await fresh();
    await openSession(api);
    const c = await comanda(api, [
      { id: MENU.lomo.id, cantidad: 1 },
      { id: MENU.chicha.id, cantidad: 1 },
    ]);
    expect(c).toMatchObject({ subtotal: 50.5, total: 50.5, saldo: 50.5, estado_pago: 'pendiente' });

    const over = await pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 60 }).expect(409);
    expect(over.body).toMatchObject({ code: 'PAGO_EXCEDE_SALDO', detail: { saldo: 50.5 } });
    const card = await pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 20.5 }).expect(201);
    expect((card.body as Cuenta).saldo).toBe(30);
    const noRecibido = await pay(api, c.id_comanda, {
      id_metodo_pago: YAPE,
      monto: 1,
      recibido: 5,
    }).expect(400);
    expect(noRecibido.body.code).toBe('RECIBIDO_SOLO_EFECTIVO');
    const short = await pay(api, c.id_comanda, {
      id_metodo_pago: EFECTIVO,
      monto: 30,
      propina: 3,
      recibido: 20,
    }).expect(400);
    expect(short.body.code).toBe('RECIBIDO_INSUFICIENTE');

    const cash = await pay(api, c.id_comanda, {
      id_metodo_pago: EFECTIVO,
      monto: 30,
      propina: 3,
      recibido: 50,
    }).expect(201);
    const body = cash.body as Cuenta;
    expect(body).toMatchObject({ pagado: 50.5, propinas: 3, saldo: 0, estado_pago: 'pagada' });
    expect(body.pagos[1]).toMatchObject({ monto: 30, propina: 3, recibido: 50, vuelto: 17 });
    const nothing = await pay(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 1 }).expect(
      409,
    );
    expect(nothing.body).toMatchObject({ code: 'PAGO_EXCEDE_SALDO', detail: { saldo: 0 } });
    // the database's own rule: what was handed over less the change is the amount and the tip
    expect(
      await t.dbs.query(
        url,
        'SELECT recibido - vuelto = monto + propina AS ok FROM pagos WHERE recibido IS NOT NULL',
      ),
    ).toEqual([{ ok: true }]);
  });

  it('rounds a cash settlement down to S/ 0.10 in the customer’s favour', async () => {
    const { api } = await fresh();
    await openSession(api);
    const c = await comanda(api, [
      { id: CAUSA.id, cantidad: 1 },
      { id: MENU.lomo.id, cantidad: 1 },
    ]);
    expect(c).toMatchObject({ total: 54.85, saldo: 54.85, saldo_efectivo: 54.8 });
    const paid = await pay(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 60 }).expect(201);
    const body = paid.body as Cuenta;
    expect(body).toMatchObject({ pagado: 54.8, redondeo: -0.05, saldo: 0, estado_pago: 'pagada' });
    expect(body.pagos[0]).toMatchObject({ monto: 54.8, recibido: 60, vuelto: 5.2 });
    const closed = await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
    expect(closed.body).toMatchObject({
      estado: 'cerrada',
      total: 54.85,
      redondeo: -0.05,
      saldo: 0,
    });

    // a card settles to the céntimo: no rounding
    const d = await comanda(api, [{ id: CAUSA.id, cantidad: 1 }]);
    const card = await pay(api, d.id_comanda, { id_metodo_pago: TARJETA, monto: 12.35 }).expect(
      201,
    );
    expect(card.body).toMatchObject({ redondeo: 0, saldo: 0 });

    // with the rounding step at 0, cash settles to the céntimo too
    await api.put('/cobros/ajustes', { paso_redondeo: 0 }).expect(200);
    const e = await comanda(api, [{ id: CAUSA.id, cantidad: 1 }]);
    const exact = await pay(api, e.id_comanda, { id_metodo_pago: EFECTIVO, monto: 20 }).expect(201);
    expect(exact.body).toMatchObject({ pagado: 12.35, redondeo: 0, saldo: 0 });
    expect((exact.body as Cuenta).pagos[0]).toMatchObject({ vuelto: 7.65 });
  });

  it('closes only a paid comanda; a zero total closes without payment', async () => {
    const { api, url } = await fresh();
    const free = await comanda(api, [{ id: CORTESIA.id, cantidad: 2 }]);
    await api.put(`/comandas/${free.id_comanda}`, { action: 'cerrar' }).expect(200);

    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    const refused = await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(409);
    expect(refused.body).toMatchObject({ code: 'SALDO_PENDIENTE', detail: { saldo: 38 } });

    await openSession(api);
    // pay and close, all or nothing: a payment short of the bill leaves nothing behind
    const short = await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: TARJETA, monto: 30 }],
      })
      .expect(409);
    expect(short.body).toMatchObject({ code: 'SALDO_PENDIENTE', detail: { saldo: 8 } });
    expect(await t.dbs.query(url, 'SELECT count(*)::int AS n FROM pagos')).toEqual([{ n: 0 }]);

    const done = await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [
          { id_metodo_pago: TARJETA, monto: 30 },
          { id_metodo_pago: EFECTIVO, monto: 10, propina: 2 },
        ],
      })
      .expect(200);
    expect(done.body).toMatchObject({ estado: 'cerrada', pagado: 38, propinas: 2, saldo: 0 });
    const eventos = await api.get(`/comandas/${c.id_comanda}/eventos`).expect(200);
    expect((eventos.body as { accion: string }[]).map((e) => e.accion)).toEqual([
      'crear',
      'pagar',
      'pagar',
      'cerrar',
    ]);
    const wrong = await api
      .put(`/comandas/${c.id_comanda}`, { action: 'abrir', pagos: [] })
      .expect(400);
    expect(wrong.body.code).toBe('PAGOS_WITHOUT_CERRAR');
  });

  it('voids a payment with its reason while the comanda is open, and keeps it', async () => {
    const { api } = await fresh();
    await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    const paid = await pay(api, c.id_comanda, { id_metodo_pago: YAPE, monto: 38 }).expect(201);
    const pago = (paid.body as Cuenta).pagos[0];
    expect(pago.acciones).toEqual(['anular']);
    const noReason = await api
      .delete(`/comandas/${c.id_comanda}/pagos/${pago.id_pago}`)
      .expect(400);
    expect(noReason.body.code).toBe('VALIDATION_FAILED');
    const voided = await api
      .delete(`/comandas/${c.id_comanda}/pagos/${pago.id_pago}`, { motivo: 'Yape rechazado' })
      .expect(200);
    expect(voided.body).toMatchObject({ pagado: 0, saldo: 38, estado_pago: 'pendiente' });
    expect((voided.body as Cuenta).pagos).toEqual([
      expect.objectContaining({ id_pago: pago.id_pago, estado: 'anulado', acciones: [] }),
    ]);
    const twice = await api
      .delete(`/comandas/${c.id_comanda}/pagos/${pago.id_pago}?motivo=otra%20vez`)
      .expect(409);
    expect(twice.body.code).toBe('PAGO_ANULADO');
    await api.delete(`/comandas/${c.id_comanda}/pagos/999`, { motivo: 'x' }).expect(404);
    const eventos = await api.get(`/comandas/${c.id_comanda}/eventos`).expect(200);
    expect(eventos.body.at(-1)).toMatchObject({ accion: 'anular_pago', motivo: 'Yape rechazado' });
  });

  it('keeps a paid comanda whole: no delete, split or merge until its payments are voided', async () => {
    const { api } = await fresh();
    await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 2 }]);
    const other = await comanda(api, [{ id: MENU.chicha.id, cantidad: 1 }]);
    const paid = await pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 10 }).expect(201);
    const line = (paid.body as { lineas: { id_item: number }[] }).lineas[0].id_item;
    for (const res of [
      await api.delete(`/comandas/${c.id_comanda}`),
      await api.post(`/comandas/${c.id_comanda}/split`, {
        lineas: [{ id_item: line, cantidad: 1 }],
      }),
      await api.post(`/comandas/${other.id_comanda}/merge`, { comandas: [c.id_comanda] }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('COMANDA_CON_PAGOS');
    }
    // lines may still change while it is open
    await api
      .post(`/comandas/${c.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
      .expect(201);
  });

  it('reopens a closed comanda while its session is open; after the close, only a refund', async () => {
    const { api } = await fresh();
    const sesion = await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 40 }],
      })
      .expect(200);
    const reopened = await api.put(`/comandas/${c.id_comanda}`, { action: 'abrir' }).expect(200);
    expect(reopened.body).toMatchObject({ estado: 'abierta', pagado: 38, saldo: 0 });
    await api
      .post(`/comandas/${c.id_comanda}/items`, { id_producto: MENU.chicha.id, cantidad: 1 })
      .expect(201);
    await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: TARJETA, monto: 8 }],
      })
      .expect(200);
    await api
      .post(`/sesiones-caja/${sesion}/cerrar`, {
        contado: [{ id_metodo_pago: EFECTIVO, monto: 238 }],
      })
      .expect(201);
    const late = await api.put(`/comandas/${c.id_comanda}`, { action: 'abrir' }).expect(409);
    expect(late.body).toMatchObject({ code: 'SESION_CERRADA', detail: { id_sesion: sesion } });
  });

  it('refunds a closed comanda from the current session, never more than a payment', async () => {
    const { api, url } = await fresh();
    const first = await openSession(api);
    const c = await comanda(api, [
      { id: MENU.ceviche.id, cantidad: 1 },
      { id: MENU.chicha.id, cantidad: 2 },
    ]);
    const closed = await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [
          { id_metodo_pago: TARJETA, monto: 20 },
          { id_metodo_pago: EFECTIVO, monto: 34 },
        ],
      })
      .expect(200);
    const [card, cash] = (closed.body as Cuenta).pagos;
    expect(card.acciones).toEqual(['reembolsar']);
    const lines = (closed.body as { lineas: { id_item: number }[] }).lineas;
    await api
      .post(`/sesiones-caja/${first}/cerrar`, {
        contado: [{ id_metodo_pago: EFECTIVO, monto: 234 }],
      })
      .expect(201);

    const none = await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 8,
        motivo: 'chicha tibia',
      })
      .expect(409);
    expect(none.body.code).toBe('SIN_SESION_ABIERTA');
    const second = await openSession(api, 100);
    const badLine = await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 8,
        motivo: 'chicha tibia',
        lineas: [{ id_item: lines[1].id_item, cantidad: 3 }],
      })
      .expect(400);
    expect(badLine.body.code).toBe('INVALID_REFUND_LINES');
    const partial = await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 8,
        motivo: 'chicha tibia',
        lineas: [{ id_item: lines[1].id_item, cantidad: 1 }],
      })
      .expect(201);
    expect(partial.body).toMatchObject({
      estado: 'cerrada',
      reembolsado: 8,
      estado_pago: 'reembolso_parcial',
    });
    const tooMuch = await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 26.01,
        motivo: 'todo',
      })
      .expect(409);
    expect(tooMuch.body).toMatchObject({
      code: 'REEMBOLSO_EXCEDE_PAGO',
      detail: { disponible: 26 },
    });
    await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 26,
        motivo: 'todo',
      })
      .expect(201);
    const all = await api
      .post(`/comandas/${c.id_comanda}/reembolsos`, {
        id_pago: card.id_pago,
        monto: 20,
        motivo: 'todo',
      })
      .expect(201);
    expect(all.body).toMatchObject({ reembolsado: 54, estado_pago: 'reembolsada' });
    const abrir = await api.put(`/comandas/${c.id_comanda}`, { action: 'abrir' }).expect(409);
    expect(abrir.body.code).toBe('COMANDA_REEMBOLSADA');

    // the money left the second session's drawer, not the first's (closed and unchanged)
    const x = (await api.get(`/sesiones-caja/${second}`).expect(200)).body as Reporte;
    expect(figure(x, EFECTIVO)).toMatchObject({ apertura: 100, reembolsos: 34, esperado: 66 });
    expect(figure(x, TARJETA)).toMatchObject({ reembolsos: 20, esperado: -20 });
    const z = (await api.get(`/sesiones-caja/${first}`).expect(200)).body as Reporte;
    expect(figure(z, EFECTIVO)).toMatchObject({
      ventas: 34,
      reembolsos: 0,
      esperado: 234,
      contado: 234,
    });
    expect(
      await t.dbs.query(url, 'SELECT id_item::int, cantidad::text FROM reembolso_lineas'),
    ).toEqual([{ id_item: lines[1].id_item, cantidad: '1.000' }]);
    const open = await comanda(api, [{ id: MENU.chicha.id, cantidad: 1 }]);
    const onOpen = await api
      .post(`/comandas/${open.id_comanda}/reembolsos`, {
        id_pago: cash.id_pago,
        monto: 1,
        motivo: 'x',
      })
      .expect(409);
    expect(onOpen.body.code).toBe('INVALID_TRANSITION');
  });

  it('applies a discount before the service charge, and IGV on the rest', async () => {
    const { api } = await fresh();
    await api.put('/cobros/ajustes', { tasa_recargo: 0.1 }).expect(200);
    const c = await comanda(api, [
      { id: MENU.ceviche.id, cantidad: 2 },
      { id: MENU.chicha.id, cantidad: 3 },
    ]);
    // 100.00 of lines, 10 % service charge outside the IGV base
    expect(c).toMatchObject({ subtotal: 100, descuento: 0, recargo_consumo: 10, total: 110 });
    expect(c.igv).toEqual({ tasa: 0.18, base: 84.75, monto: 15.25 });
    const pct = await api
      .post(`/comandas/${c.id_comanda}/descuento`, {
        tipo: 'porcentaje',
        valor: 15,
        motivo: 'cliente frecuente',
      })
      .expect(201);
    expect(pct.body).toMatchObject({
      descuento: 15,
      descuento_tipo: 'porcentaje',
      descuento_valor: 15,
      recargo_consumo: 8.5,
      total: 93.5,
      igv: { tasa: 0.18, base: 72.03, monto: 12.97 },
    });
    const amount = await api
      .post(`/comandas/${c.id_comanda}/descuento`, {
        tipo: 'monto',
        valor: 7.77,
        motivo: 'cortesía',
      })
      .expect(201);
    expect(amount.body).toMatchObject({ descuento: 7.77, recargo_consumo: 9.22, total: 101.45 });
    const tooMuch = await api
      .post(`/comandas/${c.id_comanda}/descuento`, { tipo: 'monto', valor: 100.01, motivo: 'x' })
      .expect(400);
    expect(tooMuch.body.code).toBe('DESCUENTO_EXCEDE');
    const removed = await api
      .post(`/comandas/${c.id_comanda}/descuento`, { tipo: 'monto', valor: 0, motivo: 'se quita' })
      .expect(201);
    expect(removed.body).toMatchObject({ descuento: 0, descuento_tipo: null, total: 110 });
    const eventos = await api.get(`/comandas/${c.id_comanda}/eventos`).expect(200);
    expect(
      (eventos.body as { accion: string }[]).filter((e) => e.accion === 'descontar'),
    ).toHaveLength(3);
  });

  it('freezes the IGV rate in force at the close', async () => {
    const { api } = await fresh();
    await openSession(api);
    const today = todayIn('America/Lima');
    const tasas = {
      tasas_igv: [
        { vigente_desde: '2000-01-01', tasa: 0.18 },
        { vigente_desde: today, tasa: 0.1 },
      ],
    };
    await api.put('/cobros/ajustes', tasas).expect(200);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    expect(c.igv).toEqual({ tasa: 0.1, base: 34.55, monto: 3.45 });
    await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: TARJETA, monto: 38 }],
      })
      .expect(200);
    await api
      .put('/cobros/ajustes', { tasas_igv: [{ vigente_desde: '2000-01-01', tasa: 0.18 }] })
      .expect(200);
    const closed = await api.get(`/comandas/${c.id_comanda}`).expect(200);
    expect(closed.body.igv).toEqual({ tasa: 0.1, base: 34.55, monto: 3.45 });
    const open = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    expect(open.igv.tasa).toBe(0.18);
    const ajustes = await api.get('/cobros/ajustes').expect(200);
    expect(ajustes.body).toEqual({
      tasa_recargo: 0,
      paso_redondeo: 0.1,
      tolerancia_cierre: 5,
      tasas_igv: [{ vigente_desde: '2000-01-01', tasa: 0.18 }],
    });
    await api.put('/cobros/ajustes', { tasa_recargo: 0.14 }).expect(400);
  });

  it('reads the X twice alike, writing nothing, and closes the Z with the count', async () => {
    const { api, url } = await fresh();
    const sesion = await openSession(api, 200);
    const a = await comanda(api, [{ id: MENU.lomo.id, cantidad: 2 }]);
    await api
      .put(`/comandas/${a.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 100, propina: 5 }],
      })
      .expect(200);
    const b = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    await api
      .put(`/comandas/${b.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: TARJETA, monto: 38, propina: 4 }],
      })
      .expect(200);
    await api
      .post(`/sesiones-caja/${sesion}/movimientos`, {
        tipo: 'retiro',
        monto: 30,
        motivo: 'limones',
      })
      .expect(201);
    await api
      .post(`/sesiones-caja/${sesion}/movimientos`, {
        tipo: 'ingreso',
        monto: 20,
        motivo: 'sencillo',
      })
      .expect(201);
    const noReason = await api
      .post(`/sesiones-caja/${sesion}/movimientos`, { tipo: 'retiro', monto: 5 })
      .expect(400);
    expect(noReason.body.detail).toContain('motivo is required');

    const rows =
      'SELECT (SELECT count(*) FROM sesion_caja_cierres) + (SELECT count(*) FROM caja_eventos) AS n';
    const before = await t.dbs.query(url, rows);
    const x1 = (await api.get(`/sesiones-caja/${sesion}`).expect(200)).body as Reporte;
    const x2 = (await api.get(`/sesiones-caja/${sesion}/reporte`).expect(200)).body as Reporte;
    expect(await t.dbs.query(url, rows)).toEqual(before);
    expect(x2.metodos).toEqual(x1.metodos);
    expect(x1.tipo).toBe('X');
    // cash: 200 + 85 (the sale, not the 15 of change) + 5 tip + 20 − 30
    expect(figure(x1, EFECTIVO)).toMatchObject({
      pagos: 1,
      ventas: 85,
      propinas: 5,
      apertura: 200,
      ingresos: 20,
      retiros: 30,
      esperado: 280,
      contado: null,
    });
    expect(figure(x1, TARJETA)).toMatchObject({ ventas: 38, propinas: 4, esperado: 42 });
    expect(x1.totales).toMatchObject({ pagos: 2, comandas: 2, ventas: 123, propinas: 9 });

    const noCash = await api.post(`/sesiones-caja/${sesion}/cerrar`, { contado: [] }).expect(400);
    expect(noCash.body.code).toBe('INVALID_COUNT');
    const disagree = await api
      .post(`/sesiones-caja/${sesion}/cerrar`, {
        contado: [{ id_metodo_pago: EFECTIVO, monto: 277 }],
        conteo: [{ denominacion: 100, cantidad: 2 }],
      })
      .expect(400);
    expect(disagree.body.code).toBe('INVALID_COUNT');
    const z = await api
      .post(`/sesiones-caja/${sesion}/cerrar`, {
        contado: [{ id_metodo_pago: TARJETA, monto: 42 }],
        conteo: [
          { denominacion: 100, cantidad: 2 },
          { denominacion: 50, cantidad: 1 },
          { denominacion: 20, cantidad: 1 },
          { denominacion: 5, cantidad: 1 },
          { denominacion: 0.5, cantidad: 4 },
        ],
        nota: 'faltan 3 soles',
      })
      .expect(201);
    const zr = z.body as Reporte;
    expect(zr.tipo).toBe('Z');
    expect(zr.sesion).toMatchObject({ estado: 'cerrada', numero_z: 1, acciones: [] });
    expect(figure(zr, EFECTIVO)).toMatchObject({ esperado: 280, contado: 277, diferencia: -3 });
    expect(figure(zr, TARJETA)).toMatchObject({ esperado: 42, contado: 42, diferencia: 0 });
    expect(figure(zr, YAPE)).toMatchObject({ esperado: 0, contado: 0, diferencia: 0 });
    expect(zr.totales).toMatchObject({ esperado: 322, contado: 319, diferencia: -3 });

    const receipt = await api
      .get(`/sesiones-caja/${sesion}/reporte`)
      .set('Accept', 'text/plain')
      .expect(200);
    expect(receipt.headers['content-type']).toMatch(/^text\/plain/);
    const lines = receipt.text.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(42);
    expect(receipt.text).toContain('REPORTE Z');
    expect(lines).toContain('= Esperado                          280.00');
    expect(lines).toContain('Diferencia                           -3.00');

    // closed for good
    const late = await api.post(`/sesiones-caja/${sesion}/movimientos`, {
      tipo: 'ingreso',
      monto: 1,
      motivo: 'x',
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('SESION_CERRADA');
    const again = await api.post(`/sesiones-caja/${sesion}/cerrar`, {
      contado: [{ id_metodo_pago: 1, monto: 1 }],
    });
    expect(again.body.code).toBe('SESION_CERRADA');
    const c = await comanda(api, [{ id: MENU.chicha.id, cantidad: 1 }]);
    const noSession = await pay(api, c.id_comanda, {
      id_metodo_pago: EFECTIVO,
      monto: 8,
      id_caja: 1,
    }).expect(409);
    expect(noSession.body.code).toBe('SIN_SESION_ABIERTA');
    expect(await t.dbs.query(url, 'SELECT accion FROM caja_eventos ORDER BY id_evento')).toEqual([
      { accion: 'abrir' },
      { accion: 'retiro' },
      { accion: 'ingreso' },
      { accion: 'cerrar' },
    ]);
  });

  it('refuses the close while a comanda paid in the session is open', async () => {
    const { api } = await fresh();
    const sesion = await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    await pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 10 }).expect(201);
    const res = await api.post(`/sesiones-caja/${sesion}/cerrar`, {
      contado: [{ id_metodo_pago: 1, monto: 200 }],
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'SESION_CON_COMANDAS_ABIERTAS',
      detail: { comandas: [c.id_comanda] },
    });
  });

  it('numbers the Z of a till 1, 2, 3 … without gaps, whoever races to close', async () => {
    const { api, url } = await fresh();
    for (let round = 0; round < 4; round += 1) {
      const sesion = await openSession(api, 50);
      const closes = await Promise.all(
        [0, 1, 2].map(() =>
          api.post(`/sesiones-caja/${sesion}/cerrar`, {
            contado: [{ id_metodo_pago: EFECTIVO, monto: 50 }],
          }),
        ),
      );
      expect(closes.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    }
    expect(await t.dbs.query(url, 'SELECT numero_z FROM sesiones_caja ORDER BY id_sesion')).toEqual(
      [{ numero_z: 1 }, { numero_z: 2 }, { numero_z: 3 }, { numero_z: 4 }],
    );
  });

  it('lets one of two cashiers paying the last balance at once win', async () => {
    const { api, url } = await fresh();
    await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    const both = await Promise.all([
      pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 38 }),
      pay(api, c.id_comanda, { id_metodo_pago: YAPE, monto: 38 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('PAGO_EXCEDE_SALDO');
    expect(await t.dbs.query(url, 'SELECT sum(monto)::text AS s FROM pagos')).toEqual([
      { s: '38.00' },
    ]);
  });

  it('takes a payment once per Idempotency-Key and honours If-Match', async () => {
    const { api, url } = await fresh();
    await openSession(api);
    const c = await comanda(api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    const send = () =>
      pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 10 }).set(
        'Idempotency-Key',
        'tablet-7-pago-1',
      );
    const first = await send().expect(201);
    const retry = await send().expect(201);
    expect(retry.body).toEqual(first.body);
    expect(await t.dbs.query(url, 'SELECT count(*)::int AS n FROM pagos')).toEqual([{ n: 1 }]);
    const stale = await pay(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 1 }).set(
      'If-Match',
      '"1"',
    );
    expect(stale.status).toBe(412);
    expect(first.headers.etag).toBe(`"${(first.body as Cuenta).version}"`);
  });

  it('keeps one tenant’s money from another', async () => {
    const a = await fresh();
    const b = await fresh();
    const sesion = await openSession(a.api);
    const c = await comanda(a.api, [{ id: MENU.ceviche.id, cantidad: 1 }]);
    const paid = await pay(a.api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 10 }).expect(201);
    const pago = (paid.body as Cuenta).pagos[0].id_pago;
    await b.api.get(`/sesiones-caja/${sesion}`).expect(404);
    await b.api
      .post(`/sesiones-caja/${sesion}/movimientos`, { tipo: 'retiro', monto: 1, motivo: 'x' })
      .expect(404);
    await b.api.delete(`/comandas/${c.id_comanda}/pagos/${pago}`, { motivo: 'x' }).expect(404);
    expect((await b.api.get('/sesiones-caja').expect(200)).body).toEqual([]);
    expect(await t.dbs.query(a.url, 'SELECT estado FROM pagos')).toEqual([{ estado: 'aplicado' }]);
  });

  const cashOf = (z: { metodos: { id_metodo_pago: number; esperado: number }[] }) =>
    z.metodos.find((m) => m.id_metodo_pago === 1)!.esperado;

  it('closes a session whose refunds of card payments exceed its card sales', async () => {
    const { api } = await fresh();
    const s1 = await api.post('/cajas/1/sesiones', { monto_apertura: 0 }).expect(201);
    const c = await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    const id = c.body.id_comanda as number;
    const paid = await api
      .put(`/comandas/${id}`, { action: 'cerrar', pagos: [{ id_metodo_pago: 2, monto: 38 }] })
      .expect(200);
    const idPago = paid.body.pagos[0].id_pago as number;
    await api
      .post(`/sesiones-caja/${s1.body.sesion.id_sesion}/cerrar`, {
        contado: [{ id_metodo_pago: 1, monto: 0 }],
      })
      .expect(201);
    // the next session gives back part of the card payment: its card figure is −10
    const s2 = await api.post('/cajas/1/sesiones', { monto_apertura: 50 }).expect(201);
    const idS2 = s2.body.sesion.id_sesion as number;
    await api
      .post(`/comandas/${id}/reembolsos`, { id_pago: idPago, monto: 10, motivo: 'plato frío' })
      .expect(201);
    const x = await api.get(`/sesiones-caja/${idS2}`).expect(200);
    const card = x.body.metodos.find((m: { id_metodo_pago: number }) => m.id_metodo_pago === 2);
    expect(card).toMatchObject({ ventas: 0, reembolsos: 10, esperado: -10 });
    // the card method, not counted, is taken as expected: −10, no difference
    const z = await api
      .post(`/sesiones-caja/${idS2}/cerrar`, {
        contado: [{ id_metodo_pago: 1, monto: cashOf(x.body) }],
      })
      .expect(201);
    expect(z.body.sesion).toMatchObject({ estado: 'cerrada', numero_z: 2 });
    expect(
      z.body.metodos.find((m: { id_metodo_pago: number }) => m.id_metodo_pago === 2),
    ).toMatchObject({ esperado: -10, contado: -10, diferencia: 0 });
  });

  it('freezes at the close the rates the close checked the balance with', async () => {
    const { api, url } = await fresh();
    await api.post('/cajas/1/sesiones', { monto_apertura: 0 }).expect(201);
    const c = await api
      .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
      .expect(201);
    const id = c.body.id_comanda as number;
    await api.post(`/comandas/${id}/pagos`, { id_metodo_pago: 2, monto: 38 }).expect(201);

    // The close is held just after it checked the balance and set the comanda cerrada (a
    // trigger waits for an advisory lock the test holds), and the service charge changes then:
    // the window between the check and the rates being frozen, made wide.
    const holder = new Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(4242)');
      await t.dbs.query(
        url,
        `CREATE FUNCTION test_hold_close() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$;
         CREATE TRIGGER test_hold_close AFTER UPDATE OF estado ON comandas
           FOR EACH ROW WHEN (NEW.estado = 'cerrada') EXECUTE FUNCTION test_hold_close()`,
      );
      const closing = api.put(`/comandas/${id}`, { action: 'cerrar' }).then((res) => res);
      for (let i = 0; i < 500; i++) {
        const [{ n }] = await t.dbs.query<{ n: number }>(
          url,
          `SELECT count(*)::int AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND objid = 4242`,
        );
        if (n === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await api.put('/cobros/ajustes', { tasa_recargo: 0.1 }).expect(200);
      await holder.query('SELECT pg_advisory_unlock(4242)');
      const closed = await closing;
      expect(closed.status).toBe(200);
      // closed with the bill it checked: no service charge, nothing owed
      expect(closed.body).toMatchObject({ estado: 'cerrada', total: 38, pagado: 38, saldo: 0 });
      const after = await api.get(`/comandas/${id}`).expect(200);
      expect(after.body).toMatchObject({ total: 38, recargo_consumo: 0, saldo: 0 });
    } finally {
      await holder.end();
      await t.dbs.query(
        url,
        'DROP TRIGGER IF EXISTS test_hold_close ON comandas; DROP FUNCTION IF EXISTS test_hold_close()',
      );
    }
  });

  it('is off by default: its routes are 404 and comandas answer and close as before', async () => {
    // the same databases, another instance of the service with the switch at its default
    const dbs = t.dbs;
    const off = await startTestApp({}, dbs);
    try {
      await dbs.createTenant('sin');
      await seedMenu(dbs, 'sin');
      await dbs.createTenant('con', { features: { cobros: true } });
      await seedMenu(dbs, 'con');
      const api = tenantApi(off.http, 'sin');
      for (const path of ['/metodos-pago', '/cajas', '/sesiones-caja', '/cobros/ajustes'])
        expect((await api.get(path)).status).toBe(404);
      const c = (
        await api
          .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
          .expect(201)
      ).body as Record<string, unknown>;
      expect(c).not.toHaveProperty('saldo');
      expect(c).not.toHaveProperty('pagos');
      expect(c.acciones).not.toContain('pagar');
      expect(
        (
          await api.post(`/comandas/${c.id_comanda as number}/pagos`, {
            id_metodo_pago: 1,
            monto: 1,
          })
        ).status,
      ).toBe(404);
      const pagos = await api
        .put(`/comandas/${c.id_comanda as number}`, {
          action: 'cerrar',
          pagos: [{ id_metodo_pago: 1, monto: 38 }],
        })
        .expect(400);
      expect(pagos.body.detail).toEqual(['property pagos should not exist']);
      const closed = await api
        .put(`/comandas/${c.id_comanda as number}`, { action: 'cerrar' })
        .expect(200);
      expect(closed.body).toMatchObject({ estado: 'cerrada', total: 38 });
      expect(closed.body.acciones).toEqual(['abrir', 'eliminar']);
      expect((await api.get('/me').expect(200)).body.permissions).not.toContain('cobros:pay');
      // a tenant whose catalog row turns it on has it
      const con = tenantApi(off.http, 'con');
      await con.get('/metodos-pago').expect(200);
      expect((await con.get('/me').expect(200)).body.permissions).toContain('cobros:pay');
    } finally {
      await off.close();
    }
  });
});

describe('cobros with AUTH_MODE=jwt: who may take, void and give back money', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_COBROS: 'true',
    });
    await t.dbs.createTenant('roles');
    await seedMenu(t.dbs, 'roles');
    await seedStaff(t.dbs, 'roles');
  });
  afterAll(() => t.close());

  const as = (who: keyof typeof STAFF) =>
    authedApi(t.http, 'roles', tokenFor('roles', STAFF[who].id));

  it('lets the cashier take and void payments and run the till, the admin refund; not the waiter', async () => {
    const mozo = as('mozo');
    const cajero = as('cajero');
    const admin = as('admin');
    expect((await mozo.post('/cajas/1/sesiones', { monto_apertura: 100 })).status).toBe(403);
    const opened = await cajero.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const sesion = (opened.body as Reporte).sesion.id_sesion;
    expect((opened.body as Reporte).sesion.acciones).toEqual(['registrar_movimiento', 'cerrar']);
    expect((await mozo.get(`/sesiones-caja/${sesion}`)).status).toBe(403);

    const c = (
      await mozo
        .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
        .expect(201)
    ).body as Cuenta;
    expect(c.acciones).not.toContain('pagar');
    expect(
      (await mozo.post(`/comandas/${c.id_comanda}/pagos`, { id_metodo_pago: TARJETA, monto: 5 }))
        .status,
    ).toBe(403);
    const seen = (await cajero.get(`/comandas/${c.id_comanda}`).expect(200)).body as Cuenta;
    expect(seen.acciones).toEqual([
      'cerrar',
      'dividir',
      'unir',
      'transferir',
      'pagar',
      'anular_pago',
    ]);
    const paid = await cajero
      .post(`/comandas/${c.id_comanda}/pagos`, { id_metodo_pago: TARJETA, monto: 5 })
      .expect(201);
    const pago = (paid.body as Cuenta).pagos[0];
    expect(pago).toMatchObject({ acciones: ['anular'] });
    expect(
      (
        await cajero.post(`/comandas/${c.id_comanda}/descuento`, {
          tipo: 'monto',
          valor: 1,
          motivo: 'x',
        })
      ).status,
    ).toBe(403);
    await cajero.delete(`/comandas/${c.id_comanda}/pagos/${pago.id_pago}?motivo=error`).expect(200);
    const closed = await cajero
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: EFECTIVO, monto: 38 }],
      })
      .expect(200);
    const cash = (closed.body as Cuenta).pagos[1];
    expect(cash.acciones).toEqual([]);
    const refund = { id_pago: cash.id_pago, monto: 5, motivo: 'demora' };
    expect((await cajero.post(`/comandas/${c.id_comanda}/reembolsos`, refund)).status).toBe(403);
    const byAdmin = await admin.get(`/comandas/${c.id_comanda}`).expect(200);
    expect((byAdmin.body as Cuenta).pagos[1].acciones).toEqual(['reembolsar']);
    await admin.post(`/comandas/${c.id_comanda}/reembolsos`, refund).expect(201);
    expect((await cajero.put('/cobros/ajustes', { tolerancia_cierre: 1 })).status).toBe(403);

    // a difference beyond the tolerance (5.00): the cashier cannot close it, the admin can
    const count = { contado: [{ id_metodo_pago: EFECTIVO, monto: 120 }] };
    const refused = await cajero.post(`/sesiones-caja/${sesion}/cerrar`, count).expect(403);
    expect(refused.body).toMatchObject({
      code: 'DIFERENCIA_SOBRE_TOLERANCIA',
      detail: { tolerancia: 5 },
    });
    const within = await cajero.post(`/sesiones-caja/${sesion}/cerrar`, {
      contado: [{ id_metodo_pago: 1, monto: 130 }],
    });
    expect(within.status).toBe(201);
    expect(figure(within.body as Reporte, EFECTIVO)).toMatchObject({
      esperado: 133,
      diferencia: -3,
    });

    const me = await cajero.get('/me').expect(200);
    expect(me.body.permissions).toEqual(
      expect.arrayContaining(['cobros:pay', 'cobros:void', 'caja:operate']),
    );
    expect(me.body.permissions).not.toContain('cobros:refund');
  });

  it('lets an admin close a session whose difference is beyond the tolerance', async () => {
    const admin = as('admin');
    const opened = await admin.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const sesion = (opened.body as Reporte).sesion.id_sesion;
    const z = await admin
      .post(`/sesiones-caja/${sesion}/cerrar`, { contado: [{ id_metodo_pago: 1, monto: 80 }] })
      .expect(201);
    expect(figure(z.body as Reporte, EFECTIVO)).toMatchObject({
      esperado: 100,
      contado: 80,
      diferencia: -20,
    });
    expect((z.body as Reporte).sesion.numero_z).toBe(2);
  });
});
