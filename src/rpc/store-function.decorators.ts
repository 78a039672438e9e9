import { applyDecorators, Get, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { validationError } from '../common/errors/common.errors';
import { ApiErrors } from '../common/http/openapi-errors';
import { rpcFailedExample } from './rpc.errors';
import { STORE_FUNCTIONS, type StoreFunction } from './store-functions';

export interface StoreFunctionRouteOptions {
  summary: string;
  description?: string;
  /** GET with the function's name (and `:id` when `id`), instead of POST with a JSON body. */
  get?: boolean;
  /** The path's `:id`, a positive integer of the integer range. */
  id?: boolean;
  /** An optional `?year=` (each operation's own rule: docs/rpc.md; absent: the current year). */
  year?: boolean;
  /** An example of the body (POST). */
  example?: Record<string, unknown>;
  /**
   * The operation checks its required inputs: 400 VALIDATION_FAILED (one message per field)
   * with this example of its messages.
   */
  validated?: string[];
  /** The answer's schema, for the operations a client reads; otherwise any JSON object. */
  response?: Type<unknown>;
}

/**
 * The route of one store function: `POST /rpc/<fn>` (200, JSON body read leniently) or
 * `GET /rpc/<fn>[/:id]`, answering the function's JSON, with its 500 body (and diagnostics) in
 * the OpenAPI document. One decorator per route instead of six.
 */
export function StoreFunctionRoute(fn: StoreFunction, options: StoreFunctionRouteOptions) {
  const path = options.id ? `${fn}/:id` : fn;
  return applyDecorators(
    ...(options.get ? [Get(path)] : [Post(path), HttpCode(200)]),
    ApiOperation({ summary: options.summary, description: options.description }),
    ...(options.id
      ? [
          ApiParam({
            name: 'id',
            description: 'A positive integer of the integer range',
            schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          }),
        ]
      : []),
    ...(options.year
      ? [
          ApiQuery({
            name: 'year',
            required: false,
            description:
              'The year (an integer; otherwise the current year in the tenant’s time zone)',
            schema: { type: 'integer', example: 2026 },
          }),
        ]
      : []),
    ...(options.get
      ? []
      : [
          ApiBody({
            schema: { type: 'object', additionalProperties: true, example: options.example ?? {} },
          }),
        ]),
    ApiOkResponse(
      options.response
        ? { description: 'The store function’s JSON', type: options.response }
        : {
            description: 'The store function’s JSON (`{}` when it returns nothing)',
            schema: { type: 'object', additionalProperties: true },
          },
    ),
    ApiErrors(
      ...(options.validated ? [validationError.exampleOf(options.validated)] : []),
      rpcFailedExample(fn, STORE_FUNCTIONS[fn].diagnostics),
    ),
  );
}
