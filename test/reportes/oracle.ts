import { addDays, formatInstant } from '../../src/common/time';
import type { TestDatabases } from '../support/test-databases';

/**
 * The sales report recomputed from the tables' rows in the test's own way: every comanda read
 * plainly (no aggregate SQL), its local day and hour from Intl, every amount in BigInt cents (or
 * exact fractions where a row prorates), rounded half away from zero as PostgreSQL's round does.
 * What it answers is what GET /reportes/ventas must answer, field for field.
 */

export type Agrupar =
  | 'dia'
  | 'semana'
  | 'mes'
  | 'hora'
  | 'dia_semana_hora'
  | 'producto'
  | 'categoria'
  | 'mozo'
  | 'mesa'
  | 'metodo';

export const AGRUPAR: Agrupar[] = [
  'dia',
  'semana',
  'mes',
  'hora',
  'dia_semana_hora',
  'producto',
  'categoria',
  'mozo',
  'mesa',
  'metodo',
];
export const TIME: Agrupar[] = ['dia', 'semana', 'mes', 'hora', 'dia_semana_hora'];

export interface Cifras {
  comandas: number;
  unidades: number | null;
  venta_bruta: number;
  descuentos: number;
  venta_neta: number;
  ticket_promedio: number | null;
  propinas?: number;
  costo_teorico?: number;
  food_cost?: number | null;
}
export interface Fila extends Cifras {
  clave: string;
  etiqueta: string;
}
export interface Ventas {
  desde: string;
  hasta: string;
  agrupar: Agrupar;
  zona_horaria: string;
  filas: Fila[];
  totales: Cifras;
}

interface Line {
  id: string;
  id_producto: number;
  cantidad: string;
  subtotal: bigint;
  costo: bigint; // ten-thousandths
}
interface Pago {
  metodo: number;
  monto: bigint;
  propina: bigint;
}
interface Comanda {
  id: string;
  local: string; // YYYY-MM-DDTHH:MM:SS±HH:MM
  id_mesa: number | null;
  id_usuario: number | null;
  total: bigint;
  descuento: bigint;
  neta: bigint;
  costo: bigint; // ten-thousandths
  lines: Line[];
  pagos: Pago[];
}

export interface Data {
  zone: string;
  comandas: Comanda[];
  productos: Map<number, { nombre: string; id_categoria: number | null }>;
  categorias: Map<number, string>;
  usuarios: Map<number, string>;
  mesas: Map<number, number>;
  metodos: Map<number, string>;
}

/** "12.35" → 1235n: a numeric's text in units of 10^-scale. */
export function units(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [int, frac = ''] = text.replace('-', '').split('.');
  const value = BigInt(int + frac.padEnd(scale, '0').slice(0, scale));
  return negative ? -value : value;
}

/** n / d rounded half away from zero (d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  const sign = n < 0n ? -1n : 1n;
  const abs = n * sign;
  return sign * ((2n * abs + d) / (2n * d));
}

const cents = (value: bigint): number => Number(value) / 100;

/** An exact fraction, to sum prorated shares and round once. */
class Frac {
  constructor(
    readonly n: bigint,
    readonly d: bigint,
  ) {}
  static zero = new Frac(0n, 1n);
  add(o: Frac): Frac {
    const n = this.n * o.d + o.n * this.d;
    const d = this.d * o.d;
    const g = gcd(n < 0n ? -n : n, d);
    return new Frac(n / g, d / g);
  }
  round(): bigint {
    return roundDiv(this.n, this.d);
  }
}
function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a || 1n;
}

/** Every closed, not voided comanda of the tenant with what the report reads of it. */
export async function load(dbs: TestDatabases, slug: string, zone: string): Promise<Data> {
  const url = dbs.tenantUrl(slug);
  const q = <T>(sql: string) => dbs.query<T>(url, sql);
  const comandas = await q<{
    id_comanda: string;
    fec_cierre: Date;
    id_mesa: number | null;
    id_usuario: number | null;
    total: string;
    estado: string;
    eliminada: boolean;
  }>('SELECT id_comanda, fec_cierre, id_mesa, id_usuario, total, estado, eliminada FROM comandas');
  const lines = await q<{
    id_deta_comanda: string;
    id_comanda: string;
    id_producto: number;
    cantidad: string;
    subtotal: string;
  }>('SELECT id_deta_comanda, id_comanda, id_producto, cantidad, subtotal FROM deta_comandas');
  const cuentas = await q<{
    id_comanda: string;
    descuento_tipo: string | null;
    descuento_valor: string | null;
    tasa_igv: string | null;
  }>('SELECT id_comanda, descuento_tipo, descuento_valor, tasa_igv FROM cuentas_comanda');
  const tasas = await q<{ vigente_desde: string; tasa: string }>(
    `SELECT to_char(vigente_desde, 'YYYY-MM-DD') AS vigente_desde, tasa FROM tasas_igv`,
  );
  const pagos = await q<{
    id_comanda: string;
    id_metodo_pago: number;
    monto: string;
    propina: string;
    estado: string;
  }>('SELECT id_comanda, id_metodo_pago, monto, propina, estado FROM pagos');
  const consumos = await q<{ id_item: string; costo_teorico: string; revertido: boolean }>(
    'SELECT id_item, costo_teorico, revertido FROM consumos_venta',
  );
  const costoOf = new Map<string, bigint>();
  for (const c of consumos)
    if (!c.revertido)
      costoOf.set(c.id_item, (costoOf.get(c.id_item) ?? 0n) + units(c.costo_teorico, 4));

  const data: Data = {
    zone,
    comandas: [],
    productos: new Map(),
    categorias: new Map(),
    usuarios: new Map(),
    mesas: new Map(),
    metodos: new Map(),
  };
  for (const p of await q<{ id_producto: number; nombre: string; id_categoria: number | null }>(
    'SELECT id_producto, nombre, id_categoria FROM productos',
  ))
    data.productos.set(p.id_producto, p);
  for (const k of await q<{ id_categoria: number; nombre: string }>(
    'SELECT id_categoria, nombre FROM categorias',
  ))
    data.categorias.set(k.id_categoria, k.nombre);
  for (const u of await q<{ id_usuario: number; nombre: string; apellido: string | null }>(
    'SELECT id_usuario, nombre, apellido FROM usuarios',
  ))
    data.usuarios.set(u.id_usuario, [u.nombre, u.apellido].filter(Boolean).join(' '));
  for (const m of await q<{ id_mesa: number; numero: number }>('SELECT id_mesa, numero FROM mesas'))
    data.mesas.set(m.id_mesa, m.numero);
  for (const m of await q<{ id_metodo_pago: number; nombre: string }>(
    'SELECT id_metodo_pago, nombre FROM metodos_pago',
  ))
    data.metodos.set(m.id_metodo_pago, m.nombre);

  for (const c of comandas) {
    if (c.estado !== 'cerrada' || c.eliminada) continue;
    const local = formatInstant(new Date(c.fec_cierre), zone);
    const total = units(c.total, 2);
    const cuenta = cuentas.find((x) => x.id_comanda === c.id_comanda);
    let descuento = 0n;
    if (cuenta?.descuento_tipo === 'porcentaje')
      descuento = roundDiv(total * units(cuenta.descuento_valor!, 2), 10000n);
    else if (cuenta?.descuento_tipo === 'monto') {
      const valor = units(cuenta.descuento_valor!, 2);
      descuento = valor < total ? valor : total;
    }
    const day = local.slice(0, 10);
    const inForce = tasas
      .filter((t) => t.vigente_desde <= day)
      .sort((a, b) => b.vigente_desde.localeCompare(a.vigente_desde))[0];
    const tasa = cuenta?.tasa_igv ?? inForce?.tasa ?? '0';
    const neta = roundDiv((total - descuento) * 10000n, 10000n + units(tasa, 4));
    const own = lines.filter((l) => l.id_comanda === c.id_comanda);
    const comandaLines = own.map((l) => ({
      id: l.id_deta_comanda,
      id_producto: l.id_producto,
      cantidad: l.cantidad,
      subtotal: units(l.subtotal, 2),
      costo: costoOf.get(l.id_deta_comanda) ?? 0n,
    }));
    data.comandas.push({
      id: c.id_comanda,
      local,
      id_mesa: c.id_mesa,
      id_usuario: c.id_usuario,
      total,
      descuento,
      neta,
      costo: comandaLines.reduce((s, l) => s + l.costo, 0n),
      lines: comandaLines,
      pagos: pagos
        .filter((p) => p.id_comanda === c.id_comanda && p.estado === 'aplicado')
        .map((p) => ({
          metodo: p.id_metodo_pago,
          monto: units(p.monto, 2),
          propina: units(p.propina, 2),
        })),
    });
  }
  return data;
}

const MESES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];
const DIAS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];

const isodow = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  const w = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return w === 0 ? 7 : w;
};
const monday = (day: string) => addDays(day, 1 - isodow(day));
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** The time buckets of a range, in order: [clave, etiqueta]. */
function buckets(agrupar: Agrupar, desde: string, hasta: string): [string, string][] {
  const out: [string, string][] = [];
  if (agrupar === 'dia')
    for (let d = desde; d <= hasta; d = addDays(d, 1)) out.push([d, ddmmyyyy(d)]);
  if (agrupar === 'semana')
    for (let d = monday(desde); d <= hasta; d = addDays(d, 7))
      out.push([d, `Semana del ${ddmmyyyy(d)}`]);
  if (agrupar === 'mes')
    for (let m = desde.slice(0, 7); m <= hasta.slice(0, 7);) {
      out.push([m, `${MESES[Number(m.slice(5)) - 1]} ${m.slice(0, 4)}`]);
      const [y, mo] = m.split('-').map(Number);
      m = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
    }
  if (agrupar === 'hora') for (let h = 0; h < 24; h++) out.push([String(h), hh(h)]);
  if (agrupar === 'dia_semana_hora')
    for (let d = 1; d <= 7; d++)
      for (let h = 0; h < 24; h++) out.push([`${d}-${h}`, `${DIAS[d - 1]} ${hh(h)}`]);
  return out;
}

/** The time bucket of a comanda's local close. */
function bucketOf(agrupar: Agrupar, local: string): string {
  const day = local.slice(0, 10);
  const hour = Number(local.slice(11, 13));
  switch (agrupar) {
    case 'dia':
      return day;
    case 'semana':
      return monday(day);
    case 'mes':
      return day.slice(0, 7);
    case 'hora':
      return String(hour);
    default:
      return `${isodow(day)}-${hour}`;
  }
}

interface Acc {
  clave: string;
  etiqueta: string;
  ids: Set<string>;
  unidades: bigint | null; // thousandths
  vb: bigint;
  de: Frac;
  vn: Frac;
  co: Frac; // ten-thousandths
  pr: bigint | null;
}
const acc = (clave: string, etiqueta: string): Acc => ({
  clave,
  etiqueta,
  ids: new Set(),
  unidades: null,
  vb: 0n,
  de: Frac.zero,
  vn: Frac.zero,
  co: Frac.zero,
  pr: null,
});

function figures(a: Acc, agrupar: Agrupar | 'totales', conCosto: boolean): Cifras {
  const n = BigInt(a.ids.size);
  const de = a.de.round();
  const vn = a.vn.round();
  const ticket =
    agrupar === 'producto' || agrupar === 'categoria' || n === 0n
      ? null
      : cents(agrupar === 'metodo' ? roundDiv(a.vb, n) : roundDiv(a.vb - de, n));
  const out: Cifras = {
    comandas: a.ids.size,
    unidades: a.unidades === null ? null : Number(a.unidades) / 1000,
    venta_bruta: cents(a.vb),
    descuentos: cents(de),
    venta_neta: cents(vn),
    ticket_promedio: ticket,
  };
  if (a.pr !== null) out.propinas = cents(a.pr);
  if (conCosto) {
    out.costo_teorico = cents(roundDiv(a.co.n, a.co.d * 100n));
    // costo (ten-thousandths) × 100 / venta_neta (cents) as a percentage with two decimals
    // no theoretical cost recorded (sales from before the stock was followed, or without a
    // recipe): no food cost, rather than 0 %
    out.food_cost = vn === 0n || a.co.n === 0n ? null : cents(roundDiv(a.co.n * 100n, a.co.d * vn));
  }
  return out;
}

/** What GET /reportes/ventas answers for this range and grouping. */
export function expected(
  data: Data,
  desde: string,
  hasta: string,
  agrupar: Agrupar,
  conCosto: boolean,
): Ventas {
  const covered = data.comandas.filter(
    (c) => c.local.slice(0, 10) >= desde && c.local.slice(0, 10) <= hasta,
  );
  const groups = new Map<string, Acc>();
  const group = (clave: string, etiqueta: string) => {
    let a = groups.get(clave);
    if (!a) groups.set(clave, (a = acc(clave, etiqueta)));
    return a;
  };
  const whole = (a: Acc, c: Comanda) => {
    a.ids.add(c.id);
    a.vb += c.total;
    a.de = a.de.add(new Frac(c.descuento, 1n));
    a.vn = a.vn.add(new Frac(c.neta, 1n));
    a.co = a.co.add(new Frac(c.costo, 1n));
  };
  if (TIME.includes(agrupar)) {
    for (const [clave, etiqueta] of buckets(agrupar, desde, hasta)) group(clave, etiqueta);
    for (const c of covered) whole(groups.get(bucketOf(agrupar, c.local))!, c);
  } else if (agrupar === 'mozo' || agrupar === 'mesa') {
    for (const c of covered) {
      const id = agrupar === 'mozo' ? c.id_usuario : c.id_mesa;
      const a =
        id === null
          ? agrupar === 'mozo'
            ? group('sin_mozo', 'Sin mozo')
            : group('para_llevar', 'Para llevar')
          : group(
              String(id),
              agrupar === 'mozo' ? data.usuarios.get(id)! : `Mesa ${data.mesas.get(id)}`,
            );
      whole(a, c);
    }
  } else if (agrupar === 'producto' || agrupar === 'categoria') {
    for (const c of covered)
      for (const l of c.lines) {
        const p = data.productos.get(l.id_producto)!;
        const a =
          agrupar === 'producto'
            ? group(String(l.id_producto), p.nombre)
            : p.id_categoria === null
              ? group('sin_categoria', 'Sin categoría')
              : group(String(p.id_categoria), data.categorias.get(p.id_categoria)!);
        a.ids.add(c.id);
        a.unidades = (a.unidades ?? 0n) + units(l.cantidad, 3);
        a.vb += l.subtotal;
        if (c.total > 0n) {
          a.de = a.de.add(new Frac(c.descuento * l.subtotal, c.total));
          a.vn = a.vn.add(new Frac(c.neta * l.subtotal, c.total));
        }
        a.co = a.co.add(new Frac(l.costo, 1n));
      }
  } else {
    for (const c of covered) {
      const pagado = c.pagos.reduce((s, p) => s + p.monto, 0n);
      for (const p of c.pagos) {
        const a = group(String(p.metodo), data.metodos.get(p.metodo)!);
        a.ids.add(c.id);
        a.vb += p.monto;
        a.pr = (a.pr ?? 0n) + p.propina;
        a.de = a.de.add(new Frac(c.descuento * p.monto, pagado));
        a.vn = a.vn.add(new Frac(c.neta * p.monto, pagado));
        a.co = a.co.add(new Frac(c.costo * p.monto, pagado));
      }
    }
  }
  let filas = [...groups.values()].map((a) => ({
    clave: a.clave,
    etiqueta: a.etiqueta,
    ...figures(a, agrupar, conCosto),
  }));
  if (!TIME.includes(agrupar))
    filas = filas.sort(
      (x, y) =>
        y.venta_bruta - x.venta_bruta || (x.clave < y.clave ? -1 : x.clave > y.clave ? 1 : 0),
    );
  const all = acc('', '');
  for (const c of covered) whole(all, c);
  if (agrupar === 'producto' || agrupar === 'categoria')
    all.unidades = covered.reduce(
      (s, c) => s + c.lines.reduce((t, l) => t + units(l.cantidad, 3), 0n),
      0n,
    );
  if (agrupar === 'metodo')
    all.pr = covered.reduce((s, c) => s + c.pagos.reduce((t, p) => t + p.propina, 0n), 0n);
  return {
    desde,
    hasta,
    agrupar,
    zona_horaria: data.zone,
    filas,
    totales: figures(all, 'totales', conCosto),
  };
}
