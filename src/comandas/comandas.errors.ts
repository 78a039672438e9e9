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
