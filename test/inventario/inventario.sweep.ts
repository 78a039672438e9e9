import type { ModuleSweep } from '../support/module-sweeps';
import { MENU } from '../support/fixtures';

/** The stock's routes (material 1 of the tenant: Pescado). */
export const SWEEP: ModuleSweep = async (s) => {
  await s.call(200, 'get', '/inventario');
  await s.call(200, 'get', '/inventario/materiales');
  await s.call(200, 'get', '/inventario/movimientos?id_mat_prima=1&desde=2026-01-01');
  await s.call(400, 'get', '/inventario/movimientos?tipo=robo');
  await s.call(201, 'post', '/inventario/mermas', {
    json: { id_mat_prima: 1, cantidad: 0.25, motivo: 'cadena de frío' },
  });
  await s.call(400, 'post', '/inventario/mermas', { json: { id_mat_prima: 1, cantidad: 0.25 } });
  await s.call(400, 'post', '/inventario/mermas', {
    json: { id_mat_prima: 999, cantidad: 1, motivo: 'x' },
    label: 'unknown material',
  });
  const borrador = await s.call(201, 'post', '/inventario/conteos', {
    json: { observacion: 'cierre', lineas: [{ id_mat_prima: 1, contado: 2 }] },
  });
  const conteoId = borrador.body.id_conteo as number;
  await s.call(400, 'post', '/inventario/conteos', {
    json: {
      lineas: [
        { id_mat_prima: 1, contado: 1 },
        { id_mat_prima: 1, contado: 2 },
      ],
    },
  });
  await s.call(400, 'post', '/inventario/conteos', {
    json: { fec_corte: '2099-01-01T00:00:00Z', lineas: [{ id_mat_prima: 1, contado: 1 }] },
    label: 'future cut-off',
  });
  await s.call(200, 'get', '/inventario/conteos');
  await s.call(400, 'get', '/inventario/conteos?estado=otro');
  await s.call(200, 'get', `/inventario/conteos/${conteoId}`);
  await s.call(404, 'get', '/inventario/conteos/999999');
  await s.call(200, 'patch', `/inventario/conteos/${conteoId}`, {
    json: { lineas: [{ id_mat_prima: 1, contado: 1.5 }] },
  });
  await s.call(400, 'patch', `/inventario/conteos/${conteoId}`, {
    json: { lineas: [{ id_mat_prima: 1, contado: -1 }] },
  });
  await s.call(404, 'patch', '/inventario/conteos/999999', { json: { lineas: [] } });
  await s.call(200, 'post', `/inventario/conteos/${conteoId}/aplicar`);
  await s.call(409, 'post', `/inventario/conteos/${conteoId}/aplicar`);
  await s.call(404, 'post', '/inventario/conteos/999999/aplicar');
  await s.call(409, 'patch', `/inventario/conteos/${conteoId}`, { json: { lineas: [] } });
  await s.call(409, 'post', '/inventario/mermas', {
    json: { id_mat_prima: 1, cantidad: 1, motivo: 'antes del conteo', fec: '2020-01-01T12:00' },
    label: 'closed period',
  });
  const otro = await s.call(201, 'post', '/inventario/conteos', {
    json: { lineas: [{ id_mat_prima: 1, contado: 1 }] },
    label: 'to discard',
  });
  await s.call(200, 'post', `/inventario/conteos/${otro.body.id_conteo as number}/descartar`);
  await s.call(409, 'post', `/inventario/conteos/${otro.body.id_conteo as number}/descartar`);
  await s.call(404, 'post', '/inventario/conteos/999999/descartar');
  await s.call(200, 'get', '/inventario/consumo?desde=2026-01-01');
  await s.call(400, 'get', '/inventario/consumo?hasta=ayer');
  await s.call(200, 'get', `/productos/${MENU.ceviche.id}/costo`);
  await s.call(404, 'get', '/productos/999999/costo');
};
