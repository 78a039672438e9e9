import fc from 'fast-check';
import { TenantContext } from '../../src/tenancy/tenant-context';
import {
  EVENT_TYPES_BY_MODULE,
  EVENT_WILDCARDS,
  parseRetryDelays,
  subscribes,
} from '../../src/webhooks/webhook-events';
import {
  DISABLED_GONE,
  WebhooksRepository,
  type ClaimedMessage,
} from '../../src/webhooks/webhooks.repository';
import { seedMenu } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The outbox and the delivery record, as properties (fast-check) on a real PostgreSQL.
 *
 * 1. The outbox: for any set of endpoints (each subscribed to some types and wildcards, on or
 *    off) and any sequence of audit entries of a comanda's, a till session's and the stock's
 *    (each committed or rolled back), the outbox holds exactly one message per committed entry
 *    and active endpoint subscribed to its type (by name or wildcard), of that type, in the
 *    order of the entries, and nothing else: no message of a rolled-back entry, none for an
 *    endpoint off or not subscribed.
 * 2. The delivery record: for any sequence of attempt outcomes (2xx, 5xx, 410, no answer), a
 *    message ends delivered exactly when an attempt succeeds before it is given up; it is given
 *    up on a 410 or when the attempt after the last wait fails; its attempts are recorded one
 *    each with their status; a failure sets the next attempt its wait later; the endpoint is
 *    switched off exactly on a 410, and its failure record is cleared by a delivery.
 *
 * The dispatcher does not run here (the feature is off): the test plays its part.
 */

const SLUG = 'ganchos';
const RUNS = 25;
const LIMIT_MS = 120_000;
const DELAYS = '1m,5m,30m';
const DELAYS_MS = parseRetryDelays(DELAYS);

const COMANDA_ACTIONS = [
  ...EVENT_TYPES_BY_MODULE.comanda,
  ...EVENT_TYPES_BY_MODULE.pago,
  ...EVENT_TYPES_BY_MODULE.cocina,
] as const;
const MODULE_OF = new Map<string, string>([
  ...EVENT_TYPES_BY_MODULE.comanda.map((a) => [a, 'comanda'] as [string, string]),
  ...EVENT_TYPES_BY_MODULE.pago.map((a) => [a, 'pago'] as [string, string]),
  ...EVENT_TYPES_BY_MODULE.cocina.map((a) => [a, 'cocina'] as [string, string]),
]);

/** A few event names to subscribe to: wildcards and single types of every module. */
const SUBSCRIBABLE = [
  ...EVENT_WILDCARDS,
  'comanda.crear',
  'comanda.cerrar',
  'comanda.dividir',
  'pago.pagar',
  'cocina.listo',
  'sesion_caja.cerrar',
  'inventario.merma',
];

type Entry =
  | { kind: 'comanda'; accion: (typeof COMANDA_ACTIONS)[number]; commit: boolean }
  | { kind: 'caja'; accion: (typeof EVENT_TYPES_BY_MODULE.sesion_caja)[number]; commit: boolean }
  | { kind: 'merma'; commit: boolean };

const entryArb: fc.Arbitrary<Entry> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('comanda' as const),
      accion: fc.constantFrom(...COMANDA_ACTIONS),
      commit: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('caja' as const),
      accion: fc.constantFrom(...EVENT_TYPES_BY_MODULE.sesion_caja),
      commit: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('merma' as const), commit: fc.boolean() }),
  },
);

const endpointArb = fc.record({
  eventos: fc.uniqueArray(fc.constantFrom(...SUBSCRIBABLE), { minLength: 1, maxLength: 4 }),
  activo: fc.boolean(),
});

function typeOf(entry: Entry): string {
  if (entry.kind === 'comanda') return `${MODULE_OF.get(entry.accion)}.${entry.accion}`;
  if (entry.kind === 'caja') return `sesion_caja.${entry.accion}`;
  return 'inventario.merma';
}

/** An attempt's outcome: an HTTP status, or null for no answer. */
const outcomeArb = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(200, 204) },
  { weight: 5, arbitrary: fc.constantFrom(500, 502, 503, 429, 301, null) },
  { weight: 1, arbitrary: fc.constant(410) },
);

describe('webhooks: the outbox and the delivery record (property)', () => {
  let t: TestApp;
  const db = () => t.dbs.tenantUrl(SLUG);

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOKS_RETRY_DELAYS: DELAYS });
    await t.dbs.createTenant(SLUG);
    await seedMenu(t.dbs, SLUG);
    await t.dbs.query(
      db(),
      `INSERT INTO comandas (id_mesa) VALUES (1);
       INSERT INTO sesiones_caja (id_caja, monto_apertura) VALUES (1, 100);
       INSERT INTO mate_primas (nombre, unidad) VALUES ('Limón', 'kg');`,
    );
  });
  afterAll(() => t.close());

  async function reset(): Promise<void> {
    await t.dbs.query(
      db(),
      'DELETE FROM webhooks; DELETE FROM comanda_eventos; DELETE FROM caja_eventos; DELETE FROM mermas',
    );
  }

  it(`writes one message per committed entry and subscribed active endpoint (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(endpointArb, { minLength: 1, maxLength: 4 }),
        fc.array(entryArb, { minLength: 1, maxLength: 25 }),
        async (endpoints, entries) => {
          await reset();
          const ids: number[] = [];
          for (const endpoint of endpoints) {
            const [row] = await t.dbs.query<{ id_webhook: number }>(
              db(),
              `INSERT INTO webhooks (url, eventos, activo, secreto)
               VALUES ('https://example.com/h', $1, $2, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
               RETURNING id_webhook`,
              [endpoint.eventos, endpoint.activo],
            );
            ids.push(row.id_webhook);
          }
          for (const entry of entries) {
            const insert =
              entry.kind === 'comanda'
                ? `INSERT INTO comanda_eventos (id_comanda, accion) SELECT min(id_comanda), '${entry.accion}' FROM comandas`
                : entry.kind === 'caja'
                  ? `INSERT INTO caja_eventos (id_sesion, accion, detalle) SELECT min(id_sesion), '${entry.accion}', '{}' FROM sesiones_caja`
                  : `INSERT INTO mermas (id_mat_prima, cantidad, motivo, fec) SELECT min(id_mat_prima), 1, 'Se cayó', now() FROM mate_primas`;
            await t.dbs.query(
              db(),
              entry.commit
                ? insert
                : `DO $$ BEGIN ${insert}; RAISE EXCEPTION 'rolled back';
                   EXCEPTION WHEN raise_exception THEN NULL; END $$`,
            );
          }
          const expected = entries
            .filter((entry) => entry.commit)
            .flatMap((entry) =>
              endpoints
                .map((endpoint, i) => ({ endpoint, id: ids[i] }))
                .filter(
                  ({ endpoint }) => endpoint.activo && subscribes(endpoint.eventos, typeOf(entry)),
                )
                .map(({ id }) => ({ id_webhook: id, tipo: typeOf(entry) })),
            );
          const rows = await t.dbs.query<{
            id_webhook: number;
            tipo: string;
            cuerpo: string;
            estado: string;
          }>(
            db(),
            'SELECT id_webhook, tipo, cuerpo, estado FROM webhook_mensajes ORDER BY id_mensaje',
          );
          expect(rows.map(({ id_webhook, tipo }) => ({ id_webhook, tipo }))).toEqual(expected);
          for (const row of rows) {
            expect(row.estado).toBe('pendiente');
            expect((JSON.parse(row.cuerpo) as { type: string }).type).toBe(row.tipo);
          }
        },
      ),
      { numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })] },
    );
  }, 180_000);

  it(`records every attempt, retries after its wait, gives up and switches off as the rules say (${RUNS} runs)`, async () => {
    const repository = t.app.get(WebhooksRepository);
    const context = t.app.get(TenantContext);
    await fc.assert(
      fc.asyncProperty(fc.array(outcomeArb, { minLength: 1, maxLength: 8 }), async (outcomes) => {
        await reset();
        const [endpoint] = await t.dbs.query<{ id_webhook: number }>(
          db(),
          `INSERT INTO webhooks (url, eventos, secreto)
           VALUES ('https://example.com/h', '{comanda.*}', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
           RETURNING id_webhook`,
        );
        await t.dbs.query(
          db(),
          "INSERT INTO comanda_eventos (id_comanda, accion) SELECT min(id_comanda), 'crear' FROM comandas",
        );
        const [message] = await t.dbs.query<ClaimedMessage>(
          db(),
          `SELECT m.id_mensaje, m.id_webhook, m.webhook_id, m.tipo, m.clave, m.cuerpo, m.intentos,
                  w.url, w.secreto, NULL AS secreto_anterior,
                  m.proximo_intento::text AS lease_until
             FROM webhook_mensajes m JOIN webhooks w USING (id_webhook)`,
        );

        // the model: what the rules say happens with these outcomes
        let estado = 'pendiente';
        let attempts = 0;
        let disabled = false;
        let failing = false;
        const statuses: (number | null)[] = [];
        for (const status of outcomes) {
          if (estado !== 'pendiente' || disabled) break;
          const before = Date.now();
          const ok = status !== null && status >= 200 && status < 300;
          await context.run<unknown>(SLUG, () =>
            ok
              ? repository.recordDelivered([
                  { id_mensaje: message.id_mensaje, status, durationMs: 5, startedAt: new Date() },
                ])
              : repository.recordFailed(
                  message,
                  {
                    status,
                    error: status === null ? 'ECONNREFUSED' : `HTTP ${status}`,
                    durationMs: 5,
                    startedAt: new Date(),
                  },
                  DELAYS_MS,
                ),
          );
          attempts += 1;
          statuses.push(status);
          if (ok) {
            estado = 'entregado';
            failing = false;
          } else {
            failing = true;
            if (status === 410) {
              estado = 'fallido';
              disabled = true;
            } else if (attempts > DELAYS_MS.length) {
              estado = 'fallido';
            } else {
              const [{ wait }] = await t.dbs.query<{ wait: number }>(
                db(),
                'SELECT extract(epoch FROM proximo_intento) * 1000 AS wait FROM webhook_mensajes',
              );
              // due one wait after the attempt was recorded
              expect(Number(wait) - before).toBeGreaterThanOrEqual(DELAYS_MS[attempts - 1] - 1_000);
              expect(Number(wait) - Date.now()).toBeLessThanOrEqual(
                DELAYS_MS[attempts - 1] + 1_000,
              );
            }
          }
          // the next attempt (if any) is played as if its wait had passed
          message.intentos = attempts;
        }

        const [row] = await t.dbs.query<{
          estado: string;
          intentos: number;
          ultimo_status: number | null;
          fec_entrega: Date | null;
        }>(db(), 'SELECT estado, intentos, ultimo_status, fec_entrega FROM webhook_mensajes');
        expect(row).toMatchObject({
          estado,
          intentos: attempts,
          ultimo_status: statuses.at(-1) ?? null,
        });
        expect(row.fec_entrega !== null).toBe(estado === 'entregado');
        const history = await t.dbs.query<{ status: number | null }>(
          db(),
          'SELECT status FROM webhook_intentos ORDER BY id_intento',
        );
        expect(history.map((h) => h.status)).toEqual(statuses);
        const [hook] = await t.dbs.query<{
          activo: boolean;
          motivo_desactivacion: string | null;
          fallando_desde: Date | null;
        }>(
          db(),
          'SELECT activo, motivo_desactivacion, fallando_desde FROM webhooks WHERE id_webhook = $1',
          [endpoint.id_webhook],
        );
        expect(hook.activo).toBe(!disabled);
        expect(hook.motivo_desactivacion).toBe(disabled ? DISABLED_GONE : null);
        expect(hook.fallando_desde !== null).toBe(failing);
      }),
      { numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(LIMIT_MS, { failOnInterrupt: true })] },
    );
  }, 180_000);
});
