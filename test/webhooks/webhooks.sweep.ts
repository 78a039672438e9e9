import type { ModuleSweep } from '../support/module-sweeps';

// The webhooks module's part of the OpenAPI sweep (test/common/openapi-contract.e2e-spec.ts runs it
// with every feature on, in both authentication modes).
export const SWEEP: ModuleSweep = async (s) => {
  const url = 'http://127.0.0.1:9/hooks';
  await s.call(200, 'get', '/webhooks');
  const created = await s.call(201, 'post', '/webhooks', {
    json: { url, eventos: ['comanda.cerrar', 'pago.*'], descripcion: 'ERP' },
  });
  const id = created.body.id_webhook as number;
  await s.call(400, 'post', '/webhooks', { json: { url, eventos: ['comanda.pagada'] } });
  await s.call(400, 'post', '/webhooks', {
    json: { url: 'ftp://x.example/h', eventos: ['comanda.*'] },
  });
  await s.call(400, 'post', '/webhooks', { json: { url, eventos: [] }, label: 'no events' });
  await s.call(200, 'get', `/webhooks/${id}`);
  await s.call(404, 'get', '/webhooks/9999');
  await s.call(200, 'patch', `/webhooks/${id}`, { json: { eventos: ['comanda.*'] } });
  await s.call(400, 'patch', `/webhooks/${id}`, { json: {} });
  await s.call(404, 'patch', '/webhooks/9999', { json: { activo: true } });
  await s.call(200, 'post', `/webhooks/${id}/rotar`);
  await s.call(404, 'post', '/webhooks/9999/rotar');
  const test = await s.call(202, 'post', `/webhooks/${id}/probar`);
  await s.call(404, 'post', '/webhooks/9999/probar');
  await s.call(200, 'get', `/webhooks/${id}/entregas?estado=pendiente&limit=5`);
  await s.call(400, 'get', `/webhooks/${id}/entregas?estado=roto`);
  await s.call(404, 'get', '/webhooks/9999/entregas');
  await s.call(202, 'post', `/webhooks/entregas/${test.body.id_entrega as number}/reenviar`);
  await s.call(404, 'post', '/webhooks/entregas/999999/reenviar');
  await s.call(200, 'patch', `/webhooks/${id}`, { json: { activo: false }, label: 'off' });
  await s.call(409, 'post', `/webhooks/${id}/probar`);
  await s.call(204, 'delete', `/webhooks/${id}`);
  await s.call(404, 'delete', `/webhooks/${id}`);
};
