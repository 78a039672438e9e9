import { NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { methodNotAllowed, unknownRoute } from '../errors/common.errors';
import { DomainError } from '../errors/domain-error';
import type { RouteTable } from './route-table';

/**
 * 404 for a path no route serves, or a route that is switched off: the same body whether the
 * router or a guard says it, so a switched-off feature cannot be told from a missing route.
 */
export class RouteNotFoundError extends DomainError {
  constructor(method: string, url: string) {
    super(unknownRoute.options(method, url));
  }
}

type RequestLine = Pick<Request, 'method' | 'originalUrl'>;

/** The answer to a path no route serves (or a switched-off one): the router's own 404. */
export function routeNotFound(req: RequestLine): RouteNotFoundError {
  return new RouteNotFoundError(req.method, req.originalUrl);
}

/** Whether `error` is "no such route" for this request: ours, or the one Nest's router raises. */
export function isRouteNotFound(error: unknown, req: RequestLine): boolean {
  if (error instanceof RouteNotFoundError) return true;
  return (
    error instanceof NotFoundException &&
    error.message === `Cannot ${req.method} ${req.originalUrl}`
  );
}

/**
 * What a request no route serves gets: 405 with `Allow` when the path is served with other
 * methods for this request, else the 404 of routeNotFound (a switched-off route stays unknown).
 */
export function unroutedAnswer(req: RequestLine, routes: RouteTable): DomainError {
  const path = req.originalUrl.split('?')[0];
  const allowed = routes.allowedMethods(path);
  if (allowed.length === 0 || allowed.includes(req.method)) return routeNotFound(req);
  return methodNotAllowed(req.method, path, allowed);
}
