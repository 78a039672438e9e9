import '../modules';
import { REQUIRED_PERMISSION } from '../auth/auth.decorators';
import { Grants } from '../auth/grants';
import { ROLE_NAMES, type Permission } from '../auth/permissions';
import { ROUTE_ACTIONS } from '../auth/resource-actions';
import { RESERVA_ACCIONES } from './reserva-actions';
import { RESERVA_ACTIONS, RESERVA_ESTADOS, type ReservaAction } from './reservas-state';
import { ReservasController } from './reservas.controller';

describe('reservation actions: one map of action → permission, for the routes and `acciones`', () => {
  it('every action has its route, and the route asks for the action’s permission', () => {
    const prototype = ReservasController.prototype as unknown as Record<string, object>;
    const declared = Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const actions = Reflect.getMetadata(ROUTE_ACTIONS, prototype[name]) as
        ReservaAction[] | undefined;
      const permission = Reflect.getMetadata(REQUIRED_PERMISSION, prototype[name]) as Permission;
      return (actions ?? []).map((action) => ({ action, permission }));
    });
    expect(declared.map((d) => d.action).sort()).toEqual([...RESERVA_ACTIONS].sort());
    for (const { action, permission } of declared)
      expect({ action, permission }).toEqual({
        action,
        permission: RESERVA_ACCIONES.permissionOf(action),
      });
  });

  it('gives each role the actions docs/reservas.md lists; the final states none', () => {
    const table = Object.fromEntries(
      ROLE_NAMES.map((role) => [
        role,
        Object.fromEntries(
          RESERVA_ESTADOS.map((estado) => [
            estado,
            RESERVA_ACCIONES.permitted(estado, Grants.ofRoles([role])),
          ]),
        ),
      ]),
    );
    const final = { sentada: [], cancelada: [], no_show: [] };
    expect(table).toEqual({
      admin: { pendiente: ['editar', 'sentar', 'cancelar', 'no_show'], ...final },
      cajero: { pendiente: ['editar', 'cancelar', 'no_show'], ...final },
      mozo: { pendiente: ['editar', 'sentar', 'cancelar'], ...final },
      cocina: { pendiente: [], ...final },
    });
  });
});
