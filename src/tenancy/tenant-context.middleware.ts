import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ClsService } from 'nestjs-cls';
import { translatePgError } from '../common/errors/pg-error.translator';
import { TENANT_HEADER, tenantInvalid, tenantNotFound, tenantRequired } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';
import { isTenantSlug } from './tenant-slug';

/**
 * The tenant-context middleware (seed §5): reads `X-Tenant-ID`, checks it (DESIGN §4) and puts
 * the tenant's catalog row in the request context, or the reason it cannot be used. It does
 * not answer by itself: the guards decide, so that a route that is switched off still answers
 * like a route that does not exist, and an unknown route still answers 404.
 */
@Injectable()
export class TenantContextMiddleware implements NestMiddleware {
  constructor(
    private readonly cls: ClsService,
    private readonly catalog: TenantCatalogService,
  ) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    // The request context (AsyncLocalStorage) starts here, so it exists before every guard
    // whatever the order in which Nest mounts the middleware of different modules.
    void this.cls.run({ ifNested: 'override' }, async () => {
      try {
        await this.resolve(req.headers[TENANT_HEADER]);
      } catch (error) {
        next(error);
        return;
      }
      next();
    });
  }

  private async resolve(header: string | string[] | undefined): Promise<void> {
    try {
      if (header === undefined || header === '') {
        this.cls.set('tenantError', tenantRequired());
      } else if (typeof header !== 'string' || !isTenantSlug(header)) {
        this.cls.set('tenantError', tenantInvalid());
      } else {
        const tenant = await this.catalog.find(header);
        if (tenant) this.cls.set('tenant', tenant);
        else this.cls.set('tenantError', tenantNotFound(header));
      }
    } catch (error) {
      // The control database is unreachable: 503 for tenant routes.
      const translated = translatePgError(error);
      if (!translated) throw error;
      this.cls.set('tenantError', translated);
    }
  }
}
