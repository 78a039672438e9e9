import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, RequirePermission, type Actor } from '../auth/auth.decorators';
import { RequireActionPermission } from '../auth/resource-actions';
import { ApiTag } from '../common/decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe, ParseInt4IdPipe } from '../common/http/parse-id.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import {
  ConsumoQuery,
  ConteoBody,
  ConteoPatchBody,
  ListConteosQuery,
  ListMovimientosQuery,
  MermaBody,
} from './dto/inventario-input.dto';
import {
  ConsumoDto,
  ConteoDto,
  ConteoResumenDto,
  MaterialDto,
  MovimientoStockDto,
  ProductoCostoDto,
  SaldoDto,
} from './dto/inventario-output.dto';
import { CONTEO_ACCIONES } from './inventario-actions';
import { InventarioService } from './inventario.service';
import { statementTimeout, validationError } from '../common/errors/common.errors';
import {
  conteoNoEditable,
  conteoNotFound,
  corteFuturo,
  materiaNotFound,
  materiaRepetida,
  periodoCerrado,
  productoNotFound,
} from './inventario.errors';

const TOTAL_COUNT = (what: string) => ({
  'X-Total-Count': {
    description: `${what} matching the filters, whatever the page`,
    schema: { type: 'integer', minimum: 0 },
  },
});

/**
 * The stock: balances, the ledger's movements, waste, counts, the consumption and food-cost
 * report, and a dish's recipe cost (docs/inventario.md).
 */
@ApiTag(
  'inventario',
  'Stock from recipes: balances at moving-average cost, the append-only ledger, waste, counts, theoretical against actual usage and food cost (feature inventario).',
)
@TenantScoped()
@RequiresFeature('inventario')
@RequirePermission('inventario:read')
@Controller()
export class InventarioController {
  constructor(private readonly inventario: InventarioService) {}

  @Get('inventario')
  @ApiOperation({
    summary: 'Every raw material’s stock, average cost and value, with its flags',
    description:
      'negativo: below zero (a sale never waits for stock); bajo_minimo: below mate_primas.stock_minimo.',
  })
  @ApiOkResponse({ type: [SaldoDto], description: 'By material name' })
  @ApiErrors(statementTimeout)
  saldos() {
    return this.inventario.saldos();
  }

  @Get('inventario/materiales')
  @RequirePermission('inventario:waste')
  @ApiOperation({
    summary: 'The raw materials by name, to record waste of one (no stock, no cost)',
    description:
      'For whoever records waste (inventario:waste): the kitchen picks the material by its name without reading the stock or its value.',
  })
  @ApiOkResponse({ type: [MaterialDto], description: 'By name' })
  @ApiErrors(statementTimeout)
  materiales() {
    return this.inventario.materiales();
  }

  @Get('inventario/movimientos')
  @ApiOperation({
    summary: 'The ledger’s movements, newest first',
    description:
      'Filters: a material, a tipo, a period (after desde, up to hasta). The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [MovimientoStockDto],
    description: 'A page of movements',
    headers: TOTAL_COUNT('Movements'),
  })
  @ApiErrors(validationError, statementTimeout)
  async movimientos(
    @Query() query: ListMovimientosQuery,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { items, total } = await this.inventario.movimientos(query);
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post('inventario/mermas')
  @RequirePermission('inventario:waste')
  @ApiOperation({
    summary: 'Record waste: a quantity of a material lost, and why',
    description:
      'Posts a merma movement at the average cost (stock may go negative). Dated at or before the last applied count’s cut-off: 409 PERIODO_CERRADO.',
  })
  @ApiCreatedResponse({ type: MovimientoStockDto, description: 'The movement' })
  @ApiErrors(validationError, materiaNotFound, periodoCerrado, statementTimeout)
  @Idempotent()
  merma(@Body() body: MermaBody, @CurrentActor() actor: Actor) {
    return this.inventario.merma(body, actor);
  }

  @Get('inventario/conteos')
  @ApiOperation({
    summary: 'Count sheets, latest cut-off first',
    description: 'The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [ConteoResumenDto],
    description: 'A page of counts',
    headers: TOTAL_COUNT('Counts'),
  })
  @ApiErrors(validationError, statementTimeout)
  async conteos(@Query() query: ListConteosQuery, @Res({ passthrough: true }) res: Response) {
    const { items, total } = await this.inventario.conteos(
      query.estado,
      query.limit ?? 20,
      query.offset ?? 0,
    );
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @Post('inventario/conteos')
  @RequirePermission('inventario:write')
  @ApiOperation({
    summary: 'Start a count sheet (a draft) with what was counted',
    description:
      'Its lines show the ledger’s quantity at the cut-off and the difference; nothing is posted until it is applied.',
  })
  @ApiCreatedResponse({ type: ConteoDto, description: 'The draft' })
  @ApiErrors(
    validationError,
    materiaNotFound,
    materiaRepetida,
    corteFuturo,
    periodoCerrado,
    statementTimeout,
  )
  @Idempotent()
  createConteo(@Body() body: ConteoBody, @CurrentActor() actor: Actor) {
    return this.inventario.createConteo(body, actor);
  }

  @Get('inventario/conteos/:id')
  @ApiOperation({ summary: 'A count sheet with its lines, differences and acciones' })
  @ApiOkResponse({ type: ConteoDto, description: 'The count' })
  @ApiErrors(conteoNotFound, statementTimeout)
  conteo(@Param('id', ParseIdPipe) id: number) {
    return this.inventario.conteo(id);
  }

  @Patch('inventario/conteos/:id')
  @RequireActionPermission(CONTEO_ACCIONES, 'editar')
  @ApiOperation({
    summary: 'Change a draft’s lines (set, or take off with contado null) or its note',
  })
  @ApiOkResponse({ type: ConteoDto, description: 'The draft' })
  @ApiErrors(
    conteoNotFound,
    validationError,
    materiaNotFound,
    materiaRepetida,
    conteoNoEditable,
    statementTimeout,
  )
  @Idempotent()
  updateConteo(@Param('id', ParseIdPipe) id: number, @Body() body: ConteoPatchBody) {
    return this.inventario.updateConteo(id, body);
  }

  @Post('inventario/conteos/:id/aplicar')
  @HttpCode(200)
  @RequireActionPermission(CONTEO_ACCIONES, 'aplicar')
  @ApiOperation({
    summary:
      'Apply a draft: post contado − sistema of each line at its cut-off, and close the period there',
    description:
      'Once: a second apply is 409 CONTEO_NO_BORRADOR. A cut-off at or before the last applied one: 409 PERIODO_CERRADO.',
  })
  @ApiOkResponse({
    type: ConteoDto,
    description: 'The applied count, its system quantities frozen',
  })
  @ApiErrors(conteoNotFound, conteoNoEditable, periodoCerrado, statementTimeout)
  @Idempotent()
  applyConteo(@Param('id', ParseIdPipe) id: number, @CurrentActor() actor: Actor) {
    return this.inventario.applyConteo(id, actor);
  }

  @Post('inventario/conteos/:id/descartar')
  @HttpCode(200)
  @RequireActionPermission(CONTEO_ACCIONES, 'descartar')
  @ApiOperation({ summary: 'Discard a draft (nothing is posted)' })
  @ApiOkResponse({ type: ConteoDto, description: 'The discarded count' })
  @ApiErrors(conteoNotFound, conteoNoEditable, statementTimeout)
  @Idempotent()
  discardConteo(@Param('id', ParseIdPipe) id: number) {
    return this.inventario.discardConteo(id);
  }

  @Get('inventario/consumo')
  @ApiOperation({
    summary:
      'Theoretical against actual usage per material, waste, variance and food cost % of a period',
    description:
      'Theoretical: the recipes of the comandas closed (net of reopened ones); actual: stock at desde + purchases − ' +
      'stock at hasta. Food cost % on the period’s net sales (without IGV and recargo).',
  })
  @ApiOkResponse({ type: ConsumoDto, description: 'The report' })
  @ApiErrors(validationError, statementTimeout)
  consumo(@Query() query: ConsumoQuery) {
    return this.inventario.consumo(query);
  }

  @Get('productos/:id/costo')
  @ApiOperation({
    summary: 'A dish’s recipe cost at today’s average costs, and its theoretical food cost %',
  })
  @ApiOkResponse({ type: ProductoCostoDto, description: 'The cost' })
  @ApiErrors(productoNotFound, statementTimeout)
  productoCosto(@Param('id', ParseInt4IdPipe) id: number) {
    return this.inventario.productoCosto(id);
  }
}
