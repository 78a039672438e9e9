import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { tenantFeatures, type TenantFeature } from '../common/config/features';
import { ContextKey, RequestContext } from '../common/context/request-context';
import { TenantFeatures } from '../tenancy/tenant-features.service';
import { TENANT_KEYS } from '../tenancy/tenant-context.keys';
import type { AuthenticatedUser } from './auth.decorators';
import { Grants } from './grants';
import { featureOfPermission, type Permission } from './permissions';

/** The auth module's slots in the request context: what the request's user may do, and who. */
const CALLER_GRANTS = new ContextKey<Grants>('callerGrants');
const CALLER_USER = new ContextKey<AuthenticatedUser>('callerUser');

/** Kept by the permission guard once it has read the user's roles (AUTH_MODE=jwt). */
export function assignCallerGrants(grants: Grants, user: AuthenticatedUser): void {
  RequestContext.set(CALLER_GRANTS, grants);
  RequestContext.set(CALLER_USER, user);
}

/**
 * What the caller of the current request may do, for the answers that tell it (the `acciones`
 * of a resource, src/auth/resource-actions.ts; `/me`): every permission with AUTH_MODE=off; with
 * jwt, what the user's roles give, as the permission guard read them for this request (nothing
 * when no user was checked). Either way without the permissions of the features switched off
 * for the request's tenant.
 */
@Injectable()
export class CallerPermissions {
  private readonly open: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly features: TenantFeatures,
  ) {
    this.open = config.AUTH_MODE === 'off';
  }

  /** The request's authenticated user (AUTH_MODE=jwt, once the permission guard checked them). */
  get user(): AuthenticatedUser | undefined {
    return RequestContext.get(CALLER_USER);
  }

  get grants(): Grants {
    const held = this.open ? Grants.ALL : (RequestContext.get(CALLER_GRANTS) ?? Grants.NONE);
    return held.without(this.offFeatures());
  }

  /** `permissions` less those of the features off for the request's tenant. */
  visible(permissions: readonly Permission[]): Permission[] {
    const off = this.offFeatures();
    return permissions.filter((permission) => {
      const feature = featureOfPermission(permission);
      return feature === undefined || !off.includes(feature);
    });
  }

  private offFeatures(): TenantFeature[] {
    const tenant = RequestContext.get(TENANT_KEYS.tenant);
    return tenantFeatures().filter((feature) => !this.features.isOn(feature, tenant));
  }
}
