import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { ContextKey, RequestContext } from '../common/context/request-context';
import { Grants } from './grants';

/** The auth module's slot in the request context: what the request's user may do. */
const CALLER_GRANTS = new ContextKey<Grants>('callerGrants');

/** Kept by the permission guard once it has read the user's roles (AUTH_MODE=jwt). */
export function assignCallerGrants(grants: Grants): void {
  RequestContext.set(CALLER_GRANTS, grants);
}

/**
 * What the caller of the current request may do, for the answers that tell it (the `acciones`
 * of a resource, src/auth/resource-actions.ts): every permission with AUTH_MODE=off; with jwt,
 * what the user's roles give, as the permission guard read them for this request (nothing when
 * no user was checked).
 */
@Injectable()
export class CallerPermissions {
  private readonly open: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.open = config.AUTH_MODE === 'off';
  }

  get grants(): Grants {
    return this.open ? Grants.ALL : (RequestContext.get(CALLER_GRANTS) ?? Grants.NONE);
  }
}
