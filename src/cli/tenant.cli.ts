import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { redactUrl } from '../database/pg-url';
import { Tenant } from '../tenancy/entities/tenant.entity';
import { TenantAdmin } from '../tenancy/tenant-admin';
import { err, openControl, out, readCliConfig, runCli, UsageError } from './cli-support';

const USAGE = `Usage: npm run tenant -- <command> [options]

Commands:
  create <slug> [--name <name>] [--database-url <url>] [--time-zone <tz>] [--demo]
                       Create a tenant: catalog row, database, migrations (and demo data).
                       Re-running it finishes a half-done creation and changes nothing else.
  list [--json]        List the tenants of the catalog.
  migrate <slug>|--all Run pending tenant migrations on one tenant or on all of them.
  suspend <slug>       Refuse the tenant's requests (403 TENANT_SUSPENDED).
  resume <slug>        Serve the tenant again.
  feature <slug> <genericTables|rpc> <on|off|default>
                       Override a feature switch for this tenant alone (default: follow FEATURE_*).
  drop <slug> --yes    Delete the tenant's database and catalog row. Irreversible.

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

async function execute(admin: TenantAdmin, argv: string[], io: Output): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      'database-url': { type: 'string' },
      'time-zone': { type: 'string' },
      demo: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
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
      });
      const what = result.created ? 'Created' : 'Already existed:';
      io.out(
        `${what} tenant ${slug} (database ${result.tenant.databaseName}, status ${result.tenant.status})`,
      );
      if (result.migrations.length) io.out(`Migrations applied: ${result.migrations.join(', ')}`);
      if (result.demo) io.out(`Demo data: ${JSON.stringify(result.demo)}`);
      return;
    }
    case 'list': {
      const tenants = await admin.list();
      if (values.json) io.out(JSON.stringify(tenants, null, 2));
      else
        io.out(
          tenants.length ? formatTable(tenants) : 'No tenants yet: npm run tenant -- create <slug>',
        );
      return;
    }
    case 'migrate': {
      if (values.all === positionals.length > 1)
        throw new UsageError('migrate needs a tenant slug or --all');
      const slugs = values.all
        ? (await admin.list()).map((t) => t.slug)
        : [requireSlug(positionals, command)];
      for (const slug of slugs) {
        const ran = await admin.migrate(slug);
        io.out(`${slug}: ${ran.length ? `applied ${ran.join(', ')}` : 'up to date'}`);
      }
      return;
    }
    case 'suspend':
    case 'resume': {
      const slug = requireSlug(positionals, command);
      const tenant = await admin.setStatus(slug, command === 'suspend' ? 'suspended' : 'active');
      io.out(`Tenant ${slug} is ${tenant.status}`);
      return;
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
      return;
    }
    case 'drop': {
      const slug = requireSlug(positionals, command);
      if (!values.yes)
        throw new UsageError(`drop deletes the database of ${slug}: confirm with --yes`);
      const { databaseDropped } = await admin.drop(slug);
      io.out(
        `Dropped tenant ${slug}${databaseDropped ? ' and its database' : ' (its database was already gone)'}`,
      );
      return;
    }
    case undefined:
    case 'help':
      io.out(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

runCli(USAGE, async () => {
  const argv = process.argv.slice(2);
  const config = readCliConfig();
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    stdio.out(USAGE);
    return 0;
  }
  const { database, control } = await openControl(config);
  try {
    const admin = new TenantAdmin(control, {
      controlUrl: database.target.controlUrl,
      databasePrefix: config.TENANT_DB_PREFIX,
      defaultTimeZone: config.DEFAULT_TIME_ZONE,
      connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    });
    await execute(admin, argv, stdio);
    return 0;
  } finally {
    await control.destroy().catch(() => undefined);
    await database.close().catch(() => undefined);
  }
});
