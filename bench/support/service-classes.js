// The service's own comandas and money classes, built without Nest over any `dataSource` with
// query() and transaction(): a pg pool in the baseline (bench/baseline-server.js), one client
// timing each statement in the money stage's EXPLAIN (bench/cobros.js). The comandas are
// extended as the app module extends them (the extensions of src/modules.ts: the money's actions,
// fields and the order of the hooks); ComandasService gets the comandas module's extensions and
// CobrosService registers its hooks among them, as CobrosModule does at start-up (it acts only
// while its feature is on); the FEATURE_* switches are read from `env` as the service reads
// them, and the caller is the one of AUTH_MODE=off.
require('reflect-metadata');
const { AsyncLocalStorage } = require('node:async_hooks');
const { join } = require('node:path');

const DIST = join(__dirname, '..', '..', 'dist');
const { comandaExtensions } = require(join(DIST, 'modules'));
const { ComandaExtensions } = require(join(DIST, 'comandas', 'comanda-extensions'));
const { ComandasModule } = require(join(DIST, 'comandas', 'comandas.module'));
const { ComandasRepository } = require(join(DIST, 'comandas', 'comandas.repository'));
const { ComandasService } = require(join(DIST, 'comandas', 'comandas.service'));
const { CajasRepository } = require(join(DIST, 'cobros', 'cajas.repository'));
const { CobrosRepository } = require(join(DIST, 'cobros', 'cobros.repository'));
const { CobrosService } = require(join(DIST, 'cobros', 'cobros.service'));
const { Grants } = require(join(DIST, 'auth', 'grants'));
const { loadConfig } = require(join(DIST, 'common', 'config', 'app-config'));
const { featureVariables, tenantFeatures } = require(join(DIST, 'common', 'config', 'features'));
const { TenantFeatures } = require(join(DIST, 'tenancy', 'tenant-features.service'));

/**
 * `context` (TenantContext's surface: the tenant, its DataSource, the transaction a
 * repository's `db` is while its work runs), `caller` and the services.
 */
function serviceClasses(dataSource, { timeZone, env = process.env }) {
  const transactions = new AsyncLocalStorage();
  const context = {
    tenant: { slug: 'baseline', databaseName: 'baseline', timeZone },
    dataSource,
    get transaction() {
      return transactions.getStore();
    },
    withinTransaction: (tx, work) => transactions.run(tx, work),
  };
  // the tenant has no override: the global switches decide
  const features = new TenantFeatures(
    loadConfig(Object.fromEntries(featureVariables().map((name) => [name, env[name]]))),
  );
  // every permission but those of the features switched off, as CallerPermissions gives it
  const caller = {
    grants: Grants.ALL.without(tenantFeatures().filter((f) => !features.isOn(f, context.tenant))),
  };
  ComandasModule.extendWith(comandaExtensions());
  const extensions = new ComandaExtensions();
  const comandas = new ComandasService(
    new ComandasRepository(context),
    context,
    caller,
    extensions,
  );
  new CobrosService(
    new CobrosRepository(context),
    new CajasRepository(context),
    comandas,
    extensions,
    context,
    features,
    caller,
  ).onModuleInit();
  return { context, caller, comandas };
}

module.exports = { serviceClasses };
