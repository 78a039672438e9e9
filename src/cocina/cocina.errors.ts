import { defineError } from '../common/errors/error-catalogue';

/** The error codes of the kitchen (docs/cocina.md). */

export const estacionNotFound = defineError({
  status: 404,
  code: 'ESTACION_NOT_FOUND',
  summary: 'No station has this id',
  en: (id: number) => `Estación ${id} does not exist`,
  es: (id) => `La estación ${id} no existe`,
  detail: (id) => ({ id_estacion: id }),
  example: [9],
});

export const envioNotFound = defineError({
  status: 404,
  code: 'ENVIO_NOT_FOUND',
  summary: 'No ticket has this id',
  en: (id: number) => `Envío ${id} does not exist`,
  es: (id) => `El envío ${id} no existe`,
  detail: (id) => ({ id_envio: id }),
  example: [99],
});

export const categoriasNotFound = defineError({
  status: 400,
  code: 'CATEGORIA_NOT_FOUND',
  summary: 'A category listed does not exist',
  en: (ids: number[]) => `Categorías ${ids.join(', ')} do not exist`,
  es: (ids) =>
    ids.length === 1
      ? `La categoría ${ids[0]} no existe`
      : `Las categorías ${ids.join(', ')} no existen`,
  detail: (ids) => ({ id_categoria: ids }),
  example: [[99]],
});

export const cursoYaDisparado = defineError({
  status: 409,
  code: 'CURSO_YA_DISPARADO',
  summary: 'The course was fired already',
  en: (idComanda: number, curso: number) =>
    `Course ${curso} of comanda ${idComanda} was fired already`,
  es: (idComanda, curso) => `El curso ${curso} de la comanda ${idComanda} ya se disparó`,
  detail: (idComanda, curso) => ({ id_comanda: idComanda, curso }),
  example: [301, 2],
});

/** A kitchen state that cannot move to the one asked for (a line's or a ticket's). */
export const estadoCocinaInvalido = defineError({
  status: 409,
  code: 'ESTADO_COCINA_INVALIDO',
  summary: 'The line or ticket is not in a state that moves there',
  en: (what: { id_item: number } | { id_envio: number }, estado: string, pedido: string) =>
    `Cannot move ${'id_item' in what ? `line ${what.id_item}` : `ticket ${what.id_envio}`} from ${estado} to ${pedido}`,
  es: (what, estado, pedido) =>
    `No se puede pasar ${'id_item' in what ? `la línea ${what.id_item}` : `el envío ${what.id_envio}`} de ${estado} a ${pedido}`,
  detail: (what, estado, pedido) => ({ ...what, estado, pedido }),
  example: [{ id_item: 977 }, 'enviado', 'entregado'],
});

/**
 * A ticket's lines moved to another comanda while its change waited for the comanda's lock (the
 * change is retried on that comanda; after three moves in a row the caller retries).
 */
export const envioMovido = defineError({
  status: 409,
  code: 'ENVIO_MOVIDO',
  summary: 'The ticket’s lines kept moving to other comandas while it waited: retry',
  en: (idEnvio: number) => `Ticket ${idEnvio} moved to another comanda meanwhile: retry`,
  es: (idEnvio) => `El envío ${idEnvio} pasó a otra comanda mientras tanto: vuelva a intentarlo`,
  detail: (idEnvio) => ({ id_envio: idEnvio }),
  example: [41],
});

export const sinEstacion = defineError({
  status: 409,
  code: 'SIN_ESTACION',
  summary: 'No active preparation station to route a line to',
  en: () => 'No active preparation station takes these lines: create or activate one',
  es: () => 'Ninguna estación de preparación activa recibe estas líneas: cree o active una',
  example: [],
});
