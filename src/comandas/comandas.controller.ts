import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import type { Permission } from '../auth/permissions';
import { TenantScoped } from '../common/decorators';
import { etagOf, parseIfMatch } from '../common/http/etag';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { ComandasService } from './comandas.service';
import {
  CreateComandaBody,
  DeleteComandaBody,
  type ComandaUpdateAction,
  ItemChange,
  ItemInput,
  UpdateComandaBody,
} from './dto/comanda-input.dto';
import { ErrorBody } from '../common/errors/error-body.dto';
import { ComandaDetail, ComandaEvento, ComandaSummary } from './dto/comanda-output.dto';
import { ListComandasQuery } from './dto/list-comandas.query';

const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description:
    'The ETag of the comanda as last read ("3"): 412 STALE_VERSION when it changed since',
};

const notFound = { type: ErrorBody, description: 'COMANDA_NOT_FOUND (or TENANT_NOT_FOUND)' };
const invalidTransition = {
  type: ErrorBody,
  description: 'INVALID_TRANSITION naming the current state (detail.estado), or COMANDA_EMPTY',
};
const stale = {
  type: ErrorBody,
  description: 'STALE_VERSION: If-Match does not match the current version',
};
const badInput = {
  type: ErrorBody,
  description: 'VALIDATION_FAILED, INVALID_ID, TENANT_REQUIRED, ...',
};

/**
 * PUT /comandas/:id needs what its action does: closing and reopening are the cashier's,
 * restoring a deleted comanda the admin's, a change of fields the waiter's.
 */
const ACTION_PERMISSIONS: Record<ComandaUpdateAction, Permission> = {
  cerrar: 'comandas:close',
  abrir: 'comandas:close',
  restaurar: 'comandas:delete',
};

export function permissionForUpdate(request: Request): Permission {
  const action = (request.body as { action?: unknown } | undefined)?.action;
  return typeof action === 'string' && Object.hasOwn(ACTION_PERMISSIONS, action)
    ? ACTION_PERMISSIONS[action as ComandaUpdateAction]
    : 'comandas:write';
}

/** Sends the comanda with its version as ETag. */
function withEtag(res: Response, comanda: ComandaDetail): ComandaDetail {
  res.setHeader('ETag', etagOf(comanda.version));
  return comanda;
}

@ApiTags('comandas')
@TenantScoped()
@RequirePermission('comandas:read')
@Controller('comandas')
export class ComandasController {
  constructor(private readonly comandas: ComandasService) {}

  @Get()
  @ApiOperation({
    summary: 'List comandas, newest first',
    description: 'Deleted ones only with eliminada=true. The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [ComandaSummary],
    headers: { 'X-Total-Count': { description: 'Matching comandas' } },
  })
  @ApiBadRequestResponse(badInput)
  async list(@Query() query: ListComandasQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.comandas.list(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post()
  @RequirePermission('comandas:write')
  @ApiOperation({ summary: 'Open a comanda (optionally with its first lines)' })
  @ApiCreatedResponse({ type: ComandaDetail })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'VALIDATION_FAILED, PRODUCT_NOT_FOUND, PRODUCT_INACTIVE, 23503 (unknown table, waiter or customer)',
  })
  async create(
    @Body() body: CreateComandaBody,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    const comanda = await this.comandas.create(body, actor);
    res.setHeader('Location', `${res.req.baseUrl}${res.req.path}/${comanda.id_comanda}`);
    return withEtag(res, comanda);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A comanda with its lines (also when eliminada)' })
  @ApiOkResponse({
    type: ComandaDetail,
    headers: { ETag: { description: 'The version, e.g. "3"' } },
  })
  @ApiBadRequestResponse(badInput)
  @ApiNotFoundResponse(notFound)
  async get(@Param('id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response) {
    return withEtag(res, await this.comandas.get(id));
  }

  @Put(':id')
  @RequirePermission(
    permissionForUpdate,
    'comandas:close (cerrar, abrir), comandas:delete (restaurar), comandas:write (fields)',
  )
  @ApiOperation({
    summary: 'Transition (abrir, cerrar, restaurar) or partial change of an open comanda',
    description:
      '{"action":"cerrar"} closes an open comanda (total = sum of its lines); "abrir" reopens a closed one; ' +
      '"restaurar" undoes a logical delete. Without action: a change of id_mesa, id_usuario, id_cliente, ' +
      'observacion while abierta. An action with fields, or an unknown field, is 400.',
  })
  @ApiHeader(IF_MATCH)
  @ApiBody({
    type: UpdateComandaBody,
    examples: { cerrar: { value: { action: 'cerrar' } }, mover: { value: { id_mesa: 5 } } },
  })
  @ApiOkResponse({ type: ComandaDetail })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'ACTION_WITH_FIELDS, EMPTY_CHANGE, VALIDATION_FAILED, 23503',
  })
  @ApiNotFoundResponse(notFound)
  @ApiConflictResponse(invalidTransition)
  @ApiPreconditionFailedResponse(stale)
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateComandaBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withEtag(res, await this.comandas.update(id, body, parseIfMatch(ifMatch), actor));
  }

  @Delete(':id')
  @RequirePermission('comandas:delete')
  @ApiOperation({
    summary: 'Logical delete: the row is kept with eliminada = true',
    description:
      'An optional reason (motivo) in the JSON body or the query is kept in the audit trail.',
  })
  @ApiHeader(IF_MATCH)
  @ApiQuery({ name: 'motivo', required: false })
  @ApiBody({ type: DeleteComandaBody, required: false })
  @ApiOkResponse({ type: ComandaDetail })
  @ApiNotFoundResponse(notFound)
  @ApiConflictResponse({ type: ErrorBody, description: 'INVALID_TRANSITION: already eliminada' })
  @ApiPreconditionFailedResponse(stale)
  async remove(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: DeleteComandaBody,
    @Query() query: DeleteComandaBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    const motivo = body.motivo ?? query.motivo ?? null;
    return withEtag(res, await this.comandas.remove(id, motivo, parseIfMatch(ifMatch), actor));
  }

  @Get(':id/eventos')
  @ApiOperation({ summary: 'Audit trail of the comanda, oldest first' })
  @ApiOkResponse({ type: [ComandaEvento] })
  @ApiNotFoundResponse(notFound)
  events(@Param('id', ParseIdPipe) id: number) {
    return this.comandas.events(id);
  }

  @Post(':id/items')
  @RequirePermission('comandas:write')
  @ApiOperation({ summary: 'Add a line to an open comanda, at the product price of now' })
  @ApiHeader(IF_MATCH)
  @ApiCreatedResponse({ type: ComandaDetail })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'PRODUCT_NOT_FOUND, PRODUCT_INACTIVE, VALIDATION_FAILED',
  })
  @ApiNotFoundResponse(notFound)
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'INVALID_TRANSITION: the comanda is not abierta',
  })
  @ApiPreconditionFailedResponse(stale)
  async addItem(
    @Param('id', ParseIdPipe) id: number,
    @Body() item: ItemInput,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withEtag(res, await this.comandas.addItem(id, item, parseIfMatch(ifMatch), actor));
  }

  @Patch(':id/items/:itemId')
  @RequirePermission('comandas:write')
  @ApiOperation({ summary: 'Change the quantity or note of a line of an open comanda' })
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: ComandaDetail })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'COMANDA_NOT_FOUND or ITEM_NOT_FOUND' })
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'INVALID_TRANSITION: the comanda is not abierta',
  })
  @ApiPreconditionFailedResponse(stale)
  async changeItem(
    @Param('id', ParseIdPipe) id: number,
    @Param('itemId', ParseIdPipe) itemId: number,
    @Body() change: ItemChange,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withEtag(
      res,
      await this.comandas.changeItem(id, itemId, change, parseIfMatch(ifMatch), actor),
    );
  }

  @Delete(':id/items/:itemId')
  @RequirePermission('comandas:write')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a line from an open comanda' })
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: ComandaDetail })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'COMANDA_NOT_FOUND or ITEM_NOT_FOUND' })
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'INVALID_TRANSITION: the comanda is not abierta',
  })
  @ApiPreconditionFailedResponse(stale)
  async removeItem(
    @Param('id', ParseIdPipe) id: number,
    @Param('itemId', ParseIdPipe) itemId: number,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withEtag(res, await this.comandas.removeItem(id, itemId, parseIfMatch(ifMatch), actor));
  }
}
