import { ApiTag } from '../common/decorators';
import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission, RequireActionPermissionOf } from '../auth/resource-actions';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import { IfMatch, Versioned } from '../common/http/versioned';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  OWN_ACCIONES,
  UPDATE_ACTIONS,
  updateActionOfRequest,
  updateFieldPermissionsOfRequest,
} from './comanda-actions';
import { ComandasService } from './comandas.service';
import {
  CreateComandaBody,
  DeleteComandaBody,
  ItemChange,
  ItemInput,
  MergeComandaBody,
  SplitComandaBody,
  UpdateComandaBody,
} from './dto/comanda-input.dto';
import {
  ComandaDetail,
  ComandaEvento,
  ComandaSummary,
  SplitResult,
} from './dto/comanda-output.dto';
import { ListComandasQuery } from './dto/list-comandas.query';
import {
  actionWithFields,
  comandaEmpty,
  comandaNotFound,
  emptyChange,
  invalidMerge,
  invalidSplit,
  invalidTransition,
  itemNotFound,
  mergeNotAbierta,
  productsInactive,
  productsNotFound,
} from './comandas.errors';
import {
  foreignKeyViolation,
  statementTimeout,
  validationError,
} from '../common/errors/common.errors';

/**
 * The errors of the routes that change a comanda (the statuses every tenant route shares, the
 * body's, the id's and If-Match's, are added to the document in one place: openapi-contract.ts). A
 * statement cancelled by DB_STATEMENT_TIMEOUT_MS is 503 on these routes.
 */
const CHANGE_ERRORS = [comandaNotFound, statementTimeout];
const LINE_ERRORS = [
  ...CHANGE_ERRORS,
  itemNotFound,
  { ...invalidTransition.example, summary: 'The comanda is not abierta' },
];

/**
 * The permission of each route that changes a comanda is the one its action needs
 * (OWN_ACCIONES, comanda-actions.ts: also what the answers' `acciones` are computed from);
 * PUT /comandas/:id reads its action from the body (abrir, cerrar, restaurar, a transfer or an
 * edit), and asks too for the permissions of what the extensions' fields it sends do. The
 * modules that extend the comandas add to these routes' documented errors those of their rules
 * (ComandaExtensionContract.errors).
 */
@ApiTag(
  'comandas',
  'Order tickets: opening, lines, transitions (cerrar, abrir, restaurar), logical delete, audit trail; optimistic concurrency with ETag and If-Match.',
)
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
    description: 'A page of comandas',
    headers: {
      'X-Total-Count': {
        description: 'Comandas matching the filters, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(
    validationError.exampleOf(['estado must be one of the following values: abierta, cerrada']),
    statementTimeout,
  )
  async list(@Query() query: ListComandasQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.comandas.list(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post()
  @RequirePermission('comandas:write')
  @Versioned({
    summary: 'Open a comanda (optionally with its first lines)',
    type: ComandaDetail,
    returns: 'The new comanda, abierta, version 1',
    status: 201,
    headers: {
      Location: {
        description: 'The path of the new comanda',
        schema: { type: 'string', example: '/api/v1/comandas/301' },
      },
    },
    errors: [
      validationError,
      productsNotFound,
      productsInactive,
      foreignKeyViolation,
      statementTimeout,
    ],
  })
  @Idempotent()
  async create(
    @Body() body: CreateComandaBody,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    const comanda = await this.comandas.create(body, actor);
    res.setHeader('Location', `${res.req.baseUrl}${res.req.path}/${comanda.id_comanda}`);
    return comanda;
  }

  @Get(':id')
  @Versioned({
    summary: 'A comanda with its lines (also when eliminada)',
    type: ComandaDetail,
    returns: 'The comanda',
    errors: [comandaNotFound, statementTimeout],
  })
  get(@Param('id', ParseIdPipe) id: number) {
    return this.comandas.get(id);
  }

  @Put(':id')
  @RequireActionPermissionOf(
    OWN_ACCIONES,
    updateActionOfRequest,
    UPDATE_ACTIONS,
    // a field of an extension may perform one of its actions too: pay and close needs both
    updateFieldPermissionsOfRequest,
  )
  @Versioned({
    summary: 'Transition (abrir, cerrar, restaurar) or partial change of an open comanda',
    description:
      '{"action":"cerrar"} closes an open comanda (total = sum of its lines); "abrir" reopens a closed one; ' +
      '"restaurar" undoes a logical delete. Without action: a change of id_mesa, id_usuario, id_cliente, ' +
      'observacion while abierta; id_mesa alone is a transfer (audited as transferir). An action with ' +
      'fields, or an unknown field, is 400.',
    type: ComandaDetail,
    returns: 'The comanda as changed',
    errors: [
      ...CHANGE_ERRORS,
      actionWithFields,
      emptyChange,
      validationError,
      foreignKeyViolation,
      invalidTransition,
      comandaEmpty,
    ],
  })
  @ApiBody({
    type: UpdateComandaBody,
    examples: {
      cerrar: { value: { action: 'cerrar' } },
      mover: { value: { id_mesa: 5 } },
      cobrar_y_cerrar: {
        summary: 'Pay and close in one step (feature cobros)',
        value: { action: 'cerrar', pagos: [{ id_metodo_pago: 1, monto: 70, propina: 5 }] },
      },
    },
  })
  @Idempotent()
  update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateComandaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.update(id, body, version, actor);
  }

  @Delete(':id')
  @RequireActionPermission(OWN_ACCIONES, 'eliminar')
  @Versioned({
    summary: 'Logical delete: the row is kept with eliminada = true',
    description:
      'An optional reason (motivo) in the JSON body or the query is kept in the audit trail.',
    type: ComandaDetail,
    returns: 'The comanda, eliminada',
    errors: [
      ...CHANGE_ERRORS,
      validationError,
      { ...invalidTransition.exampleOf('eliminada', 'eliminar'), summary: 'Already eliminada' },
    ],
  })
  @ApiQuery({
    name: 'motivo',
    required: false,
    description: 'Reason kept in the audit trail (or motivo in the body)',
    schema: { type: 'string', maxLength: 500 },
  })
  @ApiBody({ type: DeleteComandaBody, required: false })
  @Idempotent()
  remove(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: DeleteComandaBody,
    @Query() query: DeleteComandaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.remove(id, body.motivo ?? query.motivo ?? null, version, actor);
  }

  @Get(':id/eventos')
  @ApiOperation({ summary: 'Audit trail of the comanda, oldest first' })
  @ApiOkResponse({ type: [ComandaEvento], description: 'The events, oldest first' })
  @ApiErrors(comandaNotFound, statementTimeout)
  events(@Param('id', ParseIdPipe) id: number) {
    return this.comandas.events(id);
  }

  @Post(':id/items')
  @RequireActionPermission(OWN_ACCIONES, 'agregar_item')
  @Versioned({
    summary: 'Add a line to an open comanda, at the product price of now',
    type: ComandaDetail,
    returns: 'The comanda with the new line',
    status: 201,
    errors: [
      ...CHANGE_ERRORS,
      productsNotFound,
      productsInactive,
      validationError,
      foreignKeyViolation,
      { ...invalidTransition.example, summary: 'The comanda is not abierta' },
    ],
  })
  @Idempotent()
  addItem(
    @Param('id', ParseIdPipe) id: number,
    @Body() item: ItemInput,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.addItem(id, item, version, actor);
  }

  @Patch(':id/items/:itemId')
  @RequireActionPermission(OWN_ACCIONES, 'modificar_item')
  @Versioned({
    summary: 'Change the quantity or note of a line of an open comanda',
    type: ComandaDetail,
    returns: 'The comanda as changed',
    errors: [...LINE_ERRORS, validationError, emptyChange],
  })
  @Idempotent()
  changeItem(
    @Param('id', ParseIdPipe) id: number,
    @Param('itemId', ParseIdPipe) itemId: number,
    @Body() change: ItemChange,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.changeItem(id, itemId, change, version, actor);
  }

  @Delete(':id/items/:itemId')
  @RequireActionPermission(OWN_ACCIONES, 'quitar_item')
  @Versioned({
    summary: 'Void a line of an open comanda',
    description:
      'An optional reason (motivo) in the JSON body or the query is kept in the audit trail with a ' +
      'snapshot of the line.',
    type: ComandaDetail,
    returns: 'The comanda without the line',
    errors: [...LINE_ERRORS, validationError],
  })
  @ApiQuery({
    name: 'motivo',
    required: false,
    description: 'Reason kept in the audit trail (or motivo in the body)',
    schema: { type: 'string', maxLength: 500 },
  })
  @ApiBody({ type: DeleteComandaBody, required: false })
  @Idempotent()
  removeItem(
    @Param('id', ParseIdPipe) id: number,
    @Param('itemId', ParseIdPipe) itemId: number,
    @Body() body: DeleteComandaBody,
    @Query() query: DeleteComandaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.removeItem(
      id,
      itemId,
      body.motivo ?? query.motivo ?? null,
      version,
      actor,
    );
  }

  @Post(':id/split')
  @RequireActionPermission(OWN_ACCIONES, 'dividir')
  @Versioned({
    summary: 'Split: move quantities of lines to a new open comanda',
    description:
      'Each listed line moves whole when its cantidad is all of it, or is split in two (same product, ' +
      'price, note, author) when less. The new comanda sits at id_mesa (default: the same table) with ' +
      'id_cliente (default: none). If-Match applies to the comanda split. Both get a dividir audit entry.',
    type: SplitResult,
    returns: 'The comanda split (origen, its version + 1) and the new one (nueva, version 1)',
    status: 201,
    headers: {
      Location: {
        description: 'The path of the new comanda',
        schema: { type: 'string', example: '/api/v1/comandas/302' },
      },
    },
    errors: [
      ...CHANGE_ERRORS,
      validationError,
      invalidSplit,
      foreignKeyViolation,
      { ...invalidTransition.example, summary: 'The comanda is not abierta' },
    ],
  })
  @Idempotent()
  async split(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: SplitComandaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.comandas.split(id, body, version, actor);
    const path = res.req.path.replace(/[^/]+\/split$/, String(result.nueva.id_comanda));
    res.setHeader('Location', `${res.req.baseUrl}${path}`);
    return result;
  }

  @Post(':id/merge')
  @RequireActionPermission(OWN_ACCIONES, 'unir')
  @Versioned({
    summary: 'Merge: move every line of other open comandas into this one',
    description:
      'Every comanda listed must be abierta (409 INVALID_TRANSITION naming it otherwise); each ends ' +
      'eliminada with motivo "unida a {numero_ticket}". If-Match applies to this comanda. Every ' +
      'comanda touched gets a unir audit entry and a new version.',
    type: ComandaDetail,
    returns: 'This comanda with all the lines',
    errors: [
      ...CHANGE_ERRORS,
      validationError,
      invalidMerge,
      mergeNotAbierta,
      { ...invalidTransition.example, summary: 'This comanda is not abierta' },
    ],
  })
  @Idempotent()
  merge(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: MergeComandaBody,
    @IfMatch() version: number | undefined,
    @CurrentActor() actor: Actor,
  ) {
    return this.comandas.merge(id, body, version, actor);
  }
}
