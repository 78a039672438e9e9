import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { Tenant } from '../../src/tenancy/entities/tenant.entity';
import { TenantAdmin, tenantAdminSettings } from '../../src/tenancy/tenant-admin';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestDatabases } from '../support/test-databases';
import { runsRemote, variable } from './env';

/**
 * What the contract suite talks to: a base URL, a tenant and the headers of every request.
 *
 * - `E2E_BASE_URL` set: that running instance, tenant `E2E_TENANT` (default `demo`), and
 *   `Authorization: Bearer $E2E_TOKEN` when `E2E_TOKEN` is given.
 * - Unset: the service started in this process like a deployed one, listening on a real port:
 *   fresh databases of its own, a `demo` tenant created with the demo data by the tenant
 *   administration (what `npm run tenant -- create demo --demo` does), its feature switches turned
 *   on (`npm run tenant -- feature demo <feature> on`) so that the suite also reads the generic
 *   and RPC routes, and cobros and inventario off (the contract is the one without the money
 *   and stock rules).
 *   From then on the suite only speaks HTTP to it.
 */
export interface ContractTarget {
  /** `http://host:port`, without a trailing slash: the API is under `${baseUrl}/api/v1`. */
  baseUrl: string;
  tenant: string;
  /** X-Tenant-ID, and Authorization when a token is given. */
  headers: Record<string, string>;
  /** The bearer token sent (E2E_TOKEN), if any. */
  token?: string;
  /** `remote`: E2E_BASE_URL; `in-process`: started by the suite. */
  kind: 'remote' | 'in-process';
  /** Stops what the target started (nothing for a remote instance). */
  close(): Promise<void>;
}

const DEFAULT_TENANT = 'demo';

function headersFor(tenant: string, token: string | undefined): Record<string, string> {
  return token
    ? { 'X-Tenant-ID': tenant, Authorization: `Bearer ${token}` }
    : { 'X-Tenant-ID': tenant };
}

export async function contractTarget(): Promise<ContractTarget> {
  if (runsRemote()) {
    const baseUrl = variable('E2E_BASE_URL')!.replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]+$/.test(baseUrl)) {
      throw new Error(
        `E2E_BASE_URL must be the instance's origin, such as http://localhost:3000 (got "${baseUrl}")`,
      );
    }
    const tenant = variable('E2E_TENANT') ?? DEFAULT_TENANT;
    const token = variable('E2E_TOKEN');
    return {
      baseUrl,
      tenant,
      token,
      headers: headersFor(tenant, token),
      kind: 'remote',
      close: async () => undefined,
    };
  }
  return startInProcess();
}

async function startInProcess(): Promise<ContractTarget> {
  const dbs = await TestDatabases.create();
  let app: TestApp | undefined;
  try {
    await createDemoTenant(dbs, DEFAULT_TENANT);
    app = await startTestApp({}, dbs);
    await app.app.listen(0, '127.0.0.1');
    const { port } = app.http.address() as AddressInfo;
    const started = app;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      tenant: DEFAULT_TENANT,
      headers: headersFor(DEFAULT_TENANT, undefined),
      kind: 'in-process',
      close: async () => {
        await started.close();
        await dbs.drop();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await dbs.drop().catch(() => undefined);
    throw error;
  }
}

/**
 * `npm run tenant -- create <slug> --demo`, then the generic and RPC routes on, cobros and
 * inventario off,
 * on this file's databases.
 */
async function createDemoTenant(dbs: TestDatabases, slug: string): Promise<void> {
  const config = dbs.config();
  const control = new DataSource({
    type: 'postgres',
    url: dbs.controlUrl,
    entities: [Tenant], // all TenantAdmin reads and writes
    poolSize: 1,
    connectTimeoutMS: config.DB_CONNECT_TIMEOUT_MS,
  });
  await control.initialize();
  try {
    const admin = new TenantAdmin(control, tenantAdminSettings(config, dbs.controlUrl));
    // As the demo tenant of `npm start`: a restaurant in Lima.
    await admin.create({ slug, name: 'Cevichería Demo', timeZone: 'America/Lima', demo: true });
    await admin.setFeature(slug, 'genericTables', true);
    await admin.setFeature(slug, 'rpc', true);
    // the comanda contract is the one without the money rules (the demo has cobros on), and the
    // purchases' without the stock's closed period (the demo has inventario on)
    await admin.setFeature(slug, 'cobros', false);
    await admin.setFeature(slug, 'inventario', false);
    // and the comanda's lines without the kitchen's fields (the demo has cocina on)
    await admin.setFeature(slug, 'cocina', false);
  } finally {
    await control.destroy();
  }
}
