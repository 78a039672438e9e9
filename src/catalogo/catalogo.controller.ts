import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { ApiErrors, type ErrorExample } from '../common/http/openapi-errors';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import { toMesa, toMozo, toProducto } from './catalogo.mapper';
import { CatalogoRepository } from './catalogo.repository';
import { MesaDto, MozoDto, ProductoDto } from './dto/catalogo-output.dto';
import { ListMesasQuery } from './dto/list-mesas.query';
import { ListMozosQuery } from './dto/list-mozos.query';
import { ListProductosQuery, PRODUCTOS_LIMIT_DEFAULT } from './dto/list-productos.query';
import { statementTimeout, validationError } from '../common/errors/common.errors';

const invalidQuery = (detail: string[]): ErrorExample => validationError.exampleOf(detail);

/**
 * Read only, no rules of its own: the handlers read through the repository and map the rows
 * (a service would only pass them along).
 */
@ApiTag(
  'catalogo',
  'The floor’s menu, tables and waiters, read only: products to pick (search, category, on sale), tables with their open comandas, waiters by name',
)
@TenantScoped()
@RequirePermission('comandas:read')
@Controller()
export class CatalogoController {
  constructor(private readonly catalogo: CatalogoRepository) {}

  @Get('productos')
  @ApiOperation({
    summary: 'Products, by category name then product name',
    description:
      'q searches the name ignoring case (accents must match; `%` and `_` are literal). ' +
      'The total count is in X-Total-Count.',
  })
  @ApiOkResponse({
    type: [ProductoDto],
    description: 'A page of products',
    headers: {
      'X-Total-Count': {
        description: 'Products matching the filters, whatever the page',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors(invalidQuery(['limit must not be greater than 500']), statementTimeout)
  async productos(@Query() query: ListProductosQuery, @Res({ passthrough: true }) res: Response) {
    const { rows, total } = await this.catalogo.productos(
      { q: query.q, activo: query.activo, id_categoria: query.id_categoria },
      query.limit ?? PRODUCTOS_LIMIT_DEFAULT,
      query.offset ?? 0,
    );
    res.setHeader('X-Total-Count', String(total));
    return rows.map(toProducto);
  }

  @Get('mesas')
  @ApiOperation({
    summary: 'Dining tables by number, each with its open comandas',
    description: 'abiertas: the comandas abierta and not deleted at the table.',
  })
  @ApiOkResponse({ type: [MesaDto], description: 'The tables' })
  @ApiErrors(invalidQuery(['activo must be true or false']), statementTimeout)
  async mesas(@Query() query: ListMesasQuery) {
    return (await this.catalogo.mesas(query.activo)).map(toMesa);
  }

  @Get('mozos')
  @ApiOperation({
    summary: 'Waiters by name, to pick one or filter comandas by one',
    description:
      'Staff holding the mozo role, and anyone who is the waiter of a comanda. Their name only.',
  })
  @ApiOkResponse({ type: [MozoDto], description: 'The waiters' })
  @ApiErrors(invalidQuery(['activo must be true or false']), statementTimeout)
  async mozos(@Query() query: ListMozosQuery) {
    return (await this.catalogo.mozos(query.activo)).map(toMozo);
  }
}
