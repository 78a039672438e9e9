import type { Request } from 'express';
import { REQUIRED_PERMISSION, type PermissionResolver } from '../auth/auth.decorators';
import { Grants } from '../auth/grants';
import { ROLE_NAMES, type Permission } from '../auth/permissions';
import { ROUTE_ACTIONS } from '../auth/resource-actions';
import { comandaExtensions } from '../modules';
import {
  comandaAcciones,
  OWN_ACCIONES,
  updateActionOf,
  type UpdateAction,
} from './comanda-actions';
import {
  allowedActions,
  COMANDA_OWN_ACTIONS,
  COMANDA_STATES,
  comandaActions,
  type ComandaAction,
} from './comanda-state';
import { CobrosController } from '../cobros/cobros.controller';
import { CocinaComandasController, CocinaController } from '../cocina/cocina.controller';
import { ComandasController } from './comandas.controller';
import { ComandasModule } from './comandas.module';

// the actions as the application composes them: the comanda's own, then its extensions'
ComandasModule.extendWith(comandaExtensions());
const COMANDA_ACTIONS = comandaActions();
const COMANDA_ACCIONES = comandaAcciones();

/** A PUT /comandas/:id body that does each thing the route does. */
const PUT_BODIES: Record<UpdateAction, object> = {
  abrir: { action: 'abrir' },
  cerrar: { action: 'cerrar' },
  restaurar: { action: 'restaurar' },
  transferir: { id_mesa: 3 },
  editar: { observacion: 'sin ají' },
};

/** Each route that performs actions: the actions, and the permission it asks for each. */
function routes(): {
  route: string;
  action: ComandaAction;
  permission: Permission | readonly Permission[];
}[] {
  // the comanda's own routes, and those of the money (feature cobros) and kitchen (feature
  // cocina) modules
  return [ComandasController, CobrosController, CocinaComandasController, CocinaController].flatMap(
    (controller) => {
      const prototype = controller.prototype as unknown as Record<string, object>;
      return Object.getOwnPropertyNames(prototype).flatMap((name) => {
        const handler = prototype[name];
        const actions = Reflect.getMetadata(ROUTE_ACTIONS, handler) as ComandaAction[] | undefined;
        if (!actions) return [];
        const required = Reflect.getMetadata(REQUIRED_PERMISSION, handler) as
          Permission | PermissionResolver;
        return actions.map((action) => ({
          route: name,
          action,
          permission:
            typeof required === 'function'
              ? required({ body: PUT_BODIES[action as UpdateAction] } as Request)
              : required,
        }));
      });
    },
  );
}

describe('comanda actions: one map of action → permission, for the routes and `acciones`', () => {
  it('every action has a route, and each route asks for its action’s permission', () => {
    const declared = routes();
    expect(declared.map((r) => r.action).sort()).toEqual([...COMANDA_ACTIONS].sort());
    for (const { route, action, permission } of declared)
      expect({ route, action, permission }).toEqual({
        route,
        action,
        permission: COMANDA_ACCIONES.permissionOf(action),
      });
  });

  it('gives each role the actions docs/comandas.md lists, per state', () => {
    const table = Object.fromEntries(
      ROLE_NAMES.map((role) => [
        role,
        Object.fromEntries(
          COMANDA_STATES.map((state) => [
            state,
            COMANDA_ACCIONES.permitted(state, Grants.ofRoles([role])),
          ]),
        ),
      ]),
    );
    expect(table).toEqual({
      admin: {
        abierta: [
          'cerrar',
          'editar',
          'eliminar',
          'agregar_item',
          'modificar_item',
          'quitar_item',
          'dividir',
          'unir',
          'transferir',
          'pagar',
          'anular_pago',
          'descontar',
          'enviar',
          'disparar',
          'entregar',
          'preparar',
          'listo',
          'recuperar',
        ],
        cerrada: ['abrir', 'eliminar', 'reembolsar', 'preparar', 'listo', 'recuperar'],
        eliminada: ['restaurar', 'listo'],
      },
      cajero: {
        abierta: [
          'cerrar',
          'dividir',
          'unir',
          'transferir',
          'pagar',
          'anular_pago',
          'enviar',
          'disparar',
          'entregar',
        ],
        cerrada: ['abrir'],
        eliminada: [],
      },
      mozo: {
        abierta: [
          'editar',
          'agregar_item',
          'modificar_item',
          'quitar_item',
          'dividir',
          'unir',
          'transferir',
          'enviar',
          'disparar',
          'entregar',
        ],
        cerrada: [],
        eliminada: [],
      },
      cocina: {
        abierta: ['preparar', 'listo', 'recuperar'],
        cerrada: ['preparar', 'listo', 'recuperar'],
        eliminada: ['listo'],
      },
    });
  });

  it('lists no money action while the feature cobros is off for the tenant', () => {
    const off = (role: string) => Grants.ofRoles([role]).without(['cobros', 'cocina']);
    expect(COMANDA_ACCIONES.permitted('abierta', off('admin'))).toEqual([
      'cerrar',
      'editar',
      'eliminar',
      'agregar_item',
      'modificar_item',
      'quitar_item',
      'dividir',
      'unir',
      'transferir',
    ]);
    expect(COMANDA_ACCIONES.permitted('cerrada', off('admin'))).toEqual(['abrir', 'eliminar']);
    expect(COMANDA_ACCIONES.permitted('abierta', Grants.ALL.without(['cobros']))).not.toContain(
      'pagar',
    );
    // nor a kitchen action while cocina is off
    expect(COMANDA_ACCIONES.permitted('abierta', Grants.ALL.without(['cocina']))).not.toContain(
      'enviar',
    );
    expect(COMANDA_ACCIONES.permitted('eliminada', Grants.ALL.without(['cocina']))).toEqual([
      'restaurar',
    ]);
  });

  it('gives every action the state allows with every permission (AUTH_MODE=off)', () => {
    for (const state of COMANDA_STATES)
      expect(COMANDA_ACCIONES.permitted(state, Grants.ALL)).toEqual(allowedActions(state));
  });

  it('gives the comanda’s own routes the permissions of its own actions, the same once composed', () => {
    for (const action of COMANDA_OWN_ACTIONS)
      expect(OWN_ACCIONES.permissionOf(action)).toBe(COMANDA_ACCIONES.permissionOf(action));
    for (const state of COMANDA_STATES)
      expect(OWN_ACCIONES.permitted(state, Grants.ALL)).toEqual(
        allowedActions(state).filter((a) => (COMANDA_OWN_ACTIONS as readonly string[]).includes(a)),
      );
  });

  it('asks a PUT that pays as it closes for the permission of paying too', () => {
    const prototype = ComandasController.prototype as unknown as Record<string, object>;
    const required = Reflect.getMetadata(
      REQUIRED_PERMISSION,
      prototype.update,
    ) as PermissionResolver;
    const put = (body: object) => required({ body } as Request);
    expect(put({ action: 'cerrar', pagos: [{ id_metodo_pago: 1, monto: 5 }] })).toEqual([
      'comandas:close',
      'cobros:pay',
    ]);
    // the body's action first: the answer names the first permission missing
    expect(put({ action: 'abrir', pagos: [] })).toEqual(['comandas:close', 'cobros:pay']);
    expect(put({ action: 'cerrar' })).toBe('comandas:close');
    expect(put({ observacion: 'x', pagos: null })).toEqual(['comandas:write', 'cobros:pay']);
  });

  it('reads what a PUT does from its body, as the service audits it', () => {
    for (const [action, body] of Object.entries(PUT_BODIES))
      expect(updateActionOf(body)).toBe(action);
    expect(updateActionOf({ id_mesa: 3, observacion: 'terraza' })).toBe('editar');
    expect(updateActionOf({ action: 'eliminar' })).toBe('editar');
    expect(updateActionOf({})).toBe('editar');
  });
});
