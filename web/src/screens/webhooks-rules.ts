/**
 * The rules of the Webhooks screen ("Integraciones"), without DOM (unit tested in
 * webhooks-rules.spec.ts): the event types an endpoint can subscribe to, grouped by module with
 * their Spanish names, the checkboxes' choice and the bodies the form sends, the field a refusal
 * is about, the buttons of an endpoint (exactly its `acciones`), how a URL, a delivery's result
 * and the service's reasons read on the screen. The shapes are the API's, generated from its
 * OpenAPI document.
 */
import { validationFieldErrors, type ApiError, type Schemas } from '../api';
import { duracion } from '../format';

export type Webhook = Schemas['WebhookDto'];
export type WebhookConSecreto = Schemas['WebhookConSecretoDto'];
export type Entrega = Schemas['EntregaDto'];
export type Intento = Schemas['IntentoDto'];
type CreateBody = Schemas['CreateWebhookBody'];
type UpdateBody = Schemas['UpdateWebhookBody'];

/** A type (`comanda.cerrar`) or a module's wildcard (`comanda.*`), as the API's enum has them. */
export type Evento = CreateBody['eventos'][number];

/** The limits of CreateWebhookBody. */
export const URL_MAX = 2048;
export const DESCRIPCION_MAX = 200;

/**
 * Every entry of the API's enum with its Spanish name, in the screen's order (module by module,
 * the wildcard first). A Record over the generated union: an event type added to or removed
 * from the API fails the page's type check until it is named here.
 */
const EVENTOS: Record<Evento, string> = {
  'comanda.*': 'Todos los eventos de comandas',
  'comanda.crear': 'Nueva comanda',
  'comanda.abrir': 'Reabierta',
  'comanda.cerrar': 'Cerrada',
  'comanda.editar': 'Mesa, mozo o nota cambiados',
  'comanda.eliminar': 'Anulada',
  'comanda.restaurar': 'Restaurada',
  'comanda.agregar_item': 'Producto agregado',
  'comanda.modificar_item': 'Producto modificado',
  'comanda.quitar_item': 'Producto quitado',
  'comanda.dividir': 'Cuenta dividida',
  'comanda.unir': 'Comandas unidas',
  'comanda.transferir': 'Cambio de mesa',
  'pago.*': 'Todos los eventos de pagos',
  'pago.pagar': 'Pago registrado',
  'pago.anular_pago': 'Pago anulado',
  'pago.reembolsar': 'Reembolso',
  'pago.descontar': 'Descuento',
  'cocina.*': 'Todos los eventos de cocina',
  'cocina.enviar': 'Enviado a cocina',
  'cocina.disparar': 'Curso disparado',
  'cocina.preparar': 'En preparación',
  'cocina.listo': 'Listo',
  'cocina.recuperar': 'Recuperado',
  'cocina.entregar': 'Entregado en mesa',
  'sesion_caja.*': 'Todos los eventos de caja',
  'sesion_caja.abrir': 'Caja abierta',
  'sesion_caja.ingreso': 'Ingreso de efectivo',
  'sesion_caja.retiro': 'Retiro de efectivo',
  'sesion_caja.cerrar': 'Caja cerrada',
  'inventario.*': 'Todos los eventos de inventario',
  'inventario.merma': 'Merma',
  'inventario.conteo_crear': 'Conteo creado',
  'inventario.conteo_aplicar': 'Conteo aplicado',
  'inventario.conteo_descartar': 'Conteo descartado',
};

/** The modules' names, by the prefix of their events. */
const MODULO_LABEL: Record<string, string> = {
  comanda: 'Comandas',
  pago: 'Pagos',
  cocina: 'Cocina',
  sesion_caja: 'Caja',
  inventario: 'Inventario',
  webhook: 'Webhook',
};

export interface Modulo {
  modulo: string;
  label: string;
  /** Its wildcard: every event of the module, those added later too. */
  todos: Evento;
  eventos: { evento: Evento; label: string }[];
}

const moduloOf = (evento: string) => evento.slice(0, Math.max(0, evento.indexOf('.')));
const isWildcard = (evento: string) => evento.endsWith('.*');

/** The checkboxes of the form: one group per module, its wildcard and its types. */
export const MODULOS: Modulo[] = (() => {
  const modulos: Modulo[] = [];
  for (const [evento, label] of Object.entries(EVENTOS) as [Evento, string][]) {
    const modulo = moduloOf(evento);
    let group = modulos.find((m) => m.modulo === modulo);
    if (!group) {
      group = {
        modulo,
        label: MODULO_LABEL[modulo] ?? modulo,
        todos: `${modulo}.*` as Evento,
        eventos: [],
      };
      modulos.push(group);
    }
    if (!isWildcard(evento)) group.eventos.push({ evento, label });
  }
  return modulos;
})();

/** The Spanish name of an event type (`comanda.cerrar` → `Cerrada`); an unknown one as it is. */
export function eventoLabel(evento: string): string {
  if (evento === 'webhook.prueba') return 'Mensaje de prueba';
  return (EVENTOS as Record<string, string>)[evento] ?? evento;
}

const lowerFirst = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** A message's type with its module, for a line of the deliveries: `Comandas: cerrada`. */
export function tipoLabel(tipo: string): string {
  const label = (EVENTOS as Record<string, string>)[tipo];
  if (!label || isWildcard(tipo)) return eventoLabel(tipo);
  return `${MODULO_LABEL[moduloOf(tipo)] ?? moduloOf(tipo)}: ${lowerFirst(label)}`;
}

/** A chip of an endpoint's events: what it shows, and the event types in its title. */
export interface Chip {
  label: string;
  title: string;
}

/**
 * An endpoint's events as one chip per module, in the screen's order, so that a card stays one
 * line however many types it takes: `Pagos: todos` (the wildcard), `Comandas: cerrada, anulada`
 * (one or two types), `Cocina: 4 eventos`, `Comandas: los 12 eventos` (every type, one by one;
 * not the wildcard, which also takes the types added later). The types are in the chip's title;
 * a type the page does not know is a chip of its own, as it is.
 */
export function chipsOf(eventos: readonly string[]): Chip[] {
  const chips: Chip[] = [];
  for (const m of MODULOS) {
    if (eventos.includes(m.todos)) {
      chips.push({
        label: `${m.label}: todos`,
        title: `${m.todos}: todos los eventos de ${m.label.toLowerCase()}, también los que se agreguen`,
      });
      continue;
    }
    const types = m.eventos.filter((e) => eventos.includes(e.evento));
    if (types.length === 0) continue;
    chips.push({
      label:
        types.length <= 2
          ? `${m.label}: ${types.map((t) => lowerFirst(t.label)).join(', ')}`
          : types.length === m.eventos.length
            ? `${m.label}: los ${types.length} eventos`
            : `${m.label}: ${types.length} eventos`,
      title: types.map((t) => `${t.evento}: ${t.label}`).join('\n'),
    });
  }
  for (const evento of eventos)
    if (!(evento in EVENTOS)) chips.push({ label: evento, title: evento });
  return chips;
}

/**
 * The form's choice after a checkbox changed. A module's wildcard checked stands for all of its
 * types (they are dropped from the choice and shown checked, disabled); unchecked, its types are
 * chosen one by one again.
 */
export function toggleEvento(chosen: readonly Evento[], evento: Evento, on: boolean): Evento[] {
  const rest = chosen.filter((e) => e !== evento);
  if (!on) return rest;
  if (isWildcard(evento)) {
    const modulo = moduloOf(evento);
    return [...rest.filter((e) => moduloOf(e) !== modulo), evento];
  }
  return [...rest, evento];
}

/** Whether a checkbox shows checked: chosen itself, or covered by its module's wildcard. */
export function isChecked(chosen: readonly Evento[], evento: Evento): boolean {
  return chosen.includes(evento) || (!isWildcard(evento) && chosen.includes(wildcardOf(evento)));
}

/** Whether a type's checkbox is covered by its module's wildcard (shown checked, disabled). */
export function isCovered(chosen: readonly Evento[], evento: Evento): boolean {
  return !isWildcard(evento) && chosen.includes(wildcardOf(evento));
}

function wildcardOf(evento: Evento): Evento {
  return `${moduloOf(evento)}.*` as Evento;
}

/** What the form holds. */
export interface Draft {
  url: string;
  descripcion: string;
  eventos: Evento[];
}

export type Field = keyof Draft;

/** The choice of an endpoint's events that the form knows (an unknown one is left out). */
function known(eventos: readonly string[]): Evento[] {
  return eventos.filter((e): e is Evento => e in EVENTOS);
}

/** A new endpoint (no event chosen yet), or an endpoint as it is, to change it. */
export function draftOf(webhook?: Webhook): Draft {
  if (!webhook) return { url: 'https://', descripcion: '', eventos: [] };
  return {
    url: webhook.url,
    descripcion: webhook.descripcion ?? '',
    eventos: known(webhook.eventos),
  };
}

const ORDER = Object.keys(EVENTOS);

/** The events in the screen's order, as they are sent. */
function ordered(eventos: readonly Evento[]): Evento[] {
  return [...new Set(eventos)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
}

function check(draft: Draft): {
  values: { url: string; descripcion: string | null; eventos: Evento[] };
  errors: Partial<Record<Field, string>>;
} {
  const errors: Partial<Record<Field, string>> = {};
  const url = draft.url.trim();
  if (!url || url === 'https://' || url === 'http://')
    errors.url = 'Indique la dirección que recibe los mensajes (https://…)';
  else if (!/^https?:\/\/[^/\s]+/i.test(url))
    errors.url = 'Una dirección completa, que empiece por https://';
  else if (/\s/.test(url)) errors.url = 'La dirección no puede tener espacios';
  else if (url.length > URL_MAX) errors.url = `Hasta ${URL_MAX} caracteres`;
  const descripcion = draft.descripcion.trim();
  if (descripcion.length > DESCRIPCION_MAX)
    errors.descripcion = `Hasta ${DESCRIPCION_MAX} caracteres`;
  if (draft.eventos.length === 0) errors.eventos = 'Elija al menos un evento';
  return {
    values: { url, descripcion: descripcion || null, eventos: ordered(draft.eventos) },
    errors,
  };
}

/** The body of `POST /webhooks`: the description only when given. */
export function createBody(draft: Draft): {
  body: CreateBody;
  errors: Partial<Record<Field, string>>;
} {
  const { values, errors } = check(draft);
  const body: CreateBody = { url: values.url, eventos: values.eventos };
  if (values.descripcion !== null) body.descripcion = values.descripcion;
  return { body, errors };
}

/** The body of `PATCH /webhooks/:id`: only what differs from the endpoint (a cleared description: null). */
export function changeBody(
  webhook: Webhook,
  draft: Draft,
): { body: UpdateBody; errors: Partial<Record<Field, string>> } {
  const { values, errors } = check(draft);
  const body: UpdateBody = {};
  if (values.url !== webhook.url) body.url = values.url;
  if (values.descripcion !== webhook.descripcion) body.descripcion = values.descripcion;
  const before = ordered(known(webhook.eventos));
  if (before.length !== webhook.eventos.length || before.join(' ') !== values.eventos.join(' '))
    body.eventos = values.eventos;
  return { body, errors };
}

/** The service's reason for refusing a URL (`detail.motivo`), in Spanish when it is a known one. */
export function urlMotivo(motivo: string): string {
  const known: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^not a valid absolute URL/, () => 'no es una dirección completa (https://…)'],
    [/^the scheme must be http or https/, () => 'debe empezar por https://'],
    [/^the scheme must be https/, () => 'debe ser https:// (cifrada)'],
    [/^the URL must not carry a user name or password/, () => 'no puede llevar usuario ni clave'],
    [/^the URL is longer than (\d+)/, (m) => `tiene más de ${m[1]} caracteres`],
    [/^the host (\S+) does not resolve/, (m) => `el servidor ${m[1]} no existe (no se encuentra)`],
    [
      /^the host (?:is|resolves to) a private address \((.+)\)/,
      (m) => `apunta a una dirección privada o local (${m[1]}), que no se puede usar`,
    ],
  ];
  for (const [re, text] of known) {
    const m = re.exec(motivo);
    if (m) return text(m);
  }
  return motivo;
}

/**
 * The fields a refused endpoint is about, each with its message: the URL of
 * WEBHOOK_URL_NOT_ALLOWED (its reason), the events of WEBHOOK_UNKNOWN_EVENT, and every field a
 * VALIDATION_FAILED names. Empty when it names no field of the form: the page shows it in its
 * banner.
 */
export function fieldErrorsOf(
  error: Pick<ApiError, 'code' | 'message' | 'detail'>,
): Partial<Record<Field, string>> {
  const detail = (error.detail ?? {}) as Record<string, unknown>;
  const code = ` (${error.code})`;
  switch (error.code) {
    case 'WEBHOOK_URL_NOT_ALLOWED':
      return {
        url:
          `Dirección no permitida: ` +
          (typeof detail.motivo === 'string' ? urlMotivo(detail.motivo) : error.message) +
          code,
      };
    case 'WEBHOOK_UNKNOWN_EVENT': {
      const unknown = Array.isArray(detail.desconocidos) ? detail.desconocidos.map(String) : [];
      return {
        eventos: `El servicio no conoce ${unknown.length > 0 ? unknown.join(', ') : 'uno de los eventos'}${code}`,
      };
    }
    case 'VALIDATION_FAILED':
      return validationFieldErrors<Field>(error.detail, ['url', 'descripcion', 'eventos']);
    default:
      return {};
  }
}

/**
 * A refusal of an action on an endpoint or a delivery, in Spanish when it is one of the
 * module's (the code kept, as the banner writes it); null for the others, shown as they come.
 */
export function refusalText(error: Pick<ApiError, 'code'>): string | null {
  const text: Record<string, string> = {
    WEBHOOK_INACTIVE: 'El webhook está desactivado: actívelo para enviarle mensajes',
    WEBHOOK_NOT_FOUND: 'Ese webhook ya no existe: otra persona lo eliminó',
    ENTREGA_NOT_FOUND: 'Ese mensaje ya no existe: se eliminó con su webhook o por antiguo',
    EMPTY_CHANGE: 'No hay nada que cambiar',
  };
  return text[error.code] ? `${text[error.code]} (${error.code})` : null;
}

/** An action of an endpoint, by the name the API gives it in `acciones`. */
export type Accion = Webhook['acciones'][number];

/** The buttons of an endpoint, in the order they are shown. */
export const ACCIONES: { accion: Accion; label: string }[] = [
  { accion: 'probar', label: 'Probar' },
  { accion: 'editar', label: 'Editar' },
  { accion: 'rotar', label: 'Rotar secreto' },
  { accion: 'desactivar', label: 'Desactivar' },
  { accion: 'activar', label: 'Activar' },
  { accion: 'eliminar', label: 'Eliminar' },
];

/** Exactly the actions the endpoint's `acciones` lists, in the screen's order. */
export function buttonsOf(acciones: readonly string[]): { accion: Accion; label: string }[] {
  return ACCIONES.filter((a) => acciones.includes(a.accion));
}

/**
 * A URL for a line of the screen: without `https://` (an `http://` one keeps it: it is not
 * encrypted, which is worth seeing), and when longer than `max`, its host and as much of the end
 * of its path as fits, the middle left out (`erp.example.com/…/hooks/comandas`): the host says
 * where, the end which of its addresses. A query (often a token) is then only hinted at (`?…`).
 */
export function shortUrl(url: string, max = 64): string {
  const text = url.replace(/^https:\/\//i, '').replace(/^([^/?#]+)\/$/, '$1');
  if (text.length <= max) return text;
  const scheme = /^[a-z]+:\/\//i.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  const hostEnd = rest.search(/[/?#]/);
  const host = scheme + (hostEnd < 0 ? rest : rest.slice(0, hostEnd));
  const after = hostEnd < 0 ? '' : rest.slice(hostEnd);
  const queryAt = after.search(/[?#]/);
  const path = queryAt < 0 ? after : after.slice(0, queryAt);
  const query = queryAt < 0 ? '' : '?…';
  if (host.length + path.length + query.length <= max) return host + path + query;
  const room = max - host.length - 2 - query.length; // "/…"
  if (room < 8) return `${text.slice(0, max - 1)}…`;
  // the last segments that fit whole
  const segments = path.split('/').filter(Boolean);
  let tail = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const next = `/${segments[i]}${tail}`;
    if (next.length > room) break;
    tail = next;
  }
  if (tail) return `${host}/…${tail}${query}`;
  // not even the last segment whole: its beginning
  const last = segments.at(-1) ?? '';
  return `${host}/…/${last.slice(0, room - 3)}…${query}`;
}

/**
 * An endpoint in a sentence: «its description» (cut at `max`), or its URL shortened when it has
 * none: `Webhook «Contabilidad» desactivado`.
 */
export function nombre(webhook: Pick<Webhook, 'url' | 'descripcion'>, max = 40): string {
  const descripcion = webhook.descripcion?.trim();
  if (!descripcion) return shortUrl(webhook.url, max);
  return `«${descripcion.length > max ? `${descripcion.slice(0, max - 1).trimEnd()}…` : descripcion}»`;
}

/** How long ago, for a sentence: `hace un momento`, `hace 25 min`, `hace 2 h 05`. */
export function hace(since: string, now: number): string {
  const text = duracion(since, now);
  return text === 'recién' ? 'hace un momento' : `hace ${text}`;
}

export const ENTREGA_ESTADOS: { estado: Entrega['estado']; label: string; plural: string }[] = [
  { estado: 'pendiente', label: 'Pendiente', plural: 'Pendientes' },
  { estado: 'entregado', label: 'Entregado', plural: 'Entregados' },
  { estado: 'fallido', label: 'Fallido', plural: 'Fallidos' },
];

export function entregaEstadoLabel(estado: Entrega['estado']): string {
  return ENTREGA_ESTADOS.find((e) => e.estado === estado)?.label ?? estado;
}

/** An attempt's result in a few words: `200`, `HTTP 500`, `Sin respuesta: connect ECONNREFUSED`. */
export function resultado(status: number | null, error: string | null): string {
  if (status === null) return error ? `Sin respuesta: ${error}` : 'Sin respuesta';
  if (error) return error === `HTTP ${status}` ? error : `${status}: ${error}`;
  return `${status} OK`;
}

/** A delivery's last result, or that it was not tried yet. */
export function ultimoResultado(
  entrega: Pick<Entrega, 'intentos' | 'ultimo_status' | 'ultimo_error'>,
): string {
  if (entrega.intentos === 0) return 'Aún sin intentos';
  return resultado(entrega.ultimo_status, entrega.ultimo_error);
}

/** Why the service switched an endpoint off, in Spanish when it is one of its two reasons. */
export function motivoDesactivacion(motivo: string): string {
  if (/410/.test(motivo)) return 'el receptor respondió 410 (la dirección ya no existe)';
  if (/5 days/.test(motivo)) return 'ningún mensaje entregado en 5 días';
  return motivo;
}

/** An instant the API sent, to the second: `28/11/26 10:15:01` (the attempts of one minute). */
export function whenSeconds(iso: string | null): string {
  if (!iso) return '—';
  const [date, time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year.slice(-2)} ${time.slice(0, 8)}`;
}

/** Whether a page of deliveries still has one on its way (worth reading again soon). */
export function hasPending(entregas: readonly Pick<Entrega, 'estado'>[]): boolean {
  return entregas.some((e) => e.estado === 'pendiente');
}

/** The message body as sent, indented for reading. */
export function cuerpoText(cuerpo: Entrega['cuerpo']): string {
  return JSON.stringify(cuerpo, null, 2);
}
