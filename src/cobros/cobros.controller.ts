import { Body, Controller, Delete, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission } from '../auth/resource-actions';
import { ComandaDetail } from '../comandas/dto/comanda-output.dto';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { IfMatch, Versioned } from '../common/http/versioned';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { CobrosService } from './cobros.service';
import { COBROS_EXTENSION } from './comanda-extension';
import { AnularPagoBody, DescuentoBody, PagoInput, ReembolsoBody } from './dto/pago-input.dto';
import { SimulacionPagoDto } from './dto/simulacion-pago.dto';
import { comandaNotFound, invalidTransition } from '../comandas/comandas.errors';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import {
  cajaRequerida,
  descuentoExcede,
  metodoNotFound,
  pagoAnulado,
  pagoExcedeSaldo,
  pagoNotFound,
  recibidoInsuficiente,
  recibidoSoloEfectivo,
  reembolsoExcedePago,
  reembolsoLineas,
  sesionCerrada,
  sinSesionAbierta,
  unknownCaja,
} from './cobros.errors';

const NOT_ABIERTA = { ...invalidTransition.example, summary: 'The comanda is not abierta' };

/** What a payment may be refused with: taken (POST …/pagos) or worked out (…/pagos/simulacion). */
const PAGO_ERRORS = [
  comandaNotFound,
  validationError,
  metodoNotFound,
  recibidoSoloEfectivo,
  recibidoInsuficiente,
  unknownCaja,
  cajaRequerida,
  sinSesionAbierta,
  pagoExcedeSaldo,
  NOT_ABIERTA,
  statementTimeout,
];

/**
 * The money of a comanda (docs/cobros.md): payments, their voids, refunds, the discount. Every
 * route is a change of the comanda (its row lock, If-Match, a new version and ETag, an audit
 * entry, the live stream) and answers its detail with the bill.
 */
@ApiTag(
  'cobros',
  'Payments, tills and the day’s close: payments and tips, change, voids, refunds, discounts, till sessions with their X and Z (feature cobros).',
)
@TenantScoped()
@RequiresFeature('cobros')
@RequirePermission('comandas:read')
@Controller('comandas')
export class CobrosController {
  constructor(private readonly cobros: CobrosService) {}

  @Post(':id/pagos')
  @RequireActionPermission(COBROS_EXTENSION.acciones, 'pagar')
  @Versioned({
    summary: 'Take a payment of an open comanda',
    description:
      'Goes to the open session of id_caja, else the session the caller opened, else the only ' +
      'open one. Not cash: at most the balance. Cash: a monto that reaches the cash balance ' +
      '(saldo_efectivo, rounded down to S/ 0.10) settles it, the rest is change (vuelto); ' +
      'recibido − vuelto = monto + propina.',
    type: ComandaDetail,
    returns: 'The comanda with the payment and its bill',
    status: 201,
    errors: PAGO_ERRORS,
  })
  @Idempotent()
  pay(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: PagoInput,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cobros.pay(id, body, version, actor);
  }

  @Post(':id/pagos/simulacion')
  @RequirePermission('cobros:pay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What a payment of an open comanda would do, without taking it',
    description:
      'The body, the permission, If-Match and every refusal of POST /comandas/{id}/pagos: the ' +
      'payment is worked out by that route’s own code, in a transaction rolled back at its end. ' +
      'Nothing is written: no payment, no new version, no audit entry, no event on the stream, ' +
      'no webhook message, no idempotency record (an Idempotency-Key is ignored). Answers what ' +
      'the bill would take, the tip, what was handed over and the change, the till that would ' +
      'take it, and the bill after it, with whether it settles it (salda).',
  })
  @ApiOkResponse({
    type: SimulacionPagoDto,
    description: 'The payment as it would be taken, and the bill after it',
  })
  @ApiErrors(...PAGO_ERRORS)
  simulatePayment(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: PagoInput,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cobros.simulatePayment(id, body, version, actor);
  }

  @Delete(':id/pagos/:idPago')
  @RequireActionPermission(COBROS_EXTENSION.acciones, 'anular_pago')
  @Versioned({
    summary: 'Void a payment (kept, estado anulado) while the comanda is abierta',
    description:
      'The reason (motivo) is required, in the JSON body or the query. Refused once the payment’s ' +
      'session is closed (409 SESION_CERRADA).',
    type: ComandaDetail,
    returns: 'The comanda with the payment voided',
    errors: [
      comandaNotFound,
      pagoNotFound,
      validationError,
      pagoAnulado,
      sesionCerrada,
      NOT_ABIERTA,
      statementTimeout,
    ],
  })
  @ApiQuery({
    name: 'motivo',
    required: false,
    description: 'Why it is voided (or motivo in the body; one of them is required)',
    schema: { type: 'string', maxLength: 500 },
  })
  @ApiBody({ type: AnularPagoBody, required: false })
  @Idempotent()
  voidPayment(
    @Param('id', ParseIdPipe) id: number,
    @Param('idPago', ParseIdPipe) idPago: number,
    @Body() body: AnularPagoBody,
    @Query() query: AnularPagoBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cobros.voidPayment(id, idPago, body.motivo ?? query.motivo, version, actor);
  }

  @Post(':id/reembolsos')
  @RequireActionPermission(COBROS_EXTENSION.acciones, 'reembolsar')
  @Versioned({
    summary: 'Refund (part of) a payment of a closed comanda',
    description:
      'The money comes out of the current open session (id_caja, or as for a payment); the ' +
      'refunds of a payment add up to at most its monto. The comanda stays cerrada; its ' +
      'estado_pago becomes reembolso_parcial or reembolsada.',
    type: ComandaDetail,
    returns: 'The comanda with the refund',
    status: 201,
    errors: [
      comandaNotFound,
      pagoNotFound,
      validationError,
      reembolsoLineas,
      unknownCaja,
      cajaRequerida,
      sinSesionAbierta,
      pagoAnulado,
      reembolsoExcedePago,
      { ...invalidTransition.example, summary: 'The comanda is not cerrada' },
      statementTimeout,
    ],
  })
  @Idempotent()
  refund(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: ReembolsoBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cobros.refund(id, body, version, actor);
  }

  @Post(':id/descuento')
  @RequireActionPermission(COBROS_EXTENSION.acciones, 'descontar')
  @Versioned({
    summary: 'Set the discount of an open comanda (before the service charge)',
    description:
      'Replaces the discount it had; valor 0 removes it. A percentage of the lines (at most 100) ' +
      'or an amount (at most the lines’ sum).',
    type: ComandaDetail,
    returns: 'The comanda with its new bill',
    status: 201,
    errors: [comandaNotFound, validationError, descuentoExcede, NOT_ABIERTA, statementTimeout],
  })
  @Idempotent()
  discount(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: DescuentoBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cobros.discount(id, body, version, actor);
  }
}
