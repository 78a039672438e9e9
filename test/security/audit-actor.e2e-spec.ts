import type request from 'supertest';
import { addDays, todayIn } from '../../src/common/time';
import { authedApi, seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

type Who = 'admin' | 'cajero' | 'mozo' | 'cocina';
type Api = ReturnType<typeof authedApi>;

/**
 * Every audit trail of the tenant database: the rows that record who did something, and the
 * column that names them. A row written by a request must name the request's caller (the
 * token's subject), whichever route or store function wrote it.
 */
const TRAILS = [
  { table: 'comanda_eventos', key: 'id_evento', actor: 'id_usuario', what: 'accion' },
  { table: 'caja_eventos', key: 'id_evento', actor: 'id_usuario', what: 'accion' },
  { table: 'sesiones_caja', key: 'id_sesion', actor: 'id_usuario_apertura', what: "'abrir'" },
  { table: 'movimientos_caja', key: 'id_movimiento', actor: 'id_usuario', what: 'tipo' },
  { table: 'pagos', key: 'id_pago', actor: 'id_usuario', what: "'pago'" },
  { table: 'reembolsos', key: 'id_reembolso', actor: 'id_usuario', what: "'reembolso'" },
  { table: 'stock_movimientos', key: 'id_movimiento', actor: 'id_usuario', what: 'tipo' },
  { table: 'mermas', key: 'id_merma', actor: 'id_usuario', what: "'merma'" },
  { table: 'conteos', key: 'id_conteo', actor: 'id_usuario', what: "'conteo'" },
  { table: 'envios_cocina', key: 'id_envio', actor: 'id_usuario', what: 'tipo' },
  {
    table: 'cursos_disparados',
    key: "id_comanda || ':' || curso",
    actor: 'id_usuario',
    what: "'disparo'",
  },
  { table: 'reservas', key: 'id_reserva', actor: 'id_usuario_registro', what: "'reserva'" },
] as const;

/** The actor columns a later change fills on an existing row (a state's change, a close). */
const CHANGES = [
  { table: 'reservas', key: 'id_reserva', actor: 'id_usuario_estado', what: 'estado' },
  { table: 'sesiones_caja', key: 'id_sesion', actor: 'id_usuario_cierre', what: 'estado' },
  { table: 'pagos', key: 'id_pago', actor: 'id_usuario_anulacion', what: 'estado' },
  { table: 'conteos', key: 'id_conteo', actor: 'id_usuario_aplica', what: 'estado' },
] as const;

interface Entry {
  table: string;
  key: string;
  actor: number | null;
  what: string;
}

const TARJETA = 2;
const EFECTIVO = 1;
const PESCADO = 1;

/**
 * With AUTH_MODE=jwt, every audit entry names the caller: the writing routes of every trail
 * (comandas and their lines, the kitchen, the money and the till, the stock through the comanda
 * moves, waste, counts and the RPC purchase functions, reservations; the generic table routes,
 * which write none of them) called by four members of staff, each new or changed row checked
 * against the token that wrote it.
 */
describe('audit trails with AUTH_MODE=jwt: every entry names the caller', () => {
  let t: TestApp;
  const slug = 'auditoria';
  const db = () => t.dbs.tenantUrl(slug);
  const as = (who: Who): Api => authedApi(t.http, slug, tokenFor(slug, STAFF[who].id));
  /** Every trail row seen so far, by table and key (with the actor it had). */
  let seen = new Map<string, Entry>();
  /** What each request wrote, for the coverage check at the end. */
  const written: (Entry & { by: Who })[] = [];
  const problems: string[] = [];

  async function entries(): Promise<Map<string, Entry>> {
    const all = new Map<string, Entry>();
    for (const trail of [...TRAILS, ...CHANGES]) {
      const rows = await t.dbs.query<{ key: string; actor: number | null; what: string }>(
        db(),
        `SELECT (${trail.key})::text AS key, ${trail.actor} AS actor, (${trail.what})::text AS what
           FROM ${trail.table}`,
      );
      for (const row of rows) {
        const id = `${trail.table}.${trail.actor}:${row.key}`;
        all.set(id, { table: `${trail.table}.${trail.actor}`, ...row });
      }
    }
    return all;
  }

  /**
   * One request by `who`: each trail row it added, and each actor column it filled on an
   * existing row, must name `who`.
   */
  async function by(
    who: Who,
    send: (api: Api) => request.Test,
    status: number,
  ): Promise<request.Response> {
    const res = await send(as(who));
    expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status });
    const now = await entries();
    for (const [id, entry] of now) {
      const before = seen.get(id);
      const isNew = before === undefined && (entry.actor !== null || isTrail(entry.table));
      const filled = before !== undefined && before.actor === null && entry.actor !== null;
      if (!isNew && !filled) continue;
      written.push({ ...entry, by: who });
      if (entry.actor !== STAFF[who].id)
        problems.push(
          `${route(res)} by ${who} (${STAFF[who].id}) wrote ${id} (${entry.what}) ` +
            `naming ${entry.actor}`,
        );
    }
    seen = now;
    return res;
  }

  /** The method and path of the request an answer is to (supertest keeps them on `req`). */
  const route = (res: request.Response) => {
    const req = (res as request.Response & { req: { method: string; path: string } }).req;
    return `${req.method} ${req.path}`;
  };

  const isTrail = (table: string) =>
    TRAILS.some((trail) => `${trail.table}.${trail.actor}` === table);

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      FEATURE_RPC: 'true',
      FEATURE_COBROS: 'true',
      FEATURE_INVENTARIO: 'true',
      FEATURE_COCINA: 'true',
      FEATURE_GENERIC_TABLES: 'true',
    });
    await t.dbs.createTenant(slug);
    await seedMenu(t.dbs, slug);
    await seedStaff(t.dbs, slug);
    await t.dbs.query(
      db(),
      `INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg'), ('Limón', 'kg'), ('Cebolla roja', 'kg');
       INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES
         (1, 1, 0.2), (1, 2, 0.1), (1, 3, 0.05);
       INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero');`,
    );
    seen = await entries();
  });
  afterAll(() => t.close());

  it('names the token’s user on every route and store function that writes a trail', async () => {
    // purchases through the RPC store functions: the stock's compra and reverso_compra
    const compra = await by(
      'admin',
      (api) =>
        api.post('/rpc/save_compra', {
          id_proveedor: 1,
          detalles: [
            { id_mat_prima: 1, cantidad: 10, costo_unitario: 30 },
            { id_mat_prima: 2, cantidad: 5, costo_unitario: 4 },
            { id_mat_prima: 3, cantidad: 5, costo_unitario: 3 },
          ],
        }),
      200,
    );
    await by(
      'admin',
      (api) =>
        api.post('/rpc/save_compra', {
          id_compra: compra.body.id_compra,
          id_proveedor: 1,
          detalles: [
            { id_mat_prima: 1, cantidad: 12, costo_unitario: 30 },
            { id_mat_prima: 2, cantidad: 5, costo_unitario: 4 },
            { id_mat_prima: 3, cantidad: 5, costo_unitario: 3 },
          ],
        }),
      200,
    );
    const otra = await by(
      'admin',
      (api) =>
        api.post('/rpc/save_compra', {
          id_proveedor: 1,
          detalles: [{ id_mat_prima: 2, cantidad: 1, costo_unitario: 4 }],
        }),
      200,
    );
    await by(
      'admin',
      (api) => api.post('/rpc/delete_compra', { id_compra: otra.body.id_compra }),
      200,
    );

    // the generic table routes write none of these trails' tables (they are read-only there)
    await by(
      'admin',
      (api) => api.post('/table/comandas', { estado: 'cerrada', total: 5000 }),
      400,
    );
    await by(
      'admin',
      (api) =>
        api.post('/table/deta_comp_materias', {
          id_compra: compra.body.id_compra,
          id_mat_prima: 1,
          cantidad: 1,
          costo_unitario: 1,
        }),
      400,
    );

    // the till
    const sesion = await by(
      'cajero',
      (api) => api.post('/cajas/1/sesiones', { monto_apertura: 100 }),
      201,
    );
    const idSesion = sesion.body.sesion.id_sesion as number;
    await by(
      'cajero',
      (api) =>
        api.post(`/sesiones-caja/${idSesion}/movimientos`, {
          tipo: 'ingreso',
          monto: 20,
          motivo: 'sencillo',
        }),
      201,
    );

    // a comanda through the floor and the kitchen
    const abierta = await by(
      'mozo',
      (api) =>
        api.post('/comandas', {
          id_mesa: 1,
          items: [
            { id_producto: MENU.ceviche.id, cantidad: 2 },
            { id_producto: MENU.lomo.id, cantidad: 1, curso: 2 },
          ],
        }),
      201,
    );
    const id = abierta.body.id_comanda as number;
    const chicha = await by(
      'mozo',
      (api) => api.post(`/comandas/${id}/items`, { id_producto: MENU.chicha.id, cantidad: 1 }),
      201,
    );
    const extra = await by(
      'mozo',
      (api) => api.post(`/comandas/${id}/items`, { id_producto: MENU.ceviche.id, cantidad: 1 }),
      201,
    );
    const [ceviche] = abierta.body.lineas as { id_item: number }[];
    const chichaItem = (chicha.body.lineas as { id_item: number }[]).at(-1)!.id_item;
    const extraItem = (extra.body.lineas as { id_item: number }[]).at(-1)!.id_item;
    const enviado = await by('mozo', (api) => api.post(`/comandas/${id}/enviar`), 200);
    const envio = (enviado.body.envios as { id_envio: number }[])[0].id_envio;
    await by('cocina', (api) => api.post(`/cocina/envios/${envio}/preparar`), 200);
    await by('cocina', (api) => api.post(`/cocina/envios/${envio}/listo`), 200);
    await by('cocina', (api) => api.post(`/cocina/envios/${envio}/recuperar`), 200);
    await by('cocina', (api) => api.post(`/cocina/envios/${envio}/listo`), 200);
    await by('mozo', (api) => api.post(`/comandas/${id}/items/${ceviche.id_item}/entregar`), 200);
    await by(
      'mozo',
      (api) => api.patch(`/comandas/${id}/items/${chichaItem}`, { cantidad: 2 }),
      200,
    );
    // a sent ceviche voided: the kitchen's cancellation ticket and its recipe as waste
    await by(
      'mozo',
      (api) =>
        api.delete(
          `/comandas/${id}/items/${extraItem}?motivo=${encodeURIComponent('se equivocó')}`,
        ),
      200,
    );
    await by('mozo', (api) => api.post(`/comandas/${id}/cursos/2/disparar`), 200);
    await by('mozo', (api) => api.put(`/comandas/${id}`, { observacion: 'sin ají' }), 200);
    await by('mozo', (api) => api.put(`/comandas/${id}`, { id_mesa: 2 }), 200);

    // split and merge on another comanda
    const otraComanda = await by(
      'mozo',
      (api) =>
        api.post('/comandas', {
          id_mesa: 3,
          items: [{ id_producto: MENU.chicha.id, cantidad: 2 }],
        }),
      201,
    );
    const idOtra = otraComanda.body.id_comanda as number;
    const split = await by(
      'cajero',
      (api) =>
        api.post(`/comandas/${idOtra}/split`, {
          lineas: [{ id_item: otraComanda.body.lineas[0].id_item, cantidad: 1 }],
        }),
      201,
    );
    await by(
      'cajero',
      (api) => api.post(`/comandas/${idOtra}/merge`, { comandas: [split.body.nueva.id_comanda] }),
      200,
    );
    await by('admin', (api) => api.delete(`/comandas/${idOtra}?motivo=duplicada`), 200);
    await by('admin', (api) => api.put(`/comandas/${idOtra}`, { action: 'restaurar' }), 200);

    // the money: a discount, a payment voided, paid and closed, reopened, closed, refunded
    await by(
      'admin',
      (api) =>
        api.post(`/comandas/${id}/descuento`, { tipo: 'monto', valor: 1, motivo: 'cortesía' }),
      201,
    );
    const pagada = await by(
      'cajero',
      (api) => api.post(`/comandas/${id}/pagos`, { id_metodo_pago: TARJETA, monto: 10 }),
      201,
    );
    const pago = (pagada.body.pagos as { id_pago: number }[])[0].id_pago;
    await by(
      'cajero',
      (api) =>
        api.delete(
          `/comandas/${id}/pagos/${pago}?motivo=${encodeURIComponent('tarjeta rechazada')}`,
        ),
      200,
    );
    const saldo = (await as('cajero').get(`/comandas/${id}`).expect(200)).body.saldo as number;
    const cerrada = await by(
      'cajero',
      (api) =>
        api.put(`/comandas/${id}`, {
          action: 'cerrar',
          pagos: [{ id_metodo_pago: TARJETA, monto: saldo }],
        }),
      200,
    );
    await by('cajero', (api) => api.put(`/comandas/${id}`, { action: 'abrir' }), 200);
    await by('cajero', (api) => api.put(`/comandas/${id}`, { action: 'cerrar' }), 200);
    const cobrado = (cerrada.body.pagos as { id_pago: number; estado: string }[]).find(
      (p) => p.estado === 'aplicado',
    )!;
    await by(
      'admin',
      (api) =>
        api.post(`/comandas/${id}/reembolsos`, {
          id_pago: cobrado.id_pago,
          monto: 5,
          motivo: 'plato frío',
        }),
      201,
    );

    // the stock: waste, a count applied
    await by(
      'cocina',
      (api) =>
        api.post('/inventario/mermas', {
          id_mat_prima: PESCADO,
          cantidad: 0.5,
          motivo: 'cadena de frío',
        }),
      201,
    );
    const conteo = await by(
      'admin',
      (api) => api.post('/inventario/conteos', { lineas: [{ id_mat_prima: PESCADO, contado: 9 }] }),
      201,
    );
    await by(
      'admin',
      (api) => api.post(`/inventario/conteos/${conteo.body.id_conteo}/aplicar`),
      200,
    );

    // the till's close
    const esperado = (await as('cajero').get(`/sesiones-caja/${idSesion}`).expect(200)).body
      .metodos as { id_metodo_pago: number; esperado: number }[];
    await by(
      'cajero',
      (api) =>
        api.post(`/sesiones-caja/${idSesion}/cerrar`, {
          contado: [
            {
              id_metodo_pago: EFECTIVO,
              monto: esperado.find((m) => m.id_metodo_pago === EFECTIVO)!.esperado,
            },
          ],
        }),
      201,
    );

    // reservations: booked, seated (its comanda's crear), cancelled, a no-show
    const manana = addDays(todayIn('America/Lima'), 1);
    const reserva = (nombre: string, hora: string, mesa?: number) =>
      by(
        'mozo',
        (api) => api.post('/reservas', { nombre, personas: 2, fecha: manana, hora, id_mesa: mesa }),
        201,
      );
    const sentar = await reserva('Familia Quispe', '20:00', 3);
    await by('mozo', (api) => api.post(`/reservas/${sentar.body.id_reserva}/sentar`, {}), 200);
    const cancelar = await reserva('Ana Torres', '21:00');
    await by(
      'cajero',
      (api) => api.post(`/reservas/${cancelar.body.id_reserva}/cancelar`, { motivo: 'llamó' }),
      200,
    );
    const ausente = await reserva('Luis Rojas', '22:00');
    await by('cajero', (api) => api.post(`/reservas/${ausente.body.id_reserva}/no-show`), 200);

    expect(problems).toEqual([]);

    // every trail was written, every kind of entry of each
    const kinds = (table: string) =>
      [...new Set(written.filter((w) => w.table === table).map((w) => w.what))].sort();
    expect(kinds('comanda_eventos.id_usuario')).toEqual(
      [
        'abrir',
        'agregar_item',
        'anular_pago',
        'cerrar',
        'crear',
        'descontar',
        'disparar',
        'dividir',
        'editar',
        'eliminar',
        'entregar',
        'enviar',
        'listo',
        'modificar_item',
        'pagar',
        'preparar',
        'quitar_item',
        'recuperar',
        'reembolsar',
        'restaurar',
        'transferir',
        'unir',
      ].sort(),
    );
    expect(kinds('caja_eventos.id_usuario')).toEqual(['abrir', 'cerrar', 'ingreso']);
    expect(kinds('stock_movimientos.id_usuario')).toEqual([
      'ajuste_conteo',
      'compra',
      'consumo_venta',
      'merma',
      'reverso_compra',
      'reverso_consumo',
    ]);
    for (const table of [
      'sesiones_caja.id_usuario_apertura',
      'sesiones_caja.id_usuario_cierre',
      'movimientos_caja.id_usuario',
      'pagos.id_usuario',
      'pagos.id_usuario_anulacion',
      'reembolsos.id_usuario',
      'mermas.id_usuario',
      'conteos.id_usuario',
      'conteos.id_usuario_aplica',
      'envios_cocina.id_usuario',
      'cursos_disparados.id_usuario',
      'reservas.id_usuario_registro',
      'reservas.id_usuario_estado',
    ])
      expect({ table, written: kinds(table).length > 0 }).toEqual({ table, written: true });
    // the kitchen's cancellation of a sent line is waste of its recipe, by the waiter who voided it
    expect(
      written.filter((w) => w.table === 'stock_movimientos.id_usuario' && w.what === 'merma'),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ by: 'mozo' }),
        expect.objectContaining({ by: 'cocina' }),
      ]),
    );
    // and no trail row of the tenant names nobody
    const anonymous = [...(await entries()).entries()].filter(
      ([, entry]) => isTrail(entry.table) && entry.actor === null,
    );
    expect(anonymous).toEqual([]);
  });
});
