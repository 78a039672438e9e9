import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { RequirePermission } from './auth.decorators';
import type { Grants } from './grants';
import type { Permission } from './permissions';

/** The actions a route performs on its resource (the metadata of RequireActionPermission). */
export const ROUTE_ACTIONS = 'comandas:route-actions';

/**
 * What the caller may do to the resources of one kind (comandas, reservations ...), from two
 * things the module already has: its state machine (which actions a state allows) and which
 * permission each action needs. That map is the one place of the rule: the routes declare
 * their permission from it (`RequireActionPermission`, `RequireActionPermissionOf`) and the
 * answers list the actions the caller may take now from it (`permitted`), so a button a
 * screen shows is a request the service accepts, state and roles permitting.
 *
 * A module builds one next to its state machine and calls `permitted(state, grants)` in its
 * mapper, with the grants of `CallerPermissions` (docs/adding-a-module.md).
 */
export class ResourceActions<S extends string, A extends string> {
  /** permitted() per grants and state: both are few, and one array serves every row. */
  private readonly cache = new Map<Grants, Map<S, readonly A[]>>();

  constructor(
    /** Every action, in the order answers list them. */
    readonly actions: readonly A[],
    /** The permission each action needs. */
    readonly permissions: Readonly<Record<A, Permission>>,
    /** The state machine: the actions allowed from a state (any order). */
    private readonly allowedFrom: (state: S) => readonly A[],
  ) {}

  permissionOf(action: A): Permission {
    return this.permissions[action];
  }

  /**
   * The actions a caller holding `grants` may take on a resource in `state`: allowed by the
   * state machine and given by the caller's permissions, in `actions` order. The same frozen
   * array for the same grants and state.
   */
  permitted(state: S, grants: Grants): readonly A[] {
    let byState = this.cache.get(grants);
    if (byState === undefined) {
      byState = new Map();
      this.cache.set(grants, byState);
    }
    let permitted = byState.get(state);
    if (permitted === undefined) {
      const allowed = this.allowedFrom(state);
      permitted = Object.freeze(
        this.actions.filter(
          (action) => allowed.includes(action) && grants.has(this.permissions[action]),
        ),
      );
      byState.set(state, permitted);
    }
    return permitted;
  }
}

/**
 * The route performs `action` on its resource: it needs the permission `actions` gives that
 * action (RequirePermission), and says which action it is (ROUTE_ACTIONS, read by the specs that
 * check every action has its route).
 */
export function RequireActionPermission<S extends string, A extends string>(
  actions: ResourceActions<S, A>,
  action: A,
) {
  return applyDecorators(
    RequirePermission(actions.permissionOf(action)),
    SetMetadata(ROUTE_ACTIONS, [action]),
  );
}

/**
 * For a route whose action depends on the request (a PUT whose body names it): the permission
 * of the action `actionOf` reads from the request, and the OpenAPI description listing them;
 * with `alsoNeeds`, the permissions the request needs besides (what else its body does).
 */
export function RequireActionPermissionOf<S extends string, A extends string>(
  actions: ResourceActions<S, A>,
  actionOf: (request: Request) => A,
  performs: readonly A[],
  alsoNeeds?: (request: Request) => readonly Permission[],
) {
  const byPermission = new Map<Permission, A[]>();
  for (const action of performs) {
    const permission = actions.permissionOf(action);
    byPermission.set(permission, [...(byPermission.get(permission) ?? []), action]);
  }
  const describe = [...byPermission]
    .map(([permission, named]) => `${permission} (${named.join(', ')})`)
    .join(', ');
  return applyDecorators(
    RequirePermission((request) => {
      const own = actions.permissionOf(actionOf(request));
      const more = alsoNeeds?.(request) ?? [];
      return more.length === 0 ? own : [own, ...more];
    }, describe),
    SetMetadata(ROUTE_ACTIONS, performs),
  );
}
