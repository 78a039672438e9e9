import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { routeMetadata, type RoutePlans } from '../common/http/route-plans';
import { RouteTable } from '../common/http/route-table';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { RequestContext } from '../common/context/request-context';
import { NO_TENANT } from '../tenancy/tenancy.decorators';
import { forbidden } from '../common/errors/common.errors';
import { noAuthenticatedUser } from './auth.errors';
import {
  IS_PUBLIC,
  REQUIRED_PERMISSION,
  type PermissionResolver,
  type RequestWithUser,
} from './auth.decorators';
import { assignCallerGrants } from './caller-permissions';
import { Grants } from './grants';
import { sessionProblem } from './session-validity';
import type { Permission } from './permissions';
import { StaffCache } from './staff-cache';
import { StaffRepository } from './staff.repository';

/**
 * After the tenant guard (the tenant's database is at hand): the token's user must be an
 * active user of the tenant (401 otherwise: a former employee's token stops working at once),
 * and their roles from usua_roles must give the route's permission (403 FORBIDDEN). The user
 * and their roles are cached for TENANT_CACHE_TTL_MS, like the tenant's catalog row: a change
 * of roles or a deactivation applies within that time. What the roles give is kept for the
 * request (CallerPermissions: the `acciones` of the answers).
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly plans: RoutePlans<{
    /** Public or tenant-less: no roles to read, a valid token is all the route asks. */
    open: boolean;
    required: Permission | PermissionResolver | undefined;
  }>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly staff: StaffRepository,
    private readonly cache: StaffCache,
    routes: RouteTable,
  ) {
    this.plans = routes.plansOf((targets) => ({
      open:
        routeMetadata<boolean>(IS_PUBLIC, targets) === true ||
        routeMetadata<boolean>(NO_TENANT, targets) === true,
      required: routeMetadata<Permission | PermissionResolver>(REQUIRED_PERMISSION, targets),
    }));
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const checked = this.check(context);
    return checked ? checked.then(() => true) : true;
  }

  /** Undefined when nothing is to check (AUTH_MODE=off, public routes); else the check. */
  check(context: ExecutionContext): Promise<void> | undefined {
    if (this.config.AUTH_MODE === 'off' || context.getType() !== 'http') return undefined;
    const plan = this.plans.of(context);
    if (plan.open) return undefined;
    return this.checkRoles(context, plan.required);
  }

  private async checkRoles(
    context: ExecutionContext,
    required: Permission | PermissionResolver | undefined,
  ): Promise<void> {
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const user = request.user;
    if (!user) throw noAuthenticatedUser();
    const member = await this.cache.get(user.tenant, user.id_usuario, () =>
      this.staff.findWithSessions(user.id_usuario),
    );
    const problem = sessionProblem(member, user);
    if (problem) throw problem.error;
    RequestContext.assignLog({ user: user.id_usuario });
    const grants = Grants.ofRoles(member!.roles);
    assignCallerGrants(grants, user);
    if (required === undefined) return;
    const needed = typeof required === 'function' ? required(request) : required;
    for (const permission of typeof needed === 'string' ? [needed] : needed)
      if (!grants.has(permission)) throw forbidden(permission, member!.roles);
  }
}
