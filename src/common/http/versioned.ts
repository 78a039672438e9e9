import {
  applyDecorators,
  createParamDecorator,
  HttpCode,
  SetMetadata,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
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
 * A subclass of Node's `base` (IncomingMessage, ServerResponse) whose objects are born with the
 * Express application's request (or response) in their prototype chain, its prototype put in
 * the application's place: Express then finds them already of its own prototype. (A subclass,
 * not a function through Reflect.construct, so that V8 allocates them as fast as Node's own.)
 */
function expressBorn<T extends typeof IncomingMessage | typeof ServerResponse>(
  base: T,
  app: Record<'request' | 'response', object>,
  key: 'request' | 'response',
): T {
  const Born = class extends (base as typeof IncomingMessage) {};
  Object.setPrototypeOf(Born.prototype, app[key]);
  app[key] = Born.prototype;
  return Born as unknown as T;
}

/**
 * Express, with two additions:
 *
 * - Nest's reply: the answer of a @Versioned() route gets its `version` as ETag as it is sent.
 *   (An interceptor would do the same at the price of an rxjs pipeline around the handler of
 *   the hottest routes.)
 * - The HTTP server makes its requests and responses Express's from the start: Express gives
 *   every request and response its own prototype as they come in (`Object.setPrototypeOf`),
 *   which V8 pays for on each of them, and again on every later access to one whose shape
 *   changed under it; an object born with that prototype makes it a no-op.
 */
export class VersionedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // TLS and the shutdown options keep Nest's own server
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections)
      return super.initHttpServer(options);
    const app = this.getInstance<Record<'request' | 'response', object>>();
    this.httpServer = createServer(
      {
        IncomingMessage: expressBorn(IncomingMessage, app, 'request'),
        ServerResponse: expressBorn(ServerResponse, app, 'response'),
      },
      app as unknown as RequestListener,
    );
  }

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
