import request from 'supertest';
import { buildOfflineDocument } from '../../src/cli/openapi-export';
import { featureVariables, tenantFeatures } from '../../src/common/config/features';
import { addDays, todayIn } from '../../src/common/time';
import { seedStaff, STAFF, TEST_SECRET, tokenFor } from '../support/auth';
import { MENU, seedMenu } from '../support/fixtures';
import { TestDatabases } from '../support/test-databases';
import { startTestApp, type TestApp } from '../support/test-app';
import { moduleSweeps } from '../support/module-sweeps';
import { ContractSweep, samplePath } from './openapi-sweep';

/**
 * The OpenAPI document is a tested artifact: a sweep over every operation of the document the
 * service serves, with success and error answers, each checked against that same document
 * (status declared, body schema, declared headers, the error's code among the status's
 * examples), in both authentication modes, since the document differs. Adding an operation
 * without a successful call below fails the coverage check.
 */

const FEATURES_ON = {
  ...Object.fromEntries(featureVariables().map((variable) => [variable, 'true'])),
  // the sweep's endpoint is on this machine (nothing listens there: its attempts fail)
  WEBHOOKS_ALLOW_PRIVATE: 'true',
};
/** A whole sweep is some 500 exchanges: more than a test's minute on a busy machine. */
const SWEEP_TIMEOUT_MS = 5 * 60_000;
/** Small limits, so that 413 is cheap to reach. */
const LIMITS = { BODY_LIMIT: '16kb', UPLOAD_MAX_BYTES: '4096' };
const JWT = { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET };
/** The credentials the sweep gives Rosa (the mozo of seedMenu and seedStaff). */
const SIGN_IN = { password: 'ceviche-de-lunes', pin: '4827' };

/** Values for the path parameters of the shared sweep (none needs to exist). */
const SAMPLES = { id: '1', itemId: '1', table: 'productos', column: 'id_categoria' };

const ATTLOG =
  '40000001\t2026-06-01 08:00:12\t1\t0\t1\t0\n40000002\t2026-06-01 08:03:40\t1\t0\t1\t0\n';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** The document and its parts as JSON, loosely typed like a response body. */
type Json = ReturnType<typeof JSON.parse>;

interface DocOperation {
  path: string;
  method: Method;
  operationId: string;
  tenant: boolean;
  feature: boolean;
  body: string[];
  ids: string[];
  public: boolean;
  permission: boolean;
  statuses: string[];
}

/** What the shared sweep needs to know of each operation, read from the document. */
function operationsOf(document: Json): DocOperation[] {
  const list: DocOperation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const parameters: Json[] = op.parameters ?? [];
      list.push({
        path,
        method: method as Method,
        operationId: op.operationId,
        tenant: parameters.some((p) => p.in === 'header' && p.name === 'X-Tenant-ID'),
        feature: typeof op['x-feature'] === 'string',
        body: Object.keys(op.requestBody?.content ?? {}),
        ids: parameters
          .filter((p) => p.in === 'path' && p.schema?.type === 'integer')
          .map((p) => p.name),
        public: op['x-public'] === true,
        permission: op['x-permission'] !== undefined,
        statuses: Object.keys(op.responses),
      });
    }
  }
  return list;
}

/** Tenants of every state the tenant guard answers for. */
async function createTenants(dbs: TestDatabases): Promise<void> {
  for (const slug of ['alfa', 'bravo']) {
    await dbs.createTenant(slug);
    await seedMenu(dbs, slug);
    await seedStaff(dbs, slug);
    await dbs.query(
      dbs.tenantUrl(slug),
      `INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero Villa María SAC');
       INSERT INTO mate_primas (nombre, unidad) VALUES ('Pescado', 'kg');`,
    );
  }
  await dbs.createTenant('apagado', {
    features: Object.fromEntries(tenantFeatures().map((feature) => [feature, false])),
  });
  await dbs.createTenant('congelado', { status: 'suspended' });
  await dbs.createTenant('nuevo', { status: 'provisioning' });
  // a catalog row whose database does not exist: every request of it is 503
  await dbs.query(
    dbs.controlUrl,
    `INSERT INTO tenants (slug, name, database_name, status, time_zone, features)
     VALUES ('caido', 'Caído', $1, 'active', 'America/Lima', '{}')`,
    [`${dbs.prefix}caido_missing`],
  );
}

/** A successful call of every operation, and the errors of each operation's own. */
async function sweepOperations(s: ContractSweep): Promise<void> {
  // tenant, and who is asking
  await s.call(200, 'get', '/tenant');
  await s.call(200, 'get', '/me');

  // a staff member's credentials (the sign-in routes themselves: sweepSignIn, with tokens)
  await s.call(200, 'put', `/usuarios/${MENU.rosa}/credenciales`, {
    json: { password: SIGN_IN.password, pin: SIGN_IN.pin },
  });
  await s.call(400, 'put', `/usuarios/${MENU.rosa}/credenciales`, { json: { pin: '1234' } });
  await s.call(400, 'put', `/usuarios/${MENU.rosa}/credenciales`, { json: {} });
  await s.call(404, 'put', '/usuarios/999999/credenciales', { json: { pin: '5173' } });
  await s.call(409, 'put', `/usuarios/${MENU.luis}/credenciales`, { json: { pin: SIGN_IN.pin } });

  // money: methods, tills, a session (open before the comandas below close with payments)
  await s.call(200, 'get', '/metodos-pago');
  await s.call(200, 'get', '/cajas');
  const sesion = await s.call(201, 'post', '/cajas/1/sesiones', { json: { monto_apertura: 100 } });
  const sesionId = (sesion.body.sesion as { id_sesion: number }).id_sesion;
  await s.call(409, 'post', '/cajas/1/sesiones', { json: { monto_apertura: 100 } });
  await s.call(404, 'post', '/cajas/999/sesiones', { json: { monto_apertura: 100 } });
  await s.call(400, 'post', '/cajas/1/sesiones', { json: { monto_apertura: -1 } });
  await s.call(200, 'get', '/sesiones-caja?estado=abierta&limit=5');
  await s.call(400, 'get', '/sesiones-caja?estado=nope', { label: 'bad filter' });
  await s.call(200, 'get', `/sesiones-caja/${sesionId}`);
  await s.call(404, 'get', '/sesiones-caja/999999');
  await s.call(200, 'get', `/sesiones-caja/${sesionId}/reporte`);
  await s.call(200, 'get', `/sesiones-caja/${sesionId}/reporte`, {
    headers: { Accept: 'text/plain' },
    label: 'receipt',
  });
  await s.call(404, 'get', '/sesiones-caja/999999/reporte');
  await s.call(201, 'post', `/sesiones-caja/${sesionId}/movimientos`, {
    json: { tipo: 'retiro', monto: 10, motivo: 'compra de limones' },
  });
  await s.call(400, 'post', `/sesiones-caja/${sesionId}/movimientos`, {
    json: { tipo: 'retiro', monto: 10 },
  });
  await s.call(404, 'post', '/sesiones-caja/999999/movimientos', {
    json: { tipo: 'ingreso', monto: 10, motivo: 'sencillo' },
  });
  await s.call(200, 'get', '/cobros/ajustes');
  await s.call(200, 'put', '/cobros/ajustes', { json: { tolerancia_cierre: 5 } });
  await s.call(400, 'put', '/cobros/ajustes', { json: { tasa_recargo: 0.5 } });
  // each module's own routes: test/<module>/<module>.sweep.ts, in the order of src/modules.ts
  for (const { sweep } of moduleSweeps()) await sweep(s);
  const cuenta = await s.call(201, 'post', '/comandas', {
    json: { items: [{ id_producto: MENU.ceviche.id, cantidad: 1 }] },
  });
  const cuentaId = cuenta.body.id_comanda as number;
  await s.call(201, 'post', `/comandas/${cuentaId}/descuento`, {
    json: { tipo: 'porcentaje', valor: 10, motivo: 'cliente frecuente' },
  });
  await s.call(400, 'post', `/comandas/${cuentaId}/descuento`, {
    json: { tipo: 'monto', valor: 999, motivo: 'más que la cuenta' },
  });
  await s.call(404, 'post', '/comandas/999999/descuento', {
    json: { tipo: 'monto', valor: 1, motivo: 'x' },
  });
  await s.call(200, 'post', `/comandas/${cuentaId}/pagos/simulacion`, {
    json: { id_metodo_pago: 1, monto: 50, propina: 2, recibido: 100 },
  });
  await s.call(409, 'post', `/comandas/${cuentaId}/pagos/simulacion`, {
    json: { id_metodo_pago: 2, monto: 999 },
  });
  await s.call(400, 'post', `/comandas/${cuentaId}/pagos/simulacion`, {
    json: { id_metodo_pago: 1, monto: 50, recibido: 10 },
  });
  await s.call(404, 'post', '/comandas/999999/pagos/simulacion', {
    json: { id_metodo_pago: 1, monto: 1 },
  });
  const tarjeta = await s.call(201, 'post', `/comandas/${cuentaId}/pagos`, {
    json: { id_metodo_pago: 2, monto: 10, referencia: 'VISA 4821' },
  });
  const tarjetaId = (tarjeta.body.pagos as { id_pago: number }[])[0].id_pago;
  await s.call(409, 'post', `/comandas/${cuentaId}/pagos`, {
    json: { id_metodo_pago: 2, monto: 999 },
  });
  await s.call(400, 'post', `/comandas/${cuentaId}/pagos`, {
    json: { id_metodo_pago: 2, monto: 1, recibido: 5 },
  });
  await s.call(400, 'post', `/comandas/${cuentaId}/pagos`, {
    json: { id_metodo_pago: 99, monto: 1 },
  });
  await s.call(404, 'post', '/comandas/999999/pagos', { json: { id_metodo_pago: 1, monto: 1 } });
  await s.call(409, 'delete', `/comandas/${cuentaId}`, { label: 'paid' });
  await s.call(400, 'delete', `/comandas/${cuentaId}/pagos/${tarjetaId}`, { label: 'no motivo' });
  await s.call(200, 'delete', `/comandas/${cuentaId}/pagos/${tarjetaId}`, {
    json: { motivo: 'otro método' },
  });
  await s.call(409, 'delete', `/comandas/${cuentaId}/pagos/${tarjetaId}`, {
    json: { motivo: 'otra vez' },
  });
  await s.call(404, 'delete', `/comandas/${cuentaId}/pagos/999999`, { json: { motivo: 'x' } });
  await s.call(409, 'put', `/comandas/${cuentaId}`, {
    json: { action: 'cerrar' },
    label: 'unpaid',
  });
  await s.call(400, 'put', `/comandas/${cuentaId}`, {
    json: { action: 'abrir', pagos: [{ id_metodo_pago: 1, monto: 50 }] },
  });
  const pagada = await s.call(200, 'put', `/comandas/${cuentaId}`, {
    json: { action: 'cerrar', pagos: [{ id_metodo_pago: 1, monto: 50, propina: 2 }] },
  });
  const efectivoId = (pagada.body.pagos as { id_pago: number; estado: string }[]).find(
    (p) => p.estado === 'aplicado',
  )!.id_pago;
  await s.call(201, 'post', `/comandas/${cuentaId}/reembolsos`, {
    json: { id_pago: efectivoId, monto: 5, motivo: 'plato frío' },
  });
  await s.call(409, 'post', `/comandas/${cuentaId}/reembolsos`, {
    json: { id_pago: efectivoId, monto: 999, motivo: 'más que el pago' },
  });
  await s.call(400, 'post', `/comandas/${cuentaId}/reembolsos`, {
    json: { id_pago: efectivoId, monto: 1 },
  });
  await s.call(404, 'post', `/comandas/${cuentaId}/reembolsos`, {
    json: { id_pago: 999999, monto: 1, motivo: 'x' },
  });
  await s.call(409, 'put', `/comandas/${cuentaId}`, {
    json: { action: 'abrir' },
    label: 'refunded',
  });

  // comandas
  await s.call(200, 'get', '/comandas?estado=abierta&limit=5');
  await s.call(400, 'get', '/comandas?estado=nope', { label: 'bad filter' });
  await s.call(400, 'get', '/comandas?limit=5&limit=6', { label: 'repeated parameter' });
  const created = await s.call(201, 'post', '/comandas', {
    json: {
      id_mesa: MENU.mesas[0],
      id_usuario: MENU.rosa,
      items: [{ id_producto: MENU.ceviche.id, cantidad: 2, nota: 'sin ají' }],
    },
  });
  const id = created.body.id_comanda as number;
  await s.call(400, 'post', '/comandas', { json: { id_mesa: 'tres' }, label: 'wrong type' });
  await s.call(400, 'post', '/comandas', {
    json: { items: [{ id_producto: 999, cantidad: 1 }] },
  });
  await s.call(400, 'post', '/comandas', {
    json: { items: [{ id_producto: MENU.retirado.id, cantidad: 1 }] },
  });
  await s.call(400, 'post', '/comandas', { json: { id_mesa: 99 }, label: 'unknown table' });
  await s.call(200, 'get', `/comandas/${id}`);
  await s.call(404, 'get', '/comandas/999999');
  await s.call(200, 'get', `/comandas/${id}/eventos`);
  await s.call(404, 'get', '/comandas/999999/eventos');
  const added = await s.call(201, 'post', `/comandas/${id}/items`, {
    json: { id_producto: MENU.lomo.id, cantidad: 1 },
  });
  const itemId = (added.body.lineas as { id_item: number }[]).at(-1)!.id_item;
  await s.call(412, 'post', `/comandas/${id}/items`, {
    headers: { 'If-Match': '"1"' },
    json: { id_producto: MENU.lomo.id, cantidad: 1 },
  });
  await s.call(400, 'post', `/comandas/${id}/items`, {
    headers: { 'If-Match': 'tres' },
    json: { id_producto: MENU.lomo.id, cantidad: 1 },
  });
  await s.call(404, 'post', '/comandas/999999/items', {
    json: { id_producto: MENU.lomo.id, cantidad: 1 },
  });
  await s.call(400, 'post', `/comandas/${id}/items`, { json: { id_producto: 999, cantidad: 1 } });
  await s.call(200, 'patch', `/comandas/${id}/items/${itemId}`, { json: { cantidad: 3 } });
  await s.call(404, 'patch', `/comandas/${id}/items/999999`, { json: { cantidad: 3 } });
  await s.call(400, 'patch', `/comandas/${id}/items/${itemId}`, { json: { cantidad: -1 } });
  await s.call(200, 'delete', `/comandas/${id}/items/${itemId}`);
  await s.call(404, 'delete', `/comandas/${id}/items/${itemId}`, { label: 'line gone' });
  await s.call(200, 'put', `/comandas/${id}`, { json: { id_mesa: MENU.mesas[1] } });
  await s.call(400, 'put', `/comandas/${id}`, { json: { action: 'cerrar', id_mesa: 2 } });
  await s.call(400, 'put', `/comandas/${id}`, { json: {} });
  await s.call(400, 'put', `/comandas/${id}`, { json: { id_cliente: 999 } });
  await s.call(200, 'put', `/comandas/${id}`, {
    json: { action: 'cerrar', pagos: [{ id_metodo_pago: 1, monto: 200 }] },
  });
  await s.call(409, 'put', `/comandas/${id}`, { json: { action: 'cerrar' } });
  await s.call(409, 'post', `/comandas/${id}/items`, {
    json: { id_producto: MENU.chicha.id, cantidad: 1 },
  });
  await s.call(412, 'put', `/comandas/${id}`, {
    headers: { 'If-Match': '"1"' },
    json: { action: 'abrir' },
  });
  await s.call(404, 'put', '/comandas/999999', { json: { action: 'abrir' } });
  const empty = await s.call(201, 'post', '/comandas', { json: {} });
  const emptyId = empty.body.id_comanda as number;
  await s.call(409, 'put', `/comandas/${emptyId}`, { json: { action: 'cerrar' } });
  await s.call(400, 'delete', `/comandas/${emptyId}`, { json: { razon: 'x' } });
  await s.call(412, 'delete', `/comandas/${emptyId}`, { headers: { 'If-Match': '"9"' } });
  await s.call(200, 'delete', `/comandas/${emptyId}?motivo=pedido%20duplicado`);
  await s.call(409, 'delete', `/comandas/${emptyId}`, { label: 'already eliminada' });
  await s.call(200, 'put', `/comandas/${emptyId}`, { json: { action: 'restaurar' } });
  await s.call(200, 'delete', `/comandas/${emptyId}`, { json: { motivo: 'cliente se retiró' } });
  await s.call(404, 'delete', '/comandas/999999');

  // floor operations: split, merge, idempotent writes
  const floor = await s.call(201, 'post', '/comandas', {
    json: {
      id_mesa: MENU.mesas[0],
      items: [
        { id_producto: MENU.ceviche.id, cantidad: 3 },
        { id_producto: MENU.lomo.id, cantidad: 1 },
      ],
    },
    headers: { 'Idempotency-Key': 'sweep-floor' },
  });
  const floorId = floor.body.id_comanda as number;
  await s.call(201, 'post', '/comandas', {
    json: {
      id_mesa: MENU.mesas[0],
      items: [
        { id_producto: MENU.ceviche.id, cantidad: 3 },
        { id_producto: MENU.lomo.id, cantidad: 1 },
      ],
    },
    headers: { 'Idempotency-Key': 'sweep-floor' },
    label: 'replayed',
  });
  await s.call(422, 'post', '/comandas', {
    json: { id_mesa: MENU.mesas[1] },
    headers: { 'Idempotency-Key': 'sweep-floor' },
  });
  await s.call(400, 'post', '/comandas', {
    json: {},
    headers: { 'Idempotency-Key': 'con espacio' },
  });
  const floorLines = floor.body.lineas as { id_item: number }[];
  const split = await s.call(201, 'post', `/comandas/${floorId}/split`, {
    json: { lineas: [{ id_item: floorLines[0].id_item, cantidad: 1 }], id_mesa: MENU.mesas[1] },
  });
  const nuevaId = (split.body.nueva as { id_comanda: number }).id_comanda;
  await s.call(400, 'post', `/comandas/${floorId}/split`, {
    json: { lineas: [{ id_item: floorLines[0].id_item, cantidad: 9 }] },
  });
  await s.call(400, 'post', `/comandas/${floorId}/split`, { json: { lineas: [] } });
  await s.call(404, 'post', '/comandas/999999/split', {
    json: { lineas: [{ id_item: 1, cantidad: 1 }] },
  });
  await s.call(412, 'post', `/comandas/${floorId}/split`, {
    headers: { 'If-Match': '"1"' },
    json: { lineas: [{ id_item: floorLines[0].id_item, cantidad: 1 }] },
  });
  await s.call(400, 'post', `/comandas/${floorId}/merge`, { json: { comandas: [999999] } });
  await s.call(400, 'post', `/comandas/${floorId}/merge`, { json: { comandas: 'x' } });
  await s.call(404, 'post', '/comandas/999999/merge', { json: { comandas: [nuevaId] } });
  await s.call(200, 'post', `/comandas/${floorId}/merge`, { json: { comandas: [nuevaId] } });
  await s.call(409, 'post', `/comandas/${floorId}/merge`, {
    json: { comandas: [nuevaId] },
    label: 'merged already',
  });
  await s.call(200, 'delete', `/comandas/${floorId}/items/${floorLines[1].id_item}`, {
    json: { motivo: 'se quemó' },
  });

  // the day's close: refused while a comanda paid in the session is open, then the Z
  const abierta = await s.call(201, 'post', `/comandas/${floorId}/pagos`, {
    json: { id_metodo_pago: 3, monto: 5 },
  });
  await s.call(409, 'post', `/sesiones-caja/${sesionId}/cerrar`, {
    json: { contado: [{ id_metodo_pago: 1, monto: 290 }] },
    label: 'open comanda paid',
  });
  await s.call(
    200,
    'delete',
    `/comandas/${floorId}/pagos/${(abierta.body.pagos as { id_pago: number }[])[0].id_pago}`,
    {
      json: { motivo: 'Yape rechazado' },
    },
  );
  await s.call(400, 'post', `/sesiones-caja/${sesionId}/cerrar`, { json: { contado: [] } });
  await s.call(404, 'post', '/sesiones-caja/999999/cerrar', { json: { contado: [] } });
  await s.call(201, 'post', `/sesiones-caja/${sesionId}/cerrar`, {
    json: { contado: [{ id_metodo_pago: 1, monto: 290 }], nota: 'sin novedad' },
  });
  await s.call(409, 'post', `/sesiones-caja/${sesionId}/cerrar`, {
    json: { contado: [{ id_metodo_pago: 1, monto: 290 }] },
    label: 'closed already',
  });
  await s.call(409, 'post', `/sesiones-caja/${sesionId}/movimientos`, {
    json: { tipo: 'ingreso', monto: 10, motivo: 'tarde' },
  });

  // the live stream: its first frame, then hang up
  await s.call(200, 'get', '/comandas/stream?estado=abierta', { stream: true });
  await s.call(400, 'get', '/comandas/stream', {
    stream: true,
    headers: { 'Last-Event-ID': 'abc' },
  });
  await s.call(400, 'get', '/comandas/stream?estado=nope', { stream: true });

  // reservas (tomorrow in the tenants' zone: a booking is never for a day already past)
  const manana = addDays(todayIn('America/Lima'), 1);
  await s.call(200, 'get', `/reservas?fecha=${manana}&estado=pendiente&limit=5`);
  await s.call(400, 'get', '/reservas?estado=nope', { label: 'bad filter' });
  const reserva = await s.call(201, 'post', '/reservas', {
    json: {
      nombre: 'Familia Pérez',
      personas: 4,
      fecha: manana,
      hora: '20:30',
      id_mesa: MENU.mesas[0],
      telefono: '987 654 321',
    },
  });
  const rid = reserva.body.id_reserva as number;
  const booking = { nombre: 'Rojas', personas: 2, fecha: manana };
  await s.call(400, 'post', '/reservas', { json: { ...booking, personas: 51, hora: '25:00' } });
  await s.call(400, 'post', '/reservas', {
    json: { ...booking, fecha: '2020-01-01', hora: '20:00' },
    label: 'in the past',
  });
  await s.call(400, 'post', '/reservas', {
    json: { ...booking, hora: '13:00', id_mesa: 99 },
    label: 'unknown table',
  });
  await s.call(409, 'post', '/reservas', {
    json: { ...booking, hora: '21:00', id_mesa: MENU.mesas[0] },
    label: 'table booked',
  });
  await s.call(200, 'get', `/reservas/${rid}`);
  await s.call(404, 'get', '/reservas/999999');
  await s.call(200, 'patch', `/reservas/${rid}`, { json: { personas: 5, telefono: null } });
  await s.call(400, 'patch', `/reservas/${rid}`, { json: {}, label: 'empty change' });
  await s.call(400, 'patch', `/reservas/${rid}`, { json: { personas: 0 } });
  await s.call(400, 'patch', `/reservas/${rid}`, { json: { fecha: '2020-01-01' } });
  await s.call(400, 'patch', `/reservas/${rid}`, { json: { id_cliente: 999 } });
  await s.call(412, 'patch', `/reservas/${rid}`, {
    headers: { 'If-Match': '"1"' },
    json: { personas: 3 },
  });
  await s.call(404, 'patch', '/reservas/999999', { json: { personas: 3 } });
  const sinMesa = (await s.call(201, 'post', '/reservas', { json: { ...booking, hora: '13:00' } }))
    .body.id_reserva as number;
  await s.call(409, 'patch', `/reservas/${sinMesa}`, {
    json: { id_mesa: MENU.mesas[0], hora: '21:00' },
    label: 'table booked',
  });
  await s.call(400, 'post', `/reservas/${sinMesa}/sentar`, { json: {}, label: 'no table' });
  await s.call(400, 'post', `/reservas/${sinMesa}/sentar`, { json: { id_mesa: 99 } });
  await s.call(400, 'post', `/reservas/${sinMesa}/sentar`, { json: { id_mesa: 'tres' } });
  await s.call(404, 'post', '/reservas/999999/sentar', { json: {} });
  await s.call(412, 'post', `/reservas/${rid}/sentar`, {
    headers: { 'If-Match': '"1"' },
    json: {},
  });
  await s.call(200, 'post', `/reservas/${rid}/sentar`, { json: { id_usuario: MENU.rosa } });
  await s.call(409, 'post', `/reservas/${rid}/sentar`, { json: {} });
  await s.call(409, 'patch', `/reservas/${rid}`, { json: { personas: 2 } });
  await s.call(400, 'post', `/reservas/${sinMesa}/cancelar`, { json: {} });
  await s.call(404, 'post', '/reservas/999999/cancelar', { json: { motivo: 'x' } });
  await s.call(412, 'post', `/reservas/${sinMesa}/cancelar`, {
    headers: { 'If-Match': '"9"' },
    json: { motivo: 'x' },
  });
  await s.call(200, 'post', `/reservas/${sinMesa}/cancelar`, {
    json: { motivo: 'el cliente llamó' },
  });
  await s.call(409, 'post', `/reservas/${sinMesa}/cancelar`, { json: { motivo: 'x' } });
  const ausente = (await s.call(201, 'post', '/reservas', { json: { ...booking, hora: '15:00' } }))
    .body.id_reserva as number;
  await s.call(404, 'post', '/reservas/999999/no-show');
  await s.call(412, 'post', `/reservas/${ausente}/no-show`, { headers: { 'If-Match': '"7"' } });
  await s.call(200, 'post', `/reservas/${ausente}/no-show`);
  await s.call(409, 'post', `/reservas/${ausente}/no-show`);

  // catalogo: the floor's products, tables and waiters, read only
  await s.call(200, 'get', '/productos?q=cevi&activo=true&id_categoria=1&limit=5&offset=0');
  await s.call(400, 'get', '/productos?limit=501', { label: 'limit above the maximum' });
  await s.call(200, 'get', '/mesas?activo=true');
  await s.call(400, 'get', '/mesas?activo=si', { label: 'not a boolean' });
  await s.call(200, 'get', '/mozos?activo=true');
  await s.call(400, 'get', '/mozos?activo=si', { label: 'not a boolean' });

  // generic tables
  await s.call(200, 'get', '/tables');
  await s.call(200, 'get', '/schema/productos');
  await s.call(200, 'get', '/schema/comandas', { label: 'read-only: its owner and routes' });
  await s.call(400, 'get', '/schema/a-b');
  await s.call(400, 'get', '/schema/tenants');
  await s.call(200, 'get', '/options/productos/id_categoria');
  await s.call(200, 'get', '/options/productos/nombre', { label: 'no foreign key' });
  await s.call(400, 'get', '/options/productos/nope');
  await s.call(400, 'get', '/options/productos/x-y');
  await s.call(200, 'get', '/table/mesas?limit=2');
  await s.call(200, 'get', '/table/comandas', { label: 'instants and numbers' });
  await s.call(400, 'get', '/table/mesas?limit=0');
  await s.call(400, 'get', '/table/mesas?orden=1');
  await s.call(201, 'post', '/table/categorias', { json: { nombre: 'Postres' } });
  await s.call(400, 'post', '/table/categorias', { json: { nombre: 'Postres' } });
  await s.call(400, 'post', '/table/categorias', { json: { descripcion: 'sin nombre' } });
  await s.call(400, 'post', '/table/productos', { json: { nombre: 'Suspiro', id_categoria: 999 } });
  await s.call(400, 'post', '/table/productos', { json: { nombre: 'Suspiro', precio: -5 } });
  await s.call(400, 'post', '/table/categorias', { json: { nombre: { es: 'Postres' } } });
  await s.call(400, 'post', '/table/mesas', { json: { numero: 'cuarenta' } });
  await s.call(400, 'post', '/table/vw_compras', { json: {} });
  await s.call(400, 'post', '/table/comandas', {
    json: { estado: 'cerrada', total: 5000 },
    label: 'a table a module owns',
  });

  // rpc
  await s.call(200, 'get', `/rpc/get_producto/${MENU.ceviche.id}`);
  await s.call(200, 'get', '/rpc/get_producto/99999', { label: 'unknown: {}' });
  await s.call(400, 'get', '/rpc/get_producto/99999999999');
  await s.call(200, 'post', '/rpc/save_producto', {
    json: { nombre: 'Ceviche mixto', precio: 42, receta: [{ id_mat_prima: 1, cantidad: 0.25 }] },
  });
  await s.call(500, 'post', '/rpc/save_producto', { json: { precio: 10 }, label: 'no nombre' });
  await s.call(200, 'get', '/rpc/get_materia/1');
  await s.call(200, 'post', '/rpc/save_materia', {
    json: { nombre: 'Limón', unidad: 'kg', proveedores: [{ id_proveedor: 1, precio: 4.5 }] },
  });
  await s.call(500, 'post', '/rpc/save_materia', { json: { nombre: 'Sal', unidad: 'saco' } });
  await s.call(200, 'post', '/rpc/find_usuarios_por_documentos', {
    json: { docs: ['40000001', '99999999'] },
  });
  await s.call(200, 'post', '/rpc/import_asistencia', {
    json: {
      origen: 'contract',
      registros: [
        { doc: '40000001', fecha: '2026-06-01', hora: '08:00:00', modo: 'entrada' },
        { doc: '40000001', fecha: '2026-06-01', hora: '17:00:00', modo: 'salida' },
        { doc: '40000009', fecha: '2026-06-01', hora: '08:05:00' },
      ],
    },
  });
  const asistencia = await s.call(200, 'post', '/rpc/asistencia_get', {
    json: { doc: '40000001', desde: '2026-06-01', hasta: '2026-06-01' },
  });
  const [first, second] = asistencia.body.marcas as { id_raw: number }[];
  await s.call(200, 'post', '/rpc/asistencia_update_raw', {
    json: { id_raw: first.id_raw, fecha: '2026-06-01', hora: '08:05:00', modo: 'entrada' },
  });
  await s.call(500, 'post', '/rpc/asistencia_update_raw', { json: { id_raw: 'x' } });
  await s.call(200, 'post', '/rpc/asistencia_delete_raw', { json: { id_raw: second.id_raw } });
  await s.call(500, 'post', '/rpc/asistencia_delete_raw', { json: { id_raw: 99999 } });
  await s.call(200, 'post', '/rpc/report_tickets', { json: { year: 2026 } });
  await s.call(200, 'post', '/rpc/report_tickets?year=2025', { json: {} });
  await s.call(200, 'post', '/rpc/report_asistencia', {
    json: { desde: '2026-06-01', hasta: '2026-06-30' },
  });
  const compra = await s.call(200, 'post', '/rpc/save_compra', {
    json: { id_proveedor: 1, detalles: [{ id_mat_prima: 1, cantidad: 10, costo_unitario: 32.5 }] },
  });
  await s.call(500, 'post', '/rpc/save_compra', {
    json: { id_proveedor: 99999, detalles: [] },
    label: 'diagnostics',
  });
  await s.call(200, 'post', '/rpc/get_compra', { json: { id_compra: compra.body.id_compra } });
  await s.call(500, 'post', '/rpc/get_compra', { json: { id_compra: 'abc' } });
  await s.call(200, 'post', '/rpc/report_gastos', { json: { year: 2026 } });
  await s.call(200, 'get', '/rpc/report_gastos?year=2026');
  await s.call(200, 'post', '/rpc/delete_compra', { json: { id_compra: compra.body.id_compra } });
  await s.call(500, 'post', '/rpc/delete_compra', { json: { id_compra: 99999 } });

  // time clocks
  await s.call(200, 'get', '/device-drivers', { tenant: null });
  await s.call(200, 'post', '/device-drivers/validate', {
    tenant: null,
    json: { vendor: 'ZKTeco', model: 'K40', transport: 'tcp', version: '1.0' },
  });
  await s.call(200, 'post', '/device-drivers/validate', {
    tenant: null,
    json: { vendor: 'Acme', transport: 'file', version: '1.0', format: 'nope' },
    label: 'invalid manifest',
  });
  const file = { name: 'attlog.dat', content: Buffer.from(ATTLOG) };
  await s.call(200, 'post', '/asistencia/import', {
    form: { fields: { driver: 'zkteco-attlog' }, file },
  });
  await s.call(400, 'post', '/asistencia/import', {
    form: { fields: { driver: 'zkteco-attlog' } },
  });
  await s.call(400, 'post', '/asistencia/import', { form: { fields: { driver: 'acme' }, file } });
  await s.call(400, 'post', '/asistencia/import', {
    form: { fields: { driver: 'zkteco-push' }, file },
  });
  await s.call(400, 'post', '/asistencia/import', { form: { fields: {}, file } });
  await s.call(413, 'post', '/asistencia/import', {
    form: {
      fields: { driver: 'zkteco-attlog' },
      file: { name: 'attlog.dat', content: Buffer.from(ATTLOG.repeat(200)) },
    },
  });

  // health
  await s.call(200, 'get', '/api/health', { tenant: null, token: null });
}

/**
 * The answers every operation shares, derived from the document itself: the tenant's, a
 * switched-off feature's, a request body's and a path id's.
 */
async function sweepShared(s: ContractSweep, ops: DocOperation[]): Promise<void> {
  for (const op of ops) {
    const path = samplePath(op.path, SAMPLES);
    const label = op.operationId;
    if (op.tenant) {
      await s.call(400, op.method, path, { tenant: null, label });
      await s.call(400, op.method, path, { tenant: 'NOT VALID', label });
      await s.call(404, op.method, path, { tenant: 'nadie', label });
      await s.call(403, op.method, path, { tenant: 'congelado', label });
      await s.call(503, op.method, path, { tenant: 'nuevo', label });
      await s.call(503, op.method, path, { tenant: 'caido', label });
    }
    if (op.feature) await s.call(404, op.method, path, { tenant: 'apagado', label });
    const tenant = op.tenant ? undefined : null;
    if (op.body.length > 0) {
      await s.call(415, op.method, path, { tenant, raw: { type: 'text/plain', data: 'x' }, label });
      await s.call(413, op.method, path, {
        tenant,
        json: { padding: 'x'.repeat(20_000) },
        label,
      });
    }
    if (op.body.includes('application/json')) {
      for (const json of [[], null, 'x'])
        await s.call(400, op.method, path, { tenant, json, label: `${label} INVALID_BODY` });
      await s.call(400, op.method, path, {
        tenant,
        raw: { type: 'application/json', data: '{"nombre": ' },
        label: `${label} malformed JSON`,
      });
    }
    for (const name of op.ids) {
      const values = { ...SAMPLES, [name]: 'abc' };
      await s.call(400, op.method, samplePath(op.path, values), { tenant, label });
    }
  }
}

/** With AUTH_MODE=jwt: the token's and the roles' answers of every operation that asks one. */
/** Staff sign-in, where the service issues tokens (after sweepOperations set the credentials). */
async function sweepSignIn(s: ContractSweep): Promise<void> {
  const login = await s.call(200, 'post', '/auth/login', {
    token: null,
    json: { documento: STAFF.mozo.documento, password: SIGN_IN.password },
  });
  await s.call(401, 'post', '/auth/login', {
    token: null,
    json: { documento: STAFF.mozo.documento, password: 'no-es-la-clave' },
  });
  await s.call(400, 'post', '/auth/login', { token: null, json: { documento: '40000001' } });
  const pin = await s.call(200, 'post', '/auth/pin', { token: null, json: { pin: SIGN_IN.pin } });
  await s.call(401, 'post', '/auth/pin', {
    token: null,
    json: { pin: SIGN_IN.pin, id_usuario: MENU.luis },
  });
  await s.call(400, 'post', '/auth/pin', { token: null, json: { pin: '12' } });
  await s.call(204, 'post', '/auth/logout', { token: pin.body.access_token as string });
  await s.call(204, 'post', '/auth/logout', { token: login.body.access_token as string });
  await s.call(409, 'post', '/auth/logout', { label: 'a token not made by sign-in' });
}

async function sweepAuthentication(s: ContractSweep, ops: DocOperation[]): Promise<void> {
  for (const op of ops) {
    const path = samplePath(op.path, SAMPLES);
    const label = op.operationId;
    if (op.public) {
      // sign-in needs no token but a tenant: its answers are sweepSignIn's
      if (!op.tenant) await s.call(200, op.method, path, { tenant: null, token: null, label });
      continue;
    }
    const tenant = op.tenant ? 'bravo' : null;
    await s.call(401, op.method, path, { tenant, token: null, label });
    await s.call(401, op.method, path, { tenant, token: 'not.a.token', label });
    await s.call(403, op.method, path, {
      tenant: 'bravo',
      token: tokenFor('charlie', STAFF.admin.id),
      label: `${label} TENANT_MISMATCH`,
    });
    if (op.tenant) {
      await s.call(401, op.method, path, {
        token: tokenFor('bravo', STAFF.exEmpleado.id),
        label: `${label} unknown_user`,
      });
      if (op.permission)
        await s.call(403, op.method, path, {
          token: tokenFor('bravo', STAFF.sinRol.id),
          label: `${label} FORBIDDEN`,
        });
    }
  }
}

/** Every string of the document that Swagger UI renders as Markdown or text. */
function* texts(value: unknown, key = ''): Generator<[string, string]> {
  if (typeof value === 'string') {
    if (key === 'description' || key === 'summary') yield [key, value];
  } else if (Array.isArray(value)) {
    for (const item of value) yield* texts(item, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k !== 'example' && k !== 'examples' && k !== 'value') yield* texts(v, k);
    }
  }
}

/** The properties of the document that do not need a running sweep. */
function checkDocument(document: Json, mode: 'off' | 'jwt'): string[] {
  const problems: string[] = [];
  if (!(document.servers?.length > 0)) problems.push('no servers');
  const tags = new Map<string, string>(
    (document.tags ?? []).map((t: { name: string; description?: string }) => [
      t.name,
      t.description ?? '',
    ]),
  );
  for (const [name, description] of tags)
    if (!description) problems.push(`tag ${name} has no description`);
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const tag of op.tags ?? [])
        if (!tags.has(tag)) problems.push(`${where}: tag ${tag} is not declared`);
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
          const resolved = header.$ref
            ? document.components.headers[header.$ref.split('/').pop()]
            : header;
          if (!resolved?.schema) problems.push(`${where} ${status}: header ${name} has no schema`);
        }
        if (!response.headers?.['X-Request-Id'])
          problems.push(`${where} ${status}: no X-Request-Id`);
        const json = response.content?.['application/json'];
        if (Number(status) >= 400 && path !== '/api/health') {
          if (json?.schema?.$ref !== '#/components/schemas/ErrorBody')
            problems.push(`${where} ${status}: not the error envelope`);
          if (!(Object.keys(json?.examples ?? {}).length > 0))
            problems.push(`${where} ${status}: no example`);
        }
      }
      if (mode === 'jwt' && op['x-public'] === true && !(op.security?.length === 0))
        problems.push(`${where}: public but not security: []`);
    }
  }
  for (const [key, text] of texts(document)) {
    // outside code spans, an angle bracket is eaten by Swagger UI as HTML
    if (/[<>]/.test(text.replace(/`[^`]*`/g, ''))) problems.push(`${key} with < or >: ${text}`);
  }
  return problems;
}

describe('the OpenAPI document is the contract the service keeps', () => {
  let dbs: TestDatabases;

  beforeAll(async () => {
    dbs = await TestDatabases.create();
    await createTenants(dbs);
  });

  afterAll(() => dbs.drop());

  describe('AUTH_MODE=off, features on', () => {
    const env = { ...FEATURES_ON, ...LIMITS };
    let t: TestApp;
    let s: ContractSweep;
    beforeAll(async () => {
      t = await startTestApp(env, dbs);
      s = await ContractSweep.start(t.http, { tenant: 'alfa' });
    });
    afterAll(() => t.close());

    it('is the document the lint checks, built without a database', async () => {
      const offline = await buildOfflineDocument(dbs.config(env));
      expect(s.document).toEqual(JSON.parse(JSON.stringify(offline)));
    });

    it('declares servers, tags, headers, error envelopes and no security', () => {
      const doc = s.document as Json;
      expect(checkDocument(doc, 'off')).toEqual([]);
      expect(doc.security).toEqual([]);
      expect(doc.components.securitySchemes).toBeUndefined();
      expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
      expect(doc.components.schemas.ErrorBody.additionalProperties).toBe(true);
      // no 401/403 token answers without authentication
      const post = doc.paths['/api/v1/comandas'].post;
      expect(post.responses['401']).toBeUndefined();
      expect(Object.keys(post.responses['403'].content['application/json'].examples)).toEqual([
        'TENANT_SUSPENDED',
      ]);
      const tables = doc.paths['/api/v1/tables'].get;
      expect(tables.summary).toMatch(/^\[switchable, on by default\]/);
      expect(tables.description).toContain('npm run tenant -- feature SLUG genericTables on');
    });

    it(
      'answers every operation as the document says',
      async () => {
        await sweepOperations(s);
        const ops = operationsOf(s.document as Json);
        await sweepShared(s, ops);
        expect(s.problems).toEqual([]);
        // every operation was called with success: a new one needs its sweep entry
        expect(ops.map((o) => o.operationId).filter((id) => !s.succeeded.has(id))).toEqual([]);
        expect(s.exchanges).toBeGreaterThan(400);
      },
      SWEEP_TIMEOUT_MS,
    );

    it('answers health 503 as documented while the control database is down', async () => {
      const db = dbs.controlDatabase;
      await dbs.query(dbs.serverUrl, `ALTER DATABASE "${db}" ALLOW_CONNECTIONS false`);
      await dbs.query(
        dbs.serverUrl,
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [db],
      );
      try {
        await s.call(503, 'get', '/api/health', { tenant: null });
      } finally {
        await dbs.query(dbs.serverUrl, `ALTER DATABASE "${db}" ALLOW_CONNECTIONS true`);
      }
      expect(s.problems).toEqual([]);
    });

    it('serves the Swagger UI', async () => {
      const ui = await request(t.http).get('/api/docs').redirects(1).expect(200);
      expect(ui.text).toContain('swagger');
    });
  });

  describe('AUTH_MODE=off, rate limited', () => {
    let t: TestApp;
    let s: ContractSweep;
    beforeAll(async () => {
      t = await startTestApp({ ...FEATURES_ON, RATE_LIMIT_MAX: '1' }, dbs);
      s = await ContractSweep.start(t.http, { tenant: 'limite' });
    });
    afterAll(() => t.close());

    it('answers 429 with Retry-After on every operation but health', async () => {
      for (const op of operationsOf(s.document as Json)) {
        const path = samplePath(op.path, SAMPLES);
        const limited = op.statuses.includes('429');
        const first = op.tenant ? 404 : 200;
        await s.call(first, op.method, path, { label: op.operationId });
        await s.call(limited ? 429 : 200, op.method, path, { label: op.operationId });
      }
      expect(s.problems).toEqual([]);
    });
  });

  describe('AUTH_MODE=jwt (HS256), features on', () => {
    const env = { ...JWT, ...FEATURES_ON, ...LIMITS };
    let t: TestApp;
    let s: ContractSweep;
    beforeAll(async () => {
      t = await startTestApp(env, dbs);
      s = await ContractSweep.start(t.http, {
        tenant: 'bravo',
        // the admin of the tenant asked for (of bravo when the header is missing or malformed)
        token: (tenant) =>
          tokenFor(
            tenant && /^[a-z][a-z0-9_-]{1,62}$/.test(tenant) ? tenant : 'bravo',
            STAFF.admin.id,
          ),
      });
    });
    afterAll(() => t.close());

    it('is the document the lint checks, built without a database', async () => {
      const offline = await buildOfflineDocument(dbs.config(env));
      expect(s.document).toEqual(JSON.parse(JSON.stringify(offline)));
    });

    it('declares the bearer scheme, required everywhere but health', () => {
      const doc = s.document as Json;
      expect(checkDocument(doc, 'jwt')).toEqual([]);
      expect(doc.components.securitySchemes).toEqual({
        bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      });
      expect(doc.security).toEqual([{ bearer: [] }]);
      expect(doc.paths['/api/health'].get.security).toEqual([]);
      const put = doc.paths['/api/v1/comandas/{id}'].put;
      expect(Object.keys(put.responses['401'].content['application/json'].examples)).toEqual([
        'UNAUTHENTICATED',
      ]);
      expect(put.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    });

    it(
      'answers every operation as the document says',
      async () => {
        await sweepOperations(s);
        const ops = operationsOf(s.document as Json);
        await sweepShared(s, ops);
        await sweepSignIn(s);
        await sweepAuthentication(s, ops);
        expect(s.problems).toEqual([]);
        expect(ops.map((o) => o.operationId).filter((id) => !s.succeeded.has(id))).toEqual([]);
      },
      SWEEP_TIMEOUT_MS,
    );
  });

  describe('features off by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({}, dbs);
    });
    afterAll(() => t.close());

    it('labels the switchable operations off by default and says how to switch them', async () => {
      const doc = (await request(t.http).get('/api/docs-json').expect(200)).body;
      const rpc = doc.paths['/api/v1/rpc/save_compra'].post;
      expect(rpc['x-enabled']).toBe(false);
      expect(rpc.summary).toMatch(/^\[switchable, off by default\]/);
      expect(rpc.description).toContain('`FEATURE_RPC=false`');
      expect(rpc.description).toContain('npm run tenant -- feature SLUG rpc on');
      expect(rpc.responses['404'].content['application/json'].examples.NOT_FOUND.value).toEqual(
        expect.objectContaining({ code: 'NOT_FOUND' }),
      );
      expect(checkDocument(doc, 'off')).toEqual([]);
    });
  });
});
