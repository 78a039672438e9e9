import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../common/config/app-config';
import { Tenant } from './entities/tenant.entity';
import { TenantAdmin, tenantAdminSettings } from './tenant-admin';
import type { DatabaseTarget } from '../database/database-target';

export const DEMO_TENANT_SLUG = 'demo';
export const DEMO_TIME_ZONE = 'America/Lima';

/**
 * Provisions the `demo` tenant with demo data unless the catalog has it already. Answers what
 * is left to do after the demo's commit (its statistics and the sales report's model:
 * TenantAdmin.finishDemo), for the caller to run once it serves; nothing when the demo was
 * there.
 */
export async function ensureDemoTenant(
  config: AppConfig,
  target: DatabaseTarget,
  log: (message: string) => void,
  onSeeding?: () => void,
): Promise<(() => Promise<void>) | undefined> {
  // every start but the first: one query says the demo is there
  if (await demoIsProvisioned(target.controlUrl, config.DB_CONNECT_TIMEOUT_MS)) return undefined;
  const control = new DataSource({
    type: 'postgres',
    url: target.controlUrl,
    // the tenant administration reads and writes the catalog only
    entities: [Tenant],
    poolSize: 1,
    connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
  });
  await control.initialize();
  try {
    log('Provisioning the demo tenant with demo data (first start)');
    const admin = new TenantAdmin(control, tenantAdminSettings(config, target.controlUrl));
    const result = await admin.create({
      slug: DEMO_TENANT_SLUG,
      name: 'Cevichería Demo',
      // The demo restaurant is in Lima: its dates and times are Lima's.
      timeZone: DEMO_TIME_ZONE,
      demo: true,
      deferDemoFinish: true,
      onDemoSeeding: onSeeding,
    });
    log(`Demo tenant ready: ${JSON.stringify(result.demo ?? {})}`);
    if (!result.demo) return undefined;
    return () => admin.finishDemo(result.tenant);
  } finally {
    await control.destroy();
  }
}

async function demoIsProvisioned(controlUrl: string, connectTimeoutMs: number): Promise<boolean> {
  const client = new Client({
    connectionString: controlUrl,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  await client.connect();
  try {
    const { rows } = await client.query<Pick<Tenant, 'status'>>(
      'SELECT status FROM tenants WHERE slug = $1',
      [DEMO_TENANT_SLUG],
    );
    return rows[0]?.status === 'active' || rows[0]?.status === 'suspended';
  } finally {
    await client.end();
  }
}
