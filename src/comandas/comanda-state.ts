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
 * | abierta   | DELETE                        | eliminada |
 * | cerrada   | DELETE                        | eliminada |
 *
 * A module that extends the comandas adds rows of its own: its actions and the states each is
 * allowed from, declared in its folder (a ComandaExtensionContract, comanda-contract.ts) and
 * added here when the application is composed (ComandasModule.extendWith), after these.
 *
 * Any other pair: 409 INVALID_TRANSITION naming the current state.
 */

export type ComandaEstado = 'abierta' | 'cerrada';
export type ComandaState = ComandaEstado | 'eliminada';

/** The comanda's own actions, in the order answers list them. */
export const COMANDA_OWN_ACTIONS = [
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
] as const;
export type ComandaOwnAction = (typeof COMANDA_OWN_ACTIONS)[number];

/**
 * The names of the actions the extensions add, as keys: each module adds its own to this
 * interface from its folder (declaration merging), so that `ComandaAction` names them too.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the extensions
export interface ExtensionComandaActions {}

/** Everything that can happen to a comanda; also the `accion` of its audit events. */
export type ComandaAction = ComandaOwnAction | keyof ExtensionComandaActions;

export const COMANDA_STATES: readonly ComandaState[] = ['abierta', 'cerrada', 'eliminada'];

/** What an allowed action does to the comanda's columns ({}: nothing, the state stays). */
export interface Transition {
  estado?: ComandaEstado;
  eliminada?: boolean;
}

/** The states an action is allowed from, each with what it does there. */
export type ActionMoves = Partial<Record<ComandaState, Transition>>;

const OWN_TRANSITIONS: Record<ComandaState, Partial<Record<ComandaOwnAction, Transition>>> = {
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
  },
  cerrada: {
    abrir: { estado: 'abierta' },
    eliminar: { eliminada: true },
  },
  eliminada: {
    restaurar: { eliminada: false },
  },
};

/** The machine as composed: the comanda's own moves, then those of its extensions. */
const actions: ComandaAction[] = [...COMANDA_OWN_ACTIONS];
const transitions: Record<ComandaState, Partial<Record<ComandaAction, Transition>>> = {
  abierta: { ...OWN_TRANSITIONS.abierta },
  cerrada: { ...OWN_TRANSITIONS.cerrada },
  eliminada: { ...OWN_TRANSITIONS.eliminada },
};

/**
 * Adds an extension's action, allowed from the states of `moves` (ComandasModule.extendWith,
 * when the application is composed). An action has one owner: a second one is a bug.
 */
export function addAction(action: ComandaAction, moves: ActionMoves): void {
  if (actions.includes(action)) throw new Error(`The comanda action ${action} is defined twice`);
  actions.push(action);
  for (const state of COMANDA_STATES) {
    const move = moves[state];
    if (move) transitions[state][action] = move;
  }
}

/** Every action: the comanda's own, then its extensions' in their order (the answers' order). */
export function comandaActions(): readonly ComandaAction[] {
  return actions;
}

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
  const allowed = transitions[state][action];
  if (!allowed) throw new InvalidTransitionError(state, action);
  return allowed;
}

/** The actions allowed from `state` (documentation, OpenAPI, tests). */
export function allowedActions(state: ComandaState): ComandaAction[] {
  return actions.filter((action) => transitions[state][action] !== undefined);
}
