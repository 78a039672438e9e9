import { ResourceActions } from '../auth/resource-actions';
import {
  allowedActions,
  RESERVA_ACTIONS,
  type ReservaAction,
  type ReservaEstado,
} from './reservas-state';

/**
 * The reservation actions and the permission each needs (docs/reservas.md, "Who may do what"),
 * over the state machine: the one place of that rule. The routes declare their permission from
 * it (reservas.controller.ts) and every reservation answer lists as `acciones` what its caller
 * may do to it now.
 */
export const RESERVA_ACCIONES = new ResourceActions<ReservaEstado, ReservaAction>(
  RESERVA_ACTIONS,
  {
    // whoever keeps the book (the cashier at the front, a waiter) changes and cancels
    editar: 'reservas:write',
    cancelar: 'reservas:write',
    // seating opens a comanda: the waiter's
    sentar: 'reservas:seat',
    // a no-show is the call of the front, the cashier's
    no_show: 'reservas:no-show',
  },
  allowedActions,
);
