import { BadRequestError, ConflictError, NotFoundError } from '../common/errors/domain-error';

export const comandaNotFound = (id: number) =>
  new NotFoundError(`Comanda ${id} does not exist`, 'COMANDA_NOT_FOUND', { id_comanda: id });

export const itemNotFound = (id: number, itemId: number) =>
  new NotFoundError(`Comanda ${id} has no line ${itemId}`, 'ITEM_NOT_FOUND', {
    id_comanda: id,
    id_item: itemId,
  });

export const comandaEmpty = (id: number) =>
  new ConflictError(`Comanda ${id} has no lines: there is nothing to close`, 'COMANDA_EMPTY', {
    id_comanda: id,
  });

export const productsNotFound = (ids: number[]) =>
  new BadRequestError(`Unknown product(s): ${ids.join(', ')}`, 'PRODUCT_NOT_FOUND', {
    id_producto: ids,
  });

export const productsInactive = (ids: number[]) =>
  new BadRequestError(`Product(s) not on sale: ${ids.join(', ')}`, 'PRODUCT_INACTIVE', {
    id_producto: ids,
  });

export const actionWithFields = (fields: string[]) =>
  new BadRequestError(
    `An action cannot be combined with field changes (${fields.join(', ')}): send them separately`,
    'ACTION_WITH_FIELDS',
    { fields },
  );

export const emptyChange = () =>
  new BadRequestError(
    'Send {"action": "abrir" | "cerrar" | "restaurar"} or at least one of id_mesa, id_usuario, id_cliente, observacion',
    'EMPTY_CHANGE',
  );

/** One reason a split or merge body cannot be applied, per line or comanda it names. */
export interface SplitProblem {
  id_item: number;
  reason: string;
}
export interface MergeProblem {
  id_comanda: number;
  reason: string;
}

export const invalidSplit = (id: number, problems: SplitProblem[]) =>
  new BadRequestError(`Cannot split comanda ${id} this way`, 'INVALID_SPLIT', { lineas: problems });

export const invalidMerge = (id: number, problems: MergeProblem[]) =>
  new BadRequestError(`Cannot merge these comandas into ${id}`, 'INVALID_MERGE', {
    comandas: problems,
  });

/** A comanda to merge is not abierta: the same code as any refused transition, naming it. */
export const mergeNotAbierta = (id: number, estado: string) =>
  new ConflictError(`Cannot unir a comanda that is ${estado}`, 'INVALID_TRANSITION', {
    estado,
    action: 'unir',
    id_comanda: id,
  });
