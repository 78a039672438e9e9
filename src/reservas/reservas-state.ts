import { DomainError } from '../common/errors/domain-error';
import { invalidReservaTransition } from './reservas.errors';

/**
 * The reservation state machine, in one place (docs/reservas.md):
 *
 * | from      | action      | next      |
 * |-----------|-------------|-----------|
 * | pendiente | editar      | pendiente |
 * | pendiente | sentar      | sentada   |  (opens a comanda on its table)
 * | pendiente | cancelar    | cancelada |  (with a motivo)
 * | pendiente | no_show     | no_show   |
 *
 * sentada, cancelada and no_show are final. Any other pair: 409 INVALID_TRANSITION naming the
 * current state.
 */

export const RESERVA_ESTADOS = ['pendiente', 'sentada', 'cancelada', 'no_show'] as const;
export type ReservaEstado = (typeof RESERVA_ESTADOS)[number];

export const RESERVA_ACTIONS = ['editar', 'sentar', 'cancelar', 'no_show'] as const;
export type ReservaAction = (typeof RESERVA_ACTIONS)[number];

const TRANSITIONS: Record<ReservaEstado, Partial<Record<ReservaAction, ReservaEstado>>> = {
  pendiente: {
    editar: 'pendiente',
    sentar: 'sentada',
    cancelar: 'cancelada',
    no_show: 'no_show',
  },
  sentada: {},
  cancelada: {},
  no_show: {},
};

export class InvalidReservaTransitionError extends DomainError {
  constructor(
    readonly estado: ReservaEstado,
    readonly action: ReservaAction,
  ) {
    super(invalidReservaTransition.options(estado, action));
  }
}

/** The state `action` leads to from `estado`; throws INVALID_TRANSITION when not allowed. */
export function transition(estado: ReservaEstado, action: ReservaAction): ReservaEstado {
  const next = TRANSITIONS[estado][action];
  if (next === undefined) throw new InvalidReservaTransitionError(estado, action);
  return next;
}

/** The actions allowed from `estado` (documentation, tests). */
export function allowedActions(estado: ReservaEstado): ReservaAction[] {
  return RESERVA_ACTIONS.filter((action) => TRANSITIONS[estado][action] !== undefined);
}

/** Whether `estado` is final (no action is allowed from it). */
export function isFinal(estado: ReservaEstado): boolean {
  return allowedActions(estado).length === 0;
}
