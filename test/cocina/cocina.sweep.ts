import type { ModuleSweep } from '../support/module-sweeps';
import { MENU } from '../support/fixtures';

/** The kitchen's routes: stations, a send, a fired course, a ticket's moves, serving, its stream. */
export const SWEEP: ModuleSweep = async (s) => {
  await s.call(200, 'get', '/cocina/estaciones');
  const bar = await s.call(201, 'post', '/cocina/estaciones', { json: { nombre: 'Bar' } });
  const barId = bar.body.id_estacion as number;
  await s.call(400, 'post', '/cocina/estaciones', { json: {} });
  await s.call(200, 'patch', `/cocina/estaciones/${barId}`, { json: { alerta_roja_min: 20 } });
  await s.call(404, 'patch', '/cocina/estaciones/9999', { json: { activo: true } });
  await s.call(400, 'patch', `/cocina/estaciones/${barId}`, { json: { activo: 'sí' } });
  await s.call(200, 'put', `/cocina/estaciones/${barId}/categorias`, { json: { categorias: [1] } });
  await s.call(400, 'put', `/cocina/estaciones/${barId}/categorias`, {
    json: { categorias: [999] },
  });
  await s.call(404, 'put', '/cocina/estaciones/9999/categorias', { json: { categorias: [] } });
  const comanda = await s.call(201, 'post', '/comandas', {
    json: { items: [{ id_producto: MENU.ceviche.id, cantidad: 1, curso: 1 }] },
  });
  const id = comanda.body.id_comanda as number;
  const item = (comanda.body.lineas as { id_item: number }[])[0].id_item;
  const sent = await s.call(200, 'post', `/comandas/${id}/enviar`);
  const envio = (sent.body.envios as { id_envio: number }[])[0].id_envio;
  await s.call(200, 'post', `/comandas/${id}/enviar`, { label: 'nothing new' });
  await s.call(404, 'post', '/comandas/999999/enviar');
  await s.call(200, 'post', `/comandas/${id}/cursos/2/disparar`);
  await s.call(409, 'post', `/comandas/${id}/cursos/2/disparar`);
  await s.call(404, 'post', '/comandas/999999/cursos/2/disparar');
  await s.call(200, 'get', `/cocina/envios?estado=todos&estacion=${barId}&limit=5`);
  await s.call(400, 'get', '/cocina/envios?estado=nope');
  await s.call(404, 'get', '/cocina/envios?estacion=9999');
  await s.call(200, 'post', `/cocina/envios/${envio}/preparar`);
  await s.call(409, 'post', `/cocina/envios/${envio}/preparar`);
  await s.call(404, 'post', '/cocina/envios/999999/preparar');
  await s.call(200, 'post', `/cocina/envios/${envio}/listo`);
  await s.call(409, 'post', `/cocina/envios/${envio}/listo`);
  await s.call(404, 'post', '/cocina/envios/999999/listo');
  await s.call(200, 'post', `/cocina/envios/${envio}/recuperar`);
  await s.call(409, 'post', `/cocina/envios/${envio}/recuperar`);
  await s.call(404, 'post', '/cocina/envios/999999/recuperar');
  await s.call(409, 'post', `/comandas/${id}/items/${item}/entregar`);
  await s.call(200, 'post', `/cocina/envios/${envio}/listo`, { label: 'bumped again' });
  await s.call(200, 'post', `/comandas/${id}/items/${item}/entregar`);
  await s.call(404, 'post', `/comandas/${id}/items/999999/entregar`);
  await s.call(200, 'get', `/cocina/stream?estacion=${barId}`, { stream: true });
  await s.call(404, 'get', '/cocina/stream?estacion=9999', { stream: true });
};
