import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { ApiTag } from '../common/decorators';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import type { RequestWithUser } from './auth.decorators';
import { CallerPermissions } from './caller-permissions';
import { allPermissions, permissionsOf } from './permissions';
import { StaffRepository } from './staff.repository';

export class MeDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 4,
    description: 'The token’s user; null without authentication',
  })
  id_usuario!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'Rosa Quispe' })
  nombre!: string | null;

  @ApiProperty({ type: [String], example: ['mozo'], description: 'Roles held (usua_roles)' })
  roles!: string[];

  @ApiProperty({
    type: [String],
    example: ['comandas:read', 'comandas:write'],
    description:
      'What the roles give (docs/security.md); every permission without authentication. The permissions of a feature switched off for the tenant are not listed.',
  })
  permissions!: string[];
}

/**
 * GET /api/v1/me: who the request is and what it may do, so that a client (the back-office
 * page) shows only the actions the role matrix allows. Open to every active user of the tenant.
 */
@ApiTag('tenant', 'The tenant named by X-Tenant-ID, with its effective feature switches.')
@TenantScoped()
@Controller('me')
export class MeController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly staff: StaffRepository,
    private readonly caller: CallerPermissions,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The caller: user, roles and permissions' })
  @ApiOkResponse({ type: MeDto, description: 'The caller' })
  async me(@Req() request: RequestWithUser): Promise<MeDto> {
    if (this.config.AUTH_MODE === 'off' || !request.user) {
      return {
        id_usuario: null,
        nombre: null,
        roles: [],
        permissions: this.caller.visible(allPermissions()),
      };
    }
    const member = await this.staff.findById(request.user.id_usuario);
    const roles = member?.roles ?? [];
    return {
      id_usuario: request.user.id_usuario,
      nombre: member?.nombre ?? null,
      roles,
      permissions: this.caller.visible(permissionsOf(roles)),
    };
  }
}
