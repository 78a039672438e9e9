import { ResourceActions } from '../auth/resource-actions';
import type { ConteoEstado } from './dto/inventario-input.dto';
import { CONTEO_ACTIONS, type ConteoAction } from './dto/inventario-output.dto';

/**
 * The actions on a count sheet and the permission each needs: what its routes declare and what
 * its answers list as `acciones` (docs/inventario.md). A draft is edited, applied (once) or
 * discarded; an applied or discarded count never changes.
 */
export const CONTEO_ACCIONES = new ResourceActions<ConteoEstado, ConteoAction>(
  CONTEO_ACTIONS,
  { editar: 'inventario:write', aplicar: 'inventario:write', descartar: 'inventario:write' },
  (state) => (state === 'borrador' ? ['editar', 'aplicar', 'descartar'] : []),
);
