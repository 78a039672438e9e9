import { COMANDA_OWN_ACTIONS } from '../comandas/comanda-state';

/**
 * The event types an endpoint subscribes to (docs/webhooks.md, "Events"): one per action of the
 * audit trails and the stock's records, named `<module>.<accion>`, and each module's wildcard
 * `<module>.*`. The outbox triggers (tenant migration 1765400000000) name them the same way; a
 * spec checks that every action the database accepts has its event here.
 */
const PAGO = ['pagar', 'anular_pago', 'reembolsar', 'descontar'] as const;
const COCINA = ['enviar', 'disparar', 'preparar', 'listo', 'recuperar', 'entregar'] as const;

export const EVENT_TYPES_BY_MODULE = {
  // the comanda's own actions: its state machine's, and its creation
  comanda: ['crear', ...COMANDA_OWN_ACTIONS],
  pago: PAGO,
  cocina: COCINA,
  sesion_caja: ['abrir', 'ingreso', 'retiro', 'cerrar'],
  inventario: ['merma', 'conteo_crear', 'conteo_aplicar', 'conteo_descartar'],
} as const satisfies Record<string, readonly string[]>;

export type EventModule = keyof typeof EVENT_TYPES_BY_MODULE;

/** Every event type, module by module. */
export const EVENT_TYPES: readonly string[] = Object.entries(EVENT_TYPES_BY_MODULE).flatMap(
  ([module, actions]) => actions.map((action) => `${module}.${action}`),
);

/** The wildcards: every event of one module. */
export const EVENT_WILDCARDS: readonly string[] = Object.keys(EVENT_TYPES_BY_MODULE).map(
  (module) => `${module}.*`,
);

/** What `eventos` accepts. */
export const SUBSCRIBABLE: readonly string[] = [...EVENT_WILDCARDS, ...EVENT_TYPES];

/** The type of the message `POST /webhooks/:id/probar` sends (not subscribable: always sent). */
export const TEST_EVENT = 'webhook.prueba';

/** The entries of `eventos` that are neither an event type nor a wildcard. */
export function unknownEvents(eventos: readonly string[]): string[] {
  return eventos.filter((evento) => !SUBSCRIBABLE.includes(evento));
}

/** Whether an endpoint subscribed to `eventos` gets events of `type` (the triggers' rule). */
export function subscribes(eventos: readonly string[], type: string): boolean {
  return eventos.includes(type) || eventos.includes(`${type.split('.')[0]}.*`);
}

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `5s,5m,30m,2h` → the waits in milliseconds (the config has validated the form). */
export function parseRetryDelays(value: string): number[] {
  return value.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`not a duration: ${JSON.stringify(part)}`);
    return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  });
}

/** An endpoint that has failed for this long without a single delivery is switched off. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

/** Messages (and their attempts) older than this are deleted. */
export const RETENTION_DAYS = 30;

/**
 * What the logs say of an endpoint's URL: its scheme and host. A receiver's URL may carry a
 * token in its path or query, and the logs are read by more people than the endpoints are.
 */
export function urlForLogs(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(not a URL)';
  }
}
