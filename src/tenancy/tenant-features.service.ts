import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import {
  featureDefinitions,
  tenantFeatures,
  type FeatureVariable,
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
   * The global switch of each feature, read from the config once: a request asks about a
   * dozen times (its permissions, the comandas' extensions, the tenant's connection settings).
   */
  private readonly switches: Readonly<Record<TenantFeature, boolean>>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.switches = Object.fromEntries(
      [...featureDefinitions()].map(([feature, { variable }]) => [
        feature,
        config[variable as FeatureVariable],
      ]),
    ) as Record<TenantFeature, boolean>;
  }

  /** Its catalog override when the tenant has one, else the global switch of the config. */
  isOn(feature: TenantFeature, tenant: Pick<Tenant, 'features'> | null | undefined): boolean {
    const override = tenant?.features?.[feature];
    return typeof override === 'boolean' ? override : this.switches[feature];
  }

  /** Every feature with whether it is on for the tenant (GET /api/v1/tenant). */
  effective(tenant: Pick<Tenant, 'features'>): Record<TenantFeature, boolean> {
    return Object.fromEntries(
      tenantFeatures().map((feature) => [feature, this.isOn(feature, tenant)]),
    ) as Record<TenantFeature, boolean>;
  }
}
