import '../modules';
import { REQUIRED_PERMISSION } from '../auth/auth.decorators';
import { Grants } from '../auth/grants';
import { ROLE_NAMES, type Permission } from '../auth/permissions';
import { ROUTE_ACTIONS } from '../auth/resource-actions';
import { ENVIO_ACCIONES, ENVIO_ACTIONS, ENVIO_ESTADOS, type EnvioAction } from './cocina-actions';
import { CocinaController } from './cocina.controller';
import { COCINA_EXTENSION } from './comanda-extension';

describe('kitchen ticket actions: one map of action → permission, for the routes and `acciones`', () => {
  it('every action has a route, asking for its permission (the same as the comanda action’s)', () => {
    const prototype = CocinaController.prototype as unknown as Record<string, object>;
    const declared = Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const actions = Reflect.getMetadata(ROUTE_ACTIONS, prototype[name]) as
        EnvioAction[] | undefined;
      const permission = Reflect.getMetadata(REQUIRED_PERMISSION, prototype[name]) as Permission;
      return (actions ?? []).map((action) => ({ action, permission }));
    });
    expect(declared.map((d) => d.action).sort()).toEqual([...ENVIO_ACTIONS].sort());
    for (const { action, permission } of declared) {
      expect(permission).toBe(ENVIO_ACCIONES.permissionOf(action));
      expect(permission).toBe(COCINA_EXTENSION.acciones.permissionOf(action));
    }
  });

  it('gives each role the actions docs/cocina.md lists, per ticket state', () => {
    const table = Object.fromEntries(
      ROLE_NAMES.map((role) => [
        role,
        Object.fromEntries(
          ENVIO_ESTADOS.map((estado) => [
            estado,
            ENVIO_ACCIONES.permitted(estado, Grants.ofRoles([role])),
          ]),
        ),
      ]),
    );
    const bump = {
      pendiente: ['preparar', 'listo'],
      en_preparacion: ['listo'],
      listo: ['recuperar'],
    };
    const none = { pendiente: [], en_preparacion: [], listo: [] };
    expect(table).toEqual({ admin: bump, cajero: none, mozo: none, cocina: bump });
  });

  it('lists none while the feature is off for the tenant', () => {
    expect(ENVIO_ACCIONES.permitted('pendiente', Grants.ALL.without(['cocina']))).toEqual([]);
  });
});
