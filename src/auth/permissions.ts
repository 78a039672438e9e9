import type { TenantFeature } from '../common/config/features';

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
  'comandas:split',
  'comandas:merge',
  'comandas:transfer',
  'reservas:read',
  'reservas:write',
  'reservas:seat',
  'reservas:no-show',
  'asistencia:import',
  'tables:access',
  'rpc:call',
  'usuarios:credenciales',
  'cobros:pay',
  'cobros:void',
  'cobros:refund',
  'cobros:discount',
  'cobros:settings',
  'caja:operate',
  'caja:approve-difference',
  'inventario:read',
  'inventario:write',
  'inventario:waste',
  'cocina:read',
  'cocina:send',
  'cocina:bump',
  'cocina:manage',
  'reportes:read',
  'webhooks:manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * The permissions that belong to a switchable feature: while it is off for the tenant they are
 * nobody's (no `acciones` of theirs, not in `/me`), as if they did not exist.
 */
export const FEATURE_OF_PERMISSION: Partial<Record<Permission, TenantFeature>> = {
  'cobros:pay': 'cobros',
  'cobros:void': 'cobros',
  'cobros:refund': 'cobros',
  'cobros:discount': 'cobros',
  'cobros:settings': 'cobros',
  'caja:operate': 'cobros',
  'caja:approve-difference': 'cobros',
  'inventario:read': 'inventario',
  'inventario:write': 'inventario',
  'inventario:waste': 'inventario',
  'cocina:read': 'cocina',
  'cocina:send': 'cocina',
  'cocina:bump': 'cocina',
  'cocina:manage': 'cocina',
  'reportes:read': 'reportes',
  'webhooks:manage': 'webhooks',
};

export const ROLE_NAMES = ['admin', 'cajero', 'mozo', 'cocina'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const MATRIX: Record<RoleName, readonly Permission[]> = {
  admin: PERMISSIONS,
  /**
   * Cashier: sees the comandas, closes them for payment and reopens a closed one; splits the
   * bill, joins tickets and moves a party to another table at the till; keeps the
   * reservation book (books, changes, cancels, marks the no-shows) but seats no one (seating
   * opens a comanda, which is the waiter's).
   */
  cajero: [
    'comandas:read',
    'comandas:close',
    'comandas:split',
    'comandas:merge',
    'comandas:transfer',
    'reservas:read',
    'reservas:write',
    'reservas:no-show',
    // takes the money: payments, voids of a payment while the ticket is open, the till's
    // session (open, movements, close within the tolerance); refunds, discounts and a close
    // beyond the tolerance are the admin's
    'cobros:pay',
    'cobros:void',
    'caja:operate',
    // reads the stock, its movements, the counts and the food cost; changes none of it
    'inventario:read',
    // sends the orders it takes at the till to the kitchen and hands over what is ready
    'cocina:read',
    'cocina:send',
    // reads the reports: sales, expenses against sales, hours worked
    'reportes:read',
  ],
  /**
   * Waiter: opens comandas and edits them (lines, table, customer, note) while open, splits,
   * merges and transfers them; books, changes and cancels reservations and seats them (which
   * opens their comanda).
   */
  mozo: [
    'comandas:read',
    'comandas:write',
    'comandas:split',
    'comandas:merge',
    'comandas:transfer',
    'reservas:read',
    'reservas:write',
    'reservas:seat',
    // sends the table's orders to the kitchen, fires the next course, serves what is ready
    'cocina:read',
    'cocina:send',
  ],
  /**
   * Kitchen: sees the comandas to prepare them, and the reservations to plan the covers;
   * records the waste of what it throws away; works its station's tickets (starts them, bumps
   * them when ready, recalls a bumped one).
   */
  cocina: ['comandas:read', 'reservas:read', 'inventario:waste', 'cocina:read', 'cocina:bump'],
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
