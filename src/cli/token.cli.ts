import 'reflect-metadata';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sign } from 'jsonwebtoken';
import { StaffRepository } from '../auth/staff.repository';
import { permissionsOf } from '../auth/permissions';
import { ConflictError, NotFoundError } from '../common/errors/domain-error';
import { TenantContext } from '../tenancy/tenant-context';
import { defineCli, err, out, UsageError, type CliInput } from './cli-support';

const USAGE = `Usage: npm run token -- --tenant <slug> --user <documento> [options]
       npm run token -- --tenant <slug> --list

Issues a token for a staff member of the tenant, for development and tests:
sub = their id_usuario, tenant = the slug, exp = now + --expires-in. Signed HS256 with
AUTH_JWT_SECRET (from the environment or .env, the service's own), or RS256 with
--private-key-file. The token alone is written to standard output.

Options:
  --list                      The tenant's active users: documento, name, roles (no token)
  --expires-in <n><s|m|h|d>   Lifetime, at most 30 days (default 8h: a shift)
  --private-key-file <pem>    Sign RS256 with this RSA private key instead of the secret
  --kid <id>                  Key id written in the token header (RS256 with a JWKS)
  --json                      Print {token, tenant, id_usuario, roles, permissions, expiresAt}

Exit code 0 when issued, 1 on failure (database unreachable ...), 2 on wrong usage or a
refused request (unknown tenant, unknown or inactive user).`;

const MAX_LIFETIME_S = 30 * 86_400;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

function lifetimeSeconds(text: string): number {
  const match = /^(\d{1,7})([smhd])$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2]] : NaN;
  if (!(seconds > 0 && seconds <= MAX_LIFETIME_S))
    throw new UsageError(`--expires-in must be like 30m, 8h or 7d, at most 30d (got "${text}")`);
  return seconds;
}

function rsaPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new UsageError(`--private-key-file ${file}: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new UsageError(`--private-key-file ${file}: RS256 needs an RSA key`);
  return key;
}

async function listUsers(tenant: string, withApp: CliInput<typeof OPTIONS>['withApp']) {
  const staff = await withApp((app) =>
    app.get(TenantContext).run(tenant, () => app.get(StaffRepository).listActive()),
  );
  out(`${'documento'.padEnd(14)} ${'id'.padStart(4)}  ${'nombre'.padEnd(24)} roles`);
  for (const member of staff) {
    out(
      `${member.documento.padEnd(14)} ${String(member.id_usuario).padStart(4)}  ${member.nombre.padEnd(24)} ${member.roles.join(', ') || '-'}`,
    );
  }
  return 0;
}

const OPTIONS = {
  tenant: { type: 'string' },
  user: { type: 'string' },
  'expires-in': { type: 'string', default: '8h' },
  'private-key-file': { type: 'string' },
  kid: { type: 'string' },
  json: { type: 'boolean' },
  list: { type: 'boolean' },
} as const;

defineCli({
  usage: USAGE,
  options: OPTIONS,
  run: async ({ values, positionals, config, withApp }) => {
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const { tenant, user } = values;
    if (tenant && values.list && !user) return listUsers(tenant, withApp);
    if (!tenant || !user)
      throw new UsageError('--tenant and --user are required (or --tenant and --list)');
    const expiresIn = lifetimeSeconds(values['expires-in']);
    const keyFile = values['private-key-file'];
    if (values.kid !== undefined && !keyFile)
      throw new UsageError('--kid goes with --private-key-file (RS256)');
    const key = keyFile ? rsaPrivateKey(keyFile) : config.AUTH_JWT_SECRET;
    if (!key)
      throw new UsageError(
        'Set AUTH_JWT_SECRET (the secret the service verifies with) or pass --private-key-file',
      );

    const member = await withApp((app) =>
      app.get(TenantContext).run(tenant, () => app.get(StaffRepository).findByDocumento(user)),
    );
    if (!member)
      throw new NotFoundError(
        `No user with documento "${user}" in tenant "${tenant}"`,
        'USER_NOT_FOUND',
      );
    if (!member.activo)
      throw new ConflictError(
        `User "${user}" (id_usuario ${member.id_usuario}) of tenant "${tenant}" is not active`,
        'USER_INACTIVE',
      );

    const token = sign({ tenant }, key, {
      algorithm: keyFile ? 'RS256' : 'HS256',
      subject: String(member.id_usuario),
      expiresIn,
      ...(values.kid ? { keyid: values.kid } : {}),
    });
    const expiresAt = new Date(Date.now() + expiresIn * 1000).toISOString();
    const roles = member.roles.length > 0 ? member.roles.join(', ') : 'no role';
    if (values.json) {
      out(
        JSON.stringify(
          {
            token,
            tenant,
            id_usuario: member.id_usuario,
            nombre: member.nombre,
            roles: member.roles,
            permissions: permissionsOf(member.roles),
            expiresAt,
          },
          null,
          2,
        ),
      );
    } else {
      err(
        `Token for ${member.nombre} (id_usuario ${member.id_usuario}, ${roles}) of tenant ${tenant}, valid until ${expiresAt}`,
      );
      out(token);
    }
    return 0;
  },
});
