import { defineError } from '../common/errors/error-catalogue';

/** The error codes of comandas, their lines and their live stream (docs/comandas.md). */

export const comandaNotFound = defineError({
  status: 404,
  code: 'COMANDA_NOT_FOUND',
  summary: 'No comanda has this id',
  en: (id: number) => `Comanda ${id} does not exist`,
  es: (id) => `La comanda ${id} no existe`,
  detail: (id) => ({ id_comanda: id }),
  example: [9999],
});

export const itemNotFound = defineError({
  status: 404,
  code: 'ITEM_NOT_FOUND',
  summary: 'The comanda has no line with this id',
  en: (id: number, itemId: number) => `Comanda ${id} has no line ${itemId}`,
  es: (id, itemId) => `La comanda ${id} no tiene la línea ${itemId}`,
  detail: (id, itemId) => ({ id_comanda: id, id_item: itemId }),
  example: [301, 12],
});

/** An action the comanda's state does not allow (comanda-state.ts: InvalidTransitionError). */
export const invalidTransition = defineError({
  status: 409,
  code: 'INVALID_TRANSITION',
  summary: 'Not allowed in the comanda’s current state (detail.estado)',
  en: (state: string, action: string) => `Cannot ${action} a comanda that is ${state}`,
  es: (state, action) => `No se puede ${action} una comanda que está ${state}`,
  detail: (state, action) => ({ estado: state, action }),
  example: ['cerrada', 'cerrar'],
});

export const comandaEmpty = defineError({
  status: 409,
  code: 'COMANDA_EMPTY',
  summary: 'A comanda without lines cannot be closed',
  en: (id: number) => `Comanda ${id} has no lines: there is nothing to close`,
  es: (id) => `La comanda ${id} no tiene líneas: no hay nada que cerrar`,
  detail: (id) => ({ id_comanda: id }),
  example: [301],
});

export const productsNotFound = defineError({
  status: 400,
  code: 'PRODUCT_NOT_FOUND',
  summary: 'A line names a product that does not exist',
  en: (ids: number[]) => `Unknown product(s): ${ids.join(', ')}`,
  es: (ids) =>
    ids.length === 1
      ? `El producto ${ids[0]} no existe`
      : `Los productos ${ids.join(', ')} no existen`,
  detail: (ids) => ({ id_producto: ids }),
  example: [[999]],
});

export const productsInactive = defineError({
  status: 400,
  code: 'PRODUCT_INACTIVE',
  summary: 'A line names a product that is not on sale',
  en: (ids: number[]) => `Product(s) not on sale: ${ids.join(', ')}`,
  es: (ids) =>
    ids.length === 1
      ? `El producto ${ids[0]} no está a la venta`
      : `Los productos ${ids.join(', ')} no están a la venta`,
  detail: (ids) => ({ id_producto: ids }),
  example: [[4]],
});

export const actionWithFields = defineError({
  status: 400,
  code: 'ACTION_WITH_FIELDS',
  summary: 'An action sent together with field changes',
  en: (fields: string[]) =>
    `An action cannot be combined with field changes (${fields.join(', ')}): send them separately`,
  es: (fields) =>
    `Una acción no se puede combinar con cambios de campos (${fields.join(', ')}): envíelos por separado`,
  detail: (fields) => ({ fields }),
  example: [['id_mesa']],
});

export const emptyChange = defineError({
  status: 400,
  code: 'EMPTY_CHANGE',
  summary: 'Nothing to change',
  en: () =>
    'Send {"action": "abrir" | "cerrar" | "restaurar"} or at least one of id_mesa, id_usuario, id_cliente, observacion',
  es: () =>
    'Envíe {"action": "abrir" | "cerrar" | "restaurar"} o al menos uno de id_mesa, id_usuario, id_cliente, observacion',
  example: [],
});

/** One reason a split or merge body cannot be applied, per line or comanda it names. */
export interface SplitProblem {
  id_item: number;
  reason: string;
}
export interface MergeProblem {
  id_comanda: number;
  reason: string;
}

export const invalidSplit = defineError({
  status: 400,
  code: 'INVALID_SPLIT',
  summary: 'A line to move is not on the comanda, is listed twice, or asks for more than it has',
  en: (id: number, _problems: SplitProblem[]) => `Cannot split comanda ${id} this way`,
  es: (id) => `No se puede dividir así la comanda ${id}`,
  detail: (_id, problems) => ({ lineas: problems }),
  example: [301, [{ id_item: 12, reason: 'asks for 3 of a line of 2' }]],
});

export const invalidMerge = defineError({
  status: 400,
  code: 'INVALID_MERGE',
  summary: 'A comanda to merge does not exist, is listed twice, or is the target itself',
  en: (id: number, _problems: MergeProblem[]) => `Cannot merge these comandas into ${id}`,
  es: (id) => `No se pueden unir estas comandas a la comanda ${id}`,
  detail: (_id, problems) => ({ comandas: problems }),
  example: [301, [{ id_comanda: 999, reason: 'does not exist' }]],
});

/** A comanda to merge is not abierta: the same code as any refused transition, naming it. */
export const mergeNotAbierta = defineError({
  status: 409,
  code: 'INVALID_TRANSITION',
  name: 'MERGE_NOT_ABIERTA',
  summary: 'A comanda to merge is not abierta (detail.id_comanda, detail.estado)',
  en: (_id: number, estado: string) => `Cannot unir a comanda that is ${estado}`,
  es: (_id, estado) => `No se puede unir una comanda que está ${estado}`,
  detail: (id, estado) => ({ estado, action: 'unir', id_comanda: id }),
  example: [302, 'cerrada'],
});

// the live stream (GET /comandas/stream, and the kitchen's, which shares its hub)

export const tooManyStreams = defineError({
  status: 503,
  code: 'TOO_MANY_STREAMS',
  summary:
    'This instance serves SSE_MAX_CLIENTS live streams already (Retry-After): another instance may not',
  en: (max: number) => `This instance serves ${max} live streams already`,
  es: (max) => `Esta instancia ya atiende ${max} conexiones en vivo`,
  headers: () => ({ 'Retry-After': '5' }),
  example: [1000],
});

export const streamsStopping = defineError({
  status: 503,
  code: 'TOO_MANY_STREAMS',
  name: 'STREAMS_STOPPING',
  summary: 'The instance is stopping: another one serves the stream (Retry-After)',
  en: () => 'The service is stopping: reconnect',
  es: () => 'El servicio se está deteniendo: vuelva a conectarse',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});

export const tooManyFeeds = defineError({
  status: 503,
  code: 'TOO_MANY_STREAMS',
  name: 'TOO_MANY_FEEDS',
  summary:
    'This instance listens to TENANT_DATASOURCE_MAX tenants already, none of them idle (Retry-After)',
  en: (max: number) => `This instance streams the changes of ${max} tenants already`,
  es: (max) => `Esta instancia ya transmite los cambios de ${max} restaurantes`,
  headers: () => ({ 'Retry-After': '5' }),
  example: [20],
});

/** 429 TOO_MANY_STREAMS: the tenant's or the user's share of the instance's streams is taken. */
export const tooManyStreamsShare = defineError({
  status: 429,
  code: 'TOO_MANY_STREAMS',
  name: 'TOO_MANY_STREAMS_SHARE',
  summary:
    "The tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of the instance's live streams is taken (Retry-After)",
  en: (scope: 'tenant' | 'user', limit: number) =>
    scope === 'tenant'
      ? `This restaurant has ${limit} live streams open on this instance already: close one`
      : `This user has ${limit} live streams open already: close one (another tab or device)`,
  es: (scope, limit) =>
    scope === 'tenant'
      ? `Este restaurante ya tiene ${limit} conexiones en vivo abiertas en esta instancia: cierre una`
      : `Este usuario ya tiene ${limit} conexiones en vivo abiertas: cierre una (otra pestaña u otro dispositivo)`,
  detail: (scope, limit) => ({ scope, limit }),
  headers: () => ({ 'Retry-After': '5' }),
  example: ['user', 10],
});

export const liveFeedUnavailable = defineError({
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  name: 'LIVE_FEED_UNAVAILABLE',
  summary: 'The live feed cannot listen to the tenant’s database (Retry-After)',
  en: () => 'The live feed cannot reach the tenant database, retry shortly',
  es: () =>
    'La conexión en vivo no llega a la base de datos del restaurante: vuelva a intentarlo en un momento',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});
