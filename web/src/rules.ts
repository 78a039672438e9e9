import type { ComandaSummary } from './types';

/** What can be done to a comanda from the page. */
export type ComandaAction =
  'lineas' | 'transferir' | 'dividir' | 'unir' | 'cerrar' | 'abrir' | 'anular' | 'restaurar';

/** Each action: the states it is allowed in (docs/comandas.md) and the permission it needs. */
const RULES: Record<
  ComandaAction,
  { states: ('abierta' | 'cerrada' | 'eliminada')[]; permission: string }
> = {
  lineas: { states: ['abierta'], permission: 'comandas:write' },
  transferir: { states: ['abierta'], permission: 'comandas:transfer' },
  dividir: { states: ['abierta'], permission: 'comandas:split' },
  unir: { states: ['abierta'], permission: 'comandas:merge' },
  cerrar: { states: ['abierta'], permission: 'comandas:close' },
  abrir: { states: ['cerrada'], permission: 'comandas:close' },
  anular: { states: ['abierta', 'cerrada'], permission: 'comandas:delete' },
  restaurar: { states: ['eliminada'], permission: 'comandas:delete' },
};

export function stateOf(c: Pick<ComandaSummary, 'estado' | 'eliminada'>) {
  return c.eliminada ? 'eliminada' : c.estado;
}

/**
 * The actions the state machine and the user's role allow now: a button is shown only for
 * those, so a waiter never sees "anular" and nobody sees "cerrar" on a closed ticket.
 */
export function allowedActions(
  c: Pick<ComandaSummary, 'estado' | 'eliminada'>,
  can: (permission: string) => boolean,
): Set<ComandaAction> {
  const state = stateOf(c);
  const allowed = new Set<ComandaAction>();
  for (const [action, rule] of Object.entries(RULES) as [
    ComandaAction,
    (typeof RULES)[ComandaAction],
  ][]) {
    if (rule.states.includes(state) && can(rule.permission)) allowed.add(action);
  }
  return allowed;
}

/** A summary after a live event: the newer version wins, an older event changes nothing. */
export function applyEvent(
  list: ComandaSummary[],
  comanda: ComandaSummary,
  keep: (c: ComandaSummary) => boolean,
): ComandaSummary[] {
  const current = list.find((c) => c.id_comanda === comanda.id_comanda);
  if (current && current.version > comanda.version) return list;
  const rest = list.filter((c) => c.id_comanda !== comanda.id_comanda);
  return keep(comanda) ? [...rest, comanda] : rest;
}

/** Open comandas grouped by table number (take-away under null), tables in order. */
export function byTable(list: ComandaSummary[]): Map<number | null, ComandaSummary[]> {
  const groups = new Map<number | null, ComandaSummary[]>();
  for (const c of [...list].sort((a, b) => a.numero_ticket - b.numero_ticket)) {
    const key = c.id_mesa;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}
