import { DomainError } from '../common/errors/domain-error';
import { invalidTransition } from './comandas.errors';

/**
 * The comanda state machine (docs/comandas.md, States), in one place. A comanda's effective
 * state is its `estado` (abierta | cerrada) unless it is logically deleted, which overrides it;
 * restoring gives back the `estado` it had.
 *
 * | from      | trigger                       | next      |
 * |-----------|-------------------------------|-----------|
 * | abierta   | {"action":"cerrar"}           | cerrada   |  (no lines: COMANDA_EMPTY)
 * | cerrada   | {"action":"abrir"}            | abierta   |
 * | eliminada | {"action":"restaurar"}        | its estado|
 * | abierta   | partial change, line changes  | abierta   |
 * | abierta   | split, merge, transfer        | abierta   |  (merged ones: eliminada)
 * | abierta   | pagar, anular_pago, descontar | abierta   |  (feature cobros)
 * | cerrada   | reembolsar                    | cerrada   |  (feature cobros)
 * | abierta   | enviar, disparar, entregar    | abierta   |  (feature cocina)
 * | abierta   | preparar, listo, recuperar    | abierta   |  (feature cocina)
 * | cerrada   | preparar, listo, recuperar    | cerrada   |  (feature cocina)
 * | eliminada | listo                         | eliminada |  (feature cocina)
 * | abierta   | DELETE                        | eliminada |
 * | cerrada   | DELETE                        | eliminada |
 *
 * Any other pair: 409 INVALID_TRANSITION naming the current state.
 */

export type ComandaEstado = 'abierta' | 'cerrada';
export type ComandaState = ComandaEstado | 'eliminada';

/** Everything that can happen to a comanda; also the `accion` of its audit events. */
export type ComandaAction =
  | 'abrir'
  | 'cerrar'
  | 'restaurar'
  | 'editar'
  | 'eliminar'
  | 'agregar_item'
  | 'modificar_item'
  | 'quitar_item'
  | 'dividir'
  | 'unir'
  | 'transferir'
  // money (the cobros module, when it is on)
  | 'pagar'
  | 'anular_pago'
  | 'descontar'
  | 'reembolsar'
  // the kitchen (the cocina module, when it is on)
  | 'enviar'
  | 'disparar'
  | 'entregar'
  | 'preparar'
  | 'listo'
  | 'recuperar';

export const COMANDA_ACTIONS: readonly ComandaAction[] = [
  'abrir',
  'cerrar',
  'restaurar',
  'editar',
  'eliminar',
  'agregar_item',
  'modificar_item',
  'quitar_item',
  'dividir',
  'unir',
  'transferir',
  'pagar',
  'anular_pago',
  'descontar',
  'reembolsar',
  'enviar',
  'disparar',
  'entregar',
  'preparar',
  'listo',
  'recuperar',
];

export const COMANDA_STATES: readonly ComandaState[] = ['abierta', 'cerrada', 'eliminada'];

/** What an allowed action does to the comanda's columns. */
export interface Transition {
  estado?: ComandaEstado;
  eliminada?: boolean;
}

const TRANSITIONS: Record<ComandaState, Partial<Record<ComandaAction, Transition>>> = {
  abierta: {
    cerrar: { estado: 'cerrada' },
    editar: {},
    agregar_item: {},
    modificar_item: {},
    quitar_item: {},
    dividir: {},
    unir: {},
    transferir: {},
    eliminar: { eliminada: true },
    pagar: {},
    anular_pago: {},
    descontar: {},
    enviar: {},
    disparar: {},
    entregar: {},
    preparar: {},
    listo: {},
    recuperar: {},
  },
  cerrada: {
    abrir: { estado: 'abierta' },
    eliminar: { eliminada: true },
    reembolsar: {},
    // the kitchen finishes what a closed (paid early) comanda ordered
    preparar: {},
    listo: {},
    recuperar: {},
  },
  eliminada: {
    restaurar: { eliminada: false },
    // a deleted comanda's tickets (its cancellations) are cleared from the screens
    listo: {},
  },
};

export function stateOf(comanda: { estado: ComandaEstado; eliminada: boolean }): ComandaState {
  return comanda.eliminada ? 'eliminada' : comanda.estado;
}

export class InvalidTransitionError extends DomainError {
  constructor(
    readonly state: ComandaState,
    readonly action: ComandaAction,
  ) {
    super(invalidTransition.options(state, action));
  }
}

/** The change `action` makes from `state`; throws INVALID_TRANSITION when not allowed. */
export function transition(state: ComandaState, action: ComandaAction): Transition {
  const allowed = TRANSITIONS[state][action];
  if (!allowed) throw new InvalidTransitionError(state, action);
  return allowed;
}

/** The actions allowed from `state` (documentation, OpenAPI, tests). */
export function allowedActions(state: ComandaState): ComandaAction[] {
  return COMANDA_ACTIONS.filter((action) => TRANSITIONS[state][action] !== undefined);
}
