import { BadRequestError, ConflictError, NotFoundError } from '../common/errors/domain-error';
import { example } from '../common/http/openapi-errors';

/** The error codes of the stock ledger, its waste and its counts (docs/inventario.md). */

export const materiaNotFound = (id: number) =>
  new BadRequestError(`Material ${id} does not exist`, 'MATERIA_NOT_FOUND', { id_mat_prima: id });

export const materiasNotFound = (ids: number[]) =>
  new BadRequestError(`Materials ${ids.join(', ')} do not exist`, 'MATERIA_NOT_FOUND', {
    id_mat_prima: ids,
  });

export const materiaRepetida = (ids: number[]) =>
  new BadRequestError(
    `A material appears more than once on the sheet: ${ids.join(', ')}`,
    'MATERIA_REPETIDA',
    { id_mat_prima: ids },
  );

export const productoNotFound = (id: number) =>
  new NotFoundError(`Producto ${id} does not exist`, 'PRODUCTO_NOT_FOUND', { id_producto: id });

export const conteoNotFound = (id: number) =>
  new NotFoundError(`Conteo ${id} does not exist`, 'CONTEO_NOT_FOUND', { id_conteo: id });

export const conteoNoEditable = (id: number, estado: string) =>
  new ConflictError(`Conteo ${id} is ${estado}: only a draft changes`, 'CONTEO_NO_BORRADOR', {
    id_conteo: id,
    estado,
  });

export const corteFuturo = () =>
  new BadRequestError('fec_corte must not be in the future', 'CORTE_FUTURO');

/** `cerradoHasta`: the cut-off as PostgreSQL wrote it (UTC ISO text), or an instant. */
export const periodoCerrado = (cerradoHasta: string | Date | null) =>
  new ConflictError(
    'The stock period is closed up to the last applied count’s cut-off: nothing may be posted there',
    'PERIODO_CERRADO',
    {
      cerrado_hasta:
        cerradoHasta instanceof Date ? cerradoHasta.toISOString() : (cerradoHasta ?? null),
    },
  );

export const INVENTARIO_ERRORS = {
  MATERIA_NOT_FOUND: example(
    400,
    'MATERIA_NOT_FOUND',
    'No material has this id',
    'Material 99 does not exist',
    {
      id_mat_prima: 99,
    },
  ),
  MATERIA_REPETIDA: example(
    400,
    'MATERIA_REPETIDA',
    'A material is twice on the count sheet',
    'A material appears more than once on the sheet: 3',
    { id_mat_prima: [3] },
  ),
  PRODUCTO_NOT_FOUND: example(
    404,
    'PRODUCTO_NOT_FOUND',
    'No product has this id',
    'Producto 999 does not exist',
    {
      id_producto: 999,
    },
  ),
  CONTEO_NOT_FOUND: example(
    404,
    'CONTEO_NOT_FOUND',
    'No count has this id',
    'Conteo 99 does not exist',
    {
      id_conteo: 99,
    },
  ),
  CONTEO_NO_BORRADOR: example(
    409,
    'CONTEO_NO_BORRADOR',
    'The count was applied or discarded already',
    'Conteo 7 is aplicado: only a draft changes',
    { id_conteo: 7, estado: 'aplicado' },
  ),
  CORTE_FUTURO: example(
    400,
    'CORTE_FUTURO',
    'The cut-off is in the future',
    'fec_corte must not be in the future',
  ),
  PERIODO_CERRADO: example(
    409,
    'PERIODO_CERRADO',
    'Dated at or before the last applied count’s cut-off',
    'The stock period is closed up to the last applied count’s cut-off: nothing may be posted there',
    { cerrado_hasta: '2026-11-01T05:00:00.000000Z' },
  ),
};
