import {
  applyDecorators,
  createParamDecorator,
  SetMetadata,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Permission } from './permissions';

export const IS_PUBLIC = 'comandas:public';
export const REQUIRED_PERMISSION = 'comandas:permission';
export const QUERY_TOKEN = 'comandas:query-token';

/** The longest lifetime left a token sent in the query may have (a browser's EventSource). */
export const QUERY_TOKEN_MAX_SECONDS = 300;

/**
 * The route also takes the token in the query (`?access_token=`), for browsers' EventSource,
 * which cannot set headers. Only a short-lived token (expiring within QUERY_TOKEN_MAX_SECONDS)
 * is accepted there; the request log redacts it.
 */
export const QueryToken = () => SetMetadata(QUERY_TOKEN, true);

/** The authenticated caller, set on the request by the authentication guard. */
export interface AuthenticatedUser {
  /** The token subject: id_usuario in the tenant database. */
  id_usuario: number;
  /** The tenant claim of the token. */
  tenant: string;
  /** The token's `jti`: its sign-in session (tokens from `npm run token` have none). */
  sessionId?: string;
  /** The token's `exp`, in seconds since the epoch. */
  expiresAt?: number;
  /** The token's `iat`, in seconds since the epoch, when it has one. */
  issuedAt?: number;
}

export type RequestWithUser = Request & { user?: AuthenticatedUser };

/** Who does something, for audit entries: the token subject, or null without authentication. */
export interface Actor {
  id_usuario: number | null;
}

export const ANONYMOUS_ACTOR: Actor = { id_usuario: null };

/**
 * Picks the permission a request needs from the request itself (e.g. a body's action), or the
 * permissions, every one of them needed (a body that does two things).
 */
export type PermissionResolver = (request: Request) => Permission | readonly Permission[];

/**
 * The route needs no user token even with AUTH_MODE=jwt (health; time clocks, which are
 * authenticated by their registered serial).
 */
export const Public = () =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension('x-public', true));

/**
 * The permission a route needs (docs/security.md). A tenant route without one is open to every
 * active user of the tenant. Class-level on a controller, overridable per handler. The OpenAPI
 * document names it (`x-permission`); its 401 and 403 exist only with AUTH_MODE=jwt and are
 * added there (src/common/http/openapi-contract.ts).
 */
export const RequirePermission = (
  permission: Permission | PermissionResolver,
  describe: string = typeof permission === 'string' ? permission : 'depends on the request',
) =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiExtension('x-permission', describe),
  );

/** The actor of the request for audit entries. */
export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const user = context.switchToHttp().getRequest<RequestWithUser>().user;
  return user ? { id_usuario: user.id_usuario } : ANONYMOUS_ACTOR;
});
