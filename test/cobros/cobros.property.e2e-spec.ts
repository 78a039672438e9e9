import fc from 'fast-check';
import { Client as PgClient } from 'pg';
import request from 'supertest';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Money under concurrency, as properties (fast-check) on the real app and a real PostgreSQL.
 *
 * 1. Two cashiers act at the same time on the same comandas, each at a till of its own (Caja 1,
 *    and Caja 2 added here) or both at Caja 1. They take payments (cash and not, with tips, cash
 *    above the balance, with and without recibido), void them, close comandas (alone, or paying
 *    in the same PUT), reopen them, refund payments of closed ones, put cash in and take it out
 *    of their session, close it (counted as an amount or by denominations, with the card or
 *    without) and open the next; now and then they set a discount, add a line, split, merge,
 *    delete or restore a comanda, or change the service charge or the cash rounding. Every write
 *    may be retried with its Idempotency-Key (one after the other, or both at once). After each
 *    run (the comandas left open get their payments voided and, in half the runs, every session
 *    is closed):
 *
 *    a. no 5xx, no deadlock or serialization failure, every refusal a documented 4xx code
 *       (REFUSALS), and a refusal that depends on the request alone only when it applies;
 *    b. every cash payment has recibido − vuelto = monto + propina (not cash: no recibido, no
 *       change);
 *    c. every closed comanda is paid: Σ applied monto = total + redondeo, −paso < redondeo ≤ 0,
 *       saldo 0, its total the lines less the discount plus the service charge, at the rates
 *       frozen at its close;
 *    d. the X / Z of every session of the run equals the sums the test makes, in integer
 *       céntimos, from the session's rows (pagos, reembolsos, movimientos_caja): ventas is Σ
 *       monto alone (tips are not sales); the cash method's esperado is apertura + ingresos −
 *       retiros + Σ monto + Σ propina − refunds, which is also the cash the drawer kept (Σ
 *       recibido − vuelto: change never counts, cash tips do);
 *    e. Σ refunds of a payment ≤ its monto, refunds only of applied payments of closed comandas;
 *       no open comanda is paid in a closed session, no deleted one has an applied payment;
 *    f. per till the Z numbers are 1..n without a gap, and ultimo_z is n;
 *    g. a closed session never changes: nothing of it is dated after its close, the count it
 *       recorded is what its rows give, and it answers the Z its close answered;
 *    h. an idempotent retry has no second effect: of the answers of one key exactly one acted and
 *       the others replay it byte for byte, and the rows of the run (payments, voids, refunds,
 *       movements, sessions opened and closed, their audit entries) are exactly those the answers
 *       acknowledged.
 *
 * 2. Two payments (or pay-and-close) of the last balance of a comanda at once: exactly one wins,
 *    the other is refused (PAGO_EXCEDE_SALDO, or INVALID_TRANSITION once it is closed).
 * 3. A session's close and a write into it at once (a payment, a pay-and-close, a movement, a
 *    refund, a reopen, a void): the write is counted in the Z or refused because the session is
 *    closed, the close is refused only by an open comanda paid in it, and the Z it answered is the
 *    session's rows for good.
 *
 * Amounts are céntimos (integers) in the test: a request carries céntimos / 100, and every amount
 * read (JSON number or PostgreSQL text) is turned back into céntimos from its text.
 */

const SLUG = 'cobros';
const RUNS = 20;
const RACE_RUNS = 12;
const CLOSE_RACE_RUNS = 12;
/** A property stops (and fails) after this long: a failure's shrinking replays real runs. */
const LIMIT_MS = 120_000;
const CASH = 1;
const CARD = 2;
const YAPE = 3;
const METHODS = [1, 2, 3, 4, 5];

/** Codes a refused operation may answer (any 4xx: no effect). Anything else fails the run. */
const REFUSALS = new Set([
  'SIN_SESION_ABIERTA',
  'PAGO_EXCEDE_SALDO',
  'SALDO_PENDIENTE',
  'SESION_CERRADA',
  'SESION_YA_ABIERTA',
  'SESION_CON_COMANDAS_ABIERTAS',
  'REEMBOLSO_EXCEDE_PAGO',
  'COMANDA_REEMBOLSADA',
  'PAGO_ANULADO',
  'RECIBIDO_INSUFICIENTE',
  'RECIBIDO_SOLO_EFECTIVO',
  'DESCUENTO_EXCEDE',
  'INVALID_TRANSITION',
  // the comandas' own refusals the moves above may meet
  'COMANDA_CON_PAGOS',
  'COMANDA_EMPTY',
  'INVALID_SPLIT',
]);
const IN_USE_BACKOFF_MS = 40;
const IN_USE_MAX_ATTEMPTS = 60;

// ---------------------------------------------------------------------------------------------
// Amounts: integer céntimos

/**
 * A decimal as an integer count of its `places`-th parts, read from its text (PostgreSQL's
 * '12.30' or JSON's 12.3): digits, not floating-point arithmetic. Throws on a finer fraction.
 */
function fixed(value: string | number, places: number): number {
  const text = typeof value === 'number' ? String(value) : value;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const fraction = (m[3] ?? '').padEnd(places, '0');
  if (/[1-9]/.test(fraction.slice(places))) throw new Error(`finer than ${places} places: ${text}`);
  const n = Number(m[2]) * 10 ** places + Number(fraction.slice(0, places) || '0');
  return m[1] === '-' ? -n : n;
}
/** The céntimos of an amount. */
const cents = (value: string | number): number => fixed(value, 2);
/** Céntimos as a request carries them (the shortest decimal text of n / 100 has ≤ 2 decimals). */
const soles = (c: number): number => c / 100;
/** Céntimos as the count of a drawer: notes of S/ 100, coins of S/ 1, S/ 0.10 and S/ 0.01. */
const denominations = (c: number) =>
  [
    { denominacion: 100, cantidad: Math.floor(c / 10000) },
    { denominacion: 1, cantidad: Math.floor((c % 10000) / 100) },
    { denominacion: 0.1, cantidad: Math.floor((c % 100) / 10) },
    { denominacion: 0.01, cantidad: c % 10 },
  ].filter((d, i) => d.cantidad > 0 || (c === 0 && i === 0));

// ---------------------------------------------------------------------------------------------
// The API's shapes

interface Pago {
  id_pago: number;
  id_metodo_pago: number;
  tipo: string;
  monto: number;
  propina: number;
  recibido: number | null;
  vuelto: number;
  estado: 'aplicado' | 'anulado';
  reembolsado: number;
  id_sesion: number;
  acciones: string[];
}

interface Detail {
  id_comanda: number;
  estado: 'abierta' | 'cerrada';
  eliminada: boolean;
  version: number;
  total: number;
  redondeo: number;
  pagado: number;
  saldo: number;
  saldo_efectivo: number;
  estado_pago: string;
  pagos: Pago[];
  lineas: { id_item: number; cantidad: number }[];
}

interface Figura {
  id_metodo_pago: number;
  cuenta_en_caja: boolean;
  pagos: number;
  ventas: number;
  propinas: number;
  reembolsos: number;
  apertura: number;
  ingresos: number;
  retiros: number;
  esperado: number;
  contado: number | null;
  diferencia: number | null;
}

interface Reporte {
  tipo: 'X' | 'Z';
  sesion: { id_sesion: number; id_caja: number; estado: string; numero_z: number | null };
  metodos: Figura[];
  totales: Record<string, number | null>;
  movimientos: { id_movimiento: number }[];
}

// ---------------------------------------------------------------------------------------------
// Commands: comandas and payments are indexes into what the cashier knows, resolved when it runs

type PayAmount = 'saldo' | 'efectivo' | 'part' | 'over' | 'any';
type Recibido = 'none' | 'exact' | 'more' | 'less';
type RefundAmount = 'rest' | 'part' | 'over' | 'any';

type Command =
  | {
      kind: 'pay';
      c: number;
      metodo: number;
      amount: PayAmount;
      extra: number;
      propina: number;
      recibido: Recibido;
      /** Send no id_caja: the service picks the session. */
      anyTill: boolean;
    }
  | { kind: 'payClose'; c: number; metodos: number[]; extra: number; propina: number }
  | { kind: 'void'; c: number; p: number }
  | { kind: 'close' | 'reopen'; c: number }
  | { kind: 'refund'; c: number; p: number; amount: RefundAmount; extra: number }
  | { kind: 'movement'; tipo: 'ingreso' | 'retiro'; monto: number; stale: boolean }
  | {
      kind: 'closeSession';
      diff: number;
      stale: boolean;
      /** The cash as an amount, as denominations (conteo), or both. */
      count: 'contado' | 'conteo' | 'both';
      /** Also list the card method, counted as its X says. */
      card: boolean;
    }
  /** The tenant's service charge (in 1/10000) and cash rounding step (céntimos). */
  | { kind: 'settings'; recargo: number; paso: number }
  | { kind: 'openSession'; apertura: number }
  | { kind: 'addItem'; c: number; id_producto: number; cantidad: number }
  /** The comandas' own changes a payment blocks (COMANDA_CON_PAGOS), and restoring. */
  | { kind: 'split'; c: number; l: number }
  | { kind: 'merge'; c: number; o: number }
  | { kind: 'delete' | 'restore'; c: number }
  | { kind: 'discount'; c: number; tipo: 'porcentaje' | 'monto'; valor: number };

interface Delivery {
  key: boolean;
  retry: 'none' | 'sequential' | 'concurrent';
  /** Read the comanda (or the till) before acting, instead of acting on what was last seen. */
  refresh: boolean;
}

interface Step {
  cmd: Command;
  delivery: Delivery;
}

const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const idx = fc.nat({ max: 50 });
const metodoArb = weighted<number>(
  [5, fc.constant(CASH)],
  [3, fc.constant(CARD)],
  [2, fc.constant(YAPE)],
);
const tipArb = weighted<number>([3, fc.constant(0)], [2, fc.integer({ min: 1, max: 1500 })]);
const extraArb = fc.integer({ min: 1, max: 5000 });
const onSaleArb = fc.constantFrom(MENU.ceviche.id, MENU.lomo.id, MENU.chicha.id);
const qtyArb = fc.constantFrom(1, 2, 3, 0.5, 1.5, 2.25);
const lineArb = fc.record({ id_producto: onSaleArb, cantidad: qtyArb });

const commandArb: fc.Arbitrary<Command> = weighted<Command>(
  [
    8,
    fc.record({
      kind: fc.constant('pay'),
      c: idx,
      metodo: metodoArb,
      amount: weighted<PayAmount>(
        [3, fc.constantFrom<PayAmount>('saldo', 'efectivo', 'over')],
        [1, fc.constantFrom<PayAmount>('part', 'any')],
      ),
      extra: extraArb,
      propina: tipArb,
      recibido: weighted<Recibido>(
        [4, fc.constant('none')],
        [2, fc.constant('exact')],
        [3, fc.constant('more')],
        [1, fc.constant('less')],
      ),
      anyTill: weighted<boolean>([5, fc.constant(false)], [1, fc.constant(true)]),
    }),
  ],
  [
    5,
    fc.record({
      kind: fc.constant('payClose'),
      c: idx,
      metodos: fc.array(metodoArb, { minLength: 1, maxLength: 2 }),
      extra: fc.nat({ max: 3000 }),
      propina: tipArb,
    }),
  ],
  [2, fc.record({ kind: fc.constant('void'), c: idx, p: idx })],
  [3, fc.record({ kind: fc.constant('close'), c: idx })],
  [2, fc.record({ kind: fc.constant('reopen'), c: idx })],
  [
    5,
    fc.record({
      kind: fc.constant('refund'),
      c: idx,
      p: idx,
      amount: fc.constantFrom<RefundAmount>('rest', 'part', 'over', 'any'),
      extra: extraArb,
    }),
  ],
  [
    2,
    fc.record({
      kind: fc.constant('movement'),
      tipo: fc.constantFrom<'ingreso' | 'retiro'>('ingreso', 'retiro'),
      monto: fc.integer({ min: 1, max: 20000 }),
      stale: weighted<boolean>([6, fc.constant(false)], [1, fc.constant(true)]),
    }),
  ],
  [
    2,
    fc.record({
      kind: fc.constant('closeSession'),
      diff: weighted<number>([4, fc.constant(0)], [1, fc.integer({ min: -2000, max: 2000 })]),
      stale: weighted<boolean>([5, fc.constant(false)], [1, fc.constant(true)]),
      count: weighted<'contado' | 'conteo' | 'both'>(
        [3, fc.constant('contado')],
        [1, fc.constantFrom<'conteo' | 'both'>('conteo', 'both')],
      ),
      card: fc.boolean(),
    }),
  ],
  [
    1,
    fc.record({
      kind: fc.constant('settings'),
      recargo: fc.constantFrom(0, 500, 1000),
      paso: weighted<number>([3, fc.constant(10)], [1, fc.constant(0)]),
    }),
  ],
  [
    1,
    fc.record({ kind: fc.constant('openSession'), apertura: fc.integer({ min: 0, max: 50000 }) }),
  ],
  [1, fc.record({ kind: fc.constant('split'), c: idx, l: idx })],
  [1, fc.record({ kind: fc.constant('merge'), c: idx, o: idx })],
  [1, fc.record({ kind: fc.constantFrom<'delete' | 'restore'>('delete', 'restore'), c: idx })],
  [
    1,
    fc.record({
      kind: fc.constant('addItem'),
      c: idx,
      id_producto: onSaleArb,
      cantidad: qtyArb,
    }),
  ],
  [
    1,
    fc.oneof(
      fc.record({
        kind: fc.constant('discount'),
        c: idx,
        tipo: fc.constant<'porcentaje'>('porcentaje'),
        valor: fc.integer({ min: 0, max: 40 }),
      }),
      fc.record({
        kind: fc.constant('discount'),
        c: idx,
        tipo: fc.constant<'monto'>('monto'),
        valor: fc.integer({ min: 0, max: 3000 }),
      }),
    ),
  ],
);

const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  key: weighted<boolean>([3, fc.constant(true)], [1, fc.constant(false)]),
  retry: weighted<Delivery['retry']>(
    [3, fc.constant('none')],
    [1, fc.constant('sequential')],
    [1, fc.constant('concurrent')],
  ),
  refresh: weighted<boolean>([2, fc.constant(true)], [1, fc.constant(false)]),
});

const stepArb: fc.Arbitrary<Step> = fc.record({ cmd: commandArb, delivery: deliveryArb });

/** A run: the tills, the comandas when the cashiers start, each cashier's steps. */
const scenarioArb = fc.record({
  /** Both cashiers at Caja 1 (else the second at Caja 2). */
  sameTill: weighted<boolean>([1, fc.constant(true)], [2, fc.constant(false)]),
  aperturas: fc.tuple(fc.integer({ min: 0, max: 30000 }), fc.integer({ min: 0, max: 30000 })),
  initial: fc.array(fc.array(lineArb, { minLength: 1, maxLength: 3 }), {
    minLength: 2,
    maxLength: 4,
  }),
  clients: fc.tuple(
    fc.array(stepArb, { minLength: 4, maxLength: 10 }),
    fc.array(stepArb, { minLength: 4, maxLength: 10 }),
  ),
  /** Close every session at the end of the run (else the next run goes on with them). */
  closeTills: fc.boolean(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

// ---------------------------------------------------------------------------------------------
// What the runs record

interface Stats {
  runs: number;
  raceRuns: number;
  closeRaces: number;
  requests: number;
  retries: number;
  inUse: number;
  fiveXX: number;
  refused: Map<string, number>;
  acknowledged: Map<string, number>;
}

const stats: Stats = {
  runs: 0,
  raceRuns: 0,
  closeRaces: 0,
  requests: 0,
  retries: 0,
  inUse: 0,
  fiveXX: 0,
  refused: new Map(),
  acknowledged: new Map(),
};
const count = (map: Map<string, number>, name: string) => map.set(name, (map.get(name) ?? 0) + 1);

/** The Z each close answered, by session: a closed session never changes (checked at the end). */
const zAtClose = new Map<number, Reporte>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The figures of a Z that must never change once it is closed. */
const zFigures = (z: Reporte) =>
  JSON.stringify({
    tipo: z.tipo,
    estado: z.sesion.estado,
    numero_z: z.sesion.numero_z,
    metodos: z.metodos,
    totales: z.totales,
    movimientos: z.movimientos,
  });

describe('cobros under two concurrent cashiers, retries and till closes (fast-check)', () => {
  let t: TestApp;
  let pg: PgClient;
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await pg.query(text, params)).rows as T[];

  beforeAll(async () => {
    t = await startTestApp({ FEATURE_COBROS: 'true' });
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    pg = new PgClient({ connectionString: t.dbs.tenantUrl(SLUG) });
    await pg.connect();
    await sql("INSERT INTO cajas (nombre) VALUES ('Caja 2')");
  });

  afterAll(async () => {
    const list = (counts: Map<string, number>) =>
      [...counts.entries()].map(([name, n]) => `${name} ${n}`).join(', ') || 'none';
    console.log(
      `cobros: ${stats.runs} runs, ${stats.raceRuns} + ${stats.closeRaces} races, ${stats.requests} requests ` +
        `(${stats.retries} retries, ${stats.inUse} answered 409 IDEMPOTENCY_KEY_IN_USE), ` +
        `${stats.fiveXX} 5xx, ${zAtClose.size} sessions closed; ` +
        `acknowledged: ${list(stats.acknowledged)}; refused: ${list(stats.refused)}`,
    );
    await pg?.end();
    await t?.close();
  });

  /** One HTTP request: records its answer, and any answer that must never happen. */
  async function send(
    problems: string[],
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    body: object | undefined,
    headers: Record<string, string> = {},
  ): Promise<request.Response> {
    stats.requests += 1;
    let req = request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', SLUG);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    const res = body === undefined ? await req : await req.send(body);
    const what = `${method.toUpperCase()} ${path} ${JSON.stringify(body ?? null)} ${JSON.stringify(headers)}`;
    // (a) no 5xx, no deadlock, no undocumented refusal
    if (res.status >= 500) {
      stats.fiveXX += 1;
      problems.push(`${what} answered ${res.status}: ${res.text}`);
    } else if (res.status >= 400 && /40P01|40001|55P03|deadlock/i.test(res.text)) {
      problems.push(`${what} answered a deadlock/serialization failure: ${res.text}`);
    } else if (res.status >= 400) {
      const code = String(res.body?.code);
      if (code !== 'IDEMPOTENCY_KEY_IN_USE') {
        count(stats.refused, `${code} ${method.toUpperCase()} ${path.replace(/\/\d+/g, '/:id')}`);
        if (!REFUSALS.has(code) || (res.status !== 409 && res.status !== 400))
          problems.push(`${what} answered ${res.status} ${code}: ${res.text}`);
      }
    } else if (res.status !== 200 && res.status !== 201) {
      problems.push(`${what} answered ${res.status}`);
    }
    return res;
  }

  const ok = (res: request.Response) => res.status === 200 || res.status === 201;

  /** One run: its comandas, the watermarks of its rows, the acknowledged effects, the problems. */
  class Run {
    readonly comandas: number[] = [];
    readonly problems: string[] = [];
    /** Payments acknowledged (by an answer that acted), by id. */
    readonly pagos = new Map<number, string>();
    readonly voids = new Set<number>();
    readonly refunds: { id_pago: number; monto: number }[] = [];
    readonly movements = new Set<number>();
    readonly opened = new Set<number>();
    /** Sessions closed: the cash counted. */
    readonly closed = new Map<number, number>();
    private keys = 0;

    constructor(
      readonly n: number,
      readonly marks: Record<'comanda' | 'pago' | 'reembolso' | 'movimiento' | 'sesion', number>,
      readonly openAtStart: number[],
    ) {}

    key(client: number): string {
      this.keys += 1;
      return `r${this.n}-m${this.marks.pago}-c${client}-${this.keys}`;
    }

    acknowledge(kind: string): void {
      count(stats.acknowledged, kind);
    }
  }

  /** A cashier: its till, what it last saw of each comanda and of its till's session. */
  class Cashier {
    readonly views = new Map<number, Detail>();
    sesion: number | undefined;
    readonly closedSessions: number[] = [];

    constructor(
      readonly run: Run,
      readonly n: number,
      readonly caja: number,
    ) {}

    /**
     * The comanda `c` points at among those the cashier last saw fit for `kind` (open ones to
     * pay, closed ones with a payment to refund ...; any when none looks fit), as it sees it:
     * read first when asked. What it saw may be stale: the other cashier acts meanwhile.
     */
    async comanda(kind: Command['kind'], c: number, refresh: boolean): Promise<Detail | undefined> {
      const fit = (d: Detail | undefined) => {
        if (!d) return true; // not seen yet: read below
        if (d.eliminada) return kind === 'restore';
        if (kind === 'restore') return false;
        const applied = d.pagos.filter((x) => x.estado === 'aplicado');
        if (kind === 'refund')
          return d.estado === 'cerrada' && applied.some((x) => x.reembolsado < x.monto);
        if (kind === 'reopen') return d.estado === 'cerrada';
        if (kind === 'void') return d.estado === 'abierta' && applied.length > 0;
        return d.estado === 'abierta';
      };
      const fitting = this.run.comandas.filter((id) => fit(this.views.get(id)));
      const among = fitting.length > 0 ? fitting : this.run.comandas;
      const id = among[c % among.length];
      if (refresh || !this.views.has(id)) {
        const res = await send(this.run.problems, 'get', `/comandas/${id}`, undefined);
        if (res.status !== 200) return undefined;
        this.views.set(id, res.body as Detail);
      }
      return this.views.get(id);
    }

    /** The open session of its till as it last saw it (read from GET /cajas when asked). */
    async session(refresh: boolean): Promise<number | undefined> {
      if (refresh || this.sesion === undefined) {
        const res = await send(this.run.problems, 'get', '/cajas', undefined);
        const caja = (
          res.body as { id_caja: number; sesion_abierta: { id_sesion: number } | null }[]
        ).find((k) => k.id_caja === this.caja);
        this.sesion = caja?.sesion_abierta?.id_sesion;
      }
      return this.sesion;
    }

    /**
     * A write as the delivery says. With a key it may be sent twice (one after the other, or
     * both at once); 409 IDEMPOTENCY_KEY_IN_USE is retried a little later. Of the answers of
     * one key exactly one is not a replay and every replay is that answer byte for byte (h).
     * Answers the one that acted.
     */
    async write(
      method: 'post' | 'put' | 'delete',
      path: string,
      body: object,
      delivery: Delivery,
    ): Promise<request.Response> {
      const problems = this.run.problems;
      if (!delivery.key) return send(problems, method, path, body);
      const headers = { 'Idempotency-Key': this.run.key(this.n) };
      const untilNotInUse = async () => {
        for (let attempt = 1; ; attempt++) {
          const res = await send(problems, method, path, body, headers);
          if (res.status !== 409 || res.body?.code !== 'IDEMPOTENCY_KEY_IN_USE') return res;
          stats.inUse += 1;
          if (res.headers['retry-after'] !== '1')
            problems.push(`409 IN_USE without Retry-After: 1 on ${method} ${path}`);
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
      const what = `${method.toUpperCase()} ${path} ${JSON.stringify(body)} key ${headers['Idempotency-Key']}`;
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

    /** The comanda's detail answered by a write that acted; the payments it added, newest last. */
    private took(d: Detail, before: Set<number>, n: number, label: string): Pago[] {
      this.views.set(d.id_comanda, d);
      const added = d.pagos.filter((p) => !before.has(p.id_pago));
      const ours = n === 0 ? [] : [...d.pagos].sort((a, b) => a.id_pago - b.id_pago).slice(-n);
      for (const p of ours) {
        if (this.run.pagos.has(p.id_pago))
          this.run.problems.push(`${label}: payment ${p.id_pago} was acknowledged before`);
        this.run.pagos.set(p.id_pago, label);
      }
      if (added.length < n)
        this.run.problems.push(`${label}: the answer shows ${added.length} new payments, not ${n}`);
      return ours;
    }

    async step({ cmd, delivery }: Step): Promise<void> {
      const run = this.run;
      const label = `cashier ${this.n} ${cmd.kind}`;
      const p = run.problems;

      switch (cmd.kind) {
        case 'movement': {
          const id =
            cmd.stale && this.closedSessions.length > 0
              ? this.closedSessions[this.closedSessions.length - 1]
              : await this.session(delivery.refresh);
          if (id === undefined) return;
          const body = {
            tipo: cmd.tipo,
            monto: soles(cmd.monto),
            motivo: cmd.tipo === 'ingreso' ? 'sencillo' : 'compra de limones',
          };
          const res = await this.write('post', `/sesiones-caja/${id}/movimientos`, body, delivery);
          if (!ok(res)) return;
          run.movements.add(res.body.id_movimiento as number);
          if (cents(res.body.monto as number) !== cmd.monto)
            p.push(`${label}: asked ${cmd.monto} céntimos, the movement has ${res.body.monto}`);
          run.acknowledge(cmd.tipo);
          return;
        }
        case 'openSession': {
          const body = { monto_apertura: soles(cmd.apertura) };
          const res = await this.write('post', `/cajas/${this.caja}/sesiones`, body, delivery);
          if (!ok(res)) return;
          const z = res.body as Reporte;
          run.opened.add(z.sesion.id_sesion);
          this.sesion = z.sesion.id_sesion;
          run.acknowledge('openSession');
          return;
        }
        case 'closeSession': {
          const id =
            cmd.stale && this.closedSessions.length > 0
              ? this.closedSessions[this.closedSessions.length - 1]
              : await this.session(delivery.refresh);
          if (id === undefined) return;
          // the count: what the X says is expected (it may be stale), give or take cmd.diff
          const x = await send(p, 'get', `/sesiones-caja/${id}`, undefined);
          if (x.status !== 200) return;
          const metodos = (x.body as Reporte).metodos;
          const caja = metodos.find((m) => m.cuenta_en_caja)!;
          const contado = Math.max(0, cents(caja.esperado) + cmd.diff);
          const card = metodos.find((m) => m.id_metodo_pago === CARD)!;
          const body = {
            contado: [
              ...(cmd.count === 'conteo'
                ? []
                : [{ id_metodo_pago: caja.id_metodo_pago, monto: soles(contado) }]),
              ...(cmd.card
                ? [{ id_metodo_pago: CARD, monto: soles(Math.max(0, cents(card.esperado))) }]
                : []),
            ],
            ...(cmd.count === 'contado' ? {} : { conteo: denominations(contado) }),
          };
          const res = await this.write('post', `/sesiones-caja/${id}/cerrar`, body, delivery);
          if (!ok(res)) return;
          const z = res.body as Reporte;
          if (run.closed.has(id)) p.push(`${label}: session ${id} closed twice`);
          run.closed.set(id, contado);
          zAtClose.set(id, z);
          if (z.tipo !== 'Z' || z.sesion.estado !== 'cerrada')
            p.push(`${label}: the close of ${id} answered ${z.tipo} ${z.sesion.estado}`);
          if (this.sesion === id) this.sesion = undefined;
          this.closedSessions.push(id);
          run.acknowledge('closeSession');
          return;
        }
        case 'settings': {
          const body = { tasa_recargo: cmd.recargo / 10000, paso_redondeo: soles(cmd.paso) };
          const res = await this.write('put', '/cobros/ajustes', body, delivery);
          if (ok(res)) run.acknowledge('settings');
          return;
        }
        default:
          break;
      }

      const view = await this.comanda(cmd.kind, cmd.c, delivery.refresh);
      if (!view) return;
      const id = view.id_comanda;
      const known = new Set(view.pagos.map((x) => x.id_pago));
      const saldo = cents(view.saldo);
      const applied = view.pagos.filter((x) => x.estado === 'aplicado');
      const pick = (i: number) => (applied.length > 0 ? applied[i % applied.length] : undefined);
      const detail = (res: request.Response) => (ok(res) ? (res.body as Detail) : undefined);

      switch (cmd.kind) {
        case 'pay': {
          const efectivo = cents(view.saldo_efectivo);
          const base = Math.max(1, saldo);
          const monto = {
            saldo: base,
            efectivo: Math.max(1, efectivo > 0 ? efectivo : saldo),
            part: Math.max(1, Math.floor(saldo / 2)),
            over: base + cmd.extra,
            any: cmd.extra,
          }[cmd.amount];
          const cash = cmd.metodo === CASH;
          const recibido = {
            none: undefined,
            exact: monto + cmd.propina,
            more: monto + cmd.propina + cmd.extra,
            less: Math.max(1, monto + cmd.propina - 1),
          }[cmd.recibido];
          // not cash: recibido only now and then (refused, RECIBIDO_SOLO_EFECTIVO)
          const sendRecibido = recibido !== undefined && (cash || cmd.recibido === 'less');
          const body = {
            id_metodo_pago: cmd.metodo,
            monto: soles(monto),
            ...(cmd.propina > 0 ? { propina: soles(cmd.propina) } : {}),
            ...(sendRecibido ? { recibido: soles(recibido) } : {}),
            ...(cmd.anyTill ? {} : { id_caja: this.caja }),
          };
          const res = await this.write('post', `/comandas/${id}/pagos`, body, delivery);
          // these two refusals depend on the request alone
          const code = ok(res) ? undefined : String(res.body?.code);
          const notCash = !cash && sendRecibido;
          if (code === 'RECIBIDO_INSUFICIENTE' && !(cash && cmd.recibido === 'less'))
            p.push(`${label}: ${JSON.stringify(body)} refused ${res.text}`);
          if (ok(res) ? notCash : code === 'RECIBIDO_SOLO_EFECTIVO' && !notCash)
            p.push(`${label}: ${JSON.stringify(body)} answered ${res.status} ${res.text}`);
          const d = detail(res);
          if (!d) return;
          const [pago] = this.took(d, known, 1, label);
          run.acknowledge(cash ? 'pay cash' : 'pay');
          // what was asked is what was taken (amounts checked against the rows in verify)
          if (pago.id_metodo_pago !== cmd.metodo || cents(pago.propina) !== cmd.propina)
            p.push(`${label}: asked ${JSON.stringify(body)}, took ${JSON.stringify(pago)}`);
          if (!cash && cents(pago.monto) !== monto)
            p.push(`${label}: asked ${monto} céntimos not in cash, took ${pago.monto}`);
          if (cash && cents(pago.monto) > monto)
            p.push(`${label}: asked ${monto} céntimos in cash, applied ${pago.monto}`);
          if (cash && cents(pago.recibido!) !== (sendRecibido ? recibido : monto + cmd.propina))
            p.push(`${label}: sent ${JSON.stringify(body)}, recibido ${pago.recibido}`);
          return;
        }
        case 'payClose': {
          const pagos: object[] = [];
          if (saldo > 0) {
            const parts =
              cmd.metodos.length === 1 || saldo < 2
                ? [saldo]
                : [Math.floor(saldo / 2), saldo - Math.floor(saldo / 2)];
            parts.forEach((part, i) => {
              const last = i === parts.length - 1;
              const metodo = cmd.metodos[i];
              pagos.push({
                id_metodo_pago: metodo,
                monto: soles(part + (metodo === CASH && last ? cmd.extra : 0)),
                ...(last && cmd.propina > 0 ? { propina: soles(cmd.propina) } : {}),
                id_caja: this.caja,
              });
            });
          }
          const body = pagos.length > 0 ? { action: 'cerrar', pagos } : { action: 'cerrar' };
          const d = detail(await this.write('put', `/comandas/${id}`, body, delivery));
          if (!d) return;
          this.took(d, known, pagos.length, label);
          if (d.estado !== 'cerrada') p.push(`${label}: answered estado ${d.estado}`);
          run.acknowledge(pagos.length > 0 ? 'payClose' : 'close');
          return;
        }
        case 'void': {
          const pago = pick(cmd.p);
          if (!pago) return;
          const path = `/comandas/${id}/pagos/${pago.id_pago}`;
          const d = detail(
            await this.write('delete', path, { motivo: 'método equivocado' }, delivery),
          );
          if (!d) return;
          this.views.set(id, d);
          if (run.voids.has(pago.id_pago)) p.push(`${label}: payment ${pago.id_pago} voided twice`);
          run.voids.add(pago.id_pago);
          run.acknowledge('void');
          return;
        }
        case 'refund': {
          const pago = pick(cmd.p);
          if (!pago) return;
          const rest = cents(pago.monto) - cents(pago.reembolsado);
          const monto = {
            rest: Math.max(1, rest),
            part: Math.max(1, Math.floor(rest / 2)),
            over: Math.max(1, rest) + cmd.extra,
            any: cmd.extra,
          }[cmd.amount];
          const body = {
            id_pago: pago.id_pago,
            monto: soles(monto),
            motivo: 'plato devuelto',
            id_caja: this.caja,
          };
          const d = detail(await this.write('post', `/comandas/${id}/reembolsos`, body, delivery));
          if (!d) return;
          this.views.set(id, d);
          run.refunds.push({ id_pago: pago.id_pago, monto });
          run.acknowledge('refund');
          return;
        }
        case 'close':
        case 'reopen': {
          const body = { action: cmd.kind === 'close' ? 'cerrar' : 'abrir' };
          const d = detail(await this.write('put', `/comandas/${id}`, body, delivery));
          if (!d) return;
          this.views.set(id, d);
          run.acknowledge(cmd.kind);
          return;
        }
        case 'split': {
          if (view.lineas.length === 0) return;
          const line = view.lineas[cmd.l % view.lineas.length];
          // a whole line, or half of the only one
          const cantidad =
            view.lineas.length > 1 ? line.cantidad : Math.round(line.cantidad * 500) / 1000;
          const body = { lineas: [{ id_item: line.id_item, cantidad }] };
          const res = await this.write('post', `/comandas/${id}/split`, body, delivery);
          if (!ok(res)) return;
          const { origen, nueva } = res.body as { origen: Detail; nueva: Detail };
          this.views.set(origen.id_comanda, origen);
          this.views.set(nueva.id_comanda, nueva);
          run.comandas.push(nueva.id_comanda);
          run.acknowledge('split');
          return;
        }
        case 'merge': {
          const others = run.comandas.filter((o) => {
            const d = this.views.get(o);
            return o !== id && d?.estado === 'abierta' && !d.eliminada;
          });
          if (others.length === 0) return;
          const body = { comandas: [others[cmd.o % others.length]] };
          const d = detail(await this.write('post', `/comandas/${id}/merge`, body, delivery));
          if (d) this.views.set(id, d);
          if (d) run.acknowledge('merge');
          return;
        }
        case 'delete':
        case 'restore': {
          const res =
            cmd.kind === 'delete'
              ? await this.write('delete', `/comandas/${id}`, { motivo: 'duplicada' }, delivery)
              : await this.write('put', `/comandas/${id}`, { action: 'restaurar' }, delivery);
          const d = detail(res);
          if (d) this.views.set(id, d);
          if (d) run.acknowledge(cmd.kind);
          return;
        }
        case 'addItem': {
          const body = { id_producto: cmd.id_producto, cantidad: cmd.cantidad };
          const d = detail(await this.write('post', `/comandas/${id}/items`, body, delivery));
          if (d) this.views.set(id, d);
          if (d) run.acknowledge('addItem');
          return;
        }
        case 'discount': {
          const valor = cmd.tipo === 'porcentaje' ? cmd.valor : soles(cmd.valor);
          const body = { tipo: cmd.tipo, valor, motivo: 'cliente frecuente' };
          const d = detail(await this.write('post', `/comandas/${id}/descuento`, body, delivery));
          if (d) this.views.set(id, d);
          if (d) run.acknowledge('discount');
          return;
        }
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The invariants, against the database and the API

  interface PagoRow {
    id_pago: string;
    id_comanda: string;
    id_sesion: string;
    id_metodo_pago: number;
    monto: string;
    propina: string;
    recibido: string | null;
    vuelto: string;
    estado: 'aplicado' | 'anulado';
  }
  interface SesionRow {
    id_sesion: string;
    id_caja: number;
    estado: 'abierta' | 'cerrada';
    numero_z: number | null;
    monto_apertura: string;
  }

  const readPagos = () =>
    sql<PagoRow>(
      `SELECT id_pago::text, id_comanda::text, id_sesion::text, id_metodo_pago, monto::text,
              propina::text, recibido::text, vuelto::text, estado
         FROM pagos ORDER BY id_pago`,
    );

  /** (b) every cash payment: recibido − vuelto = monto + propina; not cash: no recibido, no change. */
  function checkPayments(p: string[], pagos: PagoRow[]): void {
    for (const r of pagos) {
      const what = `payment ${r.id_pago} (method ${r.id_metodo_pago})`;
      if (cents(r.monto) <= 0 || cents(r.propina) < 0 || cents(r.vuelto) < 0)
        p.push(`${what}: monto ${r.monto}, propina ${r.propina}, vuelto ${r.vuelto}`);
      if (r.id_metodo_pago === CASH) {
        if (r.recibido === null) p.push(`${what}: cash without recibido`);
        else if (cents(r.recibido) - cents(r.vuelto) !== cents(r.monto) + cents(r.propina))
          p.push(
            `${what}: recibido ${r.recibido} − vuelto ${r.vuelto} ≠ monto ${r.monto} + propina ${r.propina}`,
          );
      } else if (r.recibido !== null || cents(r.vuelto) !== 0) {
        p.push(`${what}: not cash with recibido ${r.recibido}, vuelto ${r.vuelto}`);
      }
    }
  }

  /**
   * (c) every closed comanda (every one through SQL, those of the run also through the API):
   * Σ applied monto = total + redondeo, −paso < redondeo ≤ 0, saldo 0, with the rates frozen at
   * its close; the total is the lines less the discount plus the service charge on that.
   */
  async function checkClosedComandas(p: string[], pagos: PagoRow[], run?: Run): Promise<void> {
    const rows = await sql<{
      id: string;
      lineas: string;
      descuento_tipo: string | null;
      descuento_valor: string | null;
      tasa_recargo: string | null;
      paso_redondeo: string | null;
      total: string;
      redondeo: string;
      saldo: string;
      pagado: string;
    }>(
      `SELECT c.id_comanda::text AS id,
              (SELECT coalesce(sum(d.subtotal), 0)::text FROM deta_comandas d
                WHERE d.id_comanda = c.id_comanda) AS lineas,
              cc.descuento_tipo, cc.descuento_valor::text, cc.tasa_recargo::text,
              cc.paso_redondeo::text,
              k.total::text, k.redondeo::text, k.saldo::text, k.pagado::text
         FROM comandas c
         LEFT JOIN cuentas_comanda cc ON cc.id_comanda = c.id_comanda
         CROSS JOIN LATERAL cuenta_comanda(c.id_comanda, 'America/Lima') k
        WHERE c.estado = 'cerrada' AND NOT c.eliminada
        ORDER BY c.id_comanda`,
    );
    const applied = new Map<string, number>();
    for (const r of pagos)
      if (r.estado === 'aplicado')
        applied.set(r.id_comanda, (applied.get(r.id_comanda) ?? 0) + cents(r.monto));
    const pasos = new Map<string, number>();
    const check = (
      id: string,
      bill: { total: number; redondeo: number; saldo: number },
      from: string,
    ) => {
      const sum = applied.get(id) ?? 0;
      const paso = pasos.get(id) ?? 10;
      const inStep = paso === 0 ? bill.redondeo === 0 : bill.redondeo > -paso && bill.redondeo <= 0;
      if (sum !== bill.total + bill.redondeo || !inStep || bill.saldo !== 0)
        p.push(
          `closed comanda ${id} (${from}): Σ applied ${sum}, total ${bill.total}, redondeo ${bill.redondeo}, saldo ${bill.saldo}, step ${paso} (céntimos)`,
        );
    };
    /** round(a × b / scale, 2) of positive céntimos, half away from zero, in integers. */
    const share = (a: number, b: number, scale: number) =>
      Math.floor((a * b * 2 + scale) / (2 * scale));
    for (const r of rows) {
      if (r.tasa_recargo === null || r.paso_redondeo === null) {
        p.push(`closed comanda ${r.id} has no frozen rates`);
        continue;
      }
      const lineas = cents(r.lineas);
      let descuento = 0;
      if (r.descuento_tipo === 'porcentaje')
        descuento = share(lineas, cents(r.descuento_valor!), 10000);
      else if (r.descuento_tipo === 'monto')
        descuento = Math.min(cents(r.descuento_valor!), lineas);
      const neto = lineas - descuento;
      // numeric(5,4): the rate in ten-thousandths
      const tasa = fixed(r.tasa_recargo, 4);
      const total = neto + share(neto, tasa, 10000);
      pasos.set(r.id, cents(r.paso_redondeo));
      if (cents(r.total) !== total)
        p.push(
          `closed comanda ${r.id}: total ${r.total}; lines ${r.lineas}, discount ${descuento}, service ${r.tasa_recargo} give ${total} céntimos`,
        );
      if (cents(r.pagado) !== (applied.get(r.id) ?? 0))
        p.push(`closed comanda ${r.id}: pagado ${r.pagado}, Σ applied ${applied.get(r.id) ?? 0}`);
      check(
        r.id,
        { total: cents(r.total), redondeo: cents(r.redondeo), saldo: cents(r.saldo) },
        'SQL',
      );
    }
    if (!run) return;
    for (const id of run.comandas) {
      const res = await request(t.http).get(`/api/v1/comandas/${id}`).set('X-Tenant-ID', SLUG);
      const d = res.body as Detail;
      if (res.status !== 200) p.push(`GET /comandas/${id} answered ${res.status}`);
      else if (d.estado === 'cerrada' && !d.eliminada) {
        check(
          String(id),
          { total: cents(d.total), redondeo: cents(d.redondeo), saldo: cents(d.saldo) },
          'API',
        );
        if (!['pagada', 'reembolso_parcial', 'reembolsada'].includes(d.estado_pago))
          p.push(`closed comanda ${id}: estado_pago ${d.estado_pago}`);
      }
    }
  }

  /** (e) Σ refunds of a payment ≤ its monto; only of applied payments of closed comandas. */
  async function checkRefunds(p: string[]): Promise<void> {
    const rows = await sql<{
      id_pago: string;
      monto: string;
      estado: string;
      comanda: string;
      reembolsado: string;
    }>(
      `SELECT p.id_pago::text, p.monto::text, p.estado, c.estado AS comanda,
              (SELECT sum(r.monto) FROM reembolsos r WHERE r.id_pago = p.id_pago)::text AS reembolsado
         FROM pagos p JOIN comandas c ON c.id_comanda = p.id_comanda
        WHERE EXISTS (SELECT 1 FROM reembolsos r WHERE r.id_pago = p.id_pago)`,
    );
    for (const r of rows)
      if (
        cents(r.reembolsado) > cents(r.monto) ||
        r.estado !== 'aplicado' ||
        r.comanda !== 'cerrada'
      )
        p.push(
          `payment ${r.id_pago} (${r.estado}, comanda ${r.comanda}) of ${r.monto} has ${r.reembolsado} refunded`,
        );
  }

  /**
   * (e') an open comanda is never paid in a closed session (the close waits for it, a reopen
   * needs its sessions open), a deleted one never has an applied payment.
   */
  async function checkPaidComandas(p: string[]): Promise<void> {
    const rows = await sql<{
      id_pago: string;
      id_comanda: string;
      estado: string;
      eliminada: boolean;
      sesion: string;
    }>(
      `SELECT p.id_pago::text, c.id_comanda::text, c.estado, c.eliminada, s.estado AS sesion
         FROM pagos p
         JOIN comandas c ON c.id_comanda = p.id_comanda
         JOIN sesiones_caja s ON s.id_sesion = p.id_sesion
        WHERE p.estado = 'aplicado' AND (c.eliminada OR (c.estado = 'abierta' AND s.estado = 'cerrada'))`,
    );
    for (const r of rows)
      p.push(
        `payment ${r.id_pago} of comanda ${r.id_comanda} (${r.estado}${r.eliminada ? ', eliminada' : ''}) is applied in a ${r.sesion} session`,
      );
  }

  /** (f) per till the Z numbers are 1..n, ultimo_z is n; one open session at most. */
  async function checkZNumbers(p: string[], sesiones: SesionRow[]): Promise<void> {
    const cajas = await sql<{ id_caja: number; ultimo_z: number }>(
      'SELECT id_caja, ultimo_z FROM cajas ORDER BY id_caja',
    );
    for (const k of cajas) {
      const mine = sesiones.filter((s) => s.id_caja === k.id_caja);
      const zs = mine
        .filter((s) => s.estado === 'cerrada')
        .map((s) => s.numero_z!)
        .sort((a, b) => a - b);
      if (zs.some((z, i) => z !== i + 1) || k.ultimo_z !== zs.length)
        p.push(`caja ${k.id_caja}: Z numbers ${zs.join(',')}, ultimo_z ${k.ultimo_z}`);
      if (mine.filter((s) => s.estado === 'abierta').length > 1)
        p.push(`caja ${k.id_caja} has more than one open session`);
    }
  }

  /** What a session's figures must be, per method, summed here in céntimos from its rows. */
  type Sums = Record<
    | 'pagos'
    | 'ventas'
    | 'propinas'
    | 'reembolsos'
    | 'apertura'
    | 'ingresos'
    | 'retiros'
    | 'esperado',
    number
  >;

  async function expectedFigures(
    sesiones: SesionRow[],
    pagos: PagoRow[],
  ): Promise<{ figures: Map<string, Map<number, Sums>>; drawer: Map<string, number> }> {
    const refunds = await sql<{ id_sesion: string; id_metodo_pago: number; monto: string }>(
      `SELECT r.id_sesion::text, p.id_metodo_pago, r.monto::text
         FROM reembolsos r JOIN pagos p ON p.id_pago = r.id_pago`,
    );
    const moves = await sql<{ id_sesion: string; tipo: string; monto: string }>(
      'SELECT id_sesion::text, tipo, monto::text FROM movimientos_caja',
    );
    const figures = new Map<string, Map<number, Sums>>();
    /** The cash that stayed in the drawer: float, movements, Σ (recibido − vuelto), refunds out. */
    const drawer = new Map<string, number>();
    for (const s of sesiones) {
      const per = new Map<number, Sums>();
      for (const m of METHODS)
        per.set(m, {
          pagos: 0,
          ventas: 0,
          propinas: 0,
          reembolsos: 0,
          apertura: m === CASH ? cents(s.monto_apertura) : 0,
          ingresos: 0,
          retiros: 0,
          esperado: 0,
        });
      figures.set(s.id_sesion, per);
      drawer.set(s.id_sesion, cents(s.monto_apertura));
    }
    for (const r of pagos) {
      if (r.estado !== 'aplicado') continue;
      const f = figures.get(r.id_sesion)!.get(r.id_metodo_pago)!;
      f.pagos += 1;
      f.ventas += cents(r.monto);
      f.propinas += cents(r.propina);
      if (r.id_metodo_pago === CASH)
        drawer.set(r.id_sesion, drawer.get(r.id_sesion)! + cents(r.recibido!) - cents(r.vuelto));
    }
    for (const r of refunds) {
      figures.get(r.id_sesion)!.get(r.id_metodo_pago)!.reembolsos += cents(r.monto);
      if (r.id_metodo_pago === CASH)
        drawer.set(r.id_sesion, drawer.get(r.id_sesion)! - cents(r.monto));
    }
    for (const m of moves) {
      const f = figures.get(m.id_sesion)!.get(CASH)!;
      const sign = m.tipo === 'ingreso' ? 1 : -1;
      if (sign > 0) f.ingresos += cents(m.monto);
      else f.retiros += cents(m.monto);
      drawer.set(m.id_sesion, drawer.get(m.id_sesion)! + sign * cents(m.monto));
    }
    for (const per of figures.values())
      for (const f of per.values())
        f.esperado = f.apertura + f.ingresos - f.retiros + f.ventas + f.propinas - f.reembolsos;
    return { figures, drawer };
  }

  /**
   * (d) the X / Z of the sessions named (through the API) against the sums of their rows; (g)
   * every closed session: its recorded count against those sums, nothing dated after its close.
   */
  async function checkSessions(
    p: string[],
    sesiones: SesionRow[],
    pagos: PagoRow[],
    viaApi: Set<string>,
    counted: Map<number, number>,
  ): Promise<void> {
    const { figures, drawer } = await expectedFigures(sesiones, pagos);
    const cierres = await sql<{
      id_sesion: string;
      id_metodo_pago: number;
      esperado: string;
      contado: string;
      diferencia: string;
    }>(
      `SELECT id_sesion::text, id_metodo_pago, esperado::text, contado::text, diferencia::text
         FROM sesion_caja_cierres`,
    );
    for (const z of cierres) {
      const f = figures.get(z.id_sesion)!.get(z.id_metodo_pago)!;
      if (
        cents(z.esperado) !== f.esperado ||
        cents(z.diferencia) !== cents(z.contado) - cents(z.esperado)
      )
        p.push(
          `Z of session ${z.id_sesion}, method ${z.id_metodo_pago}: esperado ${z.esperado} (rows: ${f.esperado}), contado ${z.contado}, diferencia ${z.diferencia}`,
        );
      const sent = counted.get(Number(z.id_sesion));
      if (z.id_metodo_pago === CASH && sent !== undefined && cents(z.contado) !== sent)
        p.push(`Z of session ${z.id_sesion}: the cash counted was ${sent}, recorded ${z.contado}`);
    }
    for (const s of sesiones) {
      const closes = cierres.filter((z) => z.id_sesion === s.id_sesion).length;
      if (
        (s.estado === 'cerrada') !== (closes === METHODS.length) ||
        (s.estado === 'abierta' && closes > 0)
      )
        p.push(`session ${s.id_sesion} (${s.estado}) has ${closes} counted methods`);
    }
    // nothing of a closed session is dated after its close
    const late = await sql<{ what: string; id: string; id_sesion: string }>(
      `SELECT 'pago' AS what, p.id_pago::text AS id, s.id_sesion::text FROM pagos p
         JOIN sesiones_caja s ON s.id_sesion = p.id_sesion
        WHERE s.estado = 'cerrada' AND (p.fec_pago >= s.fec_cierre OR p.fec_anulacion >= s.fec_cierre)
       UNION ALL
       SELECT 'reembolso', r.id_reembolso::text, s.id_sesion::text FROM reembolsos r
         JOIN sesiones_caja s ON s.id_sesion = r.id_sesion
        WHERE s.estado = 'cerrada' AND r.fec_reembolso >= s.fec_cierre
       UNION ALL
       SELECT 'movimiento', m.id_movimiento::text, s.id_sesion::text FROM movimientos_caja m
         JOIN sesiones_caja s ON s.id_sesion = m.id_sesion
        WHERE s.estado = 'cerrada' AND m.fec_movimiento >= s.fec_cierre`,
    );
    for (const l of late)
      p.push(`${l.what} ${l.id} is dated after the close of session ${l.id_sesion}`);

    for (const s of sesiones.filter((x) => viaApi.has(x.id_sesion))) {
      const res = await request(t.http)
        .get(`/api/v1/sesiones-caja/${s.id_sesion}`)
        .set('X-Tenant-ID', SLUG);
      if (res.status !== 200) {
        p.push(`GET /sesiones-caja/${s.id_sesion} answered ${res.status}`);
        continue;
      }
      const report = res.body as Reporte;
      const want = figures.get(s.id_sesion)!;
      const total: Sums = {
        pagos: 0,
        ventas: 0,
        propinas: 0,
        reembolsos: 0,
        apertura: 0,
        ingresos: 0,
        retiros: 0,
        esperado: 0,
      };
      const shown = new Map(report.metodos.map((m) => [m.id_metodo_pago, m]));
      for (const [metodo, f] of want) {
        const m = shown.get(metodo);
        const got = m && {
          pagos: m.pagos,
          ventas: cents(m.ventas),
          propinas: cents(m.propinas),
          reembolsos: cents(m.reembolsos),
          apertura: cents(m.apertura),
          ingresos: cents(m.ingresos),
          retiros: cents(m.retiros),
          esperado: cents(m.esperado),
        };
        if (JSON.stringify(got) !== JSON.stringify(f))
          p.push(
            `${report.tipo} of session ${s.id_sesion}, method ${metodo}: shows ${JSON.stringify(got)}, rows give ${JSON.stringify(f)}`,
          );
        for (const k of Object.keys(total) as (keyof Sums)[]) total[k] += f[k];
      }
      // change never in the drawer, cash tips in it
      if (want.get(CASH)!.esperado !== drawer.get(s.id_sesion))
        p.push(
          `session ${s.id_sesion}: cash esperado ${want.get(CASH)!.esperado}, the drawer kept ${drawer.get(s.id_sesion)}`,
        );
      const totales = report.totales;
      const gotTotal = {
        pagos: totales.pagos,
        ventas: cents(totales.ventas!),
        propinas: cents(totales.propinas!),
        reembolsos: cents(totales.reembolsos!),
        ingresos: cents(totales.ingresos!),
        retiros: cents(totales.retiros!),
        esperado: cents(totales.esperado!),
      };
      // the totals have no apertura
      const wantTotal = {
        pagos: total.pagos,
        ventas: total.ventas,
        propinas: total.propinas,
        reembolsos: total.reembolsos,
        ingresos: total.ingresos,
        retiros: total.retiros,
        esperado: total.esperado,
      };
      if (JSON.stringify(gotTotal) !== JSON.stringify(wantTotal))
        p.push(
          `${report.tipo} of session ${s.id_sesion}: totales ${JSON.stringify(gotTotal)}, rows give ${JSON.stringify(wantTotal)}`,
        );
      if (
        report.tipo !== (s.estado === 'abierta' ? 'X' : 'Z') ||
        report.sesion.numero_z !== s.numero_z
      )
        p.push(
          `session ${s.id_sesion} (${s.estado}, Z ${s.numero_z}) reported as ${report.tipo} ${report.sesion.numero_z}`,
        );
      // (g) a closed session answers what its close answered
      const atClose = zAtClose.get(Number(s.id_sesion));
      if (atClose && zFigures(atClose) !== zFigures(report))
        p.push(
          `session ${s.id_sesion} changed after its close: ${zFigures(atClose)} then ${zFigures(report)}`,
        );
    }
  }

  /** (h) the rows of the run are exactly the acknowledged effects; audit entries one per row. */
  async function checkEffects(run: Run, pagos: PagoRow[], sesiones: SesionRow[]): Promise<void> {
    const p = run.problems;
    const { marks } = run;
    const mine = pagos.filter((r) => Number(r.id_pago) > marks.pago);
    const same = (what: string, rows: number[], acked: Iterable<number>) => {
      const a = [...rows].sort((x, y) => x - y).join(',');
      const b = [...acked].sort((x, y) => x - y).join(',');
      if (a !== b) p.push(`${what}: the database has [${a}], the answers acknowledged [${b}]`);
    };
    same(
      'payments',
      mine.map((r) => Number(r.id_pago)),
      run.pagos.keys(),
    );
    same(
      'voided payments',
      mine.filter((r) => r.estado === 'anulado').map((r) => Number(r.id_pago)),
      [...run.voids].filter((v) => v > marks.pago),
    );
    const oldVoids = pagos.filter(
      (r) => Number(r.id_pago) <= marks.pago && run.voids.has(Number(r.id_pago)),
    );
    if (oldVoids.length > 0)
      p.push(`payments of an earlier run voided: ${oldVoids.map((r) => r.id_pago).join(',')}`);

    const refunds = await sql<{ id_pago: string; n: number; monto: string }>(
      `SELECT id_pago::text, count(*)::int AS n, sum(monto)::text AS monto FROM reembolsos
        WHERE id_reembolso > $1 GROUP BY id_pago ORDER BY reembolsos.id_pago`,
      [marks.reembolso],
    );
    const acked = new Map<number, { n: number; monto: number }>();
    for (const r of run.refunds) {
      const a = acked.get(r.id_pago) ?? { n: 0, monto: 0 };
      acked.set(r.id_pago, { n: a.n + 1, monto: a.monto + r.monto });
    }
    const gotRefunds = JSON.stringify(refunds.map((r) => [Number(r.id_pago), r.n, cents(r.monto)]));
    const wantRefunds = JSON.stringify(
      [...acked].sort((a, b) => a[0] - b[0]).map(([idp, a]) => [idp, a.n, a.monto]),
    );
    if (gotRefunds !== wantRefunds)
      p.push(`refunds: the database has ${gotRefunds}, the answers acknowledged ${wantRefunds}`);

    const moves = await sql<{ id: string }>(
      'SELECT id_movimiento::text AS id FROM movimientos_caja WHERE id_movimiento > $1',
      [marks.movimiento],
    );
    same(
      'movements',
      moves.map((m) => Number(m.id)),
      run.movements,
    );
    same(
      'sessions opened',
      sesiones.filter((s) => Number(s.id_sesion) > marks.sesion).map((s) => Number(s.id_sesion)),
      run.opened,
    );
    const ofRun = new Set([...run.openAtStart, ...run.opened]);
    same(
      'sessions closed',
      sesiones
        .filter((s) => s.estado === 'cerrada' && ofRun.has(Number(s.id_sesion)))
        .map((s) => Number(s.id_sesion)),
      run.closed.keys(),
    );
    const events = await sql<{ id_sesion: string; accion: string; n: number }>(
      `SELECT id_sesion::text, accion, count(*)::int AS n FROM caja_eventos
        WHERE id_sesion = ANY($1::bigint[]) AND accion IN ('abrir', 'cerrar') GROUP BY 1, 2`,
      [[...ofRun]],
    );
    for (const s of ofRun) {
      const n = (accion: string) =>
        events.find((e) => Number(e.id_sesion) === s && e.accion === accion)?.n ?? 0;
      if (n('abrir') !== 1 || n('cerrar') !== (run.closed.has(s) ? 1 : 0))
        p.push(`session ${s}: ${n('abrir')} abrir and ${n('cerrar')} cerrar entries`);
    }

    // one audit entry per payment, void and refund of the run's comandas
    const audit = await sql<{
      id_comanda: string;
      pagar: number;
      anular: number;
      reembolsar: number;
      pagos: number;
      anulados: number;
      reembolsos: number;
    }>(
      `SELECT c.id_comanda::text,
              (SELECT count(*)::int FROM comanda_eventos e WHERE e.id_comanda = c.id_comanda AND e.accion = 'pagar') AS pagar,
              (SELECT count(*)::int FROM comanda_eventos e WHERE e.id_comanda = c.id_comanda AND e.accion = 'anular_pago') AS anular,
              (SELECT count(*)::int FROM comanda_eventos e WHERE e.id_comanda = c.id_comanda AND e.accion = 'reembolsar') AS reembolsar,
              (SELECT count(*)::int FROM pagos p WHERE p.id_comanda = c.id_comanda) AS pagos,
              (SELECT count(*)::int FROM pagos p WHERE p.id_comanda = c.id_comanda AND p.estado = 'anulado') AS anulados,
              (SELECT count(*)::int FROM reembolsos r WHERE r.id_comanda = c.id_comanda) AS reembolsos
         FROM comandas c WHERE c.id_comanda > $1`,
      [marks.comanda],
    );
    for (const a of audit)
      if (a.pagar !== a.pagos || a.anular !== a.anulados || a.reembolsar !== a.reembolsos)
        p.push(`comanda ${a.id_comanda}: audit entries ${JSON.stringify(a)}`);
    const strangers = await sql<{ id: string }>(
      'SELECT id_comanda::text AS id FROM comandas WHERE id_comanda > $1',
      [marks.comanda],
    );
    same(
      'comandas',
      strangers.map((s) => Number(s.id)),
      run.comandas,
    );
  }

  /** Every invariant; `run` adds the checks of its acknowledged effects and its comandas' bills. */
  async function verify(p: string[], run?: Run): Promise<void> {
    const pagos = await readPagos();
    const sesiones = await sql<SesionRow>(
      `SELECT id_sesion::text, id_caja, estado, numero_z, monto_apertura::text
         FROM sesiones_caja ORDER BY id_sesion`,
    );
    checkPayments(p, pagos);
    await checkClosedComandas(p, pagos, run);
    await checkRefunds(p);
    await checkPaidComandas(p);
    await checkZNumbers(p, sesiones);
    const viaApi = run
      ? new Set([...run.openAtStart, ...run.opened].map(String))
      : new Set(sesiones.map((s) => s.id_sesion));
    await checkSessions(p, sesiones, pagos, viaApi, run?.closed ?? new Map());
    if (run) await checkEffects(run, pagos, sesiones);
  }

  // -------------------------------------------------------------------------------------------
  // Runs

  const openSessions = async () =>
    (
      await sql<{ id_sesion: string; id_caja: number }>(
        "SELECT id_sesion::text, id_caja FROM sesiones_caja WHERE estado = 'abierta' ORDER BY id_sesion",
      )
    ).map((s) => ({ id: Number(s.id_sesion), caja: s.id_caja }));

  async function marks(): Promise<Run['marks']> {
    const [m] = await sql<Record<keyof Run['marks'], number>>(
      `SELECT (SELECT coalesce(max(id_comanda), 0)::int FROM comandas) AS comanda,
              (SELECT coalesce(max(id_pago), 0)::int FROM pagos) AS pago,
              (SELECT coalesce(max(id_reembolso), 0)::int FROM reembolsos) AS reembolso,
              (SELECT coalesce(max(id_movimiento), 0)::int FROM movimientos_caja) AS movimiento,
              (SELECT coalesce(max(id_sesion), 0)::int FROM sesiones_caja) AS sesion`,
    );
    return m;
  }

  /** The till's open session, opened (with this float) when it has none; recorded in `run`. */
  async function ensureSession(
    run: Run,
    caja: number,
    apertura: number,
  ): Promise<number | undefined> {
    const open = (await openSessions()).find((s) => s.caja === caja);
    if (open) return open.id;
    const res = await send(run.problems, 'post', `/cajas/${caja}/sesiones`, {
      monto_apertura: soles(apertura),
    });
    if (res.status !== 201) {
      run.problems.push(`opening caja ${caja} answered ${res.status}`);
      return undefined;
    }
    const id = (res.body as Reporte).sesion.id_sesion;
    run.opened.add(id);
    return id;
  }

  /**
   * After the cashiers: the payments of comandas left open are voided (their sessions must still
   * be open), and with closeTills every session is closed with the cash its X expects.
   */
  async function cleanUp(run: Run, closeTills: boolean): Promise<void> {
    const p = run.problems;
    for (const id of run.comandas) {
      const res = await send(p, 'get', `/comandas/${id}`, undefined);
      const d = res.body as Detail;
      if (res.status !== 200 || d.estado !== 'abierta' || d.eliminada) continue;
      for (const pago of d.pagos.filter((x) => x.estado === 'aplicado')) {
        const voided = await send(p, 'delete', `/comandas/${id}/pagos/${pago.id_pago}`, {
          motivo: 'fin de la prueba',
        });
        if (voided.status !== 200)
          p.push(
            `voiding payment ${pago.id_pago} of open comanda ${id} answered ${voided.status} ${voided.text}`,
          );
        else run.voids.add(pago.id_pago);
      }
    }
    if (!closeTills) return;
    for (const s of await openSessions()) {
      const x = await send(p, 'get', `/sesiones-caja/${s.id}`, undefined);
      const caja = (x.body as Reporte).metodos.find((m) => m.cuenta_en_caja)!;
      // the drawer holds what is expected, none when more was taken out than it had
      const contado = Math.max(0, cents(caja.esperado));
      const body = { contado: [{ id_metodo_pago: caja.id_metodo_pago, monto: soles(contado) }] };
      const res = await send(p, 'post', `/sesiones-caja/${s.id}/cerrar`, body);
      if (res.status !== 201) {
        p.push(`closing session ${s.id} at the end answered ${res.status} ${res.text}`);
        continue;
      }
      run.closed.set(s.id, contado);
      zAtClose.set(s.id, res.body as Reporte);
    }
  }

  async function runScenario(scenario: Scenario): Promise<void> {
    stats.runs += 1;
    const run = new Run(
      stats.runs,
      await marks(),
      (await openSessions()).map((s) => s.id),
    );
    const tills = scenario.sameTill ? [1, 1] : [1, 2];
    for (const [i, caja] of [...new Set(tills)].entries())
      await ensureSession(run, caja, scenario.aperturas[i]);
    const created: Detail[] = [];
    for (const items of scenario.initial) {
      const res = await send(run.problems, 'post', '/comandas', { id_mesa: MENU.mesas[0], items });
      if (res.status !== 201) continue;
      created.push(res.body as Detail);
      run.comandas.push((res.body as Detail).id_comanda);
    }
    if (run.comandas.length === scenario.initial.length && run.problems.length === 0) {
      const cashiers = tills.map((caja, i) => new Cashier(run, i + 1, caja));
      // both saw the comandas as they were opened
      for (const cashier of cashiers) for (const d of created) cashier.views.set(d.id_comanda, d);
      // the two cashiers at the same time, each one step after the other
      const outcomes = await Promise.allSettled(
        cashiers.map(async (cashier, i) => {
          for (const step of scenario.clients[i]) await cashier.step(step);
        }),
      );
      for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
      await cleanUp(run, scenario.closeTills);
      await verify(run.problems, run);
    }
    expect(run.problems).toEqual([]);
  }

  it(`keeps payments, bills, refunds and the X / Z right under two cashiers (${RUNS} runs)`, async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, runScenario), {
      numRuns: RUNS,
      // a failure is shrunk for at most two minutes (each replay is a real concurrent run)
      plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })],
    });
  }, 180_000);

  // -------------------------------------------------------------------------------------------
  // Two cashiers pay the last balance at once: exactly one wins

  type Racer = { kind: 'pay' | 'payClose'; metodo: number; over: number; propina: number };
  const racerArb: fc.Arbitrary<Racer> = fc.record({
    kind: fc.constantFrom<'pay' | 'payClose'>('pay', 'payClose'),
    metodo: metodoArb,
    over: weighted<number>([2, fc.constant(0)], [1, fc.integer({ min: 1, max: 3000 })]),
    propina: tipArb,
  });
  const raceArb = fc.record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 3 }),
    /** A first payment of part of the bill (a percentage, in cash or not): any céntimos are left. */
    prepay: fc.option(fc.record({ percent: fc.integer({ min: 1, max: 90 }), metodo: metodoArb }), {
      nil: undefined,
    }),
    racers: fc.tuple(racerArb, racerArb),
    sameTill: fc.boolean(),
    keyed: fc.boolean(),
  });
  type Race = typeof raceArb extends fc.Arbitrary<infer R> ? R : never;

  async function runRace(race: Race): Promise<void> {
    stats.raceRuns += 1;
    const p: string[] = [];
    const run = new Run(1000 + stats.raceRuns, await marks(), []);
    const tills = race.sameTill ? [1, 1] : [1, 2];
    for (const caja of new Set(tills)) await ensureSession(run, caja, 10000);
    const created = await send(p, 'post', '/comandas', {
      id_mesa: MENU.mesas[1],
      items: race.lines,
    });
    const id = (created.body as Detail).id_comanda;
    if (race.prepay) {
      // at most 90 % of a bill of at least S/ 4.00: less than its cash balance, all applied
      const total = cents((created.body as Detail).total);
      const monto = Math.max(1, Math.floor((total * race.prepay.percent) / 100));
      const body = { id_metodo_pago: race.prepay.metodo, monto: soles(monto), id_caja: 1 };
      const paid = await send(p, 'post', `/comandas/${id}/pagos`, body);
      if (paid.status !== 201) p.push(`the first payment answered ${paid.status} ${paid.text}`);
    }
    const before = (await send(p, 'get', `/comandas/${id}`, undefined)).body as Detail;
    const saldo = cents(before.saldo);
    const [{ n: paymentsBefore }] = await sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM pagos WHERE id_comanda = $1',
      [id],
    );
    // both read the same balance, then pay it at the same time
    const answers = await Promise.all(
      race.racers.map((r, i) => {
        const pago = {
          id_metodo_pago: r.metodo,
          monto: soles(saldo + (r.metodo === CASH ? r.over : 0)),
          ...(r.propina > 0 ? { propina: soles(r.propina) } : {}),
          id_caja: tills[i],
        };
        const headers: Record<string, string> = race.keyed
          ? { 'Idempotency-Key': `race-${stats.raceRuns}-${i}` }
          : {};
        return r.kind === 'pay'
          ? send(p, 'post', `/comandas/${id}/pagos`, pago, headers)
          : send(p, 'put', `/comandas/${id}`, { action: 'cerrar', pagos: [pago] }, headers);
      }),
    );
    const winners = answers.filter(ok);
    if (winners.length !== 1)
      p.push(
        `${winners.length} of two payments of the last balance ${saldo} won: ${answers.map((a) => `${a.status} ${a.text}`).join(' | ')}`,
      );
    else {
      const w = answers.indexOf(winners[0]);
      const loser = answers[1 - w];
      const code = race.racers[w].kind === 'payClose' ? 'INVALID_TRANSITION' : 'PAGO_EXCEDE_SALDO';
      if (loser.status !== 409 || loser.body?.code !== code)
        p.push(`the loser answered ${loser.status} ${loser.text}, expected 409 ${code}`);
    }
    const [{ n: paymentsAfter }] = await sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM pagos WHERE id_comanda = $1',
      [id],
    );
    if (paymentsAfter !== paymentsBefore + 1)
      p.push(`${paymentsAfter - paymentsBefore} payments were added, not one`);
    const after = (await send(p, 'get', `/comandas/${id}`, undefined)).body as Detail;
    const sum = after.pagos
      .filter((x) => x.estado === 'aplicado')
      .reduce((s, x) => s + cents(x.monto), 0);
    const redondeo = cents(after.redondeo);
    if (
      cents(after.saldo) !== 0 ||
      sum !== cents(after.total) + redondeo ||
      redondeo <= -10 ||
      redondeo > 0
    )
      p.push(
        `after the race: saldo ${after.saldo}, Σ applied ${sum}, total ${after.total}, redondeo ${after.redondeo}`,
      );
    // the comanda is closed (by the winner or now), so that its session may close later
    if (after.estado === 'abierta') {
      const closed = await send(p, 'put', `/comandas/${id}`, { action: 'cerrar' });
      if (closed.status !== 200)
        p.push(`closing the paid comanda answered ${closed.status} ${closed.text}`);
    }
    p.push(...run.problems);
    expect(p).toEqual([]);
  }

  it(`lets exactly one of two payments of the last balance win (${RACE_RUNS} races)`, async () => {
    await fc.assert(fc.asyncProperty(raceArb, runRace), {
      numRuns: RACE_RUNS,
      plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })],
    });
  }, 180_000);

  // -------------------------------------------------------------------------------------------
  // A session is closed while a write goes into it: the Z counts the write, or the write is
  // refused; nothing lands in a closed session

  type IntoSession = 'pay' | 'payClose' | 'movement' | 'refund' | 'reopen' | 'void';
  /**
   * What each write may meet. `late`: its refusal when the close came first (none: it never
   * loses). `blocks`: whether, done first, it leaves an open comanda paid in the session, which
   * refuses the close (SESION_CON_COMANDAS_ABIERTAS); `always`: the comanda is open and paid in
   * the session before the race, so the close wins only after the void.
   */
  const INTO: Record<IntoSession, { late?: string; blocks: boolean | 'always' }> = {
    pay: { late: 'SIN_SESION_ABIERTA', blocks: true },
    payClose: { late: 'SIN_SESION_ABIERTA', blocks: false },
    movement: { late: 'SESION_CERRADA', blocks: false },
    refund: { late: 'SIN_SESION_ABIERTA', blocks: false },
    reopen: { late: 'SESION_CERRADA', blocks: true },
    void: { blocks: 'always' },
  };
  const closeRaceArb = fc.record({
    kind: fc.constantFrom<IntoSession>('pay', 'payClose', 'movement', 'refund', 'reopen', 'void'),
    metodo: metodoArb,
    monto: fc.integer({ min: 1, max: 5000 }),
    apertura: fc.integer({ min: 0, max: 20000 }),
    keyed: fc.boolean(),
    /** Milliseconds the close is sent after the write (before it when negative): both orders. */
    lag: fc.integer({ min: -20, max: 60 }),
  });
  type CloseRace = typeof closeRaceArb extends fc.Arbitrary<infer R> ? R : never;

  async function runCloseRace(race: CloseRace): Promise<void> {
    stats.closeRaces += 1;
    const p: string[] = [];
    const rule = INTO[race.kind];
    // a till of its own, with a session that nothing else touches
    const [{ id_caja: caja }] = await sql<{ id_caja: number }>(
      'INSERT INTO cajas (nombre) VALUES ($1) RETURNING id_caja',
      [`Caja ${100 + stats.closeRaces}`],
    );
    const opened = await send(p, 'post', `/cajas/${caja}/sesiones`, {
      monto_apertura: soles(race.apertura),
    });
    const sesion = (opened.body as Reporte).sesion.id_sesion;
    const created = await send(p, 'post', '/comandas', {
      id_mesa: MENU.mesas[2],
      items: [{ id_producto: MENU.lomo.id, cantidad: 1 }],
    });
    const id = (created.body as Detail).id_comanda;
    const pago = {
      id_metodo_pago: race.metodo,
      monto: soles(cents((created.body as Detail).saldo)),
      id_caja: caja,
    };
    // before the race: paid in the session (and closed, but for a void)
    let taken: Pago | undefined;
    if (race.kind === 'refund' || race.kind === 'reopen' || race.kind === 'void') {
      const body = race.kind === 'void' ? pago : { action: 'cerrar', pagos: [pago] };
      const paid = await send(
        p,
        race.kind === 'void' ? 'post' : 'put',
        race.kind === 'void' ? `/comandas/${id}/pagos` : `/comandas/${id}`,
        body,
      );
      taken = (paid.body as Detail).pagos?.[0];
    }
    const write = {
      pay: { method: 'post' as const, path: `/comandas/${id}/pagos`, body: pago },
      payClose: {
        method: 'put' as const,
        path: `/comandas/${id}`,
        body: { action: 'cerrar', pagos: [pago] },
      },
      movement: {
        method: 'post' as const,
        path: `/sesiones-caja/${sesion}/movimientos`,
        body: { tipo: 'ingreso', monto: soles(race.monto), motivo: 'sencillo' },
      },
      refund: {
        method: 'post' as const,
        path: `/comandas/${id}/reembolsos`,
        body: {
          id_pago: taken?.id_pago,
          monto: soles(Math.min(race.monto, taken ? cents(taken.monto) : 1)),
          motivo: 'plato frío',
          id_caja: caja,
        },
      },
      reopen: { method: 'put' as const, path: `/comandas/${id}`, body: { action: 'abrir' } },
      void: {
        method: 'delete' as const,
        path: `/comandas/${id}/pagos/${taken?.id_pago}`,
        body: { motivo: 'método equivocado' },
      },
    }[race.kind];
    const x = (await send(p, 'get', `/sesiones-caja/${sesion}`, undefined)).body as Reporte;
    const contado = Math.max(0, cents(x.metodos.find((m) => m.cuenta_en_caja)!.esperado));
    const closeBody = { contado: [{ id_metodo_pago: CASH, monto: soles(contado) }] };
    if (p.length > 0) {
      expect(p).toEqual([]);
      return;
    }

    const headers = (name: string): Record<string, string> =>
      race.keyed ? { 'Idempotency-Key': `close-race-${stats.closeRaces}-${name}` } : {};
    const [closed, wrote] = await Promise.all([
      sleep(Math.max(0, race.lag)).then(() =>
        send(p, 'post', `/sesiones-caja/${sesion}/cerrar`, closeBody, headers('close')),
      ),
      sleep(Math.max(0, -race.lag)).then(() =>
        send(p, write.method, write.path, write.body, headers('write')),
      ),
    ]);
    const what = `${race.kind}: close ${closed.status} ${closed.text} | write ${wrote.status} ${wrote.text}`;
    const refused = (res: request.Response, code: string | undefined) =>
      !ok(res) && (res.status !== 409 || res.body?.code !== code);
    // the write is refused only when the close came first, with the code that says so
    if (refused(wrote, rule.late) || (!ok(wrote) && !ok(closed)))
      p.push(`the write was refused wrongly: ${what}`);
    // the close is refused only when an open comanda is paid in the session
    const blocked = rule.blocks === 'always' || (rule.blocks && ok(wrote));
    if (refused(closed, 'SESION_CON_COMANDAS_ABIERTAS') || (!ok(closed) && !blocked))
      p.push(`the close was refused wrongly: ${what}`);
    // a write that leaves an open comanda paid in the session and the close: exactly one
    if (rule.blocks === true && ok(closed) === ok(wrote)) p.push(`both or neither won: ${what}`);
    count(stats.acknowledged, `close race ${race.kind} ${ok(closed) ? 'Z' : 'refused'}`);

    if (ok(closed)) zAtClose.set(sesion, closed.body as Reporte);
    else {
      // an open comanda paid in the session: its payment is voided, then the session closes
      const d = (await send(p, 'get', `/comandas/${id}`, undefined)).body as Detail;
      for (const x of d.pagos.filter((x) => x.estado === 'aplicado'))
        await send(p, 'delete', `/comandas/${id}/pagos/${x.id_pago}`, { motivo: 'prueba' });
      const again = await send(p, 'post', `/sesiones-caja/${sesion}/cerrar`, closeBody);
      if (again.status !== 201) p.push(`closing after the void answered ${again.status}`);
      else zAtClose.set(sesion, again.body as Reporte);
    }
    // the Z the close answered is the session's rows, now and for good
    const sesiones = await sql<SesionRow>(
      `SELECT id_sesion::text, id_caja, estado, numero_z, monto_apertura::text
         FROM sesiones_caja ORDER BY id_sesion`,
    );
    const counted = new Map([[sesion, contado]]);
    await checkSessions(p, sesiones, await readPagos(), new Set([String(sesion)]), counted);
    expect(p).toEqual([]);
  }

  it(`lets a session close and a write into it at once: counted in the Z or refused (${CLOSE_RACE_RUNS} races)`, async () => {
    await fc.assert(fc.asyncProperty(closeRaceArb, runCloseRace), {
      numRuns: CLOSE_RACE_RUNS,
      plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })],
    });
  }, 180_000);

  it('left every invariant true over all the sessions, and closed sessions as they were closed', async () => {
    const p: string[] = [];
    await verify(p);
    for (const [id, z] of zAtClose) {
      const res = await request(t.http).get(`/api/v1/sesiones-caja/${id}`).set('X-Tenant-ID', SLUG);
      if (zFigures(z) !== zFigures(res.body as Reporte))
        p.push(`session ${id} changed after its close`);
    }
    expect(p).toEqual([]);
    // the runs did what they are about (the summary printed after the file says how much)
    expect(stats.runs).toBeGreaterThanOrEqual(RUNS);
    expect(stats.raceRuns).toBeGreaterThanOrEqual(RACE_RUNS);
    expect(stats.closeRaces).toBeGreaterThanOrEqual(CLOSE_RACE_RUNS);
    const acknowledged = (kind: string) => stats.acknowledged.get(kind) ?? 0;
    expect(
      acknowledged('pay') + acknowledged('pay cash') + acknowledged('payClose'),
    ).toBeGreaterThan(0);
    expect(zAtClose.size).toBeGreaterThan(0);
    expect(stats.retries).toBeGreaterThan(0);
    expect(stats.fiveXX).toBe(0);
  });
});
