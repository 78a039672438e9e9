import { verifySecret } from '../../src/common/secret-hashing';
import { authedApi, seedStaff, STAFF, TEST_SECRET } from '../support/auth';
import { seedMenu } from '../support/fixtures';
import { runNode, STAFF_CLI_JS, type ProcessResult } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * npm run staff: a staff member's password or PIN set from the command line, read from standard
 * input (a pipe here; at a terminal it is typed twice without echo), through the same rules,
 * hashing and session ends as PUT /usuarios/:id/credenciales; the service it runs next to then
 * signs them in with it.
 */
describe('staff CLI (npm run staff)', () => {
  let t: TestApp;
  const cli = (args: string[], input?: string) =>
    runNode(STAFF_CLI_JS, args, t.dbs.env(), 60_000, input);
  const anonymous = () => authedApi(t.http, 'alfa');
  const hashes = async (id: number) => {
    const [row] = await t.dbs.query<{ password_hash: string | null; pin_hash: string | null }>(
      t.dbs.tenantUrl('alfa'),
      'SELECT password_hash, pin_hash FROM credenciales WHERE id_usuario = $1',
      [id],
    );
    return row;
  };
  /** Neither the command's output nor its errors ever hold the secret. */
  const expectNoSecret = (result: ProcessResult, secret: string) => {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  };

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: TEST_SECRET });
    await t.dbs.createTenant('alfa');
    await seedMenu(t.dbs, 'alfa');
    await seedStaff(t.dbs, 'alfa');
  });

  afterAll(() => t.close());

  it('sets a PIN read from standard input; the service signs the staff member in with it', async () => {
    const result = await cli(['pin', 'alfa', STAFF.mozo.documento], '5829\n');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      'PIN set for Rosa Quispe (documento 40000001); no open session ended\n',
    );
    expectNoSecret(result, '5829');
    const stored = await hashes(STAFF.mozo.id);
    expect(stored.pin_hash).toMatch(/^scrypt\$14\$8\$2\$/);
    expect(stored.password_hash).toBeNull();

    const signIn = await anonymous().post('/auth/pin', { pin: '5829' }).expect(200);
    expect(signIn.body).toMatchObject({
      access_token: expect.any(String),
      usuario: { id_usuario: STAFF.mozo.id, roles: ['mozo'] },
    });
    await authedApi(t.http, 'alfa', signIn.body.access_token).get('/comandas').expect(200);
  });

  it('sets a password from the first line alone, and ends the user’s open sessions', async () => {
    // with the session of the test before, three are open
    const sessions = await Promise.all(
      [1, 2].map(() => anonymous().post('/auth/pin', { pin: '5829' }).expect(200)),
    );
    const password = 'ceviche-de-lunes';
    const result = await cli(
      ['password', 'alfa', STAFF.mozo.documento],
      `${password}\r\nsegunda-linea-ignorada\n`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Password set for Rosa Quispe (documento 40000001); 3 open sessions ended\n',
    );
    expectNoSecret(result, password);
    expect(await verifySecret(password, (await hashes(STAFF.mozo.id)).password_hash)).toBe(true);

    // the tokens of the sessions it ended are refused; the new password and the PIN sign in
    for (const session of sessions) {
      await authedApi(t.http, 'alfa', session.body.access_token).get('/comandas').expect(401);
    }
    const login = await anonymous()
      .post('/auth/login', { documento: STAFF.mozo.documento, password })
      .expect(200);
    expect(login.body.usuario.id_usuario).toBe(STAFF.mozo.id);
    await anonymous().post('/auth/pin', { pin: '5829' }).expect(200);
  });

  it.each<[string, string, string]>([
    ['a trivial PIN', '7777\n', 'pin is too easy to guess'],
    ['a PIN of letters', '12a4\n', 'pin must be 4 to 6 digits'],
    ['a PIN another staff member has', '5829\n', 'Another staff member of this restaurant'],
    ['no PIN at all', '', 'No pin on the first line of standard input'],
  ])('refuses %s with exit code 2 and stores nothing', async (_what, input, message) => {
    const result = await cli(['pin', 'alfa', STAFF.cajero.documento], input);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    if (input.trim() !== '') expectNoSecret(result, input.trim());
    expect(await hashes(STAFF.cajero.id)).toBeUndefined();
  });

  it('refuses a short password with exit code 2, naming the rule', async () => {
    const result = await cli(['password', 'alfa', STAFF.cajero.documento], 'corto1234\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('password must be at least 10 characters long');
    expectNoSecret(result, 'corto1234');
    expect(await hashes(STAFF.cajero.id)).toBeUndefined();
  });

  it('refuses a secret given as an argument, without repeating it', async () => {
    for (const args of [
      ['pin', 'alfa', STAFF.cajero.documento, '6173'],
      ['password', 'alfa', STAFF.cajero.documento, 'ceviche-de-martes', 'extra'],
    ]) {
      const result = await cli(args, '7391\n');
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('is never read from the command line');
      expectNoSecret(result, args[3]);
    }
    expect(await hashes(STAFF.cajero.id)).toBeUndefined();
  });

  it.each<[string, string[], string]>([
    [
      'an unknown documento',
      ['pin', 'alfa', '99999999'],
      'No user with documento "99999999" in tenant "alfa"',
    ],
    [
      'an inactive user',
      ['pin', 'alfa', STAFF.exEmpleado.documento],
      'User "40000006" (Ernesto Ex) of tenant "alfa" is not active',
    ],
    [
      'an unknown tenant',
      ['pin', 'nadie', STAFF.cajero.documento],
      'Tenant "nadie" does not exist',
    ],
    ['an unknown command', ['borrar', 'alfa', STAFF.cajero.documento], 'Unknown command "borrar"'],
    ['a missing documento', ['pin', 'alfa'], 'pin needs a tenant slug and a documento'],
  ])('refuses %s with exit code 2', async (_what, args, message) => {
    const result = await cli(args, '7391\n');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expectNoSecret(result, '7391');
  });

  it('help prints the usage', async () => {
    const result = await cli(['help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run staff -- password <tenant> <documento>/);
  });
});
