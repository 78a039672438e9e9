import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { RequiresFeature, TenantScoped } from '../common/decorators';
import { ErrorBody } from '../common/errors/error-body.dto';
import { GenericTablesService } from './generic-tables.service';
import { InsertedRow, OptionItem, RowsQuery, TableSchema } from './generic-tables.dto';

const invalidName = {
  type: ErrorBody,
  description: 'INVALID_IDENTIFIER, TABLE_NOT_ALLOWED, UNKNOWN_COLUMN, ...',
};

/** Seed 4.2.1, switched off unless FEATURE_GENERIC_TABLES=true or the tenant's override. */
@ApiTags('generic tables')
@TenantScoped()
@RequiresFeature('genericTables')
@RequirePermission('tables:access')
@Controller()
export class GenericTablesController {
  constructor(private readonly service: GenericTablesService) {}

  @Get('tables')
  @ApiOperation({ summary: 'The table and view names the generic routes accept' })
  @ApiOkResponse({ type: [String] })
  tables(): string[] {
    return this.service.tables();
  }

  @Get('schema/:table')
  @ApiOperation({ summary: 'Columns of a table with their metadata and foreign key' })
  @ApiOkResponse({ type: TableSchema })
  @ApiBadRequestResponse(invalidName)
  schema(@Param('table') table: string) {
    return this.service.schema(table);
  }

  @Get('options/:table/:column')
  @ApiOperation({
    summary: '{id, label} of the table a column points to, ordered by label, at most 1000',
    description:
      'Label: nombre, razon_social, documento, else the first text column. [] without a foreign key.',
  })
  @ApiOkResponse({ type: [OptionItem] })
  @ApiBadRequestResponse(invalidName)
  options(@Param('table') table: string, @Param('column') column: string) {
    return this.service.options(table, column);
  }

  @Get('table/:table')
  @ApiOperation({
    summary: 'Rows of a table, newest primary key first',
    description:
      'limit: default 100; above 1000 gives 1000; not a positive integer is 400 INVALID_LIMIT.',
  })
  @ApiQuery({ name: 'limit', required: false, example: 100 })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'object' } } })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'invalid name or limit, or the query failed: {error, code, detail}',
  })
  rows(@Param('table') table: string, @Query() query: RowsQuery) {
    return this.service.rows(table, query.limit);
  }

  @Post('table/:table')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Insert a row: insertable columns only, other keys ignored, all defaults when none is usable',
  })
  @ApiBody({
    schema: { type: 'object', example: { nombre: 'Postres', descripcion: 'dulces de la casa' } },
  })
  @ApiCreatedResponse({ type: InsertedRow })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: '23503, 23505, 23514, 23502 with detail; NOT_INSERTABLE for the view',
  })
  insert(@Param('table') table: string, @Body() body: unknown) {
    return this.service.insert(table, body);
  }
}
