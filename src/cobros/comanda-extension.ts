import { defineComandaExtension } from '../comandas/comanda-contract';
import type { ComandaAction } from '../comandas/comanda-state';
import {
  comandaConPagos,
  comandaReembolsada,
  metodoNotFound,
  pagoExcedeSaldo,
  pagosWithoutCerrar,
  saldoPendiente,
  sesionCerrada,
  sinSesionAbierta,
} from './cobros.errors';
import { CuentaComandaDto } from './dto/cobros-output.dto';
import { CierreConPagosBody } from './dto/pago-input.dto';

declare module '../comandas/comanda-state' {
  /** The money's actions on a comanda. */
  interface ExtensionComandaActions {
    pagar: true;
    anular_pago: true;
    descontar: true;
    reembolsar: true;
  }
}

/** The changes that would move a paid ticket's lines or money elsewhere: void its payments first. */
export const BLOCKED_BY_PAYMENTS: ReadonlySet<ComandaAction> = new Set([
  'eliminar',
  'dividir',
  'unir',
]);

/**
 * What cobros adds to the comandas (docs/cobros.md): its actions on a comanda, allowed while it
 * is abierta but the refund (once it is cerrada), each with its permission (nobody's while the
 * feature is off); the bill in the detail; `pagos` in the PUT (pay and close in one step); and
 * the refusals of its rules on the comanda's own routes. Its hooks: CobrosService.
 */
export const COBROS_EXTENSION = defineComandaExtension({
  name: 'cobros',
  actions: {
    pagar: { permission: 'cobros:pay', from: { abierta: {} } },
    anular_pago: { permission: 'cobros:void', from: { abierta: {} } },
    descontar: { permission: 'cobros:discount', from: { abierta: {} } },
    reembolsar: { permission: 'cobros:refund', from: { cerrada: {} } },
  },
  updateFields: CierreConPagosBody,
  // pay and close in one step pays too: it needs cobros:pay besides comandas:close
  updateFieldActions: { pagos: 'pagar' },
  detailFields: CuentaComandaDto,
  errors: [
    {
      // closing needs the bill paid (pagos pays it in the same step), reopening needs the
      // payments' session open
      on: ['cerrar', 'abrir'],
      errors: [
        pagosWithoutCerrar,
        saldoPendiente,
        sinSesionAbierta,
        pagoExcedeSaldo,
        metodoNotFound,
        sesionCerrada,
        comandaReembolsada,
      ],
    },
    // a paid ticket is not deleted, split or merged
    { on: [...BLOCKED_BY_PAYMENTS], errors: [comandaConPagos] },
  ],
});
