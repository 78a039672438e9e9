import {
  applyDecorators,
  createParamDecorator,
  HttpCode,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { etagOf, parseIfMatch } from './etag';
import { ApiErrors, type ErrorExample } from './openapi-errors';

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

/** Sets `ETag` from the `version` of the resource a handler returns. */
@Injectable()
export class EtagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        const version = (result as { version?: unknown } | null)?.version;
        if (typeof version === 'number') response.setHeader('ETag', etagOf(version));
        return result;
      }),
    );
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
  errors?: ErrorExample[];
}

/** A route that answers one versioned resource: its ETag, its document entry, its errors. */
export function Versioned(options: VersionedRouteOptions) {
  const status = options.status ?? 200;
  return applyDecorators(
    HttpCode(status),
    UseInterceptors(EtagInterceptor),
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
