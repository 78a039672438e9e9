import fc from 'fast-check';
import { Client as PgClient } from 'pg';
import request from 'supertest';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The stock ledger under random traffic, as a property (fast-check) on the real app and a real
 * PostgreSQL (docs/inventario.md).
 *
 * A run is a sequence of rounds, each one step or two steps sent at once by two clients
 * (Promise.all): purchases with raw-material lines (dated now, a while ago, exactly at the last
 * applied count's cut-off or before it) through RPC save_compra, their edits (save_compra on the
 * id replaces the lines, now and then with another date) and deletions (delete_compra); comandas
 * of dishes with a recipe and without, a line added, closes, reopens, deletions (of closed ones
 * too) and restores; waste; counts (a draft, changed, applied or discarded; cut-offs now, in the
 * past, at the last cut-off, before it, in the future); a dish's recipe changed between closes; a
 * new raw material. The comanda, waste and count writes may carry an Idempotency-Key and be sent
 * again with it, one after the other or both at once. After each run:
 *
 * a. no 5xx, no deadlock or serialization failure, every refusal a documented one that the state
 *    before and after the round allows: 409 PERIODO_CERRADO for a posting dated in the closed
 *    period, its cut-off included (always when it was closed before the round, never when it is
 *    not even after it), never for a comanda's move; of the answers of one key exactly one acted
 *    and the others replay it;
 * b. per material Σ stock_movimientos.cantidad = stock_saldos.cantidad and Σ valor = its valor,
 *    exactly, and GET /inventario shows those balances;
 * c. every line of a comanda closed now (not deleted) whose dish had a recipe at its last close
 *    has exactly one live consumption, and per (line, material) its consumo_venta movements less
 *    their reverso_consumo net −round(line qty × recipe qty at that close, 4); the lines of open
 *    and deleted comandas net zero; each reversal gives one movement back at its cost; a line's
 *    costo_teorico is −Σ the values of its movements;
 * d. each material's quantity is what the test computes, in BigInt ten-thousandths, from the
 *    answers alone: the lines of each purchase as last saved (none once deleted), the waste, the
 *    adjustments the applied counts answered, and the consumption of the comandas closed now at
 *    the recipe in force at their last close (the order of a comanda's moves is their versions);
 * e. the moving average: walking each material's movements in id order (SQL, numeric) as the
 *    doc says (inflow: round((q0·c0 + q·c) / (q0 + q), 6), or c when q0 ≤ 0; outflow: unchanged)
 *    gives every movement's saldo_cantidad and saldo_costo and the balance's costo_promedio;
 *    outflows and count adjustments are valued at the average before them;
 * f. a purchase's live compra movements are its lines as saved, dated at its fec_compra; every
 *    reverso_compra undoes one compra (same quantity, same date);
 * g. every applied count posted contado − sistema, and the ledger up to its cut-off holds what was
 *    counted (the last count applied at that cut-off); the comandas (state, version), the waste
 *    and the counts in the database are those the answers acknowledged.
 *
 * Quantities are compared as numeric text turned into BigInt (10^-4), never as floats. The seed
 * is printed with the summary; FC_SEED=<seed> replays the same runs.
 */

const SLUG = 'inventario';
const RUNS = 18;
/** A property stops (and fails) after this long: a failure's shrinking replays real runs. */
const LIMIT_MS = 150_000;
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : Math.floor(Math.random() * 0x7fffffff);
const IN_USE_BACKOFF_MS = 40;
const IN_USE_MAX_ATTEMPTS = 60;

/** The dishes of the fixture menu: what save_producto needs to change a recipe. */
const DISHES: Record<number, { nombre: string; precio: number }> = {
  [MENU.ceviche.id]: { nombre: 'Ceviche clásico', precio: MENU.ceviche.precio },
  [MENU.lomo.id]: { nombre: 'Lomo saltado', precio: MENU.lomo.precio },
  [MENU.chicha.id]: { nombre: 'Chicha morada', precio: MENU.chicha.precio },
};
const DISH_IDS = [MENU.ceviche.id, MENU.lomo.id, MENU.chicha.id];

// ---------------------------------------------------------------------------------------------
// Exact decimals: BigInt counts of 10^-places, read from the text

/**
 * A decimal (PostgreSQL's '12.3000' or JSON's 12.3) as an integer count of its `places`-th
 * parts, read digit by digit. Throws on a finer fraction.
 */
function scaled(value: string | number, places: number): bigint {
  const text = typeof value === 'number' ? String(value) : value;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const fraction = (m[3] ?? '').padEnd(places, '0');
  if (/[1-9]/.test(fraction.slice(places))) throw new Error(`finer than ${places} places: ${text}`);
  const n = BigInt(m[2]) * 10n ** BigInt(places) + BigInt(fraction.slice(0, places) || '0');
  return m[1] === '-' ? -n : n;
}
/** A quantity in ten-thousandths (numeric(14,4)). */
const q4 = (value: string | number) => scaled(value, 4);
/** A count of 10^-places as decimal text (for messages). */
function show(n: bigint, places = 4): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(places + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
/** round(line × recipe, 4) of two quantities in thousandths, half away from zero (ten-thousandths). */
function consumption(line: bigint, recipe: bigint): bigint {
  const product = line * recipe; // millionths
  const negative = product < 0n;
  const rounded = ((negative ? -product : product) + 50n) / 100n;
  return negative ? -rounded : rounded;
}

/** Instants as microseconds since the epoch (BigInt), as PostgreSQL keeps them. */
const nowUs = () => BigInt(Date.now()) * 1000n;
const MINUTE_US = 60_000_000n;
/** An instant in microseconds as ISO 8601 UTC with six decimals. */
function isoUs(us: bigint): string {
  const base = new Date(Number(us / 1000n)).toISOString();
  return `${base.slice(0, -1)}${(us % 1000n).toString().padStart(3, '0')}Z`;
}

// ---------------------------------------------------------------------------------------------
// Commands: the materials, purchases, comandas and counts they name are indexes into what the
// test knows when the round starts

/** When a dated write is dated (a count's cut-off, a purchase's fec_compra, waste's fec). */
type Fec = 'now' | 'recent' | 'atCut' | 'beforeCut' | 'future';
interface BuyLine {
  m: number;
  q: string;
  c: string;
}
/** A count as a literal quantity, or 'book': what the test computes the book holds. */
type Contado = string;

type Command =
  | { kind: 'buy'; lines: BuyLine[]; resale: boolean; fec: Fec }
  /** `closed`: a purchase in the closed period (if there is one), else one after it. */
  | { kind: 'editBuy'; p: number; closed: boolean; lines: BuyLine[]; resale: boolean; fec: Fec }
  | { kind: 'deleteBuy'; p: number; closed: boolean }
  | { kind: 'open'; items: { dish: number; q: string }[] }
  | { kind: 'addItem'; c: number; dish: number; q: string }
  | { kind: 'close' | 'reopen' | 'delete' | 'restore'; c: number }
  | { kind: 'waste'; m: number; q: string; fec: Fec }
  | { kind: 'count'; lines: { m: number; contado: Contado }[]; fec: Fec }
  | { kind: 'patchCount'; k: number; lines: { m: number; contado: Contado | null }[] }
  | { kind: 'applyCount' | 'discardCount'; k: number }
  | { kind: 'recipe'; dish: number; ingredients: { m: number; q: string }[] }
  | { kind: 'material'; unidad: string };
type Kind = Command['kind'];

interface Delivery {
  key: boolean;
  retry: 'none' | 'sequential' | 'concurrent';
}
interface Step {
  cmd: Command;
  delivery: Delivery;
}
/** One step, or two sent at once. */
interface Round {
  a: Step;
  b: Step | null;
}

/** Steps that run alone: the recipe a close uses, and the materials, are then certain. */
const SOLO: ReadonlySet<Kind> = new Set(['recipe', 'material']);
/** The routes that take an Idempotency-Key (the RPC routes do not). */
const KEYED: ReadonlySet<Kind> = new Set([
  'open',
  'addItem',
  'close',
  'reopen',
  'delete',
  'restore',
  'waste',
  'count',
  'patchCount',
  'applyCount',
  'discardCount',
]);

const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const idx = fc.nat({ max: 50 });
const fecArb = (future: boolean) =>
  weighted<Fec>(
    [5, fc.constant('now')],
    [2, fc.constant('recent')],
    [1, fc.constant('atCut')],
    [1, fc.constant('beforeCut')],
    ...(future ? [[1, fc.constant<Fec>('future')] as [number, fc.Arbitrary<Fec>]] : []),
  );
const buyLineArb: fc.Arbitrary<BuyLine> = fc.record({
  m: idx,
  q: fc.constantFrom('1', '2.5', '10', '0.75', '3.125', '12.345'),
  c: fc.constantFrom('0', '3.5', '4', '30', '36', '12.99', '0.07'),
});
const dishArb = fc.constantFrom(...DISH_IDS);
const lineQtyArb = fc.constantFrom('1', '2', '3', '0.5', '1.5', '2.25', '0.333');
const closedArb = weighted<boolean>([3, fc.constant(false)], [1, fc.constant(true)]);
const contadoArb = weighted<Contado>(
  [2, fc.constant('book')],
  [3, fc.constantFrom('0', '1.5', '5', '9.9999', '12.3456')],
);

const commandArb: fc.Arbitrary<Command> = weighted<Command>(
  [
    5,
    fc.record({
      kind: fc.constant('buy'),
      lines: fc.array(buyLineArb, { minLength: 1, maxLength: 3 }),
      resale: fc.boolean(),
      fec: fecArb(false),
    }),
  ],
  [
    2,
    fc.record({
      kind: fc.constant('editBuy'),
      p: idx,
      closed: closedArb,
      lines: fc.array(buyLineArb, { minLength: 0, maxLength: 3 }),
      resale: fc.boolean(),
      fec: fecArb(false),
    }),
  ],
  [1, fc.record({ kind: fc.constant('deleteBuy'), p: idx, closed: closedArb })],
  [
    4,
    fc.record({
      kind: fc.constant('open'),
      items: fc.array(fc.record({ dish: dishArb, q: lineQtyArb }), { minLength: 1, maxLength: 3 }),
    }),
  ],
  [1, fc.record({ kind: fc.constant('addItem'), c: idx, dish: dishArb, q: lineQtyArb })],
  [6, fc.record({ kind: fc.constant('close'), c: idx })],
  [3, fc.record({ kind: fc.constant('reopen'), c: idx })],
  [2, fc.record({ kind: fc.constant('delete'), c: idx })],
  [1, fc.record({ kind: fc.constant('restore'), c: idx })],
  [
    3,
    fc.record({
      kind: fc.constant('waste'),
      m: idx,
      q: fc.constantFrom('0.1', '0.25', '1', '0.0125', '2.5'),
      fec: fecArb(false),
    }),
  ],
  [
    2,
    fc.record({
      kind: fc.constant('count'),
      lines: fc.uniqueArray(fc.record({ m: fc.nat({ max: 7 }), contado: contadoArb }), {
        minLength: 1,
        maxLength: 3,
        selector: (l) => l.m,
      }),
      fec: fecArb(true),
    }),
  ],
  [
    1,
    fc.record({
      kind: fc.constant('patchCount'),
      k: idx,
      lines: fc.uniqueArray(
        fc.record({ m: fc.nat({ max: 7 }), contado: fc.option(contadoArb, { nil: null }) }),
        { minLength: 1, maxLength: 2, selector: (l) => l.m },
      ),
    }),
  ],
  [2, fc.record({ kind: fc.constant('applyCount'), k: idx })],
  [1, fc.record({ kind: fc.constant('discardCount'), k: idx })],
  [
    2,
    fc.record({
      kind: fc.constant('recipe'),
      dish: dishArb,
      ingredients: fc.uniqueArray(
        fc.record({
          m: fc.nat({ max: 7 }),
          q: fc.constantFrom('0.2', '0.1', '0.05', '0.25', '0.333', '15', '1.5', '0.015'),
        }),
        { minLength: 0, maxLength: 3, selector: (l) => l.m },
      ),
    }),
  ],
  [1, fc.record({ kind: fc.constant('material'), unidad: fc.constantFrom('kg', 'g', 'l') })],
);

const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  key: weighted<boolean>([3, fc.constant(true)], [1, fc.constant(false)]),
  retry: weighted<Delivery['retry']>(
    [3, fc.constant('none')],
    [1, fc.constant('sequential')],
    [1, fc.constant('concurrent')],
  ),
});
const stepArb: fc.Arbitrary<Step> = fc.record({ cmd: commandArb, delivery: deliveryArb });
const roundArb: fc.Arbitrary<Round> = fc.record({
  a: stepArb,
  // two clients at once in about half the rounds
  b: fc.option(stepArb, { nil: null, freq: 2 }),
});
const scenarioArb = fc.array(roundArb, { minLength: 14, maxLength: 24 });

// ---------------------------------------------------------------------------------------------
// What the test knows: the effects the answers acknowledged

interface LineView {
  id_item: number;
  id_producto: number;
  cantidad: number;
}
interface ComandaView {
  id_comanda: number;
  estado: 'abierta' | 'cerrada';
  eliminada: boolean;
  version: number;
  lineas: LineView[];
}
type ComandaMove = 'open' | 'addItem' | 'close' | 'reopen' | 'delete' | 'restore';
interface ComandaModel {
  /** The acknowledged answer of the highest version. */
  view: ComandaView;
  /** Every acknowledged change: its version and the recipes in force (index into recipes). */
  moves: { version: number; move: ComandaMove; recipes: number }[];
}
interface PurchaseLine {
  mat: number;
  /** Thousandths (numeric(12,3)). */
  q: bigint;
  /** Hundredths (numeric(12,2)). */
  c: bigint;
}
interface CountModel {
  estado: 'borrador' | 'aplicado' | 'descartado';
  lines: Map<number, bigint>;
}
interface ConteoLinea {
  id_mat_prima: number;
  contado: number;
  sistema: number;
  diferencia: number;
}
interface ConteoView {
  id_conteo: number;
  estado: CountModel['estado'];
  lineas: ConteoLinea[];
}

/** A recipe version: per dish, thousandths of each material (no entry: no recipe). */
type Recipes = Map<number, Map<number, bigint>>;

const model = {
  materials: [] as number[],
  recipes: [] as Recipes[],
  purchases: new Map<number, { lines: PurchaseLine[]; deleted: boolean }>(),
  waste: [] as { mat: number; q: bigint }[],
  adjustments: [] as { mat: number; q: bigint; conteo: number }[],
  comandas: new Map<number, ComandaModel>(),
  counts: new Map<number, CountModel>(),
};

/** The state a comanda's acknowledged moves give, in version order, and what it consumes. */
function replay(c: ComandaModel): {
  estado: 'abierta' | 'cerrada';
  eliminada: boolean;
  version: number;
  /** The recipes of its last close (or restore of a closed one) while it is closed now. */
  consumedAt: number | null;
  problem?: string;
} {
  const moves = [...c.moves].sort((x, y) => x.version - y.version);
  let estado: 'abierta' | 'cerrada' = 'abierta';
  let eliminada = false;
  let consumedAt: number | null = null;
  let problem: string | undefined;
  moves.forEach((m, i) => {
    if (m.version !== i + 1) problem ??= `versions ${moves.map((x) => x.version).join(',')}`;
    const fits = {
      open: i === 0,
      addItem: !eliminada && estado === 'abierta',
      close: !eliminada && estado === 'abierta',
      reopen: !eliminada && estado === 'cerrada',
      delete: !eliminada,
      restore: eliminada,
    }[m.move];
    if (!fits) problem ??= `${m.move} acknowledged at version ${m.version} from ${estado}`;
    if (m.move === 'close') [estado, consumedAt] = ['cerrada', m.recipes];
    else if (m.move === 'reopen') [estado, consumedAt] = ['abierta', null];
    else if (m.move === 'delete') [eliminada, consumedAt] = [true, null];
    else if (m.move === 'restore') {
      eliminada = false;
      if (estado === 'cerrada') consumedAt = m.recipes;
    }
  });
  return { estado, eliminada, version: moves.length, consumedAt, problem };
}

/** Per (line, material): what the comandas as acknowledged consume, in ten-thousandths. */
function expectedConsumption(): Map<number, Map<number, bigint>> {
  const out = new Map<number, Map<number, bigint>>();
  for (const c of model.comandas.values()) {
    const { consumedAt } = replay(c);
    for (const line of c.view.lineas) {
      const recipe =
        consumedAt === null ? undefined : model.recipes[consumedAt].get(line.id_producto);
      const per = new Map<number, bigint>();
      for (const [mat, q] of recipe ?? []) per.set(mat, -consumption(scaled(line.cantidad, 3), q));
      out.set(line.id_item, per);
    }
  }
  return out;
}

/** Each material's quantity from the acknowledged effects alone (ten-thousandths). */
function expectedBalances(): Map<number, bigint> {
  const balance = new Map<number, bigint>();
  const add = (mat: number, q: bigint) => balance.set(mat, (balance.get(mat) ?? 0n) + q);
  for (const purchase of model.purchases.values())
    if (!purchase.deleted) for (const l of purchase.lines) add(l.mat, l.q * 10n);
  for (const w of model.waste) add(w.mat, -w.q);
  for (const a of model.adjustments) add(a.mat, a.q);
  for (const per of expectedConsumption().values()) for (const [mat, q] of per) add(mat, q);
  return balance;
}

// ---------------------------------------------------------------------------------------------
// What the runs record

const stats = {
  runs: 0,
  rounds: 0,
  pairs: 0,
  requests: 0,
  retries: 0,
  inUse: 0,
  fiveXX: 0,
  refused: new Map<string, number>(),
  acknowledged: new Map<string, number>(),
};
const count = (map: Map<string, number>, name: string) => map.set(name, (map.get(name) ?? 0) + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let keys = 0;

/** The period and the dates the refusals are judged by, read before and after each round. */
interface Snapshot {
  /** inventario_periodo.cerrado_hasta (µs), null before the first applied count. */
  cerrado: bigint | null;
  compras: Map<number, bigint>;
  conteos: Map<number, bigint>;
}

/**
 * Whether a posting dated `d` falls in the period closed at `cerrado`, its cut-off included
 * (docs/inventario.md, "The closed period").
 */
const inClosedPeriod = (d: bigint, cerrado: bigint | null) => cerrado !== null && d <= cerrado;

/** A request the round sends, with what its refusal is judged by and what its answer teaches. */
interface Planned {
  kind: Kind;
  label: string;
  method: 'post' | 'put' | 'patch' | 'delete';
  path: string;
  body: object;
  delivery: Delivery;
  comanda?: number;
  compra?: number;
  conteo?: number;
  /** What refuses it in the state before the round (INVALID_TRANSITION, CONTEO_NO_BORRADOR). */
  stale?: boolean;
  /** The instants it posts at ('now': the request's own time); undefined: it posts nothing dated. */
  dates?: (bigint | 'now')[];
  /** The other step of the round makes the dates uncertain (it changes the same purchase). */
  uncertain?: boolean;
  future?: boolean;
  learn: (body: unknown) => void;
}

describe('inventario under random purchases, sales, waste and counts, two clients at once (fast-check)', () => {
  let t: TestApp;
  let pg: PgClient;
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await pg.query(text, params)).rows as T[];

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_INVENTARIO: 'true', FEATURE_RPC: 'true' });
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    pg = new PgClient({ connectionString: t.dbs.tenantUrl(SLUG) });
    await pg.connect();
    // five materials (one edited: its row moves in the table), a supplier, two dishes with a
    // recipe and one without
    await sql(
      `INSERT INTO mate_primas (nombre, unidad) VALUES
         ('Pescado', 'kg'), ('Limón', 'kg'), ('Cebolla roja', 'kg'), ('Ají limo', 'g'), ('Papa', 'kg');
       UPDATE mate_primas SET stock_minimo = 2 WHERE id_mat_prima = 1;
       INSERT INTO proveedores (razon_social) VALUES ('Terminal Pesquero');
       INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad) VALUES
         (1, 1, 0.2), (1, 2, 0.1), (1, 3, 0.05), (1, 4, 15), (2, 5, 0.25), (2, 3, 0.08), (2, 4, 5)`,
    );
    model.materials.push(1, 2, 3, 4, 5);
    model.recipes.push(
      new Map([
        [
          1,
          new Map([
            [1, 200n],
            [2, 100n],
            [3, 50n],
            [4, 15000n],
          ]),
        ],
        [
          2,
          new Map([
            [5, 250n],
            [3, 80n],
            [4, 5000n],
          ]),
        ],
      ]),
    );
  });

  afterAll(async () => {
    const list = (counts: Map<string, number>) =>
      [...counts.entries()].map(([name, n]) => `${name} ${n}`).join(', ') || 'none';
    const movements = pg
      ? (await sql<{ n: string }>('SELECT count(*)::text AS n FROM stock_movimientos'))[0].n
      : '?';
    console.log(
      `inventario: ${stats.runs} runs (seed ${SEED}), ${stats.rounds} rounds (${stats.pairs} of two steps at once), ` +
        `${stats.requests} requests (${stats.retries} retries, ${stats.inUse} answered 409 IDEMPOTENCY_KEY_IN_USE), ` +
        `${stats.fiveXX} 5xx, ${movements} movements; acknowledged: ${list(stats.acknowledged)}; refused: ${list(stats.refused)}`,
    );
    await pg?.end();
    await t?.close();
  });

  /** One HTTP request: counts it, and records any answer that must never happen. */
  async function send(
    problems: string[],
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body: object | undefined,
    headers: Record<string, string> = {},
  ): Promise<request.Response> {
    stats.requests += 1;
    let req = request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', SLUG);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    const res = body === undefined ? await req : await req.send(body);
    const what = `${method.toUpperCase()} ${path} ${JSON.stringify(body ?? null)} ${JSON.stringify(headers)}`;
    if (res.status >= 500) {
      stats.fiveXX += 1;
      problems.push(`${what} answered ${res.status}: ${res.text}`);
    } else if (res.status >= 400 && /40P01|40001|55P03|deadlock/i.test(res.text)) {
      problems.push(`${what} answered a deadlock/serialization failure: ${res.text}`);
    } else if (res.status >= 300 && res.status < 400) {
      problems.push(`${what} answered ${res.status}`);
    }
    return res;
  }

  const ok = (res: request.Response) => res.status === 200 || res.status === 201;

  /**
   * A write as its delivery says: with a key (on the routes that take one) it may be sent twice,
   * one after the other or both at once; 409 IDEMPOTENCY_KEY_IN_USE is retried a little later.
   * Of the answers of one key exactly one acted and every other is that answer byte for byte.
   * Answers the one that acted.
   */
  async function write(problems: string[], pl: Planned): Promise<request.Response> {
    const { method, path, body, delivery } = pl;
    if (!KEYED.has(pl.kind) || !delivery.key) return send(problems, method, path, body);
    keys += 1;
    const headers = { 'Idempotency-Key': `inventario-${SEED}-${keys}` };
    const untilNotInUse = async () => {
      for (let attempt = 1; ; attempt++) {
        const res = await send(problems, method, path, body, headers);
        if (res.status !== 409 || res.body?.code !== 'IDEMPOTENCY_KEY_IN_USE') return res;
        stats.inUse += 1;
        if (attempt >= IN_USE_MAX_ATTEMPTS) return res;
        stats.retries += 1;
        await sleep(IN_USE_BACKOFF_MS * Math.min(attempt, 5));
      }
    };
    let answers: request.Response[];
    if (delivery.retry === 'none') answers = [await untilNotInUse()];
    else if (delivery.retry === 'sequential') {
      const first = await untilNotInUse();
      stats.retries += 1;
      answers = [first, await untilNotInUse()];
    } else {
      stats.retries += 1;
      answers = await Promise.all([untilNotInUse(), untilNotInUse()]);
    }
    const what = `${pl.label} key ${headers['Idempotency-Key']}`;
    const fresh = answers.filter((a) => a.headers['idempotent-replayed'] !== 'true');
    if (fresh.length !== 1)
      problems.push(
        `${what}: ${fresh.length} answers acted (statuses ${answers.map((a) => a.status).join(', ')})`,
      );
    const acted = fresh[0] ?? answers[0];
    for (const replay of answers.filter((a) => a !== acted))
      if (replay.status !== acted.status || replay.text !== acted.text)
        problems.push(
          `${what}: the replay answered ${replay.status} ${replay.text}, the first ${acted.status} ${acted.text}`,
        );
    return acted;
  }

  async function snapshot(): Promise<Snapshot> {
    const [periodo] = await sql<{ us: string | null }>(
      `SELECT (extract(epoch FROM cerrado_hasta) * 1000000)::bigint::text AS us FROM inventario_periodo`,
    );
    const compras = await sql<{ id: number; us: string }>(
      `SELECT id_compra AS id, (extract(epoch FROM fec_compra) * 1000000)::bigint::text AS us FROM compras`,
    );
    const conteos = await sql<{ id: string; us: string }>(
      `SELECT id_conteo::text AS id, (extract(epoch FROM fec_corte) * 1000000)::bigint::text AS us FROM conteos`,
    );
    return {
      cerrado: periodo.us === null ? null : BigInt(periodo.us),
      compras: new Map(compras.map((c) => [c.id, BigInt(c.us)])),
      conteos: new Map(conteos.map((c) => [Number(c.id), BigInt(c.us)])),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Planning a step against what the test knows before the round

  const pick = <T>(items: T[], i: number): T | undefined =>
    items.length === 0 ? undefined : items[i % items.length];
  const material = (i: number) => model.materials[i % model.materials.length];
  /** Lines naming materials by index, each material once (two indexes may name one material). */
  const onePerMaterial = <T extends { m: number }>(lines: T[]): T[] =>
    lines.filter((l, i) => lines.findIndex((x) => material(x.m) === material(l.m)) === i);

  /** An instant for `fec` (undefined: now, sent as no date). */
  function dated(fec: Fec, snap: Snapshot): bigint | undefined {
    const now = nowUs();
    switch (fec) {
      case 'now':
        return undefined;
      case 'recent':
        return now - 20n * MINUTE_US;
      case 'atCut':
        return snap.cerrado ?? now - 5n * MINUTE_US;
      case 'beforeCut':
        return (snap.cerrado ?? now) - 60n * MINUTE_US;
      case 'future':
        return now + 24n * 60n * MINUTE_US;
    }
  }

  /** A count's quantity as sent ('book': what the test computes the book holds, at least 0). */
  function contado(value: Contado, mat: number): number {
    if (value !== 'book') return Number(value);
    const book = expectedBalances().get(mat) ?? 0n;
    return Number(show(book > 0n ? book : 0n));
  }

  function buyLines(lines: BuyLine[], resale: boolean) {
    return [
      ...lines.map((l) => ({
        id_mat_prima: material(l.m),
        cantidad: Number(l.q),
        costo_unitario: Number(l.c),
      })),
      ...(resale ? [{ id_producto: MENU.chicha.id, cantidad: 24, costo_unitario: 2.5 }] : []),
    ];
  }
  const purchaseLines = (lines: BuyLine[]): PurchaseLine[] =>
    lines.map((l) => ({ mat: material(l.m), q: scaled(l.q, 3), c: scaled(l.c, 2) }));

  /** Which comandas a move fits (as the test last saw them), and whether it fits one. */
  const FITS: Record<
    'addItem' | 'close' | 'reopen' | 'delete' | 'restore',
    (v: ComandaView) => boolean
  > = {
    addItem: (v) => !v.eliminada && v.estado === 'abierta',
    close: (v) => !v.eliminada && v.estado === 'abierta',
    reopen: (v) => !v.eliminada && v.estado === 'cerrada',
    delete: (v) => !v.eliminada,
    restore: (v) => v.eliminada,
  };

  /**
   * The request of a step, its targets resolved against what the test knew when the round
   * started (`other`: the round's other step, already planned). Undefined when there is nothing
   * to act on.
   */
  function plan(
    step: Step,
    snap: Snapshot,
    recipes: number,
    other: Planned | undefined,
    pending: Map<number, PurchaseLine[][]>,
  ): Planned | undefined {
    const { cmd, delivery } = step;
    const base = { kind: cmd.kind, delivery };
    switch (cmd.kind) {
      case 'buy': {
        const fec = dated(cmd.fec, snap);
        const lines = purchaseLines(cmd.lines);
        return {
          ...base,
          label: `buy ${JSON.stringify(cmd)}`,
          method: 'post',
          path: '/rpc/save_compra',
          body: {
            id_proveedor: 1,
            ...(fec === undefined ? {} : { fec_compra: isoUs(fec) }),
            detalles: buyLines(cmd.lines, cmd.resale),
          },
          dates: [fec ?? 'now'],
          learn: (body) => {
            const id = (body as { id_compra: number }).id_compra;
            model.purchases.set(id, { lines, deleted: false });
          },
        };
      }
      case 'editBuy':
      case 'deleteBuy': {
        // a purchase another step of the round deletes is left alone (an edit of a deleted
        // purchase is the store function's 500 P0002, a documented RPC failure)
        const live = [...model.purchases.entries()]
          .filter(([id, x]) => !x.deleted && !(other?.kind === 'deleteBuy' && other.compra === id))
          .map(([id]) => id)
          .filter((x) => cmd.kind !== 'deleteBuy' || other?.compra !== x);
        const fitting = live.filter(
          (x) => inClosedPeriod(snap.compras.get(x)!, snap.cerrado) === cmd.closed,
        );
        const id = pick(fitting.length > 0 ? fitting : live, cmd.p);
        if (id === undefined) return undefined;
        const old = snap.compras.get(id)!;
        const hadLines = model.purchases.get(id)!.lines.length > 0;
        const uncertain = other?.compra === id;
        if (cmd.kind === 'deleteBuy')
          return {
            ...base,
            label: `deleteBuy ${id}`,
            method: 'post',
            path: '/rpc/delete_compra',
            body: { id_compra: id },
            compra: id,
            dates: hadLines ? [old] : [],
            uncertain,
            learn: () => {
              model.purchases.get(id)!.deleted = true;
            },
          };
        const fec = dated(cmd.fec, snap);
        const lines = purchaseLines(cmd.lines);
        return {
          ...base,
          label: `editBuy ${id} ${JSON.stringify(cmd)}`,
          method: 'post',
          path: '/rpc/save_compra',
          body: {
            id_compra: id,
            id_proveedor: 1,
            ...(fec === undefined ? {} : { fec_compra: isoUs(fec) }),
            detalles: buyLines(cmd.lines, cmd.resale),
          },
          compra: id,
          dates: [...(hadLines ? [old] : []), ...(lines.length > 0 ? [fec ?? old] : [])],
          uncertain,
          learn: () => pending.set(id, [...(pending.get(id) ?? []), lines]),
        };
      }
      case 'open':
        return {
          ...base,
          label: `open ${JSON.stringify(cmd.items)}`,
          method: 'post',
          path: '/comandas',
          body: {
            items: cmd.items.map((i) => ({ id_producto: i.dish, cantidad: Number(i.q) })),
          },
          learn: (body) => {
            const view = body as ComandaView;
            model.comandas.set(view.id_comanda, {
              view,
              moves: [{ version: view.version, move: 'open', recipes }],
            });
          },
        };
      case 'addItem':
      case 'close':
      case 'reopen':
      case 'delete':
      case 'restore': {
        const fits = FITS[cmd.kind];
        const all = [...model.comandas.values()];
        const fitting = all.filter((c) => fits(c.view));
        const target = pick(fitting.length > 0 ? fitting : all, cmd.c);
        if (!target) return undefined;
        const id = target.view.id_comanda;
        const { method, body } = {
          addItem: {
            method: 'post' as const,
            body: cmd.kind === 'addItem' ? { id_producto: cmd.dish, cantidad: Number(cmd.q) } : {},
          },
          close: { method: 'put' as const, body: { action: 'cerrar' } },
          reopen: { method: 'put' as const, body: { action: 'abrir' } },
          delete: { method: 'delete' as const, body: { motivo: 'prueba' } },
          restore: { method: 'put' as const, body: { action: 'restaurar' } },
        }[cmd.kind];
        return {
          ...base,
          method,
          path: cmd.kind === 'addItem' ? `/comandas/${id}/items` : `/comandas/${id}`,
          body,
          label: `${cmd.kind} comanda ${id}`,
          comanda: id,
          stale: !fits(target.view),
          learn: (body) => {
            const view = body as ComandaView;
            const c = model.comandas.get(id)!;
            c.moves.push({ version: view.version, move: cmd.kind, recipes });
            if (view.version > c.view.version) c.view = view;
          },
        };
      }
      case 'waste': {
        const fec = dated(cmd.fec, snap);
        const mat = material(cmd.m);
        const q = q4(cmd.q);
        return {
          ...base,
          label: `waste ${JSON.stringify(cmd)}`,
          method: 'post',
          path: '/inventario/mermas',
          body: {
            id_mat_prima: mat,
            cantidad: Number(cmd.q),
            motivo: 'se malogró',
            ...(fec === undefined ? {} : { fec: isoUs(fec) }),
          },
          dates: [fec ?? 'now'],
          learn: (body) => {
            model.waste.push({ mat, q });
            const m = body as { tipo: string; id_mat_prima: number; cantidad: number };
            if (m.tipo !== 'merma' || m.id_mat_prima !== mat || q4(m.cantidad) !== -q)
              throw new Error(`waste of ${show(q)} of ${mat} answered ${JSON.stringify(body)}`);
          },
        };
      }
      case 'count': {
        const fec = dated(cmd.fec, snap);
        return {
          ...base,
          label: `count ${JSON.stringify(cmd)}`,
          method: 'post',
          path: '/inventario/conteos',
          body: {
            ...(fec === undefined ? {} : { fec_corte: isoUs(fec) }),
            lineas: onePerMaterial(cmd.lines).map((l) => ({
              id_mat_prima: material(l.m),
              contado: contado(l.contado, material(l.m)),
            })),
          },
          dates: cmd.fec === 'future' ? undefined : [fec ?? 'now'],
          future: cmd.fec === 'future',
          learn: (body) => {
            const view = body as ConteoView;
            model.counts.set(view.id_conteo, {
              estado: view.estado,
              lines: new Map(view.lineas.map((l) => [l.id_mat_prima, q4(l.contado)])),
            });
          },
        };
      }
      case 'patchCount':
      case 'applyCount':
      case 'discardCount': {
        const all = [...model.counts.keys()];
        const drafts = all.filter((k) => model.counts.get(k)!.estado === 'borrador');
        const id = pick(drafts.length > 0 ? drafts : all, cmd.k);
        if (id === undefined) return undefined;
        const stale = model.counts.get(id)!.estado !== 'borrador';
        const learnSheet = (body: unknown) => {
          const view = body as ConteoView;
          model.counts.set(id, {
            estado: view.estado,
            lines: new Map(view.lineas.map((l) => [l.id_mat_prima, q4(l.contado)])),
          });
        };
        if (cmd.kind === 'patchCount')
          return {
            ...base,
            label: `patchCount ${id} ${JSON.stringify(cmd.lines)}`,
            method: 'patch',
            path: `/inventario/conteos/${id}`,
            body: {
              lineas: onePerMaterial(cmd.lines).map((l) => ({
                id_mat_prima: material(l.m),
                contado: l.contado === null ? null : contado(l.contado, material(l.m)),
              })),
            },
            conteo: id,
            stale,
            learn: (body) => {
              // a patch and an apply of one sheet at once: the apply's answer is the sheet
              if (model.counts.get(id)!.estado === 'borrador') learnSheet(body);
            },
          };
        if (cmd.kind === 'discardCount')
          return {
            ...base,
            label: `discardCount ${id}`,
            method: 'post',
            path: `/inventario/conteos/${id}/descartar`,
            body: {},
            conteo: id,
            stale,
            learn: learnSheet,
          };
        return {
          ...base,
          label: `applyCount ${id}`,
          method: 'post',
          path: `/inventario/conteos/${id}/aplicar`,
          body: {},
          conteo: id,
          stale,
          dates: stale ? undefined : [snap.conteos.get(id)!],
          learn: (body) => {
            learnSheet(body);
            const view = body as ConteoView;
            if (view.estado !== 'aplicado') throw new Error(`applied: ${JSON.stringify(body)}`);
            for (const l of view.lineas) {
              const diferencia = q4(l.contado) - q4(l.sistema);
              if (q4(l.diferencia) !== diferencia)
                throw new Error(`count ${id}: diferencia of ${JSON.stringify(l)}`);
              if (diferencia !== 0n)
                model.adjustments.push({ mat: l.id_mat_prima, q: diferencia, conteo: id });
            }
          },
        };
      }
      case 'recipe': {
        const ingredients = onePerMaterial(cmd.ingredients);
        const receta = ingredients.map((i) => ({
          id_mat_prima: material(i.m),
          cantidad: Number(i.q),
        }));
        return {
          ...base,
          label: `recipe of ${cmd.dish} ${JSON.stringify(receta)}`,
          method: 'post',
          path: '/rpc/save_producto',
          body: {
            id_producto: cmd.dish,
            ...DISHES[cmd.dish],
            id_categoria: 1,
            activo: true,
            receta,
          },
          learn: () => {
            const next: Recipes = new Map(model.recipes[model.recipes.length - 1]);
            if (receta.length === 0) next.delete(cmd.dish);
            else
              next.set(cmd.dish, new Map(ingredients.map((i) => [material(i.m), scaled(i.q, 3)])));
            model.recipes.push(next);
          },
        };
      }
      case 'material': {
        keys += 1;
        return {
          ...base,
          label: `material ${cmd.unidad}`,
          method: 'post',
          path: '/rpc/save_materia',
          body: { nombre: `Insumo ${SEED}-${keys}`, unidad: cmd.unidad },
          learn: (body) => {
            model.materials.push((body as { id_mat_prima: number }).id_mat_prima);
          },
        };
      }
    }
  }

  /**
   * Whether an answer is one the request and the state allow (a): a refusal only with a code
   * that applies, PERIODO_CERRADO exactly for the closed period, never for a comanda's move.
   */
  function judge(
    p: string[],
    pl: Planned,
    res: request.Response,
    before: Snapshot,
    after: Snapshot,
    other: Planned | undefined,
  ): void {
    const what = `${pl.label}: ${res.status} ${res.text}`;
    const dates = pl.dates ?? [];
    const mustClose =
      !pl.uncertain && dates.some((d) => d !== 'now' && inClosedPeriod(d, before.cerrado));
    const mayClose =
      pl.uncertain || dates.some((d) => d !== 'now' && inClosedPeriod(d, after.cerrado));
    const raced =
      (pl.comanda !== undefined && other?.comanda === pl.comanda) ||
      (pl.conteo !== undefined && other?.conteo === pl.conteo);
    if (ok(res)) {
      if (mustClose) p.push(`accepted a posting dated in the closed period: ${what}`);
      if (pl.future) p.push(`accepted a cut-off in the future: ${what}`);
      if (pl.stale && !raced) p.push(`accepted a move its state does not allow: ${what}`);
      return;
    }
    const code = String(res.body?.code);
    count(stats.refused, `${code} ${pl.kind}`);
    const allowed =
      (code === 'PERIODO_CERRADO' && mayClose && res.status === 409) ||
      (code === 'CORTE_FUTURO' && pl.future === true && res.status === 400) ||
      (code === 'INVALID_TRANSITION' && pl.comanda !== undefined && (pl.stale || raced)) ||
      (code === 'CONTEO_NO_BORRADOR' && pl.conteo !== undefined && (pl.stale || raced));
    if (!allowed) p.push(`refused without a reason that applies: ${what}`);
    if (mustClose && code !== 'PERIODO_CERRADO' && code !== 'CONTEO_NO_BORRADOR')
      p.push(`a posting in the closed period answered another refusal: ${what}`);
  }

  /** One round: its steps planned, sent (two at once), judged, and their answers learnt. */
  async function runRound(p: string[], round: Round): Promise<void> {
    const before = await snapshot();
    const recipes = model.recipes.length - 1;
    const pending = new Map<number, PurchaseLine[][]>();
    const a = plan(round.a, before, recipes, undefined, pending);
    const b =
      round.b && !SOLO.has(round.a.cmd.kind) && !SOLO.has(round.b.cmd.kind)
        ? plan(round.b, before, recipes, a, pending)
        : undefined;
    if (a && b && a.compra !== undefined && a.compra === b.compra) a.uncertain = true;
    const planned = [a, b].filter((x): x is Planned => x !== undefined);
    if (planned.length === 0) return;
    stats.rounds += 1;
    if (planned.length === 2) stats.pairs += 1;
    const answers = await Promise.all(planned.map((pl) => write(p, pl)));
    const after = await snapshot();
    planned.forEach((pl, i) => {
      const res = answers[i];
      judge(p, pl, res, before, after, planned[1 - i]);
      if (!ok(res)) return;
      count(stats.acknowledged, pl.kind);
      try {
        pl.learn(res.body);
      } catch (error) {
        p.push(String(error));
      }
    });
    // two edits of one purchase at once: its lines are those of the one that committed last
    for (const [id, candidates] of pending) {
      if (candidates.length === 1) {
        model.purchases.get(id)!.lines = candidates[0];
        continue;
      }
      const rows = await sql<{ id_mat_prima: number; cantidad: string; costo_unitario: string }>(
        'SELECT id_mat_prima, cantidad::text, costo_unitario::text FROM deta_comp_materias WHERE id_compra = $1',
        [id],
      );
      const inDb = linesKey(
        rows.map((r) => ({
          mat: r.id_mat_prima,
          q: scaled(r.cantidad, 3),
          c: scaled(r.costo_unitario, 2),
        })),
      );
      const winner = candidates.find((c) => linesKey(c) === inDb);
      if (!winner) p.push(`purchase ${id} edited twice at once has lines ${inDb}, neither edit's`);
      else model.purchases.get(id)!.lines = winner;
    }
  }

  const linesKey = (lines: PurchaseLine[]) =>
    lines
      .map((l) => `${l.mat}:${show(l.q, 3)}@${show(l.c, 2)}`)
      .sort()
      .join(' ');

  // -------------------------------------------------------------------------------------------
  // The invariants, against the database

  /** (b) Σ movements = balance per material, exactly; GET /inventario shows the balances; (d). */
  async function checkBalances(p: string[]): Promise<void> {
    const rows = await sql<{
      id_mat_prima: number;
      cantidad: string;
      valor: string;
      costo_promedio: string;
      n_saldo: string;
      sum_cantidad: string;
      sum_valor: string;
      n: string;
    }>(
      `SELECT mp.id_mat_prima, coalesce(s.cantidad, 0)::text AS cantidad,
              coalesce(s.valor, 0)::text AS valor,
              coalesce(s.costo_promedio, 0)::text AS costo_promedio,
              coalesce(s.movimientos, 0)::text AS n_saldo,
              coalesce(m.cantidad, 0)::text AS sum_cantidad, coalesce(m.valor, 0)::text AS sum_valor,
              coalesce(m.n, 0)::text AS n
         FROM mate_primas mp
         LEFT JOIN stock_saldos s ON s.id_mat_prima = mp.id_mat_prima
         LEFT JOIN (SELECT id_mat_prima, sum(cantidad) AS cantidad, sum(valor) AS valor, count(*) AS n
                      FROM stock_movimientos GROUP BY id_mat_prima) m ON m.id_mat_prima = mp.id_mat_prima
        ORDER BY mp.id_mat_prima`,
    );
    const expected = expectedBalances();
    for (const r of rows) {
      if (q4(r.cantidad) !== q4(r.sum_cantidad) || q4(r.valor) !== q4(r.sum_valor))
        p.push(
          `material ${r.id_mat_prima}: stock_saldos ${r.cantidad} / ${r.valor}, Σ movements ${r.sum_cantidad} / ${r.sum_valor}`,
        );
      if (r.n_saldo !== r.n)
        p.push(`material ${r.id_mat_prima}: ${r.n_saldo} movements counted, ${r.n} in the ledger`);
      const want = expected.get(r.id_mat_prima) ?? 0n;
      if (q4(r.cantidad) !== want)
        p.push(
          `material ${r.id_mat_prima}: stock ${r.cantidad}, the acknowledged effects give ${show(want)}`,
        );
    }
    const res = await send(p, 'get', '/inventario', undefined);
    const shown = new Map(
      (
        res.body as {
          id_mat_prima: number;
          cantidad: number;
          valor: number;
          costo_promedio: number;
        }[]
      ).map((s) => [s.id_mat_prima, s]),
    );
    for (const r of rows) {
      const s = shown.get(r.id_mat_prima);
      if (
        !s ||
        q4(s.cantidad) !== q4(r.cantidad) ||
        q4(s.valor) !== q4(r.valor) ||
        scaled(s.costo_promedio, 6) !== scaled(r.costo_promedio, 6)
      )
        p.push(
          `GET /inventario shows ${JSON.stringify(s)} for material ${r.id_mat_prima}: ${r.cantidad} at ${r.costo_promedio}, ${r.valor}`,
        );
    }
  }

  /** (e) the moving average, walked in SQL (numeric) over each material's movements by id. */
  async function checkAverage(p: string[]): Promise<void> {
    const rows = await sql<{ what: string }>(
      `WITH RECURSIVE w AS (
         SELECT mp.id_mat_prima, 0::bigint AS id, 0::numeric(14,4) AS q, 0::numeric(14,6) AS c,
                NULL::text AS bad
           FROM mate_primas mp
         UNION ALL
         SELECT w.id_mat_prima, m.id_movimiento, (w.q + m.cantidad)::numeric(14,4), n.c,
                CASE
                  WHEN m.saldo_cantidad <> w.q + m.cantidad
                    THEN format('saldo_cantidad %s, the walk %s', m.saldo_cantidad, w.q + m.cantidad)
                  WHEN m.saldo_costo <> n.c
                    THEN format('saldo_costo %s, the walk %s (from %s at %s, %s at %s)',
                                m.saldo_costo, n.c, w.q, w.c, m.cantidad, m.costo_unitario)
                  WHEN (m.cantidad < 0 OR m.tipo = 'ajuste_conteo') AND m.costo_unitario <> w.c
                    THEN format('%s at %s, the average before it %s', m.tipo, m.costo_unitario, w.c)
                  WHEN m.valor <> round(m.cantidad * m.costo_unitario, 4)
                    THEN format('valor %s', m.valor)
                END
           FROM w
           CROSS JOIN LATERAL (
             SELECT x.* FROM stock_movimientos x
              WHERE x.id_mat_prima = w.id_mat_prima AND x.id_movimiento > w.id
              ORDER BY x.id_movimiento LIMIT 1) m
           CROSS JOIN LATERAL (
             SELECT (CASE WHEN m.cantidad > 0 AND w.q <= 0 THEN m.costo_unitario
                          WHEN m.cantidad > 0
                            THEN round((w.q * w.c + m.cantidad * m.costo_unitario) / (w.q + m.cantidad), 6)
                          ELSE w.c END)::numeric(14,6) AS c) n),
       f AS (SELECT DISTINCT ON (id_mat_prima) * FROM w ORDER BY id_mat_prima, id DESC)
       SELECT format('movement %s of material %s: %s', id, id_mat_prima, bad) AS what
         FROM w WHERE bad IS NOT NULL
       UNION ALL
       SELECT format('material %s: the walk ends at %s at %s, stock_saldos has %s at %s',
                     f.id_mat_prima, f.q, f.c, coalesce(s.cantidad, 0), coalesce(s.costo_promedio, 0))
         FROM f LEFT JOIN stock_saldos s ON s.id_mat_prima = f.id_mat_prima
        WHERE f.q <> coalesce(s.cantidad, 0) OR f.c <> coalesce(s.costo_promedio, 0)`,
    );
    p.push(...rows.map((r) => r.what));
  }

  /** (c) each closed line consumed once at the recipe of its close; reversals give it back. */
  async function checkConsumption(p: string[]): Promise<void> {
    const live = await sql<{ id_item: string; live: number }>(
      `SELECT id_item::text, (count(*) FILTER (WHERE NOT revertido))::int AS live
         FROM consumos_venta GROUP BY id_item`,
    );
    const net = await sql<{ id_item: string; id_mat_prima: number; net: string }>(
      `SELECT cv.id_item::text, m.id_mat_prima, sum(m.cantidad)::text AS net
         FROM consumos_venta cv
         JOIN stock_movimientos m ON m.origen = 'consumo' AND m.id_origen = cv.id_consumo
        GROUP BY cv.id_item, m.id_mat_prima`,
    );
    const expected = expectedConsumption();
    const liveOf = new Map(live.map((r) => [Number(r.id_item), r.live]));
    const netOf = new Map<number, Map<number, bigint>>();
    for (const r of net) {
      const per = netOf.get(Number(r.id_item)) ?? new Map<number, bigint>();
      per.set(r.id_mat_prima, q4(r.net));
      netOf.set(Number(r.id_item), per);
    }
    for (const id of [...liveOf.keys(), ...netOf.keys()])
      if (!expected.has(id)) p.push(`line ${id} is consumed but no answer showed it`);
    for (const [id, want] of expected) {
      const got = netOf.get(id) ?? new Map<number, bigint>();
      const mats = new Set([...want.keys(), ...got.keys()]);
      for (const mat of mats)
        if ((got.get(mat) ?? 0n) !== (want.get(mat) ?? 0n))
          p.push(
            `line ${id}, material ${mat}: nets ${show(got.get(mat) ?? 0n)}, the acknowledged moves give ${show(want.get(mat) ?? 0n)}`,
          );
      const liveWanted = want.size > 0 ? 1 : 0;
      if ((liveOf.get(id) ?? 0) !== liveWanted)
        p.push(`line ${id}: ${liveOf.get(id) ?? 0} live consumptions, ${liveWanted} expected`);
    }
    const wrong = await sql<{ what: string }>(
      `SELECT format('consumption %s of line %s does not match its line', cv.id_consumo, cv.id_item) AS what
         FROM consumos_venta cv
         LEFT JOIN deta_comandas d ON d.id_deta_comanda = cv.id_item
        WHERE NOT cv.revertido AND (d.id_deta_comanda IS NULL OR d.id_comanda <> cv.id_comanda
              OR d.id_producto <> cv.id_producto OR d.cantidad <> cv.cantidad)
       UNION ALL
       SELECT format('consumption %s: costo_teorico %s, its movements %s', cv.id_consumo,
                     cv.costo_teorico, k.teorico)
         FROM consumos_venta cv
         CROSS JOIN LATERAL (
           SELECT -coalesce(sum(m.valor), 0) AS teorico FROM stock_movimientos m
            WHERE m.origen = 'consumo' AND m.id_origen = cv.id_consumo AND m.tipo = 'consumo_venta') k
        WHERE cv.costo_teorico <> k.teorico
       UNION ALL
       SELECT format('%s movement %s of consumption %s (revertido %s): %s reversals of it',
                     c.tipo, c.id_movimiento, cv.id_consumo, cv.revertido, r.n)
         FROM consumos_venta cv
         JOIN stock_movimientos c ON c.origen = 'consumo' AND c.id_origen = cv.id_consumo
                                 AND c.tipo = 'consumo_venta'
         CROSS JOIN LATERAL (
           SELECT count(*) AS n FROM stock_movimientos x
            WHERE x.origen = 'consumo' AND x.id_origen = c.id_origen AND x.id_mat_prima = c.id_mat_prima
              AND x.tipo = 'reverso_consumo' AND x.cantidad = -c.cantidad
              AND x.costo_unitario = c.costo_unitario AND x.id_movimiento > c.id_movimiento
              AND x.id_documento = c.id_documento) r
        WHERE r.n <> CASE WHEN cv.revertido THEN 1 ELSE 0 END OR c.id_documento <> cv.id_comanda
       UNION ALL
       SELECT format('reverso_consumo %s undoes no consumption', x.id_movimiento)
         FROM stock_movimientos x
        WHERE x.tipo = 'reverso_consumo' AND NOT EXISTS (
          SELECT 1 FROM stock_movimientos c
           WHERE c.origen = 'consumo' AND c.id_origen = x.id_origen AND c.id_mat_prima = x.id_mat_prima
             AND c.tipo = 'consumo_venta')`,
    );
    p.push(...wrong.map((r) => r.what));
  }

  /** (f) a purchase's live compra movements and its lines are those last saved. */
  async function checkPurchases(p: string[]): Promise<void> {
    const movements = await sql<{
      id_compra: string;
      id_mat_prima: number;
      cantidad: string;
      costo_unitario: string;
      matches: boolean;
    }>(
      `SELECT m.id_documento::text AS id_compra, m.id_mat_prima, m.cantidad::text,
              m.costo_unitario::text,
              (m.fec = c.fec_compra AND d.id_mat_prima = m.id_mat_prima AND d.cantidad = m.cantidad
               AND d.costo_unitario = m.costo_unitario AND d.id_compra = m.id_documento) AS matches
         FROM stock_movimientos m
         LEFT JOIN compras c ON c.id_compra = m.id_documento
         LEFT JOIN deta_comp_materias d ON d.id_deta_comp_materia = m.id_origen
        WHERE m.tipo = 'compra' AND NOT EXISTS (
          SELECT 1 FROM stock_movimientos r
           WHERE r.origen = 'compra' AND r.id_origen = m.id_origen AND r.id_mat_prima = m.id_mat_prima
             AND r.tipo = 'reverso_compra')`,
    );
    const lines = await sql<{
      id_compra: number;
      id_mat_prima: number;
      cantidad: string;
      costo_unitario: string;
    }>(
      'SELECT id_compra, id_mat_prima, cantidad::text, costo_unitario::text FROM deta_comp_materias',
    );
    const group = (rows: { id_compra: number | string; line: PurchaseLine }[]) => {
      const out = new Map<number, PurchaseLine[]>();
      for (const r of rows)
        out.set(Number(r.id_compra), [...(out.get(Number(r.id_compra)) ?? []), r.line]);
      return out;
    };
    const ledger = group(
      movements.map((m) => ({
        id_compra: m.id_compra,
        line: { mat: m.id_mat_prima, q: scaled(m.cantidad, 3), c: scaled(m.costo_unitario, 2) },
      })),
    );
    const saved = group(
      lines.map((l) => ({
        id_compra: l.id_compra,
        line: { mat: l.id_mat_prima, q: scaled(l.cantidad, 3), c: scaled(l.costo_unitario, 2) },
      })),
    );
    for (const m of movements.filter((x) => x.matches !== true))
      p.push(`a live compra movement of purchase ${m.id_compra} is not its line as saved`);
    const ids = new Set([...model.purchases.keys(), ...ledger.keys(), ...saved.keys()]);
    for (const id of ids) {
      const x = model.purchases.get(id);
      const want = linesKey(x && !x.deleted ? x.lines : []);
      const inLedger = linesKey(ledger.get(id) ?? []);
      const inTable = linesKey(saved.get(id) ?? []);
      if (inLedger !== want || inTable !== want)
        p.push(
          `purchase ${id}: the ledger holds [${inLedger}], its lines [${inTable}], the answers acknowledged [${want}]`,
        );
    }
    const reversals = await sql<{ id: string }>(
      `SELECT r.id_movimiento::text AS id FROM stock_movimientos r
        WHERE r.tipo = 'reverso_compra' AND 1 <> (
          SELECT count(*) FROM stock_movimientos c
           WHERE c.origen = 'compra' AND c.id_origen = r.id_origen AND c.id_mat_prima = r.id_mat_prima
             AND c.tipo = 'compra' AND c.cantidad = -r.cantidad AND c.fec = r.fec
             AND c.id_documento = r.id_documento AND c.id_movimiento < r.id_movimiento)`,
    );
    for (const r of reversals) p.push(`reverso_compra ${r.id} undoes no compra movement`);
  }

  /** (g) applied counts: their adjustments, the ledger at their cut-off; the rows acknowledged. */
  async function checkCountsAndRows(p: string[]): Promise<void> {
    const adjustments = await sql<{ what: string }>(
      `SELECT format('count %s, material %s: counted %s, sistema %s, adjusted %s', l.id_conteo,
                     l.id_mat_prima, l.contado, l.sistema, a.q) AS what
         FROM conteo_lineas l
         JOIN conteos c ON c.id_conteo = l.id_conteo
         CROSS JOIN LATERAL (
           SELECT coalesce(sum(m.cantidad), 0) AS q FROM stock_movimientos m
            WHERE m.origen = 'conteo' AND m.id_origen = l.id_conteo AND m.id_mat_prima = l.id_mat_prima) a
        WHERE (c.estado = 'aplicado' AND (l.sistema IS NULL OR a.q <> l.contado - l.sistema))
           OR (c.estado <> 'aplicado' AND a.q <> 0)
       UNION ALL
       SELECT format('count %s (the last applied at its cut-off %s), material %s: counted %s, the ledger up to the cut-off holds %s',
                     x.id_conteo, x.fec_corte, x.id_mat_prima, x.contado, x.al_corte)
         FROM (SELECT DISTINCT ON (l.id_mat_prima, c.fec_corte) c.id_conteo, c.fec_corte,
                      l.id_mat_prima, l.contado,
                      (SELECT coalesce(sum(m.cantidad), 0) FROM stock_movimientos m
                        WHERE m.id_mat_prima = l.id_mat_prima AND m.fec <= c.fec_corte) AS al_corte
                 FROM conteo_lineas l JOIN conteos c ON c.id_conteo = l.id_conteo
                WHERE c.estado = 'aplicado'
                ORDER BY l.id_mat_prima, c.fec_corte, c.fec_aplicacion DESC, c.id_conteo DESC) x
        WHERE x.al_corte <> x.contado
       UNION ALL
       SELECT format('the period is closed at %s, the last applied count''s cut-off is %s',
                     p.cerrado_hasta, (SELECT max(fec_corte) FROM conteos WHERE estado = 'aplicado'))
         FROM inventario_periodo p
        WHERE p.cerrado_hasta IS DISTINCT FROM (SELECT max(fec_corte) FROM conteos WHERE estado = 'aplicado')`,
    );
    p.push(...adjustments.map((r) => r.what));

    const conteos = await sql<{ id: string; estado: string }>(
      'SELECT id_conteo::text AS id, estado FROM conteos ORDER BY id_conteo',
    );
    const got = conteos.map((c) => `${c.id}:${c.estado}`).join(' ');
    const want = [...model.counts.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([id, c]) => `${id}:${c.estado}`)
      .join(' ');
    if (got !== want) p.push(`counts: the database has ${got}, the answers acknowledged ${want}`);

    const [mermas] = await sql<{ n: number; movements: number }>(
      `SELECT (SELECT count(*)::int FROM mermas) AS n,
              (SELECT count(*)::int FROM stock_movimientos WHERE tipo = 'merma') AS movements`,
    );
    if (mermas.n !== model.waste.length || mermas.movements !== model.waste.length)
      p.push(
        `waste: ${mermas.n} rows and ${mermas.movements} movements, ${model.waste.length} acknowledged`,
      );

    const comandas = await sql<{ id: string; estado: string; eliminada: boolean; version: number }>(
      'SELECT id_comanda::text AS id, estado, eliminada, version FROM comandas ORDER BY id_comanda',
    );
    if (comandas.length !== model.comandas.size)
      p.push(`${comandas.length} comandas, ${model.comandas.size} acknowledged`);
    for (const c of comandas) {
      const m = model.comandas.get(Number(c.id));
      if (!m) {
        p.push(`comanda ${c.id} was never acknowledged`);
        continue;
      }
      const r = replay(m);
      if (r.problem) p.push(`comanda ${c.id}: ${r.problem}`);
      if (r.estado !== c.estado || r.eliminada !== c.eliminada || r.version !== c.version)
        p.push(
          `comanda ${c.id}: ${c.estado}${c.eliminada ? ' eliminada' : ''} v${c.version}, the acknowledged moves give ${r.estado}${r.eliminada ? ' eliminada' : ''} v${r.version}`,
        );
    }
  }

  async function verify(p: string[]): Promise<void> {
    await checkBalances(p);
    await checkAverage(p);
    await checkConsumption(p);
    await checkPurchases(p);
    await checkCountsAndRows(p);
  }

  // -------------------------------------------------------------------------------------------
  // Runs

  async function runScenario(rounds: Round[]): Promise<void> {
    stats.runs += 1;
    const p: string[] = [];
    for (const round of rounds) {
      await runRound(p, round);
      // a solo step drawn second runs in a round of its own
      if (round.b && SOLO.has(round.b.cmd.kind) && !SOLO.has(round.a.cmd.kind))
        await runRound(p, { a: round.b, b: null });
    }
    await verify(p);
    expect(p).toEqual([]);
  }

  it(`keeps the ledger, the balances and the average right (${RUNS} runs)`, async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, runScenario), {
      numRuns: RUNS,
      seed: SEED,
      // a failure is shrunk for a while at most (each replay is a real run)
      plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })],
    });
  }, 240_000);

  it('left every invariant true, and the database refuses to change a movement', async () => {
    const p: string[] = [];
    await verify(p);
    expect(p).toEqual([]);
    await expect(pg.query('UPDATE stock_movimientos SET motivo = $1', ['x'])).rejects.toThrow(
      /solo anexado/,
    );
    await expect(pg.query('DELETE FROM stock_movimientos')).rejects.toThrow(/solo anexado/);
    // the runs did what they are about (the summary printed after the file says how much)
    const acknowledged = (kind: Kind) => stats.acknowledged.get(kind) ?? 0;
    expect(stats.runs).toBeGreaterThanOrEqual(RUNS);
    expect(stats.pairs).toBeGreaterThan(0);
    expect(acknowledged('buy')).toBeGreaterThan(0);
    expect(acknowledged('close')).toBeGreaterThan(0);
    expect(acknowledged('reopen')).toBeGreaterThan(0);
    expect(acknowledged('waste')).toBeGreaterThan(0);
    expect(acknowledged('applyCount')).toBeGreaterThan(0);
    expect(model.recipes.length).toBeGreaterThan(1);
    expect(stats.retries).toBeGreaterThan(0);
    expect(stats.fiveXX).toBe(0);
  });
});
