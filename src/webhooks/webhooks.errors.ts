import { BadRequestError, ConflictError, NotFoundError } from '../common/errors/domain-error';
import { ERRORS, example } from '../common/http/openapi-errors';
import { SUBSCRIBABLE } from './webhook-events';

/** The error codes of webhooks, as small factories (docs/webhooks.md). */

export const webhookNotFound = (id: number) =>
  new NotFoundError(`Webhook ${id} does not exist`, 'WEBHOOK_NOT_FOUND', { id_webhook: id });

export const entregaNotFound = (id: number) =>
  new NotFoundError(`Delivery ${id} does not exist`, 'ENTREGA_NOT_FOUND', { id_entrega: id });

export const urlNotAllowed = (url: string, reason: string) =>
  new BadRequestError(`The webhook URL is not allowed: ${reason}`, 'WEBHOOK_URL_NOT_ALLOWED', {
    url,
    motivo: reason,
  });

export const unknownEventTypes = (unknown: string[]) =>
  new BadRequestError(
    `Unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: ` +
      `subscribe to a type such as comanda.cerrar or a wildcard such as comanda.*`,
    'WEBHOOK_UNKNOWN_EVENT',
    { desconocidos: unknown, validos: SUBSCRIBABLE },
  );

export const webhookInactive = (id: number) =>
  new ConflictError(
    `Webhook ${id} is switched off: switch it on (PATCH activo: true) to send it messages`,
    'WEBHOOK_INACTIVE',
    { id_webhook: id },
  );

export const emptyChange = () =>
  new BadRequestError('Send at least one of url, eventos, descripcion, activo', 'EMPTY_CHANGE');

/** The examples of these codes in the OpenAPI document. */
export const WEBHOOK_ERRORS = {
  WEBHOOK_NOT_FOUND: example(
    404,
    'WEBHOOK_NOT_FOUND',
    'No webhook has this id',
    'Webhook 9999 does not exist',
    { id_webhook: 9999 },
  ),
  ENTREGA_NOT_FOUND: example(
    404,
    'ENTREGA_NOT_FOUND',
    'No delivery has this id',
    'Delivery 9999 does not exist',
    { id_entrega: 9999 },
  ),
  WEBHOOK_URL_NOT_ALLOWED: example(
    400,
    'WEBHOOK_URL_NOT_ALLOWED',
    'The URL is not https in production, or its host is (or resolves to) a private, loopback or link-local address',
    'The webhook URL is not allowed: the host resolves to a private address (10.0.0.5)',
    {
      url: 'https://erp.interno/hooks',
      motivo: 'the host resolves to a private address (10.0.0.5)',
    },
  ),
  WEBHOOK_UNKNOWN_EVENT: example(
    400,
    'WEBHOOK_UNKNOWN_EVENT',
    'eventos names a type that does not exist',
    'Unknown event type comanda.pagada: subscribe to a type such as comanda.cerrar or a wildcard such as comanda.*',
    { desconocidos: ['comanda.pagada'], validos: ['comanda.*', 'comanda.crear', '…'] },
  ),
  WEBHOOK_INACTIVE: example(
    409,
    'WEBHOOK_INACTIVE',
    'The endpoint is switched off: nothing is sent to it',
    'Webhook 3 is switched off: switch it on (PATCH activo: true) to send it messages',
    { id_webhook: 3 },
  ),
  EMPTY_CHANGE: example(
    400,
    'EMPTY_CHANGE',
    'Nothing to change',
    'Send at least one of url, eventos, descripcion, activo',
  ),
  VALIDATION_FAILED: {
    ...ERRORS.VALIDATION_FAILED,
    body: {
      ...ERRORS.VALIDATION_FAILED.body,
      detail: [
        'eventos must contain at least 1 elements',
        'url must be shorter than or equal to 2048 characters',
      ],
    },
  },
};
