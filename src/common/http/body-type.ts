import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { invalidBody, unsupportedMediaType } from '../errors/common.errors';

export const BODY_TYPES = 'comandas:body-types';

/** Any body at all (the time clocks' plain-text pushes). */
export const ANY_BODY = '*/*';
const JSON_TYPE = 'application/json';
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The media types a route's request body may have; JSON when not declared. */
export const AcceptsBody = (...types: string[]) => SetMetadata(BODY_TYPES, types);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * A body the route cannot read is refused, never dropped: a body sent as another media type
 * than the route's (curl -d sends a form) is 415 UNSUPPORTED_MEDIA_TYPE naming the expected
 * type, and a JSON body that is not an object (`"x"`, `null`, `[]`) is 400 INVALID_BODY. Called
 * by the request guard after every other check (src/request.guard.ts), so an unknown or
 * switched-off route still answers 404. `accepted`: the route's @AcceptsBody types, if any.
 */
export function checkBodyType(req: Request, accepted: readonly string[] | undefined): void {
  if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return;
  const types = accepted ?? [JSON_TYPE];
  if (types.includes(ANY_BODY)) return;
  const contentType = req.headers['content-type'];
  const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '';
  if (!types.includes(mediaType)) {
    throw unsupportedMediaType([...types], contentType ?? null);
  }
  if (mediaType === JSON_TYPE) {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw invalidBody(kindOf(body));
    }
  }
}
