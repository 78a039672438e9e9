import { Body, Controller, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission } from '../auth/resource-actions';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe, ParseInt4IdPipe } from '../common/http/parse-id.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { CAJA_ACCIONES, SESION_ACCIONES } from './cobros-actions';
import { CajasService } from './cajas.service';
import {
  AbrirSesionBody,
  AjustesBody,
  CerrarSesionBody,
  ListSesionesQuery,
  MovimientoBody,
} from './dto/caja-input.dto';
import {
  AjustesDto,
  CajaDto,
  MetodoPagoDto,
  MovimientoDto,
  ReporteCajaDto,
  SesionCajaDto,
} from './dto/caja-output.dto';
import { receiptText } from './receipt';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import {
  cajaNotFound,
  comandasAbiertasConPagos,
  contadoInvalido,
  diferenciaSobreTolerancia,
  sesionCerrada,
  sesionNotFound,
  sesionYaAbierta,
} from './cobros.errors';

/**
 * Payment methods, tills, their sessions (open with a float, movements, the X, the close and
 * its Z) and the tenant's money settings (docs/cobros.md).
 */
@ApiTag(
  'cobros',
  'Payments, tills and the day’s close: payments and tips, change, voids, refunds, discounts, till sessions with their X and Z (feature cobros).',
)
@TenantScoped()
@RequiresFeature('cobros')
@RequirePermission('caja:operate')
@Controller()
export class CajasController {
  constructor(private readonly cajas: CajasService) {}

  @Get('metodos-pago')
  @RequirePermission('comandas:read')
  @ApiOperation({ summary: 'The payment methods in use' })
  @ApiOkResponse({ type: [MetodoPagoDto], description: 'The methods, in their order' })
  @ApiErrors(statementTimeout)
  metodos() {
    return this.cajas.metodos();
  }

  @Get('cajas')
  @ApiOperation({ summary: 'The tills, each with its open session if any' })
  @ApiOkResponse({ type: [CajaDto], description: 'The tills' })
  @ApiErrors(statementTimeout)
  list() {
    return this.cajas.cajas();
  }

  @Post('cajas/:id/sesiones')
  @RequireActionPermission(CAJA_ACCIONES, 'abrir_sesion')
  @ApiOperation({
    summary: 'Open a session of a till with its float',
    description: 'One open session per till: a second is 409 SESION_YA_ABIERTA.',
  })
  @ApiCreatedResponse({ type: ReporteCajaDto, description: 'The new session, with its X' })
  @ApiErrors(cajaNotFound, validationError, sesionYaAbierta, statementTimeout)
  @Idempotent()
  open(
    @Param('id', ParseInt4IdPipe) id: number,
    @Body() body: AbrirSesionBody,
    @CurrentActor() actor: Actor,
  ) {
    return this.cajas.openSession(id, body, actor);
  }

  @Get('sesiones-caja')
  @ApiOperation({
    summary: 'Till sessions, newest first',
    description: 'The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [SesionCajaDto],
    description: 'A page of sessions',
    headers: {
      'X-Total-Count': {
        description: 'Sessions matching the filters, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(validationError, statementTimeout)
  async sessions(@Query() query: ListSesionesQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.cajas.sessions(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Get('sesiones-caja/:id')
  @ApiOperation({
    summary: 'A till session with its figures: the X while open (live), the Z once closed',
  })
  @ApiOkResponse({ type: ReporteCajaDto, description: 'The session and its figures' })
  @ApiErrors(sesionNotFound, statementTimeout)
  session(@Param('id', ParseIdPipe) id: number) {
    return this.cajas.report(id);
  }

  @Get('sesiones-caja/:id/reporte')
  @ApiOperation({
    summary: 'The X (open) or Z (closed) report, as JSON or for a 42-column receipt printer',
    description:
      'Accept: text/plain answers the report laid out for an 80 mm receipt printer (42 ' +
      'characters a line); otherwise JSON. Reading an X writes nothing.',
  })
  @ApiProduces('application/json', 'text/plain')
  @ApiOkResponse({
    description: 'The report',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ReporteCajaDto) } },
      'text/plain': {
        schema: { type: 'string', example: '==========================================\n' },
      },
    },
  })
  @ApiErrors(sesionNotFound, statementTimeout)
  async report(
    @Param('id', ParseIdPipe) id: number,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const report = await this.cajas.report(id);
    if (req.accepts(['application/json', 'text/plain']) !== 'text/plain') return report;
    res.type('text/plain; charset=utf-8');
    return receiptText(report);
  }

  @Post('sesiones-caja/:id/movimientos')
  @RequireActionPermission(SESION_ACCIONES, 'registrar_movimiento')
  @ApiOperation({
    summary: 'Put cash in (ingreso) or take it out (retiro) of an open session, with its reason',
  })
  @ApiCreatedResponse({ type: MovimientoDto, description: 'The movement' })
  @ApiErrors(sesionNotFound, validationError, sesionCerrada, statementTimeout)
  @Idempotent()
  movement(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: MovimientoBody,
    @CurrentActor() actor: Actor,
  ) {
    return this.cajas.movement(id, body, actor);
  }

  @Post('sesiones-caja/:id/cerrar')
  @RequireActionPermission(SESION_ACCIONES, 'cerrar')
  @ApiOperation({
    summary: 'Close a session with the count: the Z',
    description:
      'Per method: expected, counted and the difference (recorded, not refused; beyond the ' +
      'tolerance only with caja:approve-difference). The till’s next Z number (gapless). ' +
      'Refused while a comanda paid in the session is abierta. A closed session never changes.',
  })
  @ApiCreatedResponse({ type: ReporteCajaDto, description: 'The Z' })
  @ApiErrors(
    sesionNotFound,
    validationError,
    contadoInvalido,
    diferenciaSobreTolerancia,
    sesionCerrada,
    comandasAbiertasConPagos,
    statementTimeout,
  )
  @Idempotent()
  close(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CerrarSesionBody,
    @CurrentActor() actor: Actor,
  ) {
    return this.cajas.close(id, body, actor);
  }

  @Get('cobros/ajustes')
  @RequirePermission('comandas:read')
  @ApiOperation({
    summary: 'The money settings: IGV rates by date, service charge, cash rounding, tolerance',
  })
  @ApiOkResponse({ type: AjustesDto, description: 'The settings' })
  @ApiErrors(statementTimeout)
  settings() {
    return this.cajas.ajustes();
  }

  @Put('cobros/ajustes')
  @RequirePermission('cobros:settings')
  @ApiOperation({
    summary: 'Change the money settings (fields not sent stay; tasas_igv replaces the list)',
    description:
      'A comanda already closed keeps the rates frozen at its close; an open one follows the new ones.',
  })
  @ApiOkResponse({ type: AjustesDto, description: 'The settings as changed' })
  @ApiErrors(validationError, statementTimeout)
  @Idempotent()
  saveSettings(@Body() body: AjustesBody) {
    return this.cajas.saveAjustes(body);
  }
}
