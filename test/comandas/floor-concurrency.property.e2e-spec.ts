import fc from 'fast-check';
import request from 'supertest';
import { MENU, seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Floor operations under concurrency, as a property (fast-check) on the real app and a real
 * PostgreSQL: in each run 2 to 4 waiters act at the same time on the same comandas (create, add,
 * change and remove lines, split, merge, transfer, close, reopen, void, restore), every write
 * possibly retried with its Idempotency-Key (one after the other, or both at once) and some with
 * a stale If-Match. Whatever the interleaving, the answers and the database must agree:
 *
 *   a. no quantity of a product is lost or duplicated (by a retry, a split or a merge);
 *   b. every comanda's total is the sum of its lines' subtotals;
 *   c. versions only go up, and a comanda's version is the number of its audit entries;
 *   d. exactly one audit entry per acknowledged change (a retry or a replay adds none);
 *   e. no 5xx, and no deadlock or serialization failure reaches a client (the service maps
 *      40P01/40001 to 409: such a 409 fails the property too, as does any 4xx code not listed
 *      in REFUSALS);
 *   f. a closed comanda is never empty;
 *   g. the audit trail the API shows is in the order the changes were made.
 *
 * How (a) stays sound without trusting the server: creates and line adds carry their quantities
 * in the request. A quantity change or a line removal does not say what the line had before, so
 * that quantity is read from the change's audit entry; but every acknowledged change is bound to
 * exactly one audit entry (the one that produced the version its answer shows, see `verify`),
 * every entry must be bound to exactly one acknowledged change (d), and the entry must name the
 * line and the new quantity the request asked for. A missing, duplicated or invented entry fails
 * (c)/(d); a change sent with the If-Match of the state the client had seen must find the line
 * with the quantity of that state. So a wrong `antes` cannot hide a lost or duplicated quantity.
 *
 * Each run works on its own comandas: those with an id above the highest one before the run (runs
 * are sequential and nothing else writes to this tenant), so the invariants also catch a comanda
 * nobody acknowledged (a retried create that acted twice).
 *
 * The same property runs a second time on a tenant with the feature `cocina` on (docs/cocina.md),
 * whose waiters also order lines in courses 1..3, send (`enviar`), fire courses (`disparar`),
 * serve a listo line (`entregar`), and whose kitchen starts, bumps and recalls the tickets the
 * answers showed. Besides (a)..(g):
 *
 *   h. split, merge and transfer never write a ticket: in a sequential part after the waiters
 *      the ticket count is the same before and after each of them (and a send adds exactly the
 *      tickets its answer lists); in the concurrent part every ticket of the run is accounted
 *      for exactly once by an acknowledged change that may write one (a send's answer, a lowered
 *      or voided line's audit entry, a voided comanda's cancellations), so a ticket written by
 *      anything else is caught whatever the interleaving;
 *   i. conservation: after one last `enviar` of every open comanda, every line of a fired course
 *      of an open comanda has Σ envio_lineas.cantidad = its cantidad, every line 0 ≤ Σ ≤ its
 *      cantidad (a cancellation reaches the kitchen at once, a split takes its share), and a
 *      voided line's Σ = 0;
 *   j. no ticket without lines, no ticket line of 0, nuevo/adicional lines positive and anulacion
 *      ones negative;
 *   k. each ticket's states, walked over the audit entries of its moves in order, only took the
 *      documented steps (pendiente → en_preparacion → listo → pendiente) and end where the row
 *      is; every ESTADO_COCINA_INVALIDO names a state the action is refused from; a kitchen move
 *      claims exactly one audit entry like any other change.
 */

const SLUG = 'concurrencia';
const RUNS = 25;
/** The tenant of the kitchen's run set (feature cocina on for it alone). */
const SLUG_COCINA = 'concurrencia-cocina';
const RUNS_COCINA = 20;
/** Codes a refused operation may answer (any 4xx: no effect). Anything else fails the run. */
const REFUSALS = new Set([
  'INVALID_TRANSITION',
  'COMANDA_EMPTY',
  'STALE_VERSION',
  'COMANDA_NOT_FOUND',
  'ITEM_NOT_FOUND',
  'INVALID_SPLIT',
  'INVALID_MERGE',
  'VALIDATION_FAILED',
  'PRODUCT_INACTIVE',
  '23503', // an unknown table (id_mesa 99): a foreign-key violation
]);
/** With cocina on, also the kitchen's documented refusals (checked further where they apply). */
const KITCHEN_REFUSALS = new Set([
  ...REFUSALS,
  'ESTADO_COCINA_INVALIDO',
  'CURSO_YA_DISPARADO',
  'ENVIO_MOVIDO',
]);
/**
 * A request whose key is still in use (409, Retry-After: 1) is sent again a little later: sooner
 * than the second the server suggests, which only makes the test faster (an early retry is
 * answered 409 again, or with the replay).
 */
const IN_USE_BACKOFF_MS = 40;
const IN_USE_MAX_ATTEMPTS = 60;

// ---------------------------------------------------------------------------------------------
// The API's shapes

interface Linea {
  id_item: number;
  id_producto: number;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  /** With cocina on. */
  curso?: number;
  estado_cocina?: string;
}

interface Detail {
  id_comanda: number;
  numero_ticket: number;
  estado: 'abierta' | 'cerrada';
  eliminada: boolean;
  total: number;
  version: number;
  lineas: Linea[];
}

// ---------------------------------------------------------------------------------------------
// Commands: comandas and lines are indexes into what the client knows, resolved when it runs

interface LineInput {
  id_producto: number;
  cantidad: number;
  /** Only with cocina on. */
  curso?: number;
}
type Part = 'whole' | 'half' | 'one' | 'too-much';

type Command =
  | { kind: 'create'; mesa: number | null; items: LineInput[] }
  | { kind: 'add'; c: number; line: LineInput }
  | { kind: 'change'; c: number; l: number; cantidad: number }
  | { kind: 'remove'; c: number; l: number; motivo: boolean }
  | { kind: 'split'; c: number; picks: { l: number; part: Part }[]; mesa?: number }
  | { kind: 'merge'; c: number; others: number[] }
  | { kind: 'transfer'; c: number; mesa: number | null }
  | { kind: 'close' | 'reopen' | 'void' | 'restore'; c: number }
  // the kitchen's (cocina on): e is an index into the tickets the run's answers showed
  | { kind: 'enviar'; c: number }
  | { kind: 'disparar'; c: number; curso: number }
  | { kind: 'entregar'; c: number; l: number }
  | { kind: 'preparar' | 'bump' | 'recall'; e: number };

type TicketMove = 'preparar' | 'listo' | 'recuperar';
const TICKET_MOVE: Record<'preparar' | 'bump' | 'recall', TicketMove> = {
  preparar: 'preparar',
  bump: 'listo',
  recall: 'recuperar',
};
/** A ticket's state after each move, and the states each move is allowed from. */
const MOVE_TO: Record<TicketMove, string> = {
  preparar: 'en_preparacion',
  listo: 'listo',
  recuperar: 'pendiente',
};
const MOVE_FROM: Record<TicketMove, string[]> = {
  preparar: ['pendiente'],
  listo: ['pendiente', 'en_preparacion'],
  recuperar: ['listo'],
};

/** How a command is sent: with a key or not, retried or not, with which If-Match. */
interface Delivery {
  key: boolean;
  retry: 'none' | 'sequential' | 'concurrent';
  ifMatch: 'none' | 'seen' | 'stale';
  /** Read the comanda (GET) before acting, instead of acting on what the client last saw. */
  refresh: boolean;
}

interface Step {
  cmd: Command;
  delivery: Delivery;
}

const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const onSaleArb = fc.constantFrom(MENU.ceviche.id, MENU.lomo.id, MENU.chicha.id);
const productArb = weighted<number>(
  [12, onSaleArb],
  [1, fc.constant(MENU.retirado.id)], // not on sale: refused
);
const qtyArb = fc.constantFrom(1, 2, 3, 0.5, 1.5, 2.25);
/** Mostly the first course (it fires at the first send), so that more of the lines reach the kitchen. */
const cursoArb = weighted<number>([3, fc.constant(1)], [2, fc.constantFrom(2, 3)]);
/** A line ordered; with cocina on, in course 1..3 or the category's default. */
const lineArbOf = (cocina: boolean, product: fc.Arbitrary<number>): fc.Arbitrary<LineInput> =>
  cocina
    ? fc.record(
        { id_producto: product, cantidad: qtyArb, curso: cursoArb },
        { requiredKeys: ['id_producto', 'cantidad'] },
      )
    : fc.record({ id_producto: product, cantidad: qtyArb });
const mesaArb = weighted<number | null>(
  [8, fc.constantFrom(...MENU.mesas)],
  [1, fc.constant(null)], // take-away
  [1, fc.constant(99)], // no such table: refused
);
const idx = fc.nat({ max: 50 });

/** The floor's commands; with cocina on, fewer closes (a closed comanda sends nothing). */
const floorCommands = (
  lineArb: fc.Arbitrary<LineInput>,
  closes = 2,
): [number, fc.Arbitrary<Command>][] => [
  [
    2,
    fc.record({
      kind: fc.constant('create'),
      mesa: mesaArb,
      items: fc.array(lineArb, { maxLength: 3 }),
    }),
  ],
  [4, fc.record({ kind: fc.constant('add'), c: idx, line: lineArb })],
  [4, fc.record({ kind: fc.constant('change'), c: idx, l: idx, cantidad: qtyArb })],
  [2, fc.record({ kind: fc.constant('remove'), c: idx, l: idx, motivo: fc.boolean() })],
  [
    4,
    fc.record(
      {
        kind: fc.constant('split'),
        c: idx,
        picks: fc.array(
          fc.record({
            l: idx,
            part: weighted<Part>(
              [6, fc.constantFrom('whole', 'half', 'one')],
              [1, fc.constant('too-much')],
            ),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        mesa: fc.constantFrom(...MENU.mesas),
      },
      { requiredKeys: ['kind', 'c', 'picks'] },
    ),
  ],
  [
    3,
    fc.record({
      kind: fc.constant('merge'),
      c: idx,
      others: fc.array(idx, { minLength: 1, maxLength: 2 }),
    }),
  ],
  [2, fc.record({ kind: fc.constant('transfer'), c: idx, mesa: mesaArb })],
  [closes, fc.record({ kind: fc.constant('close'), c: idx })],
  [2, fc.record({ kind: fc.constant('reopen'), c: idx })],
  [1, fc.record({ kind: fc.constant('void'), c: idx })],
  [1, fc.record({ kind: fc.constant('restore'), c: idx })],
];

const kitchenCommands: [number, fc.Arbitrary<Command>][] = [
  [6, fc.record({ kind: fc.constant('enviar'), c: idx })],
  [3, fc.record({ kind: fc.constant('disparar'), c: idx, curso: cursoArb })],
  [2, fc.record({ kind: fc.constant('preparar'), e: idx })],
  [6, fc.record({ kind: fc.constant('bump'), e: idx })],
  [3, fc.record({ kind: fc.constant('recall'), e: idx })],
  [4, fc.record({ kind: fc.constant('entregar'), c: idx, l: idx })],
];

const commandArbOf = (cocina: boolean): fc.Arbitrary<Command> =>
  cocina
    ? weighted<Command>(...floorCommands(lineArbOf(true, productArb), 1), ...kitchenCommands)
    : weighted<Command>(...floorCommands(lineArbOf(false, productArb)));

const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  key: weighted<boolean>([4, fc.constant(true)], [1, fc.constant(false)]),
  retry: fc.constantFrom('none', 'sequential', 'concurrent'),
  ifMatch: weighted<Delivery['ifMatch']>(
    [6, fc.constant('none')],
    [3, fc.constant('seen')],
    [1, fc.constant('stale')],
  ),
  refresh: weighted<boolean>([3, fc.constant(true)], [2, fc.constant(false)]),
});

const stepArbOf = (cocina: boolean): fc.Arbitrary<Step> =>
  fc.record({ cmd: commandArbOf(cocina), delivery: deliveryArb });

interface Scenario {
  initial: LineInput[][];
  clients: Step[][];
  /** cocina: one waiter alone after the others, the ticket count checked around each step. */
  sequential: Step[];
}

/**
 * A run: the comandas on the floor when the waiters start, each waiter's steps and, with cocina
 * on, the steps of the sequential part.
 */
const scenarioArbOf = (cocina: boolean): fc.Arbitrary<Scenario> =>
  fc.record({
    initial: fc.array(fc.array(lineArbOf(cocina, onSaleArb), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 3,
    }),
    clients: fc.array(fc.array(stepArbOf(cocina), { minLength: 5, maxLength: 12 }), {
      minLength: 2,
      maxLength: 4,
    }),
    sequential: cocina
      ? fc.array(stepArbOf(true), { minLength: 6, maxLength: 14 })
      : fc.constant<Step[]>([]),
  });

// ---------------------------------------------------------------------------------------------
// What a run records

/** The audit entry an acknowledged change must have produced: the `version`-th of comanda `id`. */
interface Claim {
  id: number;
  version: number;
  accion: string;
}

/** One acknowledged effect (a distinct Idempotency-Key, or a keyless 2xx request). */
interface Effect {
  label: string;
  claims: Claim[];
  /** merge: the comandas merged away; their `unir` entry's version is in no answer. */
  mergedAway: { id: number; into: number; ticket: number }[];
  /** create and add: the quantities the request put on the floor. */
  added: LineInput[];
  /**
   * change and remove: the line, the new quantity, and the quantity the client had seen of it
   * when the request's If-Match was the version of that view (so the server acted on that view).
   */
  line?: { op: 'change' | 'remove'; id_item: number; cantidad?: number; seenCantidad?: number };
  /** enviar and disparar: the tickets the answer says it wrote. */
  envios?: number[];
  /** A ticket's move: its answer shows no version, so it claims an entry of that move. */
  ticketMove?: { id_envio: number; accion: TicketMove };
  /** void: the comanda whose sent lines it may have cancelled (tickets its entry does not list). */
  voided?: number;
}

interface Stats {
  runs: number;
  requests: number;
  retries: number;
  inUse: number;
  effects: number;
  fiveXX: number;
  refused: Map<string, number>;
  acknowledged: Map<string, number>;
  /** cocina: tickets of the runs, and floor operations checked for writing none (sequential). */
  tickets: number;
  floorChecked: number;
  /** cocina: lines and voided lines whose conservation was checked at the end of a run. */
  conserved: number;
}

const stats: Stats = {
  runs: 0,
  requests: 0,
  retries: 0,
  inUse: 0,
  effects: 0,
  fiveXX: 0,
  refused: new Map(),
  acknowledged: new Map(),
  tickets: 0,
  floorChecked: 0,
  conserved: 0,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round3 = (n: number) => Math.round(n * 1000) / 1000;
const cents = (n: number | string) => Math.round(Number(n) * 100);
const milli = (n: number | string) => Math.round(Number(n) * 1000);

describe('floor operations under concurrent waiters, retries and stale versions (fast-check)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    // the kitchen's tenant: cocina on for it alone; drinks (chicha) go to a Bar station, so
    // cancellations and splits cross stations
    await t.dbs.createTenant(SLUG_COCINA, { features: { cocina: true } });
    await seedMenu(t.dbs, SLUG_COCINA);
    await t.dbs.query(
      t.dbs.tenantUrl(SLUG_COCINA),
      `INSERT INTO categorias (nombre) VALUES ('Bebidas');
       UPDATE productos SET id_categoria = 2 WHERE id_producto = ${MENU.chicha.id};
       INSERT INTO estaciones_cocina (nombre) VALUES ('Bar');
       INSERT INTO estacion_categorias (id_categoria, id_estacion)
       SELECT 2, id_estacion FROM estaciones_cocina WHERE nombre = 'Bar';`,
    );
  });

  afterAll(async () => {
    const list = (counts: Map<string, number>) =>
      [...counts.entries()].map(([name, n]) => `${name} ${n}`).join(', ') || 'none';
    console.log(
      `floor concurrency: ${stats.runs} runs, ${stats.requests} requests ` +
        `(${stats.retries} retries, ${stats.inUse} answered 409 IDEMPOTENCY_KEY_IN_USE), ` +
        `${stats.effects} acknowledged effects, ${stats.fiveXX} 5xx; ` +
        `kitchen: ${stats.tickets} tickets, ${stats.floorChecked} floor operations counted, ` +
        `${stats.conserved} lines conserved; ` +
        `acknowledged: ${list(stats.acknowledged)}; refused: ${list(stats.refused)}`,
    );
    await t?.close();
  });

  /** One run: the comandas, what each client saw, the acknowledged effects, the problems. */
  class Run {
    /** The comandas of the run every waiter can see (ids, in creation order). */
    readonly floor: number[] = [];
    readonly effects: Effect[] = [];
    readonly problems: string[] = [];
    /** cocina: the tickets the answers showed (bump, recall and preparar pick among them). */
    readonly tickets: number[] = [];
    private keys = 0;

    constructor(
      readonly n: number,
      readonly watermark: number,
      readonly slug: string,
      readonly cocina: boolean,
    ) {}

    get db(): string {
      return t.dbs.tenantUrl(this.slug);
    }

    key(client: number): string {
      this.keys += 1;
      return `r${this.watermark}-${this.n}-c${client}-${this.keys}`;
    }

    /** One HTTP request; records the answer's status and any answer that must never happen. */
    async send(
      method: 'get' | 'post' | 'put' | 'patch' | 'delete',
      path: string,
      body: object | undefined,
      headers: Record<string, string>,
    ): Promise<request.Response> {
      stats.requests += 1;
      let req = request(t.http)[method](`/api/v1${path}`).set('X-Tenant-ID', this.slug);
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      const res = body === undefined ? await req : await req.send(body);
      const what = `${method.toUpperCase()} ${path} ${JSON.stringify(body ?? null)} ${JSON.stringify(headers)}`;
      // (e) no 5xx, no deadlock, no unexpected refusal
      if (res.status >= 500) {
        stats.fiveXX += 1;
        this.problems.push(`${what} answered ${res.status}: ${res.text}`);
      } else if (res.status >= 400 && /40P01|40001|deadlock/i.test(res.text)) {
        this.problems.push(`${what} answered a deadlock/serialization failure: ${res.text}`);
      } else if (res.status >= 400) {
        const code = String(res.body?.code);
        if (code !== 'IDEMPOTENCY_KEY_IN_USE') {
          stats.refused.set(code, (stats.refused.get(code) ?? 0) + 1);
          if (!(this.cocina ? KITCHEN_REFUSALS : REFUSALS).has(code))
            this.problems.push(`${what} answered ${res.status} ${code}: ${res.text}`);
        }
      } else if (res.status !== 200 && res.status !== 201) {
        this.problems.push(`${what} answered ${res.status}`);
      }
      return res;
    }
  }

  /** A waiter: what it last saw of each comanda, and the versions it saw, in order. */
  class Client {
    readonly views = new Map<number, Detail>();
    private readonly seen = new Map<number, number>();

    constructor(
      readonly run: Run,
      readonly n: number,
    ) {}

    /**
     * (c) Versions seen by one client only go up: a write answered after everything the client
     * saw before it was sent has a higher version; a read cannot be older than what it saw.
     * Replays are excluded: they are the stored first answer.
     */
    observe(detail: Detail, how: 'write' | 'read', what: string): void {
      const before = this.seen.get(detail.id_comanda);
      if (before !== undefined) {
        const ok = how === 'write' ? detail.version > before : detail.version >= before;
        if (!ok)
          this.run.problems.push(
            `client ${this.n}: ${what} answered comanda ${detail.id_comanda} at version ` +
              `${detail.version} after it had seen version ${before}`,
          );
      }
      this.seen.set(detail.id_comanda, Math.max(before ?? 0, detail.version));
      const view = this.views.get(detail.id_comanda);
      if (!view || view.version <= detail.version) this.views.set(detail.id_comanda, detail);
    }

    /** The comanda `c` points at, as the client sees it (read first when asked, or unseen). */
    async comanda(c: number, refresh: boolean): Promise<Detail | undefined> {
      const id = this.run.floor[c % this.run.floor.length];
      if (refresh || !this.views.has(id)) {
        const res = await this.run.send('get', `/comandas/${id}`, undefined, {});
        if (res.status !== 200) return undefined;
        this.observe(res.body as Detail, 'read', `GET /comandas/${id}`);
      }
      return this.views.get(id);
    }

    /**
     * Sends a write as the delivery says. With a key, the write may be sent twice (one after
     * the other, or both at once); a 409 IDEMPOTENCY_KEY_IN_USE is retried a little later. Of
     * all the answers of one key exactly one is not a replay, and every replay is that answer
     * again, byte for byte. Answers the one that acted (or the only answer without a key).
     */
    async write(
      method: 'post' | 'put' | 'patch' | 'delete',
      path: string,
      body: object | undefined,
      delivery: Delivery,
      ifMatch: string | undefined,
    ): Promise<request.Response> {
      const headers: Record<string, string> = {};
      if (ifMatch !== undefined) headers['If-Match'] = ifMatch;
      if (!delivery.key) return this.run.send(method, path, body, headers);
      headers['Idempotency-Key'] = this.run.key(this.n);

      const untilNotInUse = async () => {
        for (let attempt = 1; ; attempt++) {
          const res = await this.run.send(method, path, body, headers);
          if (res.status !== 409 || res.body?.code !== 'IDEMPOTENCY_KEY_IN_USE') return res;
          stats.inUse += 1;
          if (res.headers['retry-after'] !== '1')
            this.run.problems.push(`409 IN_USE without Retry-After: 1 on ${method} ${path}`);
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

      const what = `${method.toUpperCase()} ${path} ${JSON.stringify(body ?? null)} key ${headers['Idempotency-Key']}`;
      const fresh = answers.filter((a) => a.headers['idempotent-replayed'] !== 'true');
      if (fresh.length !== 1) {
        this.run.problems.push(
          `${what}: ${fresh.length} answers acted (statuses ${answers.map((a) => a.status).join(', ')})`,
        );
      }
      const acted = fresh[0] ?? answers[0];
      for (const replay of answers.filter((a) => a !== acted)) {
        if (replay.status !== acted.status || replay.text !== acted.text)
          this.run.problems.push(
            `${what}: the replay answered ${replay.status} ${replay.text}, the first ${acted.status} ${acted.text}`,
          );
      }
      return acted;
    }

    /** If-Match as the delivery says: none, the version seen, or an older one. */
    ifMatch(view: Detail, delivery: Delivery, c: number): string | undefined {
      if (delivery.ifMatch === 'none') return undefined;
      if (delivery.ifMatch === 'seen') return `"${view.version}"`;
      return `"${Math.max(0, view.version - 1 - (c % 3))}"`;
    }

    /** Runs one step; records the effect when a write was acknowledged. */
    async step({ cmd, delivery }: Step): Promise<void> {
      const run = this.run;
      const label = `client ${this.n} ${cmd.kind}`;
      const acknowledge = (
        effect: Omit<Effect, 'label' | 'mergedAway' | 'added'> & Partial<Effect>,
      ) => {
        stats.effects += 1;
        stats.acknowledged.set(cmd.kind, (stats.acknowledged.get(cmd.kind) ?? 0) + 1);
        run.effects.push({ label, mergedAway: [], added: [], ...effect });
      };

      if (cmd.kind === 'create') {
        const body = { id_mesa: cmd.mesa, items: cmd.items };
        const res = await this.write('post', '/comandas', body, delivery, undefined);
        if (res.status !== 201) return;
        const d = res.body as Detail;
        this.observe(d, 'write', label);
        run.floor.push(d.id_comanda);
        // with cocina on, each line in the course it was ordered in (no category default: 1)
        const got = d.lineas.map((l) => [
          l.id_producto,
          l.cantidad,
          ...(run.cocina ? [l.curso] : []),
        ]);
        const asked = cmd.items.map((l) => [
          l.id_producto,
          l.cantidad,
          ...(run.cocina ? [l.curso ?? 1] : []),
        ]);
        if (JSON.stringify(got) !== JSON.stringify(asked))
          run.problems.push(
            `${label}: asked for lines ${JSON.stringify(asked)}, got ${JSON.stringify(got)}`,
          );
        acknowledge({
          claims: [{ id: d.id_comanda, version: 1, accion: 'crear' }],
          added: cmd.items,
        });
        return;
      }

      if ('e' in cmd) {
        // a kitchen screen moves a ticket it was shown (no If-Match: the ticket routes take none):
        // one of a send's answer, or (odd e) of the screen's list, the run's tickets of it
        // (cancellations too): the pending ones, the bumped ones for a recall
        const accion = TICKET_MOVE[cmd.kind];
        let shown = run.tickets;
        if (cmd.e % 2 === 1) {
          const estado = accion === 'recuperar' ? 'listo' : 'pendiente';
          const res = await run.send(
            'get',
            `/cocina/envios?estado=${estado}&limit=100`,
            undefined,
            {},
          );
          const list = ((res.body ?? []) as { id_envio: number; id_comanda: number }[])
            .filter((e) => e.id_comanda > run.watermark)
            .map((e) => e.id_envio);
          if (list.length > 0) shown = list;
        }
        if (shown.length === 0) return;
        const idEnvio = shown[Math.floor(cmd.e / 2) % shown.length];
        if (!run.tickets.includes(idEnvio)) run.tickets.push(idEnvio);
        const res = await this.write(
          'post',
          `/cocina/envios/${idEnvio}/${accion}`,
          undefined,
          delivery,
          undefined,
        );
        if (res.status === 409 && res.body?.code === 'ESTADO_COCINA_INVALIDO') {
          // (k) refused only from a state the move is not allowed from (or a served line)
          const d = res.body.detail as { id_envio?: number; id_item?: number; estado?: string };
          const served =
            accion === 'recuperar' && d.id_item !== undefined && d.estado === 'entregado';
          const fromBad = d.id_envio === idEnvio && !MOVE_FROM[accion].includes(String(d.estado));
          if (!served && !fromBad)
            run.problems.push(`${label} ${idEnvio}: refused with ${JSON.stringify(d)}`);
        }
        if (res.status !== 200) return;
        const envio = res.body as { id_envio: number; estado: string };
        if (envio.id_envio !== idEnvio || envio.estado !== MOVE_TO[accion])
          run.problems.push(
            `${label} ${idEnvio}: answered ticket ${envio.id_envio} ${envio.estado}, not ${MOVE_TO[accion]}`,
          );
        acknowledge({ claims: [], ticketMove: { id_envio: idEnvio, accion } });
        return;
      }

      // a waiter serving a dish looks at the comanda first (the pass shows what is listo)
      const view = await this.comanda(cmd.c, delivery.refresh || cmd.kind === 'entregar');
      if (!view) return;
      const id = view.id_comanda;
      const ifMatch = this.ifMatch(view, delivery, cmd.c);
      const line = 'l' in cmd ? view.lineas[cmd.l % Math.max(1, view.lineas.length)] : undefined;
      // the change was checked against the very state the client saw
      const sawIt = ifMatch === `"${view.version}"`;

      /** The write's answer, when it acted and answered the detail of comanda `id`. */
      const detailOf = async (
        method: 'post' | 'put' | 'patch' | 'delete',
        path: string,
        body: object | undefined,
      ): Promise<Detail | undefined> => {
        const res = await this.write(method, path, body, delivery, ifMatch);
        if (res.status !== 200 && res.status !== 201) return undefined;
        const d = res.body as Detail;
        this.observe(d, 'write', label);
        return d;
      };
      const simple = async (
        method: 'post' | 'put' | 'patch' | 'delete',
        path: string,
        body: object | undefined,
        accion: string,
        extra: Partial<Effect> = {},
      ) => {
        const d = await detailOf(method, path, body);
        if (d) acknowledge({ claims: [{ id, version: d.version, accion }], ...extra });
      };

      switch (cmd.kind) {
        case 'add':
          return simple('post', `/comandas/${id}/items`, cmd.line, 'agregar_item', {
            added: [cmd.line],
          });
        case 'change':
          if (!line) return;
          return simple(
            'patch',
            `/comandas/${id}/items/${line.id_item}`,
            { cantidad: cmd.cantidad },
            'modificar_item',
            {
              line: {
                op: 'change',
                id_item: line.id_item,
                cantidad: cmd.cantidad,
                seenCantidad: sawIt ? line.cantidad : undefined,
              },
            },
          );
        case 'remove':
          if (!line) return;
          return simple(
            'delete',
            `/comandas/${id}/items/${line.id_item}`,
            cmd.motivo ? { motivo: 'error de digitación' } : undefined,
            'quitar_item',
            {
              line: {
                op: 'remove',
                id_item: line.id_item,
                seenCantidad: sawIt ? line.cantidad : undefined,
              },
            },
          );
        case 'transfer':
          return simple('put', `/comandas/${id}`, { id_mesa: cmd.mesa }, 'transferir');
        case 'close':
          return simple('put', `/comandas/${id}`, { action: 'cerrar' }, 'cerrar');
        case 'reopen':
          return simple('put', `/comandas/${id}`, { action: 'abrir' }, 'abrir');
        case 'restore':
          return simple('put', `/comandas/${id}`, { action: 'restaurar' }, 'restaurar');
        case 'void':
          return simple('delete', `/comandas/${id}`, { motivo: 'cliente se retiró' }, 'eliminar', {
            voided: id,
          });
        case 'split': {
          const lineas = new Map<number, number>();
          for (const pick of cmd.picks) {
            const l = view.lineas[pick.l % Math.max(1, view.lineas.length)];
            if (!l) continue;
            const cantidad = {
              whole: l.cantidad,
              half: round3(l.cantidad / 2),
              one: Math.min(1, l.cantidad),
              'too-much': l.cantidad + 1,
            }[pick.part];
            lineas.set(l.id_item, cantidad);
          }
          if (lineas.size === 0) return;
          const body = {
            lineas: [...lineas].map(([id_item, cantidad]) => ({ id_item, cantidad })),
            ...(cmd.mesa !== undefined ? { id_mesa: cmd.mesa } : {}),
          };
          const res = await this.write('post', `/comandas/${id}/split`, body, delivery, ifMatch);
          if (res.status !== 201) return;
          const { origen, nueva } = res.body as { origen: Detail; nueva: Detail };
          this.observe(origen, 'write', label);
          this.observe(nueva, 'write', label);
          run.floor.push(nueva.id_comanda);
          acknowledge({
            claims: [
              { id, version: origen.version, accion: 'dividir' },
              { id: nueva.id_comanda, version: 1, accion: 'dividir' },
            ],
          });
          return;
        }
        case 'merge': {
          const others = [
            ...new Set(cmd.others.map((o) => run.floor[o % run.floor.length])),
          ].filter((o) => o !== id);
          if (others.length === 0) return;
          const d = await detailOf('post', `/comandas/${id}/merge`, { comandas: others });
          if (!d) return;
          acknowledge({
            claims: [{ id, version: d.version, accion: 'unir' }],
            mergedAway: others.map((o) => ({ id: o, into: id, ticket: d.numero_ticket })),
          });
          return;
        }
        case 'enviar':
        case 'disparar': {
          const path =
            cmd.kind === 'enviar'
              ? `/comandas/${id}/enviar`
              : `/comandas/${id}/cursos/${cmd.curso}/disparar`;
          const res = await this.write('post', path, undefined, delivery, ifMatch);
          if (res.status !== 200) return;
          const { envios, version } = res.body as {
            envios: { id_envio: number; id_comanda: number; lineas: unknown[] }[];
            version: number;
          };
          for (const e of envios) {
            if (e.id_comanda !== id || e.lineas.length === 0)
              run.problems.push(
                `${label} of comanda ${id}: answered ticket ${e.id_envio} of comanda ${e.id_comanda} with ${e.lineas.length} lines`,
              );
            run.tickets.push(e.id_envio);
          }
          // nothing new to send is no change: no entry, no version (the answer shows the same)
          const noChange = cmd.kind === 'enviar' && envios.length === 0;
          if (noChange && sawIt && version !== view.version)
            run.problems.push(`${label}: nothing sent but version ${view.version} → ${version}`);
          acknowledge({
            claims: noChange ? [] : [{ id, version, accion: cmd.kind }],
            envios: envios.map((e) => e.id_envio),
          });
          return;
        }
        case 'entregar': {
          // serve a line the client saw listo when there is one (else any: refused)
          const listos = view.lineas.filter((l) => l.estado_cocina === 'listo');
          const pick = (listos.length > 0 ? listos : view.lineas)[
            cmd.l % Math.max(1, listos.length || view.lineas.length)
          ];
          if (!pick) return;
          const res = await this.write(
            'post',
            `/comandas/${id}/items/${pick.id_item}/entregar`,
            undefined,
            delivery,
            ifMatch,
          );
          if (res.status === 409 && res.body?.code === 'ESTADO_COCINA_INVALIDO') {
            const d = res.body.detail as { id_item?: number; estado?: string };
            if (d.id_item !== pick.id_item || d.estado === 'listo')
              run.problems.push(`${label} ${pick.id_item}: refused with ${JSON.stringify(d)}`);
          }
          if (res.status !== 200 && res.status !== 201) return;
          const d = res.body as Detail;
          this.observe(d, 'write', label);
          const served = d.lineas.find((l) => l.id_item === pick.id_item);
          if (served?.estado_cocina !== 'entregado')
            run.problems.push(`${label} ${pick.id_item}: answered ${served?.estado_cocina}`);
          acknowledge({ claims: [{ id, version: d.version, accion: 'entregar' }] });
          return;
        }
      }
    }
  }

  interface ComandaRow {
    id: number;
    estado: string;
    eliminada: boolean;
    version: number;
    total: string;
    suma: string;
    lineas: number;
  }
  interface EventRow {
    id_evento: number;
    id_comanda: number;
    accion: string;
    motivo: string | null;
    antes: Record<string, unknown> | null;
    despues: Record<string, unknown> | null;
  }

  /** The invariants of one run, against the database; answers the problems found. */
  async function verify(run: Run): Promise<void> {
    const p = run.problems;
    const comandas = await t.dbs.query<ComandaRow>(
      run.db,
      `SELECT c.id_comanda::int AS id, c.estado, c.eliminada, c.version, c.total::text AS total,
              (SELECT coalesce(sum(d.subtotal), 0)::text FROM deta_comandas d
                WHERE d.id_comanda = c.id_comanda) AS suma,
              (SELECT count(*)::int FROM deta_comandas d
                WHERE d.id_comanda = c.id_comanda) AS lineas
         FROM comandas c WHERE c.id_comanda > $1 ORDER BY c.id_comanda`,
      [run.watermark],
    );
    const quantities = await t.dbs.query<{ id_producto: number; cantidad: string }>(
      run.db,
      `SELECT id_producto, sum(cantidad)::text AS cantidad FROM deta_comandas
        WHERE id_comanda > $1 GROUP BY id_producto`,
      [run.watermark],
    );
    const events = await t.dbs.query<EventRow>(
      run.db,
      `SELECT id_evento::int AS id_evento, id_comanda::int AS id_comanda,
              accion, motivo, antes, despues
         FROM comanda_eventos WHERE id_comanda > $1 ORDER BY id_evento`,
      [run.watermark],
    );

    // every comanda of the run was acknowledged: created by a create or a split someone saw
    const known = new Set(run.floor);
    const inDb = new Set(comandas.map((c) => c.id));
    for (const c of comandas)
      if (!known.has(c.id)) p.push(`comanda ${c.id} exists but no answer created it`);
    for (const id of known)
      if (!inDb.has(id)) p.push(`comanda ${id} was answered but is not stored`);

    for (const c of comandas) {
      // (b) the total is the sum of the subtotals of the lines
      if (cents(c.total) !== cents(c.suma))
        p.push(`comanda ${c.id}: total ${c.total}, its lines add up to ${c.suma}`);
      // (f) closing needs a line and a closed comanda's lines cannot change
      if (c.estado === 'cerrada' && c.lineas === 0) p.push(`comanda ${c.id} is cerrada and empty`);
    }

    // (c) the version is 1 + the entries after the creation one, which is the first entry
    const byComanda = new Map<number, EventRow[]>();
    for (const e of events)
      byComanda.set(e.id_comanda, [...(byComanda.get(e.id_comanda) ?? []), e]);
    const isCreation = (e: EventRow) =>
      e.accion === 'crear' || (e.accion === 'dividir' && e.antes === null);
    for (const c of comandas) {
      const list = byComanda.get(c.id) ?? [];
      if (list.length !== c.version)
        p.push(`comanda ${c.id}: version ${c.version} but ${list.length} audit entries`);
      if (!list[0] || !isCreation(list[0]))
        p.push(`comanda ${c.id}: the first entry is not its creation`);
      if (list.slice(1).some(isCreation)) p.push(`comanda ${c.id}: created more than once`);
    }

    // (c') the trail the API shows is in the order of the changes: a change that waited for the
    // comanda's lock (a merge, a keyed write whose transaction began earlier) comes after the
    // one it waited for, whatever the times its transaction began
    for (const c of comandas) {
      const res = await request(t.http)
        .get(`/api/v1/comandas/${c.id}/eventos`)
        .set('X-Tenant-ID', run.slug);
      const shown = (res.body as { accion: string }[]).map((e) => e.accion).join(',');
      const written = (byComanda.get(c.id) ?? []).map((e) => e.accion).join(',');
      if (res.status !== 200 || shown !== written)
        p.push(`comanda ${c.id}: GET eventos ${res.status} ${shown}, written ${written}`);
    }

    // (d) a one-to-one map between acknowledged effects and audit entries: each change claims
    // the entry that produced the version its answer shows (entries of one comanda are written
    // under its row lock, so their ids follow its versions); a merge also claims one `unir`
    // entry of each comanda it merged away
    const claimedBy = new Map<number, string>();
    const claim = (e: EventRow, by: string) => {
      const other = claimedBy.get(e.id_evento);
      if (other)
        p.push(`audit entry ${e.id_evento} (${e.accion}) is claimed by ${other} and by ${by}`);
      claimedBy.set(e.id_evento, by);
    };
    /** (h) which acknowledged change wrote each ticket. */
    const writtenBy = new Map<number, string>();
    const attribute = (idEnvio: number, by: string) => {
      const other = writtenBy.get(idEnvio);
      if (other) p.push(`ticket ${idEnvio} is claimed by ${other} and by ${by}`);
      writtenBy.set(idEnvio, by);
    };
    const expected = new Map<number, number>();
    const add = (product: number, quantity: number) =>
      expected.set(product, (expected.get(product) ?? 0) + quantity);

    for (const effect of run.effects) {
      for (const q of effect.added) add(q.id_producto, q.cantidad);
      for (const [i, c] of effect.claims.entries()) {
        const by = `${effect.label} (comanda ${c.id} v${c.version})`;
        const entry = byComanda.get(c.id)?.[c.version - 1];
        if (!entry || entry.accion !== c.accion || (c.version === 1) !== isCreation(entry)) {
          p.push(`${by}: its audit entry should be ${c.accion}, is ${entry?.accion ?? 'missing'}`);
          continue;
        }
        claim(entry, by);
        // (h) the tickets a lowered or voided line's cancellation wrote, as its entry lists them
        const written = (entry.despues as { envios?: number[] } | null)?.envios;
        if (i === 0 && effect.line && Array.isArray(written))
          for (const e of written) attribute(e, by);
        if (i > 0 || !effect.line) continue;
        // (a) for a quantity change or a removal, the quantity before is in its entry
        const antes = entry.antes as {
          id_item?: number;
          id_producto?: number;
          cantidad?: number;
        } | null;
        const despues = entry.despues as { cantidad?: number } | null;
        const { op, id_item, cantidad, seenCantidad } = effect.line;
        if (!antes || antes.id_item !== id_item || typeof antes.cantidad !== 'number') {
          p.push(`${by}: the entry names line ${antes?.id_item}, the request ${id_item}`);
          continue;
        }
        if (seenCantidad !== undefined && Math.abs(antes.cantidad - seenCantidad) > 0.0005)
          p.push(
            `${by}: line ${id_item} had ${antes.cantidad}, the client saw ${seenCantidad} at that version`,
          );
        if (op === 'change') {
          if (despues?.cantidad !== cantidad)
            p.push(`${by}: asked for cantidad ${cantidad}, the entry says ${despues?.cantidad}`);
          add(antes.id_producto!, cantidad! - antes.cantidad);
        } else {
          add(antes.id_producto!, -antes.cantidad);
        }
      }
      for (const m of effect.mergedAway) {
        const entry = (byComanda.get(m.id) ?? []).find(
          (e) =>
            !claimedBy.has(e.id_evento) &&
            e.accion === 'unir' &&
            e.despues?.unida_a === m.into &&
            e.motivo === `unida a ${m.ticket}`,
        );
        if (!entry) p.push(`${effect.label}: comanda ${m.id} has no unir entry into ${m.into}`);
        else claim(entry, `${effect.label} (comanda ${m.id} merged into ${m.into})`);
      }
      for (const e of effect.envios ?? []) attribute(e, effect.label);
      if (effect.ticketMove) {
        // (d) a ticket's move claims the entries of that move of that ticket: one on each
        // comanda its lines were in then (`despues.comandas`: two after a split of part of a
        // line); the moves of one ticket are serialized, so a move's entries come before the
        // next move's
        const { id_envio, accion } = effect.ticketMove;
        const ofMove = (e: EventRow) =>
          !claimedBy.has(e.id_evento) &&
          e.accion === accion &&
          (e.despues?.envios as number[] | undefined)?.[0] === id_envio;
        const entry = events.find(ofMove);
        if (!entry) p.push(`${effect.label}: no ${accion} entry of ticket ${id_envio}`);
        else {
          const size = (entry.despues?.comandas as number[] | undefined)?.length ?? 1;
          for (const e of events.filter(ofMove).slice(0, size))
            claim(e, `${effect.label} (ticket ${id_envio})`);
        }
      }
    }
    for (const e of events)
      if (!claimedBy.has(e.id_evento))
        p.push(
          `audit entry ${e.id_evento} (${e.accion} of comanda ${e.id_comanda}) matches no acknowledged change`,
        );

    // (a) quantity conservation per product
    const actual = new Map(quantities.map((q) => [q.id_producto, Number(q.cantidad)]));
    for (const product of new Set([...expected.keys(), ...actual.keys()])) {
      const want = expected.get(product) ?? 0;
      const got = actual.get(product) ?? 0;
      if (Math.abs(want - got) > 0.0005)
        p.push(
          `product ${product}: the acknowledged requests leave ${round3(want)}, the lines hold ${got}`,
        );
    }

    if (run.cocina) await verifyKitchen(run, events, writtenBy);
  }

  /** The kitchen's invariants (h)..(k) of a run with cocina on, after its last sends. */
  async function verifyKitchen(
    run: Run,
    events: EventRow[],
    writtenBy: Map<number, string>,
  ): Promise<void> {
    const p = run.problems;
    const sql = <T>(text: string) => t.dbs.query<T>(run.db, text, [run.watermark]);
    const tickets = await sql<{
      id_envio: number;
      id_comanda: number;
      tipo: string;
      estado: string;
      lineas: number;
      malas: number;
    }>(
      `SELECT t.id_envio::int AS id_envio, t.id_comanda::int AS id_comanda, t.tipo, t.estado,
              (SELECT count(*)::int FROM envio_lineas l WHERE l.id_envio = t.id_envio) AS lineas,
              (SELECT count(*)::int FROM envio_lineas l WHERE l.id_envio = t.id_envio
                 AND (l.cantidad = 0 OR (t.tipo = 'anulacion') <> (l.cantidad < 0))) AS malas
         FROM envios_cocina t WHERE t.id_comanda > $1 ORDER BY t.id_envio`,
    );
    stats.tickets += tickets.length;
    const voided = new Set(run.effects.flatMap((e) => (e.voided ? [e.voided] : [])));
    for (const k of tickets) {
      // (h) every ticket was written by an acknowledged send or cancellation, once; a voided
      // comanda's cancellations are not listed by its entry: anulacion tickets of that comanda
      if (!writtenBy.has(k.id_envio) && !(k.tipo === 'anulacion' && voided.has(k.id_comanda)))
        p.push(
          `ticket ${k.id_envio} (${k.tipo} of comanda ${k.id_comanda}) was written by no acknowledged send or cancellation`,
        );
      // (j) lines, never 0, signed by the ticket's kind
      if (k.lineas === 0) p.push(`ticket ${k.id_envio} (${k.tipo}) has no lines`);
      if (k.malas > 0)
        p.push(`ticket ${k.id_envio} (${k.tipo}) has ${k.malas} lines of 0 or of the wrong sign`);
    }
    for (const id of writtenBy.keys())
      if (!tickets.some((k) => k.id_envio === id))
        p.push(`ticket ${id} was answered but is not stored`);

    // (i) conservation: lines of fired courses of open comandas (after their last send), every
    // line within 0..its quantity, voided lines 0
    const lines = await sql<{
      id: number;
      cantidad: string;
      enviado: string;
      abierta: boolean;
      disparado: boolean;
      estado_cocina: string;
    }>(
      `SELECT d.id_deta_comanda::int AS id, d.cantidad::text AS cantidad, d.estado_cocina,
              coalesce((SELECT sum(l.cantidad) FROM envio_lineas l
                         WHERE l.id_item = d.id_deta_comanda), 0)::text AS enviado,
              (c.estado = 'abierta' AND NOT c.eliminada) AS abierta,
              EXISTS (SELECT 1 FROM cursos_disparados f
                       WHERE f.id_comanda = d.id_comanda AND f.curso = d.curso) AS disparado
         FROM deta_comandas d JOIN comandas c ON c.id_comanda = d.id_comanda
        WHERE d.id_comanda > $1 ORDER BY d.id_deta_comanda`,
    );
    for (const l of lines) {
      // quantities have three decimals (half of 2.25): compared in thousandths
      const [cantidad, enviado] = [milli(l.cantidad), milli(l.enviado)];
      if (l.abierta && l.disparado && enviado !== cantidad)
        p.push(
          `line ${l.id} (fired, open, just sent): cantidad ${l.cantidad}, the kitchen has ${l.enviado}`,
        );
      // a line just sent is no longer pendiente
      if (l.abierta && l.disparado && l.estado_cocina === 'pendiente')
        p.push(`line ${l.id} (fired, open, just sent) is still pendiente`);
      if (enviado < 0 || enviado > cantidad)
        p.push(`line ${l.id}: cantidad ${l.cantidad}, the kitchen has ${l.enviado}`);
    }
    const gone = await sql<{ id: number; enviado: string }>(
      `SELECT l.id_item::int AS id, sum(l.cantidad)::text AS enviado
         FROM envio_lineas l JOIN envios_cocina t ON t.id_envio = l.id_envio
        WHERE t.id_comanda > $1
          AND NOT EXISTS (SELECT 1 FROM deta_comandas d WHERE d.id_deta_comanda = l.id_item)
        GROUP BY l.id_item ORDER BY l.id_item`,
    );
    for (const g of gone)
      if (milli(g.enviado) !== 0) p.push(`voided line ${g.id}: the kitchen still has ${g.enviado}`);
    stats.conserved += lines.length + gone.length;

    // (k) each ticket's moves, in the order they were made, took only documented steps
    const state = new Map(tickets.map((k) => [k.id_envio, 'pendiente']));
    // a move over two comandas writes an entry on each, one after the other: taken once
    const rest = new Map<number, number>();
    for (const e of events) {
      if (e.accion !== 'preparar' && e.accion !== 'listo' && e.accion !== 'recuperar') continue;
      const id = (e.despues?.envios as number[] | undefined)?.[0] ?? -1;
      const pending = rest.get(id) ?? 0;
      if (pending > 0) {
        rest.set(id, pending - 1);
        continue;
      }
      rest.set(id, ((e.despues?.comandas as number[] | undefined)?.length ?? 1) - 1);
      const antes = (e.antes as { estado?: string } | null)?.estado;
      const now = state.get(id);
      if (now === undefined) {
        p.push(`entry ${e.id_evento} (${e.accion}) moves ticket ${id}, not one of the run`);
        continue;
      }
      if (
        antes !== now ||
        !MOVE_FROM[e.accion].includes(now) ||
        e.despues?.estado !== MOVE_TO[e.accion]
      )
        p.push(
          `entry ${e.id_evento}: ticket ${id} ${e.accion} from ${antes} (was ${now}) to ${String(e.despues?.estado)}`,
        );
      state.set(id, MOVE_TO[e.accion]);
    }
    for (const k of tickets)
      if (state.get(k.id_envio) !== k.estado)
        p.push(`ticket ${k.id_envio} is ${k.estado}, its moves end at ${state.get(k.id_envio)}`);
    // a served line was listo when served (its entry says so) and says when
    const served = await sql<{ id: number }>(
      `SELECT d.id_deta_comanda::int AS id FROM deta_comandas d
        WHERE d.id_comanda > $1 AND d.estado_cocina = 'entregado' AND d.fec_entregado IS NULL`,
    );
    for (const s of served) p.push(`line ${s.id} is entregado with no fec_entregado`);
    for (const e of events)
      if (
        e.accion === 'entregar' &&
        (e.antes as { estado_cocina?: string } | null)?.estado_cocina !== 'listo'
      )
        p.push(`entry ${e.id_evento}: entregar of a line that was not listo`);
  }

  const ticketCount = async (run: Run) =>
    (await t.dbs.query<{ n: number }>(run.db, 'SELECT count(*)::int AS n FROM envios_cocina'))[0].n;

  /**
   * cocina: one waiter alone, the ticket count read around each step. (h) split, merge and
   * transfer write no ticket; a send writes the tickets its answer lists; nothing else but a
   * lowered or voided line or comanda writes any.
   */
  async function sequentialPart(run: Run, steps: Step[]): Promise<void> {
    const client = new Client(run, 9);
    for (const step of steps) {
      const before = await ticketCount(run);
      const effects = run.effects.length;
      await client.step(step);
      const after = await ticketCount(run);
      const effect = run.effects.length > effects ? run.effects[effects] : undefined;
      const kind = step.cmd.kind;
      const what = `sequential ${kind} (${effect ? 'acknowledged' : 'refused'})`;
      if (kind === 'split' || kind === 'merge' || kind === 'transfer') {
        stats.floorChecked += 1;
        if (after !== before) run.problems.push(`${what}: tickets ${before} → ${after}`);
      } else if (kind === 'enviar' || kind === 'disparar') {
        const want = before + (effect?.envios?.length ?? 0);
        if (after !== want)
          run.problems.push(`${what}: tickets ${before} → ${after}, answered ${want - before}`);
      } else if (kind === 'change' || kind === 'remove' || kind === 'void') {
        if (after < before || (!effect && after !== before))
          run.problems.push(`${what}: tickets ${before} → ${after}`);
      } else if (after !== before) run.problems.push(`${what}: tickets ${before} → ${after}`);
    }
  }

  /** cocina: one last `enviar` of every open comanda of the run, one after the other. */
  async function sendEverything(run: Run): Promise<void> {
    const open = await t.dbs.query<{ id: number }>(
      run.db,
      `SELECT id_comanda::int AS id FROM comandas
        WHERE id_comanda > $1 AND estado = 'abierta' AND NOT eliminada ORDER BY id_comanda`,
      [run.watermark],
    );
    const client = new Client(run, 10);
    for (const { id } of open) {
      const effects = run.effects.length;
      await client.step({
        cmd: { kind: 'enviar', c: run.floor.indexOf(id) },
        delivery: { key: true, retry: 'none', ifMatch: 'none', refresh: true },
      });
      if (run.effects.length === effects) run.problems.push(`the last enviar of ${id} was refused`);
    }
  }

  async function runScenario(scenario: Scenario, slug: string, cocina: boolean): Promise<void> {
    stats.runs += 1;
    const [{ max }] = await t.dbs.query<{ max: number }>(
      t.dbs.tenantUrl(slug),
      'SELECT coalesce(max(id_comanda), 0)::int AS max FROM comandas',
    );
    const run = new Run(stats.runs, max, slug, cocina);
    // the comandas on the floor when the waiters start (sent once, no key)
    const opener = new Client(run, 0);
    for (const items of scenario.initial) {
      await opener.step({
        cmd: { kind: 'create', mesa: MENU.mesas[0], items },
        delivery: { key: false, retry: 'none', ifMatch: 'none', refresh: false },
      });
    }
    if (run.floor.length < scenario.initial.length)
      run.problems.push('an initial comanda was refused');
    else {
      // the waiters at the same time, each one step after the other
      const outcomes = await Promise.allSettled(
        scenario.clients.map(async (steps, i) => {
          const client = new Client(run, i + 1);
          for (const step of steps) await client.step(step);
        }),
      );
      for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
      if (cocina) {
        await sequentialPart(run, scenario.sequential);
        await sendEverything(run);
      }
      await verify(run);
    }
    expect(run.problems).toEqual([]);
  }

  it(`keeps quantities, totals, versions and the audit trail consistent (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbOf(false), (s) => runScenario(s, SLUG, false)),
      {
        numRuns: RUNS,
        // a failure is shrunk for at most two minutes (each replay is a real concurrent run)
        plugins: [fc.interruptAfterTimeLimit(120_000, { failOnInterrupt: true })],
      },
    );
  }, 180_000);

  it(`with cocina on: sends, courses, bumps and recalls; floor operations write no ticket; conservation (${RUNS_COCINA} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbOf(true), (s) => runScenario(s, SLUG_COCINA, true)),
      {
        numRuns: RUNS_COCINA,
        plugins: [fc.interruptAfterTimeLimit(120_000, { failOnInterrupt: true })],
      },
    );
  }, 180_000);

  it('sent requests, retries included, and no 5xx (summary printed after the file)', () => {
    expect(stats.runs).toBeGreaterThanOrEqual(RUNS + RUNS_COCINA);
    expect(stats.tickets).toBeGreaterThan(0);
    expect(stats.floorChecked).toBeGreaterThan(0);
    expect(stats.requests).toBeGreaterThan(0);
    expect(stats.retries).toBeGreaterThan(0);
    expect(stats.effects).toBeGreaterThan(0);
    expect(stats.fiveXX).toBe(0);
  });
});
