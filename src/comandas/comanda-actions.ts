import type { Request } from 'express';
import { ResourceActions } from '../auth/resource-actions';
import {
  allowedActions,
  COMANDA_ACTIONS,
  type ComandaAction,
  type ComandaState,
} from './comanda-state';
import {
  COMANDA_UPDATE_ACTIONS,
  EDITABLE_FIELDS,
  type ComandaUpdateAction,
  type EditableField,
} from './dto/comanda-input.dto';

/**
 * The comanda actions and the permission each needs (docs/security.md, "Roles"), over the state
 * machine: the one place of that rule. The routes declare their permission from it
 * (comandas.controller.ts) and every comanda answer lists as `acciones` what its caller may do
 * to it now (docs/comandas.md, "Acciones").
 */
export const COMANDA_ACCIONES = new ResourceActions<ComandaState, ComandaAction>(
  COMANDA_ACTIONS,
  {
    // closing and reopening are the cashier's
    abrir: 'comandas:close',
    cerrar: 'comandas:close',
    // deleting and restoring a deleted comanda, the admin's
    restaurar: 'comandas:delete',
    eliminar: 'comandas:delete',
    // opening and editing (its fields, its lines), the waiter's
    editar: 'comandas:write',
    agregar_item: 'comandas:write',
    modificar_item: 'comandas:write',
    quitar_item: 'comandas:write',
    // the floor's operations, the waiters' and the cashier's at the till
    dividir: 'comandas:split',
    unir: 'comandas:merge',
    transferir: 'comandas:transfer',
    // money, with the feature cobros (its permissions are nobody's while it is off)
    pagar: 'cobros:pay',
    anular_pago: 'cobros:void',
    descontar: 'cobros:discount',
    reembolsar: 'cobros:refund',
    // the kitchen, with the feature cocina: the floor sends, fires and serves; the kitchen
    // starts, bumps and recalls its tickets
    enviar: 'cocina:send',
    disparar: 'cocina:send',
    entregar: 'cocina:send',
    preparar: 'cocina:bump',
    listo: 'cocina:bump',
    recuperar: 'cocina:bump',
  },
  allowedActions,
);

/** What a PUT /comandas/:id can do. */
export type UpdateAction = ComandaUpdateAction | 'transferir' | 'editar';
export const UPDATE_ACTIONS: readonly UpdateAction[] = [
  ...COMANDA_UPDATE_ACTIONS,
  'transferir',
  'editar',
];

/**
 * What a PUT /comandas/:id body does: its `action` (abrir, cerrar, restaurar); else, the table
 * alone, a transfer (the party moves); else an edit of the fields. Read from the raw body by
 * the permission check (before validation: an unknown action is an edit there, and 400 after)
 * and from the validated one by the service.
 */
export function updateActionOf(
  body: { readonly action?: unknown } & { readonly [F in EditableField]?: unknown },
): UpdateAction {
  const action = body.action;
  if (typeof action === 'string' && (COMANDA_UPDATE_ACTIONS as readonly string[]).includes(action))
    return action as ComandaUpdateAction;
  const onlyTable =
    action === undefined &&
    body.id_mesa !== undefined &&
    EDITABLE_FIELDS.every((name) => name === 'id_mesa' || body[name] === undefined);
  return onlyTable ? 'transferir' : 'editar';
}

/** The action of a PUT /comandas/:id request, for its permission. */
export function updateActionOfRequest(request: Request): UpdateAction {
  return updateActionOf((request.body ?? {}) as Record<string, unknown>);
}
