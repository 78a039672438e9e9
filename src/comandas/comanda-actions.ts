import type { Request } from 'express';
import type { Permission } from '../auth/permissions';
import { ResourceActions } from '../auth/resource-actions';
import { extensionUpdateFieldActions } from './comanda-contract';
import {
  allowedActions,
  COMANDA_OWN_ACTIONS,
  comandaActions,
  type ComandaAction,
  type ComandaOwnAction,
  type ComandaState,
} from './comanda-state';
import {
  COMANDA_UPDATE_ACTIONS,
  EDITABLE_FIELDS,
  type ComandaUpdateAction,
  type EditableField,
} from './dto/comanda-input.dto';

/** The permission each of the comanda's own actions needs (docs/security.md, "Roles"). */
const OWN_PERMISSIONS: Record<ComandaOwnAction, Permission> = {
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
};

/**
 * The comanda's own actions and the permission each needs: what its routes declare
 * (comandas.controller.ts). An extension's routes declare theirs from its own contract.
 */
export const OWN_ACCIONES = new ResourceActions<ComandaState, ComandaOwnAction>(
  COMANDA_OWN_ACTIONS,
  OWN_PERMISSIONS,
  (state) => COMANDA_OWN_ACTIONS.filter((action) => allowedActions(state).includes(action)),
);

/** The permission of every action, the extensions' added as the application is composed. */
const permissions: Partial<Record<ComandaAction, Permission>> = { ...OWN_PERMISSIONS };
let composed: ResourceActions<ComandaState, ComandaAction> | undefined;

/** An extension's action needs `permission` (ComandasModule.extendWith). */
export function addActionPermission(action: ComandaAction, permission: Permission): void {
  permissions[action] = permission;
  composed = undefined;
}

/**
 * Every comanda action and the permission each needs, over the state machine: the one place of
 * that rule once the application is composed. Every comanda answer lists as `acciones` what its
 * caller may do to it now from it (docs/comandas.md, "Acciones"), in comandaActions() order.
 */
export function comandaAcciones(): ResourceActions<ComandaState, ComandaAction> {
  composed ??= new ResourceActions<ComandaState, ComandaAction>(
    comandaActions(),
    permissions as Record<ComandaAction, Permission>,
    allowedActions,
  );
  return composed;
}

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

/**
 * The permissions a PUT /comandas/:id request needs besides its action's: those of the actions
 * the extensions' fields it sends perform (`pagos` pays: cobros:pay), read from the raw body.
 */
export function updateFieldPermissionsOfRequest(request: Request): Permission[] {
  const body = (request.body ?? {}) as Record<string, unknown>;
  return extensionUpdateFieldActions()
    .filter(([field]) => body[field] !== undefined)
    .map(([, action]) => comandaAcciones().permissionOf(action));
}
