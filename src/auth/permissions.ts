/**
 * The permission matrix (docs/security.md). Roles are the rows of the tenant's `roles` table
 * assigned through `usua_roles`, matched by name (case and surrounding spaces ignored); a role
 * with another name gives nothing. `admin` holds every permission, including later ones.
 */
export const PERMISSIONS = [
  'comandas:read',
  'comandas:write',
  'comandas:close',
  'comandas:delete',
  'asistencia:import',
  'tables:access',
  'rpc:call',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_NAMES = ['admin', 'cajero', 'mozo', 'cocina'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const MATRIX: Record<RoleName, readonly Permission[]> = {
  admin: PERMISSIONS,
  /** Cashier: sees the comandas, closes them for payment and reopens a closed one. */
  cajero: ['comandas:read', 'comandas:close'],
  /** Waiter: opens comandas and edits them (lines, table, customer, note) while open. */
  mozo: ['comandas:read', 'comandas:write'],
  /** Kitchen: sees the comandas to prepare them. */
  cocina: ['comandas:read'],
};

function roleName(name: string): RoleName | undefined {
  const normalized = name.trim().toLowerCase();
  return (ROLE_NAMES as readonly string[]).includes(normalized)
    ? (normalized as RoleName)
    : undefined;
}

/** Whether any of `roles` (names as stored) gives `permission`. */
export function rolesAllow(roles: readonly string[], permission: Permission): boolean {
  return roles.some((name) => {
    const role = roleName(name);
    return role !== undefined && MATRIX[role].includes(permission);
  });
}

/** The permissions of a role, for documentation and the token CLI. */
export function permissionsOf(roles: readonly string[]): Permission[] {
  return PERMISSIONS.filter((permission) => rolesAllow(roles, permission));
}
