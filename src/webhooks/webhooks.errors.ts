import { validationError } from '../common/errors/common.errors';
import { defineError } from '../common/errors/error-catalogue';
import { SUBSCRIBABLE } from './webhook-events';

/** The error codes of webhooks (docs/webhooks.md). */

export const webhookNotFound = defineError({
  status: 404,
  code: 'WEBHOOK_NOT_FOUND',
  summary: 'No webhook has this id',
  en: (id: number) => `Webhook ${id} does not exist`,
  es: (id) => `El webhook ${id} no existe`,
  detail: (id) => ({ id_webhook: id }),
  example: [9999],
});

export const entregaNotFound = defineError({
  status: 404,
  code: 'ENTREGA_NOT_FOUND',
  summary: 'No delivery has this id',
  en: (id: number) => `Delivery ${id} does not exist`,
  es: (id) => `La entrega ${id} no existe`,
  detail: (id) => ({ id_entrega: id }),
  example: [9999],
});

/** Why a URL is refused (webhook-address.ts writes them), English → Spanish. */
const URL_REASONS: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^the URL is longer than (\d+) characters$/, (m) => `la URL tiene más de ${m[1]} caracteres`],
  [/^not a valid absolute URL$/, () => 'no es una URL absoluta válida'],
  [/^the scheme must be http or https$/, () => 'el esquema debe ser http o https'],
  [/^the scheme must be https$/, () => 'el esquema debe ser https'],
  [
    /^the URL must not carry a user name or password$/,
    () => 'la URL no debe llevar usuario ni contraseña',
  ],
  [
    /^the host is a private address \((.+)\)$/,
    (m) => `el servidor es una dirección privada (${m[1]})`,
  ],
  [
    /^the host resolves to a private address \((.+)\)$/,
    (m) => `el servidor apunta a una dirección privada (${m[1]})`,
  ],
  [/^the host (\S+) does not resolve \((.+)\)$/, (m) => `el servidor ${m[1]} no existe (${m[2]})`],
];

/** A URL's refusal in Spanish; one of an unknown form is named as refused. */
export function urlReasonInSpanish(reason: string): string {
  for (const [pattern, spanish] of URL_REASONS) {
    const match = pattern.exec(reason);
    if (match) return spanish(match);
  }
  return 'la dirección no se puede usar';
}

export const urlNotAllowed = defineError({
  status: 400,
  code: 'WEBHOOK_URL_NOT_ALLOWED',
  summary:
    'The URL is not https in production, or its host is (or resolves to) a private, loopback or link-local address',
  en: (_url: string, reason: string) => `The webhook URL is not allowed: ${reason}`,
  es: (_url, reason) => `La URL del webhook no está permitida: ${urlReasonInSpanish(reason)}`,
  detail: (url, reason) => ({ url, motivo: reason }),
  example: ['https://erp.interno/hooks', 'the host resolves to a private address (10.0.0.5)'],
});

export const unknownEventTypes = defineError({
  status: 400,
  code: 'WEBHOOK_UNKNOWN_EVENT',
  summary: 'eventos names a type that does not exist',
  en: (unknown: string[]) =>
    `Unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: ` +
    `subscribe to a type such as comanda.cerrar or a wildcard such as comanda.*`,
  es: (unknown) =>
    `${unknown.length > 1 ? 'Tipos de evento desconocidos' : 'Tipo de evento desconocido'} ${unknown.join(', ')}: ` +
    `suscríbase a un tipo como comanda.cerrar o a un comodín como comanda.*`,
  detail: (unknown) => ({ desconocidos: unknown, validos: SUBSCRIBABLE }),
  example: [['comanda.pagada']],
});

export const webhookInactive = defineError({
  status: 409,
  code: 'WEBHOOK_INACTIVE',
  summary: 'The endpoint is switched off: nothing is sent to it',
  en: (id: number) =>
    `Webhook ${id} is switched off: switch it on (PATCH activo: true) to send it messages`,
  es: (id) =>
    `El webhook ${id} está desactivado: actívelo (PATCH activo: true) para enviarle mensajes`,
  detail: (id) => ({ id_webhook: id }),
  example: [3],
});

export const emptyChange = defineError({
  status: 400,
  code: 'EMPTY_CHANGE',
  summary: 'Nothing to change',
  en: () => 'Send at least one of url, eventos, descripcion, activo',
  es: () => 'Envíe al menos uno de url, eventos, descripcion, activo',
  example: [],
});

/** The document's example of the shared VALIDATION_FAILED with an endpoint's messages. */
export const WEBHOOK_VALIDATION_EXAMPLE = validationError.exampleOf([
  'eventos must contain at least 1 elements',
  'url must be shorter than or equal to 2048 characters',
]);
