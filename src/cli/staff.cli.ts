import 'reflect-metadata';
import { ConflictError, NotFoundError } from '../common/errors/domain-error';
import { AdminRequestError } from '../common/errors/admin-request-error';
import { CredentialsRepository } from '../sign-in/credentials.repository';
import { passwordProblem, pinProblem } from '../sign-in/secret-rules';
import { SignInService } from '../sign-in/sign-in.service';
import { weakSecret } from '../sign-in/sign-in.errors';
import { TenantContext } from '../tenancy/tenant-context';
import { defineCli, out, UsageError } from './cli-support';
import { firstLine, HiddenPrompt } from './secret-input';

const USAGE = `Usage: npm run staff -- password <tenant> <documento>
       npm run staff -- pin <tenant> <documento>

Sets the password or the PIN a staff member signs in with (POST /api/v1/auth/login or
/auth/pin), with the rules of PUT /api/v1/usuarios/:id/credenciales: a password of at least 10
characters, a PIN of 4 to 6 digits that is not trivial (0000, 1234, 1212 ...) and that no other
active staff member of the restaurant has. Stored as a scrypt hash; every open session of the
user ends (the running service refuses their tokens within TENANT_CACHE_TTL_MS).

The secret is never an argument (the shell's history and ps would keep it). At a terminal it
is asked for twice, without echo; otherwise it is the first line of standard input:

  npm run staff -- password demo 39019936                     # asks for it
  printf '%s\\n' "$NEW_PIN" | npm run -s staff -- pin demo 39019936

The user is found by documento (npm run token -- --tenant <slug> --list shows them).
Prints one line: whose secret was set and how many open sessions ended.

Exit code 0 when set, 1 on failure (database unreachable ...), 2 on wrong usage or a refused
request (unknown tenant or documento, inactive user, a secret the rules refuse, a PIN in use,
the two entries differ).`;

type Kind = 'password' | 'pin';

const LABEL: Record<Kind, string> = { password: 'Password', pin: 'PIN' };
const NAME: Record<Kind, string> = { password: 'password', pin: 'PIN' };
const problemOf: Record<Kind, (secret: string) => string | undefined> = {
  password: passwordProblem,
  pin: pinProblem,
};

const sessionsEnded = (n: number) =>
  n === 0 ? 'no open session ended' : `${n} open session${n === 1 ? '' : 's'} ended`;

/**
 * The new secret: asked twice at a terminal (without echo; a refused one is reported before the
 * second entry), else the first line of standard input.
 */
async function readSecret(kind: Kind, whose: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const secret = await firstLine(process.stdin);
    if (secret === '')
      throw new AdminRequestError(`No ${kind} on the first line of standard input`);
    return secret;
  }
  const prompt = new HiddenPrompt(process.stdin, process.stderr);
  const secret = await prompt.ask(`New ${NAME[kind]} for ${whose}: `);
  if (secret === '') throw new AdminRequestError(`No ${kind} was typed: nothing was changed`);
  const problem = problemOf[kind](secret);
  if (problem) throw weakSecret([problem]);
  if ((await prompt.ask(`The same ${NAME[kind]} again: `)) !== secret)
    throw new AdminRequestError('The two entries differ: nothing was changed');
  return secret;
}

defineCli({
  usage: USAGE,
  run: async ({ positionals, withApp }) => {
    const [command, tenant, documento, ...extra] = positionals;
    if (command !== 'password' && command !== 'pin')
      throw new UsageError(`Unknown command "${command}"`);
    if (!tenant || !documento)
      throw new UsageError(`${command} needs a tenant slug and a documento`);
    // the extra arguments are not repeated: they may well be the secret
    if (extra.length > 0)
      throw new UsageError(
        `Unexpected argument after the documento: the ${NAME[command]} is never read from the command ` +
          'line, where the shell’s history and ps would keep it. Type it when asked, or pipe it on ' +
          'standard input',
      );
    const kind: Kind = command;

    const { nombre, change } = await withApp((app) =>
      app.get(TenantContext).run(tenant, async () => {
        const member = await app.get(CredentialsRepository).byDocumento(documento.trim());
        if (!member)
          throw new NotFoundError(
            `No user with documento "${documento}" in tenant "${tenant}"`,
            'USER_NOT_FOUND',
          );
        if (!member.activo)
          throw new ConflictError(
            `User "${documento}" (${member.nombre}) of tenant "${tenant}" is not active: they cannot sign in`,
            'USER_INACTIVE',
          );
        const secret = await readSecret(kind, `${member.nombre} (documento ${documento})`);
        const changed = await app
          .get(SignInService)
          .setCredentials(member.id_usuario, { [kind]: secret });
        return { nombre: member.nombre, change: changed };
      }),
    );
    out(
      `${LABEL[kind]} set for ${nombre} (documento ${documento}); ${sessionsEnded(change.sesiones_cerradas)}`,
    );
    return 0;
  },
});
