import type { ModuleSweep } from '../support/module-sweeps';

/** The reports: each as JSON and as CSV, and their errors. */
export const SWEEP: ModuleSweep = async (s) => {
  await s.call(200, 'get', '/reportes/ventas');
  await s.call(200, 'get', '/reportes/ventas?desde=2026-01-01&hasta=2026-03-31&agrupar=producto');
  await s.call(200, 'get', '/reportes/ventas?agrupar=metodo');
  await s.call(200, 'get', '/reportes/ventas?agrupar=dia_semana_hora', {
    headers: { Accept: 'text/csv' },
    label: 'CSV',
  });
  await s.call(400, 'get', '/reportes/ventas?agrupar=anual');
  await s.call(400, 'get', '/reportes/ventas?desde=2026-03-02&hasta=2026-03-01');
  await s.call(200, 'get', '/reportes/gastos');
  await s.call(200, 'get', '/reportes/gastos', { headers: { Accept: 'text/csv' }, label: 'CSV' });
  await s.call(400, 'get', '/reportes/gastos?desde=2026-13-01');
  await s.call(200, 'get', '/reportes/asistencia?desde=2026-03-01&hasta=2026-03-31');
  await s.call(200, 'get', '/reportes/asistencia', {
    headers: { Accept: 'text/csv' },
    label: 'CSV',
  });
  await s.call(400, 'get', '/reportes/asistencia?desde=2020-01-01');
};
