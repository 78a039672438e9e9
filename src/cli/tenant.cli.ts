import 'reflect-metadata';
import { featureDefinitions } from '../common/config/features';
import { redactUrl } from '../database/pg-url';
import { quoteIdent } from '../database/sql';
import { Tenant } from '../tenancy/entities/tenant.entity';
import { TenantAdmin, tenantAdminSettings, migrationFailure } from '../tenancy/tenant-admin';
import { defineCli, err, out, UsageError, type CliInput } from './cli-support';

const USAGE = `Usage: npm run tenant -- <command> [options]

Commands:
  create <slug> [--name <name>] [--database-url <url>] [--time-zone <tz>] [--demo [--demo-scale <s>]]
                       Create a tenant: catalog row, database, migrations (and demo data: a year
                       of 60-150 tickets a day; --demo-scale 0.01 keeps one ticket a day in a hundred).
                       Re-running it finishes a half-done creation and changes nothing else.
  list [--json]        List the tenants of the catalog.
  migrate <slug>|--all Run pending tenant migrations on one tenant or on all of them.
                       --all tries every tenant, one line each, and exits 1 naming the failed ones.
  suspend <slug>       Refuse the tenant's requests (403 TENANT_SUSPENDED).
  resume <slug>        Serve the tenant again.
  feature <slug> <feature> <on|off|default>
                       Override a feature switch for this tenant alone (default: follow its
                       FEATURE_* variable). Features:
${[...featureDefinitions()].map(([f, { variable }]) => `                         ${f.padEnd(14)} (${variable})`).join('\n')}
  drop <slug> --yes    Delete the tenant's database and catalog row. Irreversible.
                       A database whose server does not answer is left (named on stderr, to
                       delete by hand) and the tenant is removed from the catalog all the same.

Exit codes: 0 done, 1 failure (database unreachable, ...), 2 wrong usage or refused request.
The database is DATABASE_URL, else the embedded PostgreSQL (shared with a running npm start).`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

const stdio: Output = { out, err };

function requireSlug(positionals: string[], command: string): string {
  const slug = positionals[1];
  if (!slug) throw new UsageError(`${command} needs a tenant slug`);
  if (positionals.length > 2)
    throw new UsageError(`Unexpected arguments: ${positionals.slice(2).join(' ')}`);
  return slug;
}

/** --demo-scale: a number in (0, 1], and only with --demo. */
function demoScaleOf(values: { demo?: boolean; 'demo-scale'?: string }): number | undefined {
  const text = values['demo-scale'];
  if (text === undefined) return undefined;
  if (!values.demo) throw new UsageError('--demo-scale goes with --demo');
  const scale = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(scale > 0 && scale <= 1))
    throw new UsageError(
      `--demo-scale must be a number greater than 0 and at most 1, got "${text}"`,
    );
  return scale;
}

function formatTable(tenants: Tenant[]): string {
  const rows = [
    ['SLUG', 'NAME', 'STATUS', 'TIME ZONE', 'DATABASE', 'FEATURES'],
    ...tenants.map((t) => [
      t.slug,
      t.name,
      t.status,
      t.timeZone,
      t.databaseUrl ? redactUrl(t.databaseUrl) : t.databaseName,
      Object.entries(t.features)
        .map(([k, v]) => `${k}=${v ? 'on' : 'off'}`)
        .join(',') || '-',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const migrationSummary = (ran: string[]) =>
  ran.length ? `applied ${ran.join(', ')}` : 'up to date';

/** Migrates every tenant, whatever fails: 0 when all succeeded, else 1 naming the failed ones. */
async function migrateAll(admin: TenantAdmin, io: Output): Promise<number> {
  const slugs = (await admin.list()).map((t) => t.slug);
  const failed: string[] = [];
  for (const slug of slugs) {
    try {
      io.out(`${slug}: ${migrationSummary(await admin.migrate(slug))}`);
    } catch (error) {
      failed.push(slug);
      const reason = migrationFailure(error);
      io.err(`${slug}: FAILED: ${reason}`);
    }
  }
  if (failed.length === 0) return 0;
  io.err(`migrate --all: ${failed.length} of ${slugs.length} tenants FAILED: ${failed.join(', ')}`);
  return 1;
}

/** Runs one command; returns the exit code (errors are left to runCli). */
const OPTIONS = {
  name: { type: 'string' },
  'database-url': { type: 'string' },
  'time-zone': { type: 'string' },
  demo: { type: 'boolean', default: false },
  'demo-scale': { type: 'string' },
  all: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

const COMMANDS = ['create', 'list', 'migrate', 'suspend', 'resume', 'feature', 'drop'];

async function execute(
  admin: TenantAdmin,
  { values, positionals }: Pick<CliInput<typeof OPTIONS>, 'values' | 'positionals'>,
  io: Output,
): Promise<number> {
  const command = positionals[0];
  switch (command) {
    case 'create': {
      const slug = requireSlug(positionals, command);
      const result = await admin.create({
        slug,
        name: values.name,
        databaseUrl: values['database-url'],
        timeZone: values['time-zone'],
        demo: values.demo,
        demoScale: demoScaleOf(values),
      });
      const what = result.created ? 'Created' : 'Already existed:';
      io.out(
        `${what} tenant ${slug} (database ${result.tenant.databaseName}, status ${result.tenant.status})`,
      );
      if (result.migrations.length) io.out(`Migrations applied: ${result.migrations.join(', ')}`);
      if (result.demo) io.out(`Demo data: ${JSON.stringify(result.demo)}`);
      return 0;
    }
    case 'list': {
      const tenants = await admin.list();
      if (values.json)
        io.out(
          JSON.stringify(
            tenants.map((t) => ({ ...t, databaseUrl: t.databaseUrl && redactUrl(t.databaseUrl) })),
            null,
            2,
          ),
        );
      else
        io.out(
          tenants.length ? formatTable(tenants) : 'No tenants yet: npm run tenant -- create <slug>',
        );
      return 0;
    }
    case 'migrate': {
      if (values.all === positionals.length > 1)
        throw new UsageError('migrate needs a tenant slug or --all');
      if (values.all) return migrateAll(admin, io);
      const slug = requireSlug(positionals, command);
      io.out(`${slug}: ${migrationSummary(await admin.migrate(slug))}`);
      return 0;
    }
    case 'suspend':
    case 'resume': {
      const slug = requireSlug(positionals, command);
      const tenant = await admin.setStatus(slug, command === 'suspend' ? 'suspended' : 'active');
      io.out(`Tenant ${slug} is ${tenant.status}`);
      return 0;
    }
    case 'feature': {
      const [, slug, feature, state] = positionals;
      if (!slug || !feature || !state || positionals.length > 4) {
        throw new UsageError('feature needs <slug> <feature> <on|off|default>');
      }
      const states: Record<string, boolean | undefined> = {
        on: true,
        off: false,
        default: undefined,
      };
      if (!(state in states))
        throw new UsageError(`State must be on, off or default (got "${state}")`);
      const tenant = await admin.setFeature(slug, feature, states[state]);
      io.out(`Tenant ${slug} features: ${JSON.stringify(tenant.features)}`);
      return 0;
    }
    case 'drop': {
      const slug = requireSlug(positionals, command);
      if (!values.yes)
        throw new UsageError(`drop deletes the database of ${slug}: confirm with --yes`);
      const { databaseDropped, databaseLeft } = await admin.drop(slug);
      if (databaseLeft) {
        const { database, server, reason } = databaseLeft;
        io.err(
          `Warning: the database "${database}" was NOT deleted: its server ${server} did not answer (${reason}). ` +
            `When the server is back, delete it by hand: DROP DATABASE ${quoteIdent(database)};`,
        );
        io.out(`Dropped tenant ${slug} from the catalog`);
        return 0;
      }
      io.out(
        `Dropped tenant ${slug}${databaseDropped ? ' and its database' : ' (its database was already gone)'}`,
      );
      return 0;
    }
    case undefined:
    case 'help':
      io.out(USAGE);
      return 0;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

defineCli({
  usage: USAGE,
  options: OPTIONS,
  run: async ({ values, positionals, config, withApp }) => {
    if (!COMMANDS.includes(positionals[0]))
      throw new UsageError(`Unknown command "${positionals[0]}"`);
    return withApp((app) => {
      const admin = new TenantAdmin(
        app.control,
        tenantAdminSettings(config, app.target.controlUrl),
      );
      return execute(admin, { values, positionals }, stdio);
    });
  },
});
