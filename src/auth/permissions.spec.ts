import '../modules';
import { allPermissions, permissionsOf, rolesAllow, ROLE_NAMES } from './permissions';

describe('permission matrix', () => {
  it('gives each role what docs/security.md says', () => {
    const table = Object.fromEntries(ROLE_NAMES.map((role) => [role, permissionsOf([role])]));
    expect(table).toEqual({
      admin: [...allPermissions()],
      cajero: [
        'comandas:read',
        'comandas:close',
        'comandas:split',
        'comandas:merge',
        'comandas:transfer',
        'reservas:read',
        'reservas:write',
        'reservas:no-show',
        'cobros:pay',
        'cobros:void',
        'caja:operate',
        'inventario:read',
        'cocina:read',
        'cocina:send',
        'reportes:read',
      ],
      mozo: [
        'comandas:read',
        'comandas:write',
        'comandas:split',
        'comandas:merge',
        'comandas:transfer',
        'reservas:read',
        'reservas:write',
        'reservas:seat',
        'cocina:read',
        'cocina:send',
      ],
      cocina: ['comandas:read', 'reservas:read', 'inventario:waste', 'cocina:read', 'cocina:bump'],
    });
  });

  it('adds up the roles of a user holding several', () => {
    expect(permissionsOf(['cajero', 'mozo'])).toEqual([
      'comandas:read',
      'comandas:write',
      'comandas:close',
      'comandas:split',
      'comandas:merge',
      'comandas:transfer',
      'reservas:read',
      'reservas:write',
      'reservas:seat',
      'reservas:no-show',
      'cobros:pay',
      'cobros:void',
      'caja:operate',
      'inventario:read',
      'cocina:read',
      'cocina:send',
      'reportes:read',
    ]);
  });

  it('matches role names as stored, whatever their case and surrounding spaces', () => {
    expect(rolesAllow([' Cajero '], 'comandas:close')).toBe(true);
    expect(rolesAllow(['ADMIN'], 'rpc:call')).toBe(true);
  });

  it('gives nothing to an unknown role or to no role', () => {
    expect(permissionsOf(['gerente', 'mozos'])).toEqual([]);
    expect(permissionsOf([])).toEqual([]);
    expect(rolesAllow(['cocina'], 'comandas:write')).toBe(false);
    expect(rolesAllow(['cocina'], 'comandas:split')).toBe(false);
  });
});
