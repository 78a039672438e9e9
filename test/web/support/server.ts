import { STAFF, TEST_SECRET, seedStaff } from '../../support/auth';
import { seedDemo, seedMenu } from '../../support/fixtures';
import { freePort, MAIN_JS, RunningProcess } from '../../support/processes';
import { TestDatabases, type TestTenantOptions } from '../../support/test-databases';
import { featureDefinition, type TenantFeature } from '../../../src/common/config/features';
import { hashPin } from '../../../src/common/secret-hashing';

/**
 * The PINs of the staff of `seedStaff` (`auth` with the small menu), to sign in on the page's
 * PIN pad as each role. The demo restaurant's staff have theirs (DEMO_PINS).
 */
export const STAFF_PINS: Record<Exclude<keyof typeof STAFF, 'exEmpleado'>, string> = {
  mozo: '6284',
  cajero: '3951',
  admin: '4827',
  cocina: '7395',
  sinRol: '8406',
};

export interface WebServerOptions {
  /** Slug of the tenant created and seeded (default `demo`, what the sign-in form proposes). */
  tenant?: string;
  /** Its catalog row: name, status, per-tenant feature overrides, time zone. */
  tenantOptions?: TestTenantOptions;
  /** Service-wide switches (FEATURE_GENERIC_TABLES, FEATURE_RPC, ...), e.g. `{ rpc: true }`. */
  features?: Partial<Record<TenantFeature, boolean>>;
  /**
   * `AUTH_MODE=jwt` with the suites' secret: the page signs in with a PIN (STAFF_PINS with the
   * small menu, DEMO_PINS with the demo); API calls may use `tokenFor` of test/support/auth.ts.
   */
  auth?: boolean;
  /**
   * `menu` (default): the small menu of `seedMenu`; `demo`: the demo restaurant of `seedDemo`
   * (a year of comandas, twelve tables, its own staff, roles and development credentials).
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
 * with `auth`, the staff and roles of `seedStaff` with the PINs of STAFF_PINS) or the demo
 * restaurant (its own staff and credentials). Nothing is started in the jest process.
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
    if (options.data === 'demo') await seedDemo(dbs, tenant);
    else {
      await seedMenu(dbs, tenant);
      if (options.auth) {
        await seedStaff(dbs, tenant);
        await seedStaffPins(dbs, tenant);
      }
    }
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(options.auth ? { AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET } : {}),
    };
    for (const [feature, on] of Object.entries(options.features ?? {}))
      env[featureDefinition(feature as TenantFeature).variable] = String(on);
    service = new RunningProcess(MAIN_JS, dbs.env({ ...env, ...options.env }));
    await service.waitForOutput('is listening on');
    return { baseUrl: `http://127.0.0.1:${port}`, tenant, dbs, process: service, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** STAFF_PINS as the service stores them (the tenant's PIN salt, the service's own hash). */
async function seedStaffPins(dbs: TestDatabases, slug: string): Promise<void> {
  const url = dbs.tenantUrl(slug);
  const [{ sal_pin }] = await dbs.query<{ sal_pin: Buffer }>(
    url,
    'SELECT sal_pin FROM credenciales_ajustes WHERE id = 1',
  );
  const rows = await Promise.all(
    Object.entries(STAFF_PINS).map(async ([role, pin]) => ({
      id_usuario: STAFF[role as keyof typeof STAFF_PINS].id,
      pin_hash: await hashPin(pin, sal_pin),
    })),
  );
  await dbs.query(
    url,
    `INSERT INTO credenciales (id_usuario, pin_hash)
     SELECT r.id_usuario, r.pin_hash FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, pin_hash text)`,
    [JSON.stringify(rows)],
  );
}
