import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { BadRequestError, UnsupportedMediaTypeError } from '../errors/domain-error';

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
 * type, and a JSON body that is not an object (`"x"`, `null`, `[]`) is 400 INVALID_BODY. Runs
 * after the guards, so an unknown or switched-off route still answers 404.
 */
@Injectable()
export class BodyTypeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return next.handle();
    const accepted = this.reflector.getAllAndOverride<string[] | undefined>(BODY_TYPES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? [JSON_TYPE];
    if (accepted.includes(ANY_BODY)) return next.handle();
    const contentType = req.headers['content-type'];
    const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '';
    if (!accepted.includes(mediaType)) {
      throw new UnsupportedMediaTypeError(
        `The body must be sent as ${accepted.join(' or ')}` +
          (contentType ? ` (it came as ${contentType})` : ' (it came without a Content-Type)'),
        { expected: accepted, received: contentType ?? null },
      );
    }
    if (mediaType === JSON_TYPE) {
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new BadRequestError('The body must be a JSON object', 'INVALID_BODY', {
          received: kindOf(body),
        });
      }
    }
    return next.handle();
  }
}
