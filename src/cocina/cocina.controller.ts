import {
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission } from '../auth/resource-actions';
import { ComandaDetail } from '../comandas/dto/comanda-output.dto';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe, ParseInt4IdPipe } from '../common/http/parse-id.pipe';
import { IfMatch, Versioned } from '../common/http/versioned';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { ENVIO_ACCIONES } from './cocina-actions';
import { CocinaService } from './cocina.service';
import { COCINA_EXTENSION } from './comanda-extension';
import {
  EstacionBody,
  EstacionCategoriasBody,
  EstacionPatchBody,
  ListEnviosQuery,
} from './dto/cocina-input.dto';
import { EnvioDto, EnvioResult, EstacionDto } from './dto/cocina-output.dto';
import { comandaNotFound, invalidTransition, itemNotFound } from '../comandas/comandas.errors';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import {
  categoriasNotFound,
  cursoYaDisparado,
  envioMovido,
  envioNotFound,
  estacionNotFound,
  estadoCocinaInvalido,
  sinEstacion,
} from './cocina.errors';

const TAG_DESCRIPTION =
  'The kitchen: courses, tickets per station written as deltas of what was sent, bump and recall, serving (feature cocina).';

/** A course number in a path: 1..9, anything else 400 INVALID_ID. */
@Injectable()
class ParseCursoPipe extends ParseIdPipe {
  protected override readonly max = 9;
}

const NOT_ABIERTA = { ...invalidTransition.example, summary: 'The comanda is not abierta' };

/** The kitchen's own routes: stations and tickets (docs/cocina.md). */
@ApiTag('cocina', TAG_DESCRIPTION)
@TenantScoped()
@RequiresFeature('cocina')
@RequirePermission('cocina:read')
@Controller('cocina')
export class CocinaController {
  constructor(private readonly cocina: CocinaService) {}

  @Get('estaciones')
  @ApiOperation({ summary: 'The kitchen’s stations, with their categories' })
  @ApiOkResponse({ type: [EstacionDto], description: 'By id' })
  @ApiErrors(statementTimeout)
  estaciones() {
    return this.cocina.estaciones();
  }

  @Post('estaciones')
  @RequirePermission('cocina:manage')
  @ApiOperation({ summary: 'Create a station' })
  @ApiCreatedResponse({ type: EstacionDto, description: 'The new station' })
  @ApiErrors(validationError, statementTimeout)
  @Idempotent()
  createEstacion(@Body() body: EstacionBody) {
    return this.cocina.createEstacion(body);
  }

  @Patch('estaciones/:id')
  @RequirePermission('cocina:manage')
  @ApiOperation({ summary: 'Rename a station, change its alert thresholds, (de)activate it' })
  @ApiOkResponse({ type: EstacionDto, description: 'The station as changed' })
  @ApiErrors(estacionNotFound, validationError, statementTimeout)
  @Idempotent()
  updateEstacion(@Param('id', ParseInt4IdPipe) id: number, @Body() body: EstacionPatchBody) {
    return this.cocina.updateEstacion(id, body);
  }

  @Put('estaciones/:id/categorias')
  @RequirePermission('cocina:manage')
  @ApiOperation({
    summary:
      'The categories a station prepares (replaces its set; a category moves from another station)',
  })
  @ApiOkResponse({ type: EstacionDto, description: 'The station with its categories' })
  @ApiErrors(estacionNotFound, categoriasNotFound, validationError, statementTimeout)
  @Idempotent()
  setCategorias(@Param('id', ParseInt4IdPipe) id: number, @Body() body: EstacionCategoriasBody) {
    return this.cocina.setCategorias(id, body.categorias);
  }

  @Get('envios')
  @ApiOperation({
    summary: 'Kitchen tickets of a station (an expo station: every station’s)',
    description: 'The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [EnvioDto],
    description: 'A page of tickets',
    headers: {
      'X-Total-Count': {
        description: 'Tickets matching the filters, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(estacionNotFound, validationError, statementTimeout)
  async envios(@Query() query: ListEnviosQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.cocina.list(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post('envios/:id/preparar')
  @HttpCode(200)
  @RequireActionPermission(ENVIO_ACCIONES, 'preparar')
  @ApiOperation({ summary: 'Start a ticket: pendiente → en_preparacion (its lines too)' })
  @ApiOkResponse({ type: EnvioDto, description: 'The ticket' })
  @ApiErrors(envioNotFound, envioMovido, estadoCocinaInvalido, invalidTransition, statementTimeout)
  @Idempotent()
  preparar(@Param('id', ParseIdPipe) id: number, @CurrentActor() actor: Actor) {
    return this.cocina.moveEnvio(id, 'preparar', actor);
  }

  @Post('envios/:id/listo')
  @HttpCode(200)
  @RequireActionPermission(ENVIO_ACCIONES, 'listo')
  @ApiOperation({
    summary:
      'Bump a ticket: listo; each of its lines is listo once all the tickets that sent it are',
  })
  @ApiOkResponse({ type: EnvioDto, description: 'The ticket' })
  @ApiErrors(envioNotFound, envioMovido, estadoCocinaInvalido, statementTimeout)
  @Idempotent()
  listo(@Param('id', ParseIdPipe) id: number, @CurrentActor() actor: Actor) {
    return this.cocina.moveEnvio(id, 'listo', actor);
  }

  @Post('envios/:id/recuperar')
  @HttpCode(200)
  @RequireActionPermission(ENVIO_ACCIONES, 'recuperar')
  @ApiOperation({
    summary:
      'Recall a bumped ticket: pendiente again, its listo lines enviado (409 if one was served)',
  })
  @ApiOkResponse({ type: EnvioDto, description: 'The ticket' })
  @ApiErrors(envioNotFound, envioMovido, estadoCocinaInvalido, invalidTransition, statementTimeout)
  @Idempotent()
  recuperar(@Param('id', ParseIdPipe) id: number, @CurrentActor() actor: Actor) {
    return this.cocina.moveEnvio(id, 'recuperar', actor);
  }
}

/** The floor's kitchen routes on a comanda: send, fire a course, serve a line. */
@ApiTag('cocina', TAG_DESCRIPTION)
@TenantScoped()
@RequiresFeature('cocina')
@RequirePermission('cocina:read')
@Controller('comandas')
export class CocinaComandasController {
  constructor(private readonly cocina: CocinaService) {}

  @Post(':id/enviar')
  @HttpCode(200)
  @RequireActionPermission(COCINA_EXTENSION.acciones, 'enviar')
  @ApiOperation({
    summary:
      'Send to the kitchen what changed in the fired courses (course 1 fires at the first send)',
    description:
      'For each line of a fired course, its quantity now less what was sent: more is a nuevo or ' +
      'adicional ticket line, less an anulacion; one ticket per station, course and kind. Nothing ' +
      'new: {envios: []} and no change (no version, no audit entry).',
  })
  @ApiOkResponse({
    type: EnvioResult,
    description: 'The tickets written and the comanda’s version',
  })
  @ApiErrors(comandaNotFound, NOT_ABIERTA, sinEstacion, statementTimeout)
  @Idempotent()
  enviar(
    @Param('id', ParseIdPipe) id: number,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cocina.enviar(id, version, actor);
  }

  @Post(':id/cursos/:n/disparar')
  @HttpCode(200)
  @RequireActionPermission(COCINA_EXTENSION.acciones, 'disparar')
  @ApiOperation({
    summary: 'Fire a course and send what is pending in the fired courses',
    description: '409 CURSO_YA_DISPARADO when it was fired already.',
  })
  @ApiOkResponse({
    type: EnvioResult,
    description: 'The tickets written and the comanda’s version',
  })
  @ApiErrors(
    comandaNotFound,
    NOT_ABIERTA,
    cursoYaDisparado,
    sinEstacion,
    validationError,
    statementTimeout,
  )
  @Idempotent()
  disparar(
    @Param('id', ParseIdPipe) id: number,
    @Param('n', ParseCursoPipe) n: number,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cocina.disparar(id, n, version, actor);
  }

  @Post(':id/items/:itemId/entregar')
  @RequireActionPermission(COCINA_EXTENSION.acciones, 'entregar')
  @Versioned({
    summary: 'Serve a line that is listo: entregado',
    type: ComandaDetail,
    returns: 'The comanda with the line served',
    errors: [comandaNotFound, itemNotFound, estadoCocinaInvalido, NOT_ABIERTA, statementTimeout],
  })
  @Idempotent()
  entregar(
    @Param('id', ParseIdPipe) id: number,
    @Param('itemId', ParseIdPipe) itemId: number,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.cocina.entregar(id, itemId, version, actor);
  }
}
