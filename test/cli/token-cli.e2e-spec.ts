import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, type JwtPayload } from 'jsonwebtoken';
import { authedApi, rsaKeys, seedStaff, STAFF, TEST_SECRET } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { runNode, TOKEN_CLI_JS } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';

describe('token CLI (npm run token)', () => {
  let t: TestApp;
  let dir: string;
  let privateKeyFile: string;
  const cli = (args: string[], env: Record<string, string> = { AUTH_JWT_SECRET: TEST_SECRET }) =>
    runNode(TOKEN_CLI_JS, args, t.dbs.env(env));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comandas-token-'));
    const keys = rsaKeys(dir);
    privateKeyFile = join(dir, 'private.pem');
    writeFileSync(privateKeyFile, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    t = await startTestApp({
      AUTH_MODE: 'jwt',
      AUTH_JWT_SECRET: TEST_SECRET,
      AUTH_JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    });
    await t.dbs.createTenant('alfa');
    await seedMenu(t.dbs, 'alfa');
    await seedStaff(t.dbs, 'alfa');
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('issues a token the service accepts, for the user found by documento', async () => {
    const result = await cli(['--tenant', 'alfa', '--user', STAFF.cajero.documento]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^Token for Luis \(id_usuario 2, cajero\) of tenant alfa, valid until \d{4}-/,
    );
    const token = result.stdout.trim();
    expect(token.split('.')).toHaveLength(3);
    const claims = decode(token, { complete: true });
    expect(claims?.header.alg).toBe('HS256');
    const payload = claims?.payload as JwtPayload;
    expect(payload).toMatchObject({ sub: '2', tenant: 'alfa' });
    // default lifetime: 8 hours
    expect(payload.exp! - payload.iat!).toBe(8 * 3600);
    const api = authedApi(t.http, 'alfa', token);
    await api.get('/comandas').expect(200);
    expect((await api.post('/comandas', { id_mesa: 1 }).expect(403)).body.code).toBe('FORBIDDEN');
  });

  it('--json tells the roles and permissions; --expires-in sets the lifetime', async () => {
    const result = await cli([
      '--tenant',
      'alfa',
      '--user',
      STAFF.mozo.documento,
      '--expires-in',
      '30m',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out).toEqual({
      token: expect.any(String),
      tenant: 'alfa',
      id_usuario: 1,
      nombre: 'Rosa',
      roles: ['mozo'],
      permissions: [
        'comandas:read',
        'comandas:write',
        'comandas:split',
        'comandas:merge',
        'comandas:transfer',
        'reservas:read',
        'reservas:write',
        'reservas:seat',
        // a waiter sends to the kitchen (the role's permissions, whatever the tenant's features)
        'cocina:read',
        'cocina:send',
      ],
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const payload = decode(out.token) as JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(1800);
    await authedApi(t.http, 'alfa', out.token).post('/comandas', { id_mesa: 1 }).expect(201);
  });

  it('signs RS256 with --private-key-file, verified by the public key of the service', async () => {
    const result = await cli(
      ['--tenant', 'alfa', '--user', STAFF.admin.documento, '--private-key-file', privateKeyFile],
      {},
    );
    expect(result.code).toBe(0);
    const token = result.stdout.trim();
    expect(decode(token, { complete: true })?.header.alg).toBe('RS256');
    await authedApi(t.http, 'alfa', token).delete('/comandas/1').expect(200);
  });

  it('--list shows the active users with their documento and roles', async () => {
    const result = await cli(['--tenant', 'alfa', '--list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^documento\s+id\s+nombre\s+roles$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([
      '40000001',
      '40000002',
      '40000003',
      '40000004',
      '40000005',
    ]);
    expect(lines[1]).toMatch(/^40000001\s+1\s+Rosa\s+mozo$/);
    expect(lines[5]).toMatch(/^40000005\s+5\s+Nadia\s+-$/);
  });

  it.each<[string, string[], Record<string, string> | undefined, string]>([
    [
      'an unknown documento',
      ['--tenant', 'alfa', '--user', '99999999'],
      undefined,
      'No user with documento "99999999" in tenant "alfa"',
    ],
    [
      'an inactive user',
      ['--tenant', 'alfa', '--user', STAFF.exEmpleado.documento],
      undefined,
      'is not active',
    ],
    [
      'an unknown tenant',
      ['--tenant', 'nadie', '--user', '40000001'],
      undefined,
      'Tenant "nadie" does not exist',
    ],
    ['no secret and no key', ['--tenant', 'alfa', '--user', '40000001'], {}, 'Set AUTH_JWT_SECRET'],
    [
      'a bad lifetime',
      ['--tenant', 'alfa', '--user', '40000001', '--expires-in', '90d'],
      undefined,
      '--expires-in must be like 30m, 8h or 7d, at most 30d',
    ],
    ['a missing --user', ['--tenant', 'alfa'], undefined, '--tenant and --user are required'],
    [
      'a private key file that is no key',
      ['--tenant', 'alfa', '--user', '40000001', '--private-key-file', __filename],
      {},
      '--private-key-file',
    ],
  ])('refuses %s with exit code 2 and no token', async (_what, args, env, message) => {
    const result = await cli(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});
