import { TEST_SECRET, seedStaff } from '../../support/auth';
import { seedDemo, seedMenu } from '../../support/fixtures';
import { freePort, MAIN_JS, RunningProcess } from '../../support/processes';
import { TestDatabases, type TestTenantOptions } from '../../support/test-databases';
import { FEATURES, type TenantFeature } from '../../../src/common/config/features';

export interface WebServerOptions {
  /** Slug of the tenant created and seeded (default `demo`, what the sign-in form proposes). */
  tenant?: string;
  /** Its catalog row: name, status, per-tenant feature overrides, time zone. */
  tenantOptions?: TestTenantOptions;
  /** Service-wide switches (FEATURE_GENERIC_TABLES, FEATURE_RPC, ...), e.g. `{ rpc: true }`. */
  features?: Partial<Record<TenantFeature, boolean>>;
  /** `AUTH_MODE=jwt` with the suites' secret (tokens: `tokenFor` of test/support/auth.ts). */
  auth?: boolean;
  /**
   * `menu` (default): the small menu of `seedMenu`; `demo`: the demo restaurant of `seedDemo`
   * (a year of comandas, twelve tables, its own staff and roles; not with `auth`).
   */
  data?: 'menu' | 'demo';
  /** Any other variable of the service. */
  env?: Record<string, string>;
}

export interface WebServer {
  /** Origin of the service, e.g. `http://127.0.0.1:41234` (the page at `/`, the API at /api/v1). */
  baseUrl: string;
  tenant: string;
  /** This file's databases: `dbs.query(dbs.tenantUrl(tenant), ...)` to check or add rows. */
  dbs: TestDatabases;
  process: RunningProcess;
  /** Stops the service (SIGTERM, as on a deployment) and drops the databases. */
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it (the built dist/main.js, which serves the built page
 * web/dist at `/`), as its own process on a free port of 127.0.0.1, on databases of this test
 * file cloned from the run's migrated templates: one tenant with the menu of `seedMenu` (and,
 * with `auth`, the staff and roles of `seedStaff`) or the demo restaurant. Nothing is started
 * in the jest process.
 */
export async function startServer(options: WebServerOptions = {}): Promise<WebServer> {
  const tenant = options.tenant ?? 'demo';
  const dbs = await TestDatabases.create();
  let service: RunningProcess | undefined;
  const stop = async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await dbs.drop();
  };
  try {
    await dbs.createTenant(tenant, options.tenantOptions);
    if (options.data === 'demo') {
      if (options.auth) throw new Error('the demo restaurant has its own staff: no auth with it');
      await seedDemo(dbs, tenant);
    } else {
      await seedMenu(dbs, tenant);
      if (options.auth) await seedStaff(dbs, tenant);
    }
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(options.auth ? { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET } : {}),
    };
    for (const [feature, on] of Object.entries(options.features ?? {}))
      env[FEATURES[feature as TenantFeature].variable] = String(on);
    service = new RunningProcess(MAIN_JS, dbs.env({ ...env, ...options.env }));
    await service.waitForOutput('is listening on');
    return { baseUrl: `http://127.0.0.1:${port}`, tenant, dbs, process: service, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
