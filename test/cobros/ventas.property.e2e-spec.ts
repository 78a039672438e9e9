import fc from 'fast-check';
import { addDays, todayIn } from '../../src/common/time';
import { MENU, seedMenu, tenantApi, type TenantApi } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * One sale, three readers (docs/cobros.md, "Where each rule lives"), as a property (fast-check)
 * on the real app and a real PostgreSQL: the bill of a closed comanda (`GET /comandas/:id`,
 * cuenta_comanda), the sales report (`GET /reportes/ventas`) and the food cost report (`GET
 * /inventario/consumo`) give the same gross, discount, net and IGV, to the céntimo, because
 * they all read the rules of src/cobros/sql/ (igv_tasa, comanda_descuento, monto_neto, ventas,
 * ventas_lineas). A run opens a fresh tenant (a random service charge) and makes comandas
 * through the API: random lines of the menu, a discount now and then (a percentage or an
 * amount, up to the whole bill), each closed with a random IGV rate in force that day (frozen
 * at the close), paid in cash, by card, or part and part. Their closes are then moved to random
 * local days around an IGV rate change, and some lose their frozen rates (a comanda closed
 * while the tenant did not take payments): those follow the rate in force on the day of their
 * close. Then:
 *
 * a. per comanda whose rate is frozen, its bill, its sale (ventas) and the sum of its lines
 *    (ventas_lineas) agree: gross, discount, rate, net (base imponible) and IGV;
 * b. per comanda without frozen rates, its sale's rate and net are the rate in force on its
 *    local day and the net recomputed here;
 * c. per comanda, its lines' céntimo figures add up to its sale exactly: discount, base and
 *   IGV, each line's IGV = what it charges − its base, none below zero;
 * d. the sales report's totals and each day's row equal the sums over the comandas of the
 *    range: comandas, gross, discount, net, and IGV (gross − discount − net);
 * e. the food cost report counts the same comandas and the same net sales.
 */

const ZONE = 'America/Lima';
const BASE = '2026-05-01';
/** The day the IGV rate changes from 18 % to 10 % in the tenant's final rates. */
const CAMBIO = addDays(BASE, 3);
const EFECTIVO = 1;
const TARJETA = 2;
const PRODUCTS = [MENU.ceviche, MENU.lomo, MENU.chicha, { id: 5, precio: 12.35 }];
const RATES = [0.18, 0.1, 0.105, 0];

interface Spec {
  lines: { product: number; cantidad: number }[];
  descuento: null | { tipo: 'porcentaje' | 'monto'; valor: number };
  tasa: number;
  pago: 'efectivo' | 'tarjeta' | 'mitad';
  day: number;
  time: string;
  congelada: boolean;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  lines: fc.array(
    fc.record({
      product: fc.integer({ min: 0, max: PRODUCTS.length - 1 }),
      cantidad: fc.integer({ min: 1, max: 5 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  descuento: fc.option(
    fc.oneof(
      fc.record({
        tipo: fc.constant('porcentaje' as const),
        valor: fc.constantFrom(5, 10, 12.5, 33.33, 100),
      }),
      fc.record({ tipo: fc.constant('monto' as const), valor: fc.constantFrom(0.01, 3, 7.77, 20) }),
    ),
    { freq: 2 },
  ),
  tasa: fc.constantFrom(...RATES),
  pago: fc.constantFrom('efectivo' as const, 'tarjeta' as const, 'mitad' as const),
  day: fc.integer({ min: 0, max: 6 }),
  time: fc.constantFrom('00:00:00', '00:30:00', '12:15:00', '19:45:00', '23:59:59'),
  congelada: fc.boolean(),
});

const cents = (soles: number) => Math.round(soles * 100);
const soles = (centimos: number) => centimos / 100;

/** round(n / (1 + tasa), 2) on céntimos, half away from zero like PostgreSQL's round (n ≥ 0). */
function netCents(n: number, tasa: number): number {
  const den = 10_000 + Math.round(tasa * 10_000);
  return Math.floor((2 * n * 10_000 + den) / (2 * den));
}

interface Bill {
  subtotal: number;
  descuento: number;
  saldo: number;
  igv: { tasa: number; base: number; monto: number };
}

interface Sale {
  id_comanda: string;
  local: string;
  total: string;
  descuento: string;
  tasa_igv: string;
  tasa_congelada: boolean;
  neta: string;
  igv: string;
  lineas: string;
  venta_bruta: string;
  descuento_linea: string;
  base_imponible: string;
  igv_lineas: string;
  mal_importe: string;
  negativas: string;
}

/** What the test knows of a closed comanda: its figures in céntimos and its local day. */
interface Closed {
  id: number;
  day: string;
  bruto: number;
  descuento: number;
  neta: number;
  igv: number;
}

describe('cobros: the bill, the sales report and the food cost agree (property)', () => {
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

  /** Makes, pays and closes one comanda with `spec.tasa` the IGV rate in force today. */
  async function close(api: TenantApi, spec: Spec): Promise<number> {
    const hoy = todayIn(ZONE);
    await api
      .put('/cobros/ajustes', {
        tasas_igv: [
          { vigente_desde: '2000-01-01', tasa: 0.18 },
          { vigente_desde: addDays(hoy, -2), tasa: spec.tasa },
        ],
      })
      .expect(200);
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
    const bill = (await api.get(`/comandas/${id}`).expect(200)).body as Bill;
    const saldo = cents(bill.saldo);
    const tarjeta =
      spec.pago === 'tarjeta' ? saldo : spec.pago === 'mitad' ? Math.floor(saldo / 2) : 0;
    const pagos = [
      ...(tarjeta > 0 ? [{ id_metodo_pago: TARJETA, monto: soles(tarjeta) }] : []),
      ...(saldo - tarjeta > 0 ? [{ id_metodo_pago: EFECTIVO, monto: soles(saldo - tarjeta) }] : []),
    ];
    await api.put(`/comandas/${id}`, { action: 'cerrar', pagos }).expect(200);
    return id;
  }

  it('gives the same gross, discount, net and IGV in the bill, the sales report and the food cost, to the céntimo', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(0, 0.1),
        async (specs, recargo) => {
          runs += 1;
          const slug = `venta${runs}`;
          await t.dbs.createTenant(slug);
          await seedMenu(t.dbs, slug);
          const url = t.dbs.tenantUrl(slug);
          await t.dbs.query(
            url,
            `INSERT INTO productos (nombre, precio, id_categoria, activo) VALUES ('Causa', 12.35, 1, true)`,
          );
          const api = tenantApi(t.http, slug);
          await api.put('/cobros/ajustes', { tasa_recargo: recargo }).expect(200);
          await api.post('/cajas/1/sesiones', { monto_apertura: 0 }).expect(201);

          const bills = new Map<number, Bill>();
          for (const spec of specs) {
            const id = await close(api, spec);
            bills.set(id, (await api.get(`/comandas/${id}`).expect(200)).body as Bill);
            const at = `${addDays(BASE, spec.day)}T${spec.time}-05:00`;
            await t.dbs.query(
              url,
              `UPDATE comandas
                  SET fec_apertura = $2::timestamptz - interval '2 hours', fec_cierre = $2::timestamptz
                WHERE id_comanda = $1`,
              [id, at],
            );
            if (!spec.congelada)
              await t.dbs.query(
                url,
                `UPDATE cuentas_comanda SET tasa_igv = NULL, tasa_recargo = NULL, paso_redondeo = NULL
                  WHERE id_comanda = $1`,
                [id],
              );
          }
          // the rates the comandas without frozen ones follow: 18 %, then 10 % from CAMBIO
          await api
            .put('/cobros/ajustes', {
              tasas_igv: [
                { vigente_desde: '2000-01-01', tasa: 0.18 },
                { vigente_desde: CAMBIO, tasa: 0.1 },
              ],
            })
            .expect(200);

          const sales = await t.dbs.query<Sale>(
            url,
            `SELECT v.id_comanda::text, to_char(v.fec_cierre AT TIME ZONE $1, 'YYYY-MM-DD') AS local,
                    v.total::text, v.descuento::text, v.tasa_igv::text, v.tasa_congelada,
                    v.neta::text, v.igv::text,
                    count(l.*)::text AS lineas, sum(l.venta_bruta)::text AS venta_bruta,
                    sum(l.descuento_linea)::text AS descuento_linea,
                    sum(l.base_imponible)::text AS base_imponible, sum(l.igv)::text AS igv_lineas,
                    count(*) FILTER (WHERE l.importe <> l.venta_bruta - l.descuento_linea
                                        OR l.igv <> l.importe - l.base_imponible)::text AS mal_importe,
                    count(*) FILTER (WHERE l.igv < 0 OR l.base_imponible < 0 OR l.descuento_linea < 0)::text
                      AS negativas
               FROM ventas($1) v
               JOIN ventas_lineas($1) l ON l.id_comanda = v.id_comanda
              GROUP BY v.id_comanda, v.fec_cierre, v.total, v.descuento, v.tasa_igv,
                       v.tasa_congelada, v.neta, v.igv
              ORDER BY v.id_comanda`,
            [ZONE],
          );
          expect(sales.map((s) => Number(s.id_comanda))).toEqual([...bills.keys()]);

          const closed: Closed[] = [];
          specs.forEach((spec, i) => {
            const id = [...bills.keys()][i];
            const bill = bills.get(id)!;
            const sale = sales[i];
            const day = addDays(BASE, spec.day);
            const bruto = cents(bill.subtotal);
            const descuento = cents(bill.descuento);
            expect(sale.local).toBe(day);
            expect(sale.tasa_congelada).toBe(spec.congelada);
            expect(cents(Number(sale.total))).toBe(bruto);
            expect(cents(Number(sale.descuento))).toBe(descuento);
            let neta: number;
            let igv: number;
            if (spec.congelada) {
              // a. the bill and the sale
              expect(Number(sale.tasa_igv)).toBe(bill.igv.tasa);
              expect(Number(sale.tasa_igv)).toBe(spec.tasa);
              neta = cents(bill.igv.base);
              igv = cents(bill.igv.monto);
              expect(igv).toBe(bruto - descuento - neta);
            } else {
              // b. the rate in force on its day, and the net recomputed
              const tasa = day >= CAMBIO ? 0.1 : 0.18;
              expect(Number(sale.tasa_igv)).toBe(tasa);
              neta = netCents(bruto - descuento, tasa);
              igv = bruto - descuento - neta;
            }
            expect(cents(Number(sale.neta))).toBe(neta);
            expect(cents(Number(sale.igv))).toBe(igv);
            // c. its lines add up to it exactly
            expect(Number(sale.lineas)).toBe(spec.lines.length);
            expect(cents(Number(sale.venta_bruta))).toBe(bruto);
            expect(cents(Number(sale.descuento_linea))).toBe(descuento);
            expect(cents(Number(sale.base_imponible))).toBe(neta);
            expect(cents(Number(sale.igv_lineas))).toBe(igv);
            expect(sale.mal_importe).toBe('0');
            expect(sale.negativas).toBe('0');
            closed.push({ id, day, bruto, descuento, neta, igv });
          });

          // d. the sales report, in total and per day
          const desde = addDays(BASE, -1);
          const hasta = addDays(BASE, 7);
          const report = await api
            .get(`/reportes/ventas?desde=${desde}&hasta=${hasta}&agrupar=dia`)
            .expect(200);
          const sums = (of: Closed[]) => ({
            comandas: of.length,
            venta_bruta: of.reduce((s, c) => s + c.bruto, 0),
            descuentos: of.reduce((s, c) => s + c.descuento, 0),
            venta_neta: of.reduce((s, c) => s + c.neta, 0),
            igv: of.reduce((s, c) => s + c.igv, 0),
          });
          interface Fila {
            clave: string;
            comandas: number;
            venta_bruta: number;
            descuentos: number;
            venta_neta: number;
          }
          const asCents = (f: Fila) => ({
            comandas: f.comandas,
            venta_bruta: cents(f.venta_bruta),
            descuentos: cents(f.descuentos),
            venta_neta: cents(f.venta_neta),
            igv: cents(f.venta_bruta) - cents(f.descuentos) - cents(f.venta_neta),
          });
          expect(asCents(report.body.totales as Fila)).toEqual(sums(closed));
          for (const fila of report.body.filas as Fila[])
            expect({ dia: fila.clave, ...asCents(fila) }).toEqual({
              dia: fila.clave,
              ...sums(closed.filter((c) => c.day === fila.clave)),
            });

          // e. the food cost report over the same instants
          const consumo = await api
            .get(
              `/inventario/consumo?desde=${encodeURIComponent(`${desde}T00:00:00-05:00`)}&hasta=${encodeURIComponent(`${addDays(hasta, 1)}T00:00:00-05:00`)}`,
            )
            .expect(200);
          expect({
            comandas: consumo.body.comandas as number,
            ventas_netas: cents(consumo.body.ventas_netas as number),
          }).toEqual({ comandas: closed.length, ventas_netas: sums(closed).venta_neta });
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12), endOnFailure: true },
    );
  });
});
