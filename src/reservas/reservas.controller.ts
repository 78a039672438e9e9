import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission } from '../auth/resource-actions';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { IfMatch, Versioned } from '../common/http/versioned';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import {
  CancelarReservaBody,
  CreateReservaBody,
  SentarReservaBody,
  UpdateReservaBody,
} from './dto/reserva-input.dto';
import { ReservaDto } from './dto/reserva-output.dto';
import { ListReservasQuery } from './dto/list-reservas.query';
import { RESERVA_ACCIONES } from './reserva-actions';
import { ReservasService } from './reservas.service';
import {
  emptyChange,
  invalidReservaTransition,
  mesaAlreadyBooked,
  mesaRequired,
  RESERVA_VALIDATION_EXAMPLE,
  reservaInThePast,
  reservaNotFound,
} from './reservas.errors';
import {
  foreignKeyViolation,
  statementTimeout,
  validationError,
} from '../common/errors/common.errors';

/** Errors of every route that changes one reservation. */
const CHANGE_ERRORS = [reservaNotFound, invalidReservaTransition, statementTimeout];

/**
 * The transitions are one route each (`POST /reservas/:id/sentar`, `/cancelar`, `/no-show`)
 * rather than a PUT with an action: each has its own body (a table and a waiter, a required
 * reason, nothing), its own permission and its own errors, which the route then states. The
 * permission of each is its action's (RESERVA_ACCIONES, reserva-actions.ts: also what the
 * answers' `acciones` are computed from).
 */
@ApiTag(
  'reservas',
  'Table reservations: booking, changing, seating (opens a comanda), cancelling, no-shows; optimistic concurrency with ETag and If-Match',
)
@TenantScoped()
@RequiresFeature('reservas')
@RequirePermission('reservas:read')
@Controller('reservas')
export class ReservasController {
  constructor(private readonly reservas: ReservasService) {}

  @Get()
  @ApiOperation({
    summary: 'The reservations of one business day, in time order',
    description:
      'fecha defaults to today in the tenant’s time zone. The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [ReservaDto],
    description: 'A page of reservations',
    headers: {
      'X-Total-Count': {
        description: 'Reservations matching the filters, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(
    validationError.exampleOf([
      'estado must be one of the following values: pendiente, sentada, cancelada, no_show',
    ]),
    statementTimeout,
  )
  async list(@Query() query: ListReservasQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.reservas.list(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post()
  @RequirePermission('reservas:write')
  @Versioned({
    summary: 'Book a reservation (with or without its table)',
    type: ReservaDto,
    returns: 'The new reservation, pendiente, version 1',
    status: 201,
    headers: {
      Location: {
        description: 'The path of the new reservation',
        schema: { type: 'string', example: '/api/v1/reservas/41' },
      },
    },
    errors: [
      RESERVA_VALIDATION_EXAMPLE,
      reservaInThePast,
      foreignKeyViolation,
      mesaAlreadyBooked,
      statementTimeout,
    ],
  })
  @Idempotent()
  async create(
    @Body() body: CreateReservaBody,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    const reserva = await this.reservas.create(body, actor);
    res.setHeader('Location', `${res.req.baseUrl}${res.req.path}/${reserva.id_reserva}`);
    return reserva;
  }

  @Get(':id')
  @Versioned({
    summary: 'A reservation',
    type: ReservaDto,
    returns: 'The reservation',
    errors: [reservaNotFound, statementTimeout],
  })
  get(@Param('id', ParseIdPipe) id: number) {
    return this.reservas.get(id);
  }

  @Patch(':id')
  @RequireActionPermission(RESERVA_ACCIONES, 'editar')
  @Versioned({
    summary: 'Partial change of a pendiente reservation',
    description:
      'The fields sent change, the others stay; id_mesa, telefono, observacion and id_cliente ' +
      'can be cleared with null. A new table, day or time is checked against the table rule.',
    type: ReservaDto,
    returns: 'The reservation as changed',
    errors: [
      ...CHANGE_ERRORS,
      RESERVA_VALIDATION_EXAMPLE,
      emptyChange,
      reservaInThePast,
      foreignKeyViolation,
      mesaAlreadyBooked,
    ],
  })
  @Idempotent()
  update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateReservaBody,
    @IfMatch() version: number | undefined,
  ) {
    return this.reservas.update(id, body, version);
  }

  @Post(':id/sentar')
  @RequireActionPermission(RESERVA_ACCIONES, 'sentar')
  @Versioned({
    summary: 'Seat the party: pendiente → sentada, opening a comanda on the table',
    description:
      'The comanda is opened in the same transaction: if it cannot be opened (an unknown ' +
      'table or waiter), the reservation stays pendiente. The answer carries its id_comanda.',
    type: ReservaDto,
    returns: 'The reservation, sentada, with the id_comanda of the comanda opened',
    errors: [...CHANGE_ERRORS, RESERVA_VALIDATION_EXAMPLE, mesaRequired, foreignKeyViolation],
  })
  @Idempotent()
  seat(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: SentarReservaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.reservas.seat(id, body, version, actor);
  }

  @Post(':id/cancelar')
  @RequireActionPermission(RESERVA_ACCIONES, 'cancelar')
  @Versioned({
    summary: 'Cancel: pendiente → cancelada, with a reason',
    type: ReservaDto,
    returns: 'The reservation, cancelada',
    errors: [...CHANGE_ERRORS, RESERVA_VALIDATION_EXAMPLE],
  })
  @Idempotent()
  cancel(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CancelarReservaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.reservas.cancel(id, body.motivo, version, actor);
  }

  @Post(':id/no-show')
  @RequireActionPermission(RESERVA_ACCIONES, 'no_show')
  @Versioned({
    summary: 'The party did not come: pendiente → no_show',
    type: ReservaDto,
    returns: 'The reservation, no_show',
    errors: CHANGE_ERRORS,
  })
  @Idempotent()
  noShow(
    @Param('id', ParseIdPipe) id: number,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.reservas.noShow(id, version, actor);
  }
}
