import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import {
  featureVariables,
  isFeatureOn,
  tenantFeatures,
  type FeatureSwitches,
  type TenantFeature,
} from '../common/config/features';
import type { Tenant } from './entities/tenant.entity';

/**
 * Which switchable features (common/config/features.ts) are on for a tenant: its catalog
 * override, else the global FEATURE_* switch.
 */
@Injectable()
export class TenantFeatures {
  /**
   * The global switches, one per feature, read from the config once: a request asks about a
   * dozen times (its permissions, the comandas' extensions, the tenant's connection settings).
   */
  private readonly switches: FeatureSwitches;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.switches = Object.fromEntries(
      featureVariables().map((variable) => [variable, config[variable]]),
    ) as FeatureSwitches;
  }

  isOn(feature: TenantFeature, tenant: Pick<Tenant, 'features'> | null | undefined): boolean {
    return isFeatureOn(feature, this.switches, tenant?.features);
  }

  /** Every feature with whether it is on for the tenant (GET /api/v1/tenant). */
  effective(tenant: Pick<Tenant, 'features'>): Record<TenantFeature, boolean> {
    return Object.fromEntries(
      tenantFeatures().map((feature) => [feature, this.isOn(feature, tenant)]),
    ) as Record<TenantFeature, boolean>;
  }
}
