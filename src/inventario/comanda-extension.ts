import { defineComandaExtension } from '../comandas/comanda-contract';

/**
 * What inventario adds to the comandas (docs/inventario.md): no action nor field, only hooks
 * (InventarioService): a closed comanda uses its recipes, a reopened or deleted one gives them
 * back, and what the kitchen cancelled after sending it is waste.
 */
export const INVENTARIO_EXTENSION = defineComandaExtension({ name: 'inventario' });
