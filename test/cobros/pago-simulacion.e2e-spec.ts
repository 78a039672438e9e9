import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The methods and till every tenant starts with. */
const EFECTIVO = 1;
const TARJETA = 2;
const YAPE = 3;
/** Products added to the small menu: a causa at S/ 12.35 (céntimos that cash rounds). */
const CAUSA = { id: 5, precio: 12.35 };

interface Pago {
  id_pago: number;
  id_metodo_pago: number;
  metodo: string;
  tipo: string;
  monto: number;
  propina: number;
  recibido: number | null;
  vuelto: number;
  id_sesion: number;
  id_caja: number;
}

interface Cuenta {
  id_comanda: number;
  version: number;
  pagado: number;
  propinas: number;
  redondeo: number;
  saldo: number;
  saldo_efectivo: number;
  estado_pago: string;
  pagos: Pago[];
}

/** What a payment writes: counts of its rows, and every comanda's version. */
interface Written {
  pagos: number;
  eventos: number;
  mensajes: number;
  idempotencia: number;
  versiones: number[];
}

interface Simulacion {
  monto: number;
  vuelto: number;
  saldo: number;
  salda: boolean;
  [field: string]: unknown;
}

/**
 * POST /comandas/:id/pagos/simulacion, over HTTP on a real PostgreSQL: for each body, the dry
 * run's answer is what the real payment of the same body then does (the payment and the bill
 * after it), its refusals are the payment's, and it writes nothing: no payment, no version, no
 * audit entry (the stream's events), no webhook message, no idempotency record.
 */
describe('cobros: a payment worked out without taking it', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let tenants = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      FEATURE_COBROS: 'true',
      FEATURE_WEBHOOKS: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** A tenant with the small menu and a causa, its till open, a webhook on every money event. */
  async function fresh(): Promise<{ api: TenantApi; url: string }> {
    tenants += 1;
    const slug = `simula${tenants}`;
    await t.dbs.createTenant(slug);
    await seedMenu(t.dbs, slug);
    const url = t.dbs.tenantUrl(slug);
    await t.dbs.query(
      url,
      "INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES ('Causa limeña', 12.35, 1, true)",
    );
    const api = tenantApi(t.http, slug);
    await api.post('/cajas/1/sesiones', { monto_apertura: 200 }).expect(201);
    await api
      .post('/webhooks', { url: receiver.url, eventos: ['pago.*', 'comanda.*'] })
      .expect(201);
    return { api, url };
  }

  /** The bill of docs/cobros.md's examples: a causa and a lomo, S/ 54.85. */
  async function bill(api: TenantApi): Promise<Cuenta> {
    const res = await api
      .post('/comandas', {
        items: [
          { id_producto: CAUSA.id, cantidad: 1 },
          { id_producto: MENU.lomo.id, cantidad: 1 },
        ],
      })
      .expect(201);
    expect((res.body as Cuenta).saldo).toBe(54.85);
    return res.body as Cuenta;
  }

  const written = async (url: string): Promise<Written> =>
    (
      await t.dbs.query<Written>(
        url,
        `SELECT (SELECT count(*)::int FROM pagos) AS pagos,
              (SELECT count(*)::int FROM comanda_eventos) AS eventos,
              (SELECT count(*)::int FROM webhook_mensajes) AS mensajes,
              (SELECT count(*)::int FROM idempotencia) AS idempotencia,
              (SELECT json_agg(version ORDER BY id_comanda) FROM comandas) AS versiones`,
      )
    )[0];

  const simulate = (api: TenantApi, id: number, body: object) =>
    api.post(`/comandas/${id}/pagos/simulacion`, body);

  /**
   * The dry run of `body`, then the payment itself: the dry run wrote nothing, and its answer is
   * the payment the service then took and the bill after it.
   */
  async function simulateThenPay(
    api: TenantApi,
    url: string,
    id: number,
    body: object,
  ): Promise<Simulacion> {
    const before = await written(url);
    const simulated = await simulate(api, id, body).expect(200);
    expect(await written(url)).toEqual(before);
    const paid = (await api.post(`/comandas/${id}/pagos`, body).expect(201)).body as Cuenta;
    const pago = paid.pagos[paid.pagos.length - 1];
    expect(simulated.body).toEqual({
      id_metodo_pago: pago.id_metodo_pago,
      metodo: pago.metodo,
      tipo: pago.tipo,
      monto: pago.monto,
      propina: pago.propina,
      recibido: pago.recibido,
      vuelto: pago.vuelto,
      id_sesion: pago.id_sesion,
      id_caja: pago.id_caja,
      pagado: paid.pagado,
      propinas: paid.propinas,
      redondeo: paid.redondeo,
      saldo: paid.saldo,
      saldo_efectivo: paid.saldo_efectivo,
      estado_pago: paid.estado_pago,
      salda: paid.saldo === 0,
    });
    return simulated.body as Simulacion;
  }

  it('works out cash rounded to S/ 0.10 with its change, as the payment then takes it', async () => {
    const { api, url } = await fresh();
    const c = await bill(api);
    const cash = await simulateThenPay(api, url, c.id_comanda, {
      id_metodo_pago: EFECTIVO,
      monto: 60,
    });
    expect(cash).toMatchObject({
      monto: 54.8,
      recibido: 60,
      vuelto: 5.2,
      redondeo: -0.05,
      saldo: 0,
      estado_pago: 'pagada',
      salda: true,
    });
    // it settles: the comanda closes without another payment
    await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(200);
  });

  it('works out a part payment in cash with a tip and the note handed over', async () => {
    const { api, url } = await fresh();
    const c = await bill(api);
    const part = await simulateThenPay(api, url, c.id_comanda, {
      id_metodo_pago: EFECTIVO,
      monto: 20,
      propina: 3,
      recibido: 50,
    });
    expect(part).toMatchObject({
      monto: 20,
      propina: 3,
      recibido: 50,
      vuelto: 27,
      propinas: 3,
      saldo: 34.85,
      saldo_efectivo: 34.8,
      estado_pago: 'pendiente',
      salda: false,
    });
    const closing = await api.put(`/comandas/${c.id_comanda}`, { action: 'cerrar' }).expect(409);
    expect(closing.body.code).toBe('SALDO_PENDIENTE');
    // the rest by card, with a tip: to the céntimo, no rounding, no change
    const card = await simulateThenPay(api, url, c.id_comanda, {
      id_metodo_pago: TARJETA,
      monto: 34.85,
      propina: 2.5,
      referencia: 'VISA 4821',
    });
    expect(card).toMatchObject({
      tipo: 'tarjeta',
      monto: 34.85,
      propina: 2.5,
      recibido: null,
      vuelto: 0,
      propinas: 5.5,
      redondeo: 0,
      saldo: 0,
      estado_pago: 'pagada',
      salda: true,
    });
  });

  it('refuses what the payment refuses, with the same answer, and writes nothing', async () => {
    const { api, url } = await fresh();
    const c = await bill(api);
    const before = await written(url);
    const refusals: [object, number, string][] = [
      [{ id_metodo_pago: TARJETA, monto: 60 }, 409, 'PAGO_EXCEDE_SALDO'],
      [
        { id_metodo_pago: EFECTIVO, monto: 30, propina: 3, recibido: 20 },
        400,
        'RECIBIDO_INSUFICIENTE',
      ],
      [{ id_metodo_pago: YAPE, monto: 1, recibido: 5 }, 400, 'RECIBIDO_SOLO_EFECTIVO'],
      [{ id_metodo_pago: 99, monto: 1 }, 400, 'METODO_PAGO_NOT_FOUND'],
      [{ id_metodo_pago: TARJETA, monto: 1, id_caja: 9 }, 400, 'CAJA_NOT_FOUND'],
      [{ id_metodo_pago: TARJETA, monto: 0 }, 400, 'VALIDATION_FAILED'],
      [{ id_metodo_pago: TARJETA, monto: 10.005 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of refusals) {
      const simulated = await simulate(api, c.id_comanda, body);
      const paid = await api.post(`/comandas/${c.id_comanda}/pagos`, body);
      expect({ body, status: simulated.status, code: simulated.body.code }).toEqual({
        body,
        status,
        code,
      });
      expect({ body, status: paid.status }).toEqual({ body, status });
      expect({ body, detail: simulated.body.detail }).toEqual({ body, detail: paid.body.detail });
      expect(simulated.body.error).toBe(paid.body.error);
    }
    expect(
      (await simulate(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 60 })).body,
    ).toMatchObject({ detail: { saldo: 54.85 } });
    expect(await written(url)).toEqual(before);

    // a comanda that does not exist, a version that is not the one shown, a closed comanda
    expect((await simulate(api, 999999, { id_metodo_pago: TARJETA, monto: 1 })).status).toBe(404);
    const stale = await simulate(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 1 }).set(
      'If-Match',
      `"${c.version + 5}"`,
    );
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('STALE_VERSION');
    await simulate(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 1 })
      .set('If-Match', `"${c.version}"`)
      .expect(200);
    await api
      .put(`/comandas/${c.id_comanda}`, {
        action: 'cerrar',
        pagos: [{ id_metodo_pago: TARJETA, monto: 54.85 }],
      })
      .expect(200);
    const closed = await simulate(api, c.id_comanda, { id_metodo_pago: TARJETA, monto: 1 });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('INVALID_TRANSITION');
  });

  it('needs an open till as the payment does', async () => {
    const { api, url } = await fresh();
    const c = await bill(api);
    const [sesion] = await t.dbs.query<{ id_sesion: number }>(
      url,
      "SELECT id_sesion::int FROM sesiones_caja WHERE estado = 'abierta'",
    );
    await api
      .post(`/sesiones-caja/${sesion.id_sesion}/cerrar`, {
        contado: [{ id_metodo_pago: EFECTIVO, monto: 200 }],
      })
      .expect(201);
    const res = await simulate(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 10 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SIN_SESION_ABIERTA');
  });

  it('keeps no idempotency record, sends no webhook and leaves the stream’s trail alone', async () => {
    const { api, url } = await fresh();
    const c = await bill(api);
    const before = await written(url);
    const body = { id_metodo_pago: EFECTIVO, monto: 20 };
    for (let i = 0; i < 3; i++)
      await simulate(api, c.id_comanda, body).set('Idempotency-Key', 'tablet-3-pago-1').expect(200);
    expect(await written(url)).toEqual(before);
    // the key was not taken: the payment that uses it is a first one, and it is written
    const paid = await api
      .post(`/comandas/${c.id_comanda}/pagos`, body)
      .set('Idempotency-Key', 'tablet-3-pago-1')
      .expect(201);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
    const after = await written(url);
    expect(after).toMatchObject({
      pagos: before.pagos + 1,
      eventos: before.eventos + 1,
      idempotencia: before.idempotencia + 1,
    });
    expect(after.mensajes).toBeGreaterThan(before.mensajes);
    expect(await t.dbs.query(url, 'SELECT accion FROM comanda_eventos ORDER BY id_evento')).toEqual(
      [{ accion: 'crear' }, { accion: 'pagar' }],
    );
  });

  it('is not there while cobros is off for the tenant', async () => {
    await t.dbs.createTenant('sincobros', { features: { cobros: false } });
    await seedMenu(t.dbs, 'sincobros');
    const api = tenantApi(t.http, 'sincobros');
    const c = (
      await api.post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
    ).body as Cuenta;
    await simulate(api, c.id_comanda, { id_metodo_pago: EFECTIVO, monto: 38 }).expect(404);
  });
});

describe('cobros with AUTH_MODE=jwt: who may work out a payment', () => {
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

  it('asks for cobros:pay, as the payment: the cashier may, the waiter and the kitchen not', async () => {
    const cajero = as('cajero');
    await cajero.post('/cajas/1/sesiones', { monto_apertura: 100 }).expect(201);
    const c = (
      await as('mozo')
        .post('/comandas', { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] })
        .expect(201)
    ).body as Cuenta;
    const body = { id_metodo_pago: EFECTIVO, monto: 40 };
    for (const who of ['mozo', 'cocina'] as const) {
      const refused = await as(who).post(`/comandas/${c.id_comanda}/pagos/simulacion`, body);
      expect({ who, status: refused.status, code: refused.body.code }).toEqual({
        who,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
    const simulated = await cajero
      .post(`/comandas/${c.id_comanda}/pagos/simulacion`, body)
      .expect(200);
    expect(simulated.body).toMatchObject({ monto: 38, vuelto: 2, saldo: 0, salda: true });
    await as('admin').post(`/comandas/${c.id_comanda}/pagos/simulacion`, body).expect(200);
  });
});
