import { BadRequestError, ConflictError, NotFoundError } from '../common/errors/domain-error';
import { example } from '../common/http/openapi-errors';

/** The error codes of the kitchen (docs/cocina.md). */

export const estacionNotFound = (id: number) =>
  new NotFoundError(`Estación ${id} does not exist`, 'ESTACION_NOT_FOUND', { id_estacion: id });

export const envioNotFound = (id: number) =>
  new NotFoundError(`Envío ${id} does not exist`, 'ENVIO_NOT_FOUND', { id_envio: id });

export const categoriasNotFound = (ids: number[]) =>
  new BadRequestError(`Categorías ${ids.join(', ')} do not exist`, 'CATEGORIA_NOT_FOUND', {
    id_categoria: ids,
  });

export const cursoYaDisparado = (idComanda: number, curso: number) =>
  new ConflictError(
    `Course ${curso} of comanda ${idComanda} was fired already`,
    'CURSO_YA_DISPARADO',
    { id_comanda: idComanda, curso },
  );

/** A kitchen state that cannot move to the one asked for (a line's or a ticket's). */
export const estadoCocinaInvalido = (
  what: { id_item: number } | { id_envio: number },
  estado: string,
  pedido: string,
) =>
  new ConflictError(
    `Cannot move ${'id_item' in what ? `line ${what.id_item}` : `ticket ${what.id_envio}`} from ${estado} to ${pedido}`,
    'ESTADO_COCINA_INVALIDO',
    { ...what, estado, pedido },
  );

export const sinEstacion = () =>
  new ConflictError(
    'No active preparation station takes these lines: create or activate one',
    'SIN_ESTACION',
  );

export const COCINA_ERRORS = {
  ESTACION_NOT_FOUND: example(
    404,
    'ESTACION_NOT_FOUND',
    'No station has this id',
    'Estación 9 does not exist',
    { id_estacion: 9 },
  ),
  ENVIO_NOT_FOUND: example(
    404,
    'ENVIO_NOT_FOUND',
    'No ticket has this id',
    'Envío 99 does not exist',
    {
      id_envio: 99,
    },
  ),
  CATEGORIA_NOT_FOUND: example(
    400,
    'CATEGORIA_NOT_FOUND',
    'A category listed does not exist',
    'Categorías 99 do not exist',
    { id_categoria: [99] },
  ),
  CURSO_YA_DISPARADO: example(
    409,
    'CURSO_YA_DISPARADO',
    'The course was fired already',
    'Course 2 of comanda 301 was fired already',
    { id_comanda: 301, curso: 2 },
  ),
  ESTADO_COCINA_INVALIDO: example(
    409,
    'ESTADO_COCINA_INVALIDO',
    'The line or ticket is not in a state that moves there',
    'Cannot move line 977 from enviado to entregado',
    { id_item: 977, estado: 'enviado', pedido: 'entregado' },
  ),
  ENVIO_MOVIDO: example(
    409,
    'ENVIO_MOVIDO',
    'The ticket’s lines kept moving to other comandas while it waited: retry',
    'Ticket 41 moved to another comanda meanwhile: retry',
    { id_envio: 41 },
  ),
  SIN_ESTACION: example(
    409,
    'SIN_ESTACION',
    'No active preparation station to route a line to',
    'No active preparation station takes these lines: create or activate one',
  ),
};
