import { ApiTag } from '../common/decorators';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { RequiresFeature, TenantScoped } from '../tenancy/tenancy.decorators';
import { ApiErrors } from '../common/http/openapi-errors';
import { GenericTablesService } from './generic-tables.service';
import { InsertedRow, OptionItem, RowsQuery, TableSchema } from './generic-tables.dto';
import {
  invalidColumnName,
  invalidColumnValue,
  invalidLimit,
  invalidTableName,
  notInsertable,
  tableNotAllowed,
  tableNotFound,
  tableReadOnly,
  unknownColumn,
} from './generic-tables.errors';
import {
  checkViolation,
  foreignKeyViolation,
  invalidValue,
  notNullViolation,
  uniqueViolation,
  validationError,
} from '../common/errors/common.errors';

/** A table name is checked before any SQL: these are the answers of every route that takes one. */
const TABLE_NAME_ERRORS = [invalidTableName, tableNotAllowed, tableNotFound];
const TABLE_PARAM = {
  name: 'table',
  description: 'An allowed table (GET /api/v1/tables); case-insensitive',
  schema: { type: 'string', example: 'productos' },
} as const;

/** docs/generic-tables.md: off unless FEATURE_GENERIC_TABLES=true or the tenant's override. */
@ApiTag('generic tables', 'Schema-driven reading and inserting over an allow-list of tables')
@TenantScoped()
@RequiresFeature('genericTables')
@RequirePermission('tables:access')
@Controller()
export class GenericTablesController {
  constructor(private readonly service: GenericTablesService) {}

  @Get('tables')
  @ApiOperation({ summary: 'The table and view names the generic routes accept' })
  @ApiOkResponse({ type: [String], description: 'The allowed names' })
  tables(): string[] {
    return this.service.tables();
  }

  @Get('schema/:table')
  @ApiOperation({ summary: 'Columns of a table with their metadata and foreign key' })
  @ApiParam(TABLE_PARAM)
  @ApiOkResponse({ type: TableSchema, description: 'The table and its columns' })
  @ApiErrors(...TABLE_NAME_ERRORS)
  async schema(@Param('table') table: string, @Res({ passthrough: true }) res: Response) {
    // written as JSON text once per table (the answer is the same until a migration)
    const json = await this.service.schemaJson(table);
    res.type('json');
    return json;
  }

  @Get('options/:table/:column')
  @ApiOperation({
    summary: '{id, label} of the table a column points to, ordered by label, at most 1000',
    description:
      'Label: nombre, razon_social, documento, else the first text column. [] without a foreign key.',
  })
  @ApiParam(TABLE_PARAM)
  @ApiParam({
    name: 'column',
    description: 'A column of the table',
    schema: { type: 'string', example: 'id_categoria' },
  })
  @ApiOkResponse({ type: [OptionItem], description: 'The options, ordered by label' })
  @ApiErrors(...TABLE_NAME_ERRORS, unknownColumn, invalidColumnName)
  options(@Param('table') table: string, @Param('column') column: string) {
    return this.service.options(table, column);
  }

  @Get('table/:table')
  @ApiOperation({
    summary: 'Rows of a table, newest primary key first',
    description:
      'limit: default 100; above 1000 gives 1000; not a positive integer is 400 INVALID_LIMIT.',
  })
  @ApiParam(TABLE_PARAM)
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Rows to return: 1 or more (above 1000 gives 1000); default 100',
    schema: { type: 'integer', minimum: 1, default: 100, example: 100 },
  })
  @ApiOkResponse({
    description: 'The rows, each an object of its columns',
    schema: { type: 'array', items: { type: 'object', additionalProperties: true } },
  })
  @ApiErrors(...TABLE_NAME_ERRORS, invalidLimit, {
    ...validationError.exampleOf(['property orden should not exist']),
    summary: 'A query parameter other than limit, or limit given twice',
  })
  rows(@Param('table') table: string, @Query() query: RowsQuery) {
    return this.service.rows(table, query.limit);
  }

  @Post('table/:table')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Insert a row: insertable columns only, other keys ignored, all defaults when none is usable',
    description:
      'A table a module owns (GET /schema/:table: read_only, owner) is refused with 400 ' +
      'TABLE_READ_ONLY before any SQL; the view with 400 NOT_INSERTABLE.',
  })
  @ApiParam(TABLE_PARAM)
  @ApiBody({
    description: 'Column values; keys that are not insertable columns are ignored',
    schema: {
      type: 'object',
      additionalProperties: true,
      example: { nombre: 'Postres', descripcion: 'dulces de la casa' },
    },
  })
  @ApiCreatedResponse({ type: InsertedRow, description: 'The row as stored' })
  @ApiErrors(
    ...TABLE_NAME_ERRORS,
    tableReadOnly,
    notInsertable,
    invalidColumnValue,
    { ...foreignKeyViolation.example, summary: 'A referenced row that does not exist' },
    uniqueViolation,
    checkViolation,
    notNullViolation,
    invalidValue,
  )
  insert(@Param('table') table: string, @Body() body: unknown) {
    return this.service.insert(table, body);
  }
}
