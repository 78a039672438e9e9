import type { TenantFeature } from '../common/config/features';

/**
 * The permission matrix (docs/security.md). Roles are the rows of the tenant's `roles` table
 * assigned through `usua_roles`, matched by name (case and surrounding spaces ignored); a role
 * with another name gives nothing. `admin` holds every permission, including later ones.
 *
 * The comandas' permissions are written here; every other module declares its own in its plugin
 * (`src/<module>/<module>.plugin.ts`), with the roles that hold them, and they follow these in
 * the order of the module list (src/modules.ts).
 */
export const CORE_PERMISSIONS = [
  'comandas:read',
  'comandas:write',
  'comandas:close',
  'comandas:delete',
  'comandas:split',
  'comandas:merge',
  'comandas:transfer',
] as const;

/**
 * The modules' permissions: each plugin adds its own by declaration merging, so that a route's
 * `@RequirePermission('reservas:seat')` is checked by the compiler:
 *
 * ```ts
 * declare module '../auth/permissions' {
 *   interface ModulePermissions { 'reservas:read': true; 'reservas:seat': true }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModulePermissions {}

export type Permission =
  (typeof CORE_PERMISSIONS)[number] | Extract<keyof ModulePermissions, string>;

export const ROLE_NAMES = ['admin', 'cajero', 'mozo', 'cocina'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** A module's permission: the roles that hold it besides `admin`. */
export interface PermissionDefinition {
  roles: readonly Exclude<RoleName, 'admin'>[];
}

const CORE_MATRIX: Record<Exclude<RoleName, 'admin'>, readonly Permission[]> = {
  /**
   * Cashier: sees the comandas, closes them for payment and reopens a closed one; splits the
   * bill, joins tickets and moves a party to another table at the till.
   */
  cajero: [
    'comandas:read',
    'comandas:close',
    'comandas:split',
    'comandas:merge',
    'comandas:transfer',
  ],
  /**
   * Waiter: opens comandas and edits them (lines, table, customer, note) while open, splits,
   * merges and transfers them.
   */
  mozo: [
    'comandas:read',
    'comandas:write',
    'comandas:split',
    'comandas:merge',
    'comandas:transfer',
  ],
  /** Kitchen: sees the comandas to prepare them. */
  cocina: ['comandas:read'],
};

let permissions: readonly Permission[] | undefined;
const matrix = new Map<RoleName, ReadonlySet<Permission>>();
const featureOf = new Map<Permission, TenantFeature>();

/**
 * Installs the modules' permissions, in the order of the module list (src/module-plugin.ts does
 * it once, when src/modules.ts is read). `feature`: while it is off for a tenant, the
 * permission is nobody's there (no `acciones` of its, not in `/me`), as if it did not exist.
 */
export function installPermissions(
  modules: readonly {
    permissions: Readonly<Record<string, PermissionDefinition>>;
    feature?: TenantFeature;
  }[],
): void {
  if (permissions !== undefined) throw new Error('The permissions are installed once');
  const all: Permission[] = [...CORE_PERMISSIONS];
  const held = new Map<RoleName, Permission[]>(
    Object.entries(CORE_MATRIX).map(([role, list]) => [role as RoleName, [...list]]),
  );
  for (const module of modules) {
    for (const [name, definition] of Object.entries(module.permissions)) {
      const permission = name as Permission;
      if (all.includes(permission)) throw new Error(`Permission "${name}" is declared twice`);
      all.push(permission);
      for (const role of definition.roles) held.get(role)!.push(permission);
      if (module.feature) featureOf.set(permission, module.feature);
    }
  }
  permissions = all;
  matrix.set('admin', new Set(all));
  for (const [role, list] of held) matrix.set(role, new Set(list));
}

/** Every permission: the comandas' own, then the modules' in the order of the module list. */
export function allPermissions(): readonly Permission[] {
  if (permissions === undefined)
    throw new Error(
      'The permissions are read before the modules are installed: import src/modules.ts first',
    );
  return permissions;
}

/** The feature a permission belongs to, if any (its module's, when the module says so). */
export function featureOfPermission(permission: Permission): TenantFeature | undefined {
  allPermissions();
  return featureOf.get(permission);
}

function roleName(name: string): RoleName | undefined {
  const normalized = name.trim().toLowerCase();
  return (ROLE_NAMES as readonly string[]).includes(normalized)
    ? (normalized as RoleName)
    : undefined;
}

/** Whether any of `roles` (names as stored) gives `permission`. */
export function rolesAllow(roles: readonly string[], permission: Permission): boolean {
  allPermissions();
  return roles.some((name) => {
    const role = roleName(name);
    return role !== undefined && matrix.get(role)!.has(permission);
  });
}

/** The permissions of a role, for documentation and the token CLI. */
export function permissionsOf(roles: readonly string[]): Permission[] {
  return allPermissions().filter((permission) => rolesAllow(roles, permission));
}
