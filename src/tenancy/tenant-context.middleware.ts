import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RequestContext } from '../common/context/request-context';
import { translatePgError } from '../common/errors/pg-error.translator';
import { tenantInvalid, tenantNotFound, tenantRequired } from '../common/errors/common.errors';
import { TENANT_HEADER } from './tenancy.errors';
import { TenantCatalogService } from './tenant-catalog.service';
import { TENANT_KEYS } from './tenant-context.keys';
import { isTenantSlug } from './tenant-slug';

/**
 * A browser's EventSource cannot send headers: a GET that asks for an event stream may name its
 * tenant as `?tenant=` instead (docs/comandas.md, Live updates). Any other request sends the
 * header.
 */
function eventSourceTenant(req: Request): string | undefined {
  if (req.method !== 'GET' || !req.headers.accept?.includes('text/event-stream')) return undefined;
  const tenant = (req.query as Record<string, unknown> | undefined)?.tenant;
  return typeof tenant === 'string' ? tenant : undefined;
}

/**
 * The tenant-context middleware: reads `X-Tenant-ID` (or an event stream's `?tenant=`), checks that it is a tenant slug and puts
 * the tenant's catalog row in the request context, or the reason it cannot be used. It does
 * not answer by itself: the guards decide, so that a route that is switched off still answers
 * like a route that does not exist, and an unknown route still answers 404.
 */
@Injectable()
export class TenantContextMiddleware implements NestMiddleware {
  constructor(private readonly catalog: TenantCatalogService) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    // The request context was opened by the app's first middlewares (app.factory.ts).
    this.resolve(req.headers[TENANT_HEADER] ?? eventSourceTenant(req)).then(() => next(), next);
  }

  private async resolve(header: string | string[] | undefined): Promise<void> {
    try {
      if (header === undefined || header === '') {
        RequestContext.set(TENANT_KEYS.tenantError, tenantRequired());
      } else if (typeof header !== 'string' || !isTenantSlug(header)) {
        RequestContext.set(TENANT_KEYS.tenantError, tenantInvalid());
      } else {
        RequestContext.set(TENANT_KEYS.requested, header);
        const tenant = await this.catalog.find(header);
        if (tenant) RequestContext.set(TENANT_KEYS.tenant, tenant);
        else RequestContext.set(TENANT_KEYS.tenantError, tenantNotFound(header));
      }
    } catch (error) {
      // The control database is unreachable: 503 for tenant routes.
      const translated = translatePgError(error);
      if (!translated) throw error;
      RequestContext.set(TENANT_KEYS.tenantError, translated);
    }
  }
}
