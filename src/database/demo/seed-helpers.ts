/**
 * What the sections of the demo seed share: the one generator, exact decimal and time texts,
 * the SQL of a timestamp in the tenant's zone, the context every section receives and the
 * summary they fill (here rather than in demo-data.ts, which imports the sections).
 */

export type DemoTable =
  | 'roles'
  | 'usuarios'
  | 'usua_roles'
  | 'categorias'
  | 'productos'
  | 'clientes'
  | 'mesas'
  | 'comandas'
  | 'deta_comandas'
  | 'comanda_eventos'
  | 'proveedores'
  | 'mate_primas'
  | 'compras'
  | 'deta_comp_producto'
  | 'deta_comp_materias'
  | 'prov_producto'
  | 'prov_mate_prima'
  | 'receta_producto'
  | 'asistencia_detalle'
  | 'asistencia_intervalo'
  | 'asistencia_resumen_diario'
  | 'sesiones_caja'
  | 'pagos'
  | 'stock_movimientos'
  | 'mermas'
  | 'conteos';

/** Rows inserted per table. */
export type DemoDataSummary = Record<DemoTable, number>;

export type DemoQuery = (sql: string, params?: unknown[]) => Promise<unknown>;

/** The rows of a DemoQuery's answer: a pg client gives `{rows}`, a TypeORM manager the rows. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

/** What every section of the seed receives. */
export interface DemoSeed {
  query: DemoQuery;
  /** YYYY-MM-DD, the provisioning day in the tenant time zone ($2 of `at`). */
  today: string;
  /** IANA time zone of the tenant ($3 of `at`). */
  timeZone: string;
  /** The share of the restaurant's tickets per day (DemoDataOptions.scale). */
  scale: number;
  /** `today` at 00:00 UTC, in milliseconds. */
  todayUtc: number;
  /** The one generator of the whole seed: the sections draw from it one after the other. */
  rng: Rng;
  /** Documentos already given: staff and customers never share one. */
  documentos: Documentos;
}

/** mulberry32: a tiny, fast 32-bit PRNG; good enough for demo data and fully reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index drawn with probability proportional to its weight. */
  weighted(weights: readonly number[]): number {
    const sum = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * sum;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

/** Céntimos → '12.50' (exact decimal text, no float rounding). */
export function money(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Thousandths → '0.250' (exact decimal text). */
export function qty(milli: number): string {
  return `${Math.trunc(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
}

/** Seconds after midnight (< 86400) → 'HH:MM:SS'. */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((v) => String(v).padStart(2, '0')).join(':');
}

/** A RUC with a valid SUNAT check digit (modulo 11, weights 5432765432). */
export function ruc(rng: Rng, prefix: '10' | '20'): string {
  const body = prefix + rng.digits(8);
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(body[i]), 0);
  const check = (11 - (sum % 11)) % 10;
  return body + String(check);
}

/** `today` (YYYY-MM-DD) at 00:00 UTC, in milliseconds; anything but a real date is refused. */
export function parseToday(today: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  const utc = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== today) {
    throw new Error(`demo data: "today" must be a real date as YYYY-MM-DD, got "${today}"`);
  }
  return utc;
}

/**
 * SQL for a timestamptz at `dia` days before today plus `seg` seconds after local midnight,
 * in the tenant's zone. Requires the parameters $2 = today (date) and $3 = time zone.
 */
export function at(dia: string, seg: string): string {
  return `((($2::date - ${dia}) + make_interval(secs => ${seg})) AT TIME ZONE $3)`;
}

/** Rows of one table as the JSON text of the `jsonb_to_recordset($1)` parameter. */
export function json(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

/** Key of a named definition (see the maps of restaurant.ts). */
export function idOf(map: Map<string, number>, name: string): number {
  const id = map.get(name);
  if (id === undefined) throw new Error(`demo data: unknown name "${name}"`);
  return id;
}

/** Documento numbers drawn from the generator, each given once. */
export class Documentos {
  private readonly given = new Set<string>();
  private readonly rng: Rng;

  constructor(rng: Rng) {
    this.rng = rng;
  }

  /** `first`, then n - 1 random digits; drawn again while the number is already given. */
  unique(first: number, n: number): string {
    for (;;) {
      const doc = String(first) + this.rng.digits(n - 1);
      if (!this.given.has(doc)) {
        this.given.add(doc);
        return doc;
      }
    }
  }
}
