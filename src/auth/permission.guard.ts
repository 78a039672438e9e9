import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { RequestContext } from '../common/context/request-context';
import { NO_TENANT } from '../tenancy/tenancy.decorators';
import { forbidden, unauthenticated } from './auth.errors';
import {
  IS_PUBLIC,
  REQUIRED_PERMISSION,
  type PermissionResolver,
  type RequestWithUser,
} from './auth.decorators';
import { rolesAllow, type Permission } from './permissions';
import { StaffCache } from './staff-cache';
import { StaffRepository } from './staff.repository';

/**
 * After the tenant guard (the tenant's database is at hand): the token's user must be an
 * active user of the tenant (401 otherwise: a former employee's token stops working at once),
 * and their roles from usua_roles must give the route's permission (403 FORBIDDEN). The user
 * and their roles are cached for TENANT_CACHE_TTL_MS, like the tenant's catalog row: a change
 * of roles or a deactivation applies within that time.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly cache: StaffCache;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly staff: StaffRepository,
  ) {
    this.cache = new StaffCache(config.TENANT_CACHE_TTL_MS);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.AUTH_MODE === 'off' || context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    // Routes without a tenant have no roles to read: a valid token is all they ask.
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ||
      this.reflector.getAllAndOverride<boolean>(NO_TENANT, targets)
    )
      return true;
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const user = request.user;
    if (!user) throw unauthenticated('missing', 'Authentication required');
    const member = await this.cache.get(user.tenant, user.id_usuario, () =>
      this.staff.findById(user.id_usuario),
    );
    if (!member?.activo)
      throw unauthenticated(
        'unknown_user',
        `The token's user ${user.id_usuario} is not an active user of tenant "${user.tenant}"`,
      );
    RequestContext.assignLog({ user: user.id_usuario });
    const required = this.reflector.getAllAndOverride<Permission | PermissionResolver | undefined>(
      REQUIRED_PERMISSION,
      targets,
    );
    if (required === undefined) return true;
    const permission = typeof required === 'function' ? required(request) : required;
    if (!rolesAllow(member.roles, permission)) throw forbidden(permission, member.roles);
    return true;
  }
}
