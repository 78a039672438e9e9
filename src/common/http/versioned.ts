import {
  applyDecorators,
  createParamDecorator,
  HttpCode,
  SetMetadata,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { etagOf, parseIfMatch } from './etag';
import { ApiErrors, type DocumentedError } from './openapi-errors';

/**
 * Resources with a `version` (optimistic concurrency): every response that is one of them
 * carries its version as `ETag`, and a change may send it back in `If-Match` (412 when it is
 * stale). Three decorators say it once per route instead of five lines per handler.
 */

const IF_MATCH_HEADER = {
  name: 'If-Match',
  required: false,
  description:
    'The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since',
  schema: { type: 'string', example: '"3"' },
};

const ETAG_HEADER = {
  ETag: {
    description: 'The version, quoted ("3"): send it back in If-Match',
    schema: { type: 'string', example: '"3"' },
  },
};

/**
 * The version the request's `If-Match` asks for (undefined without one, or with `*`); a
 * malformed one is 400 INVALID_IF_MATCH. Documents the header on the operation; the document's
 * shared errors then add 400 INVALID_IF_MATCH and 412 STALE_VERSION.
 */
export const IfMatch = createParamDecorator(
  (_: unknown, context: ExecutionContext): number | undefined =>
    parseIfMatch(context.switchToHttp().getRequest<Request>().headers['if-match']),
  [
    (target, key) => {
      if (key === undefined) return;
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (descriptor) ApiHeader(IF_MATCH_HEADER)(target, key, descriptor);
    },
  ],
);

/** Metadata of a @Versioned() route: its answer's `version` becomes the ETag. */
export const VERSIONED = 'comandas:versioned';
const ANSWERS_VERSION = Symbol('answersVersion');

/** The request guard marks the response of a @Versioned() route before its handler runs. */
export function answersVersion(response: Response): void {
  (response as Response & { [ANSWERS_VERSION]?: true })[ANSWERS_VERSION] = true;
}

/**
 * Express, with one addition to Nest's reply: the answer of a @Versioned() route gets its
 * `version` as ETag as it is sent. (An interceptor would do the same at the price of an rxjs
 * pipeline around the handler of the hottest routes.)
 */
export class VersionedExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if ((response as Response & { [ANSWERS_VERSION]?: true })[ANSWERS_VERSION]) {
      const version = (body as { version?: unknown } | null)?.version;
      if (typeof version === 'number') response.setHeader('ETag', etagOf(version));
    }
    return super.reply(response, body, statusCode);
  }
}

export interface VersionedRouteOptions {
  summary: string;
  description?: string;
  /** The resource's response type (its version becomes the ETag). */
  type: Type;
  /** What the answer is, for the document ("The comanda as changed"). */
  returns: string;
  /** 201 for a route that creates the resource; 200 otherwise. */
  status?: 200 | 201;
  /** Extra response headers of the success (Location ...). */
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
  /** The route's own errors (the ones every route shares are added to the document anyway). */
  errors?: DocumentedError[];
}

/** A route that answers one versioned resource: its ETag, its document entry, its errors. */
export function Versioned(options: VersionedRouteOptions) {
  const status = options.status ?? 200;
  return applyDecorators(
    HttpCode(status),
    SetMetadata(VERSIONED, true),
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiResponse({
      status,
      type: options.type,
      description: options.returns,
      headers: { ...ETAG_HEADER, ...options.headers },
    }),
    ApiErrors(...(options.errors ?? [])),
  );
}
