import '../modules';
import { REQUIRED_PERMISSION } from '../auth/auth.decorators';
import { Grants } from '../auth/grants';
import { ROLE_NAMES, type Permission } from '../auth/permissions';
import { ROUTE_ACTIONS } from '../auth/resource-actions';
import {
  ENTREGA_ACCIONES,
  ENTREGA_ACTIONS,
  WEBHOOK_ACCIONES,
  WEBHOOK_ACTIONS,
  WEBHOOK_ESTADOS,
} from './webhook-actions';
import { parseRetryDelays, subscribes, unknownEvents, urlForLogs } from './webhook-events';
import { WebhooksController } from './webhooks.controller';

describe('webhook actions: one map of action → permission, for the routes and `acciones`', () => {
  it('every action has its route, and the route asks for the action’s permission', () => {
    const prototype = WebhooksController.prototype as unknown as Record<string, object>;
    const declared = Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const actions = Reflect.getMetadata(ROUTE_ACTIONS, prototype[name]) as string[] | undefined;
      const permission = Reflect.getMetadata(REQUIRED_PERMISSION, prototype[name]) as
        Permission | ((request: unknown) => Permission);
      return (actions ?? []).map((action) => ({ action, permission }));
    });
    expect(declared.map((d) => d.action).sort()).toEqual(
      [...WEBHOOK_ACTIONS, ...ENTREGA_ACTIONS].sort(),
    );
    for (const { action, permission } of declared) {
      const expected = (ENTREGA_ACTIONS as readonly string[]).includes(action)
        ? ENTREGA_ACCIONES.permissionOf('reenviar')
        : WEBHOOK_ACCIONES.permissionOf(action as (typeof WEBHOOK_ACTIONS)[number]);
      const asked =
        typeof permission === 'function'
          ? permission({
              body: {
                activo: action === 'activar' ? true : action === 'desactivar' ? false : undefined,
              },
            })
          : permission;
      expect({ action, permission: asked }).toEqual({ action, permission: expected });
    }
  });

  it('gives the admin every action a state allows, and the other roles none', () => {
    const table = Object.fromEntries(
      ROLE_NAMES.map((role) => [
        role,
        Object.fromEntries(
          WEBHOOK_ESTADOS.map((estado) => [
            estado,
            WEBHOOK_ACCIONES.permitted(estado, Grants.ofRoles([role])),
          ]),
        ),
      ]),
    );
    expect(table).toEqual({
      admin: {
        activo: ['editar', 'probar', 'rotar', 'desactivar', 'eliminar'],
        inactivo: ['editar', 'rotar', 'activar', 'eliminar'],
      },
      cajero: { activo: [], inactivo: [] },
      mozo: { activo: [], inactivo: [] },
      cocina: { activo: [], inactivo: [] },
    });
  });
});

describe('webhook event types', () => {
  it('subscribes by name or by the module’s wildcard, and nothing else', () => {
    expect(subscribes(['comanda.cerrar'], 'comanda.cerrar')).toBe(true);
    expect(subscribes(['comanda.*'], 'comanda.dividir')).toBe(true);
    expect(subscribes(['comanda.*'], 'pago.pagar')).toBe(false);
    expect(subscribes(['comanda.cerrar'], 'comanda.abrir')).toBe(false);
    expect(unknownEvents(['comanda.*', 'comanda.pagada', '*', 'pago.pagar'])).toEqual([
      'comanda.pagada',
      '*',
    ]);
  });

  it('reads the retry waits in their units', () => {
    expect(parseRetryDelays('5s,5m,30m,2h,5h,10h,10h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(parseRetryDelays(' 250ms , 1d')).toEqual([250, 86_400_000]);
    expect(() => parseRetryDelays('5x')).toThrow('not a duration');
  });

  it('logs an endpoint by its scheme and host, never its path or query', () => {
    expect(urlForLogs('https://erp.example.com:8443/hooks/abc?token=s3cr3t')).toBe(
      'https://erp.example.com:8443',
    );
    expect(urlForLogs('nada')).toBe('(not a URL)');
  });
});
