import { ResourceActions } from '../auth/resource-actions';

/** Where an endpoint stands: sent to (activo) or not (switched off by a person or the service). */
export const WEBHOOK_ESTADOS = ['activo', 'inactivo'] as const;
export type WebhookEstado = (typeof WEBHOOK_ESTADOS)[number];

/** What can be done to an endpoint, in the order answers list them. */
export const WEBHOOK_ACTIONS = [
  'editar',
  'probar',
  'rotar',
  'desactivar',
  'activar',
  'eliminar',
] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

const ALLOWED: Record<WebhookEstado, readonly WebhookAction[]> = {
  activo: ['editar', 'probar', 'rotar', 'desactivar', 'eliminar'],
  // a switched-off endpoint gets nothing, a test message included, until it is switched on
  inactivo: ['editar', 'rotar', 'activar', 'eliminar'],
};

/** The states a message's delivery goes through. */
export const ENTREGA_ESTADOS = ['pendiente', 'entregado', 'fallido'] as const;
export type EntregaEstado = (typeof ENTREGA_ESTADOS)[number];

export const ENTREGA_ACTIONS = ['reenviar'] as const;
export type EntregaAction = (typeof ENTREGA_ACTIONS)[number];

/**
 * The endpoints' actions and the permission each needs: all are the admin's `webhooks:manage`
 * (an endpoint's secret and where the tenant's data goes are an administrator's decision). The
 * routes declare their permission from here and every answer lists its `acciones` from here.
 */
export const WEBHOOK_ACCIONES = new ResourceActions<WebhookEstado, WebhookAction>(
  WEBHOOK_ACTIONS,
  {
    editar: 'webhooks:manage',
    probar: 'webhooks:manage',
    rotar: 'webhooks:manage',
    desactivar: 'webhooks:manage',
    activar: 'webhooks:manage',
    eliminar: 'webhooks:manage',
  },
  (estado) => ALLOWED[estado],
);

/**
 * A delivery can be sent again in any state of its own (a delivered one for a receiver that
 * lost it, a given-up one once the receiver is fixed, a pending one now rather than at its next
 * retry), while its endpoint is on: the state this map reads is the endpoint's.
 */
export const ENTREGA_ACCIONES = new ResourceActions<WebhookEstado, EntregaAction>(
  ENTREGA_ACTIONS,
  { reenviar: 'webhooks:manage' },
  (estadoDelWebhook) => (estadoDelWebhook === 'activo' ? ENTREGA_ACTIONS : []),
);
