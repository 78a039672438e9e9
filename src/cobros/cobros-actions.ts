import { ResourceActions } from '../auth/resource-actions';
import {
  CAJA_ACTIONS,
  SESION_ACTIONS,
  type CajaAction,
  type SesionAction,
} from './dto/caja-output.dto';
import type { SesionEstado } from './dto/caja-input.dto';
import { PAGO_ACTIONS, type PagoAction } from './dto/cobros-output.dto';

/**
 * The actions on tills, their sessions and payments, and the permission each needs: what the
 * routes declare and what the answers list as `acciones` (docs/cobros.md, "Acciones"). The
 * money actions on a comanda (pagar, anular_pago, descontar, reembolsar) are the comanda's
 * state machine's, added by COBROS_EXTENSION (comanda-extension.ts).
 */

/** A till is `libre` without an open session, `en_uso` with one. */
export type CajaState = 'libre' | 'en_uso';

export const CAJA_ACCIONES = new ResourceActions<CajaState, CajaAction>(
  CAJA_ACTIONS,
  { abrir_sesion: 'caja:operate' },
  (state) => (state === 'libre' ? ['abrir_sesion'] : []),
);

export const SESION_ACCIONES = new ResourceActions<SesionEstado, SesionAction>(
  SESION_ACTIONS,
  { registrar_movimiento: 'caja:operate', cerrar: 'caja:operate' },
  (state) => (state === 'abierta' ? ['registrar_movimiento', 'cerrar'] : []),
);

/**
 * A payment is `anulable` while applied, its comanda abierta and its session open;
 * `reembolsable` while applied, not wholly refunded and its comanda cerrada; else `firme`.
 */
export type PagoState = 'anulable' | 'reembolsable' | 'firme';

export const PAGO_ACCIONES = new ResourceActions<PagoState, PagoAction>(
  PAGO_ACTIONS,
  { anular: 'cobros:void', reembolsar: 'cobros:refund' },
  (state) => (state === 'anulable' ? ['anular'] : state === 'reembolsable' ? ['reembolsar'] : []),
);
