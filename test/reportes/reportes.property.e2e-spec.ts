import fc from 'fast-check';
import { addDays } from '../../src/common/time';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { AGRUPAR, expected, load, TIME, type Agrupar, type Cifras, type Ventas } from './oracle';

/**
 * The sales report under random comandas, as a property (fast-check) on the real app and a real
 * PostgreSQL (docs/reportes.md). A run opens a fresh tenant and makes comandas through the API:
 * random lines of the menu, a discount now and then (a percentage or an amount, up to more than
 * the bill), closed with a card payment of the balance; some reopened and closed again, some left
 * open, some voided (and some of those marked closed, as the table routes could leave them).
 * Their closes are then moved to random local instants of a few days, many near midnight in Lima.
 * A report is read after each comanda (and between the close and the reopen of a reopened one),
 * so the read model (docs/reportes.md) is brought up to date again and again as they change.
 * For random ranges (desde/hasta around those days) and every grouping:
 *
 * a. no 5xx: every answer is 200;
 * b. time groupings: Σ over the rows of comandas, venta_bruta, descuentos and venta_neta equals
 *    totales exactly (each comanda is in one bucket); every bucket of the range is listed;
 * c. Σ venta_bruta of the producto rows = Σ of the categoria rows = totales.venta_bruta;
 * d. no row of dia counts more comandas than totales;
 * e. the whole answer of a random grouping equals the test's own recomputation (oracle.ts).
 */

const ZONE = 'America/Lima';
const BASE = '2026-05-01';
const TARJETA = 2;
const PRODUCTS = [MENU.ceviche, MENU.lomo, MENU.chicha, { id: 5, precio: 12.35 }];

interface Spec {
  lines: { product: number; cantidad: number }[];
  descuento: null | { tipo: 'porcentaje' | 'monto'; valor: number };
  fate: 'cerrada' | 'reabierta' | 'abierta' | 'anulada' | 'anulada_cerrada';
  day: number;
  time: string;
}

const NEAR_MIDNIGHT = ['23:59:59', '00:00:00', '23:30:00', '00:30:00', '00:00:01', '23:00:00'];

const specArb: fc.Arbitrary<Spec> = fc.record({
  lines: fc.array(
    fc.record({
      product: fc.integer({ min: 0, max: PRODUCTS.length - 1 }),
      cantidad: fc.integer({ min: 1, max: 4 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  descuento: fc.option(
    fc.oneof(
      fc.record({
        tipo: fc.constant('porcentaje' as const),
        valor: fc.constantFrom(5, 10, 12.5, 33.33, 100),
      }),
      fc.record({ tipo: fc.constant('monto' as const), valor: fc.constantFrom(0.01, 3, 20, 500) }),
    ),
    { freq: 2 },
  ),
  fate: fc.constantFrom(
    'cerrada',
    'cerrada',
    'cerrada',
    'reabierta',
    'abierta',
    'anulada',
    'anulada_cerrada',
  ),
  day: fc.integer({ min: 0, max: 6 }),
  time: fc.oneof(
    fc.constantFrom(...NEAR_MIDNIGHT),
    fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`),
  ),
});

const rangeArb = fc.record({
  from: fc.integer({ min: -2, max: 7 }),
  days: fc.integer({ min: 0, max: 9 }),
});

const cents = (n: number) => Math.round(n * 100);
const sum = (filas: Cifras[], key: 'venta_bruta' | 'descuentos' | 'venta_neta') =>
  filas.reduce((s, f) => s + cents(f[key]), 0);

describe('reportes: the sales report’s invariants under random comandas (property)', () => {
  let t: TestApp;
  let runs = 0;

  beforeAll(async () => {
    t = await startTestApp({
      FEATURE_REPORTES: 'true',
      FEATURE_COBROS: 'true',
      FEATURE_INVENTARIO: 'true',
    });
  });
  afterAll(() => t.close());

  /** A report read between changes: the read model takes what changed so far. */
  const refresh = (api: TenantApi) => api.get('/reportes/ventas?agrupar=mes').expect(200);

  async function make(api: TenantApi, url: string, spec: Spec): Promise<void> {
    const created = await api
      .post('/comandas', {
        items: spec.lines.map((l) => ({
          id_producto: PRODUCTS[l.product].id,
          cantidad: l.cantidad,
        })),
      })
      .expect(201);
    const id = created.body.id_comanda as number;
    if (spec.descuento) {
      const res = await api.post(`/comandas/${id}/descuento`, {
        ...spec.descuento,
        motivo: 'prueba',
      });
      expect([201, 400]).toContain(res.status); // an amount over the bill is refused
    }
    if (spec.fate === 'abierta') return;
    if (spec.fate === 'anulada' || spec.fate === 'anulada_cerrada') {
      await api.delete(`/comandas/${id}?motivo=prueba`).expect(200);
    } else {
      const saldo = (await api.get(`/comandas/${id}`).expect(200)).body.saldo as number;
      const pagos = saldo > 0 ? [{ id_metodo_pago: TARJETA, monto: saldo }] : [];
      await api.put(`/comandas/${id}`, { action: 'cerrar', pagos }).expect(200);
      if (spec.fate === 'reabierta') {
        await refresh(api);
        await api.put(`/comandas/${id}`, { action: 'abrir' }).expect(200);
        await api.put(`/comandas/${id}`, { action: 'cerrar' }).expect(200);
      }
    }
    const at = `${addDays(BASE, spec.day)}T${spec.time}-05:00`;
    await t.dbs.query(
      url,
      `UPDATE comandas
          SET fec_apertura = $2::timestamptz - interval '2 hours',
              fec_cierre = CASE WHEN estado = 'cerrada' OR $3 THEN $2::timestamptz END,
              estado = CASE WHEN $3 THEN 'cerrada' ELSE estado END
        WHERE id_comanda = $1`,
      [id, at, spec.fate === 'anulada_cerrada'],
    );
  }

  it('keeps rows and totals consistent, and equal to the recomputation, for any comandas and range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: 1, maxLength: 10 }),
        fc.array(rangeArb, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...AGRUPAR),
        async (specs, ranges, checked: Agrupar) => {
          runs += 1;
          const slug = `prop${runs}`;
          await t.dbs.createTenant(slug);
          await seedMenu(t.dbs, slug);
          const url = t.dbs.tenantUrl(slug);
          await t.dbs.query(
            url,
            `INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES ('Causa', 12.35, NULL, true)`,
          );
          const api = tenantApi(t.http, slug);
          await api.post('/cajas/1/sesiones', { monto_apertura: 0 }).expect(201);
          for (const spec of specs) {
            await make(api, url, spec);
            await refresh(api);
          }
          const data = await load(t.dbs, slug, ZONE);
          for (const range of ranges) {
            const desde = addDays(BASE, range.from);
            const hasta = addDays(desde, range.days);
            const answers = new Map<Agrupar, Ventas>();
            for (const agrupar of AGRUPAR) {
              const res = await api.get(
                `/reportes/ventas?desde=${desde}&hasta=${hasta}&agrupar=${agrupar}`,
              );
              expect(res.status).toBe(200);
              answers.set(agrupar, res.body as Ventas);
            }
            const totales = answers.get('dia')!.totales;
            for (const agrupar of AGRUPAR)
              expect(answers.get(agrupar)!.totales).toMatchObject({
                comandas: totales.comandas,
                venta_bruta: totales.venta_bruta,
                descuentos: totales.descuentos,
                venta_neta: totales.venta_neta,
              });
            for (const agrupar of TIME) {
              const { filas } = answers.get(agrupar)!;
              expect(filas.reduce((s, f) => s + f.comandas, 0)).toBe(totales.comandas);
              for (const key of ['venta_bruta', 'descuentos', 'venta_neta'] as const)
                expect(sum(filas, key)).toBe(cents(totales[key]));
            }
            expect(answers.get('dia')!.filas).toHaveLength(range.days + 1);
            expect(answers.get('hora')!.filas).toHaveLength(24);
            expect(answers.get('dia_semana_hora')!.filas).toHaveLength(168);
            for (const fila of answers.get('dia')!.filas)
              expect(fila.comandas).toBeLessThanOrEqual(totales.comandas);
            expect(sum(answers.get('producto')!.filas, 'venta_bruta')).toBe(
              cents(totales.venta_bruta),
            );
            expect(sum(answers.get('categoria')!.filas, 'venta_bruta')).toBe(
              cents(totales.venta_bruta),
            );
            expect(answers.get(checked)).toEqual(expected(data, desde, hasta, checked, true));
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12), endOnFailure: true },
    );
  });
});
