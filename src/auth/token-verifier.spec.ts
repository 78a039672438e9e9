import '../modules';
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign, type SignOptions } from 'jsonwebtoken';
import { loadConfig, type AppConfig } from '../common/config/app-config';
import type { DomainError } from '../common/errors/domain-error';
import { loadTokenKeys } from './token-keys';
import { bearerToken, TokenVerifier } from './token-verifier';

const SECRET = 'unit-test-secret-of-at-least-32-chars';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'comandas-keys-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function config(env: Record<string, string>): AppConfig {
  return loadConfig({ AUTH_MODE: 'jwt', ...env });
}

const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const jwk = (key: KeyObject, extra: Record<string, unknown> = {}) => ({
  ...key.export({ format: 'jwk' }),
  ...extra,
});

const hs = (payload: object, options: SignOptions = {}, secret = SECRET) =>
  sign(payload, secret, { algorithm: 'HS256', expiresIn: 60, subject: '4', ...options });
/** Signed HS256 without the expiresIn option (the payload sets exp, or has none). */
const hsNoExpiry = (payload: object) => sign(payload, SECRET, { algorithm: 'HS256', subject: '4' });
const rs = (options: SignOptions = {}, key: KeyObject = rsa.privateKey) =>
  sign({ tenant: 'demo' }, key, { algorithm: 'RS256', expiresIn: 60, subject: '4', ...options });

/** The 401 reason (or other code) a verification fails with. */
function failure(verify: () => unknown): { status: number; reason?: string; message: string } {
  try {
    verify();
  } catch (error) {
    const e = error as DomainError;
    return {
      status: e.status,
      reason: (e.detail as { reason?: string })?.reason,
      message: e.message,
    };
  }
  throw new Error('verification passed');
}

describe('bearerToken', () => {
  it('reads the token of a Bearer header, any case of the scheme', () => {
    expect(bearerToken('Bearer a.b.c')).toBe('a.b.c');
    expect(bearerToken('bearer  aa.bb.cc ')).toBe('aa.bb.cc');
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['Basic dXNlcjpwYXNz', 'malformed'],
    ['Bearer', 'malformed'],
    ['Bearer not-a-jwt', 'malformed'],
    ['Bearer a.b.c extra', 'malformed'],
  ])('refuses %j as %s', (header, reason) => {
    expect(failure(() => bearerToken(header))).toMatchObject({ status: 401, reason });
  });
});

describe('TokenVerifier with a shared secret (HS256)', () => {
  const verifier = () => new TokenVerifier(loadTokenKeys(config({ AUTH_JWT_SECRET: SECRET })));

  it('returns the user, the tenant, the expiry and the issue time of a valid token', () => {
    const claims = verifier().verify(hs({ tenant: 'demo' }));
    expect(claims).toEqual({
      userId: 4,
      tenant: 'demo',
      expiresAt: expect.any(Number),
      issuedAt: expect.any(Number),
    });
    expect(claims.expiresAt * 1000).toBeGreaterThan(Date.now());
  });

  it.each<[string, () => string, string]>([
    [
      'expired',
      () => hsNoExpiry({ tenant: 'demo', exp: Math.floor(Date.now() / 1000) - 10 }),
      'expired',
    ],
    [
      'signed with another secret',
      () => hs({ tenant: 'demo' }, {}, `${SECRET}-other`),
      'invalid_signature',
    ],
    ['without exp', () => hsNoExpiry({ tenant: 'demo' }), 'invalid_claims'],
    ['not valid yet', () => hs({ tenant: 'demo' }, { notBefore: 3600 }), 'not_yet_valid'],
    ['without tenant', () => hs({}), 'invalid_claims'],
    ['with a tenant that is no slug', () => hs({ tenant: 'Demo Inc' }), 'invalid_claims'],
    [
      'with a non-numeric subject',
      () => hs({ tenant: 'demo' }, { subject: 'carmen' }),
      'invalid_claims',
    ],
    [
      'with a subject beyond int4',
      () => hs({ tenant: 'demo' }, { subject: '2147483648' }),
      'invalid_claims',
    ],
    ['signed RS256 when only a secret is configured', () => rs(), 'unsupported_algorithm'],
    [
      'unsigned (alg none)',
      () =>
        sign({ tenant: 'demo', sub: '4', exp: Math.floor(Date.now() / 1000) + 60 }, '', {
          algorithm: 'none',
        }),
      'unsupported_algorithm',
    ],
  ])('refuses a token %s', (_what, token, reason) => {
    expect(failure(() => verifier().verify(token()))).toMatchObject({ status: 401, reason });
  });

  it('refuses a token whose payload is not JSON', () => {
    const [header] = hs({ tenant: 'demo' }).split('.');
    expect(failure(() => verifier().verify(`${header}.bm90IGpzb24.c2ln`))).toMatchObject({
      status: 401,
      reason: 'malformed',
    });
  });
});

describe('TokenVerifier with a public key (RS256)', () => {
  it('verifies with the public key of an X.509 certificate', () => {
    const fixtures = join(__dirname, '..', '..', 'test', 'fixtures', 'auth');
    const keys = loadTokenKeys(
      config({ AUTH_JWT_PUBLIC_KEY_FILE: join(fixtures, 'certificate.pem') }),
    );
    const issuerKey = createPrivateKey(readFileSync(join(fixtures, 'certificate-key.pem')));
    expect(new TokenVerifier(keys).verify(rs({}, issuerKey)).userId).toBe(4);
    expect(failure(() => new TokenVerifier(keys).verify(rs()))).toMatchObject({
      reason: 'invalid_signature',
    });
  });

  it('verifies with a PEM public key (SPKI)', () => {
    const keys = loadTokenKeys(
      config({ AUTH_JWT_PUBLIC_KEY_FILE: file('pub.pem', pem(rsa.publicKey)) }),
    );
    expect(new TokenVerifier(keys).verify(rs()).userId).toBe(4);
    expect(
      failure(() => new TokenVerifier(keys).verify(rs({}, otherRsa.privateKey))),
    ).toMatchObject({
      reason: 'invalid_signature',
    });
  });

  it('verifies with a PKCS#1 PEM public key (BEGIN RSA PUBLIC KEY)', () => {
    const pkcs1 = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toContain('BEGIN RSA PUBLIC KEY');
    const keys = loadTokenKeys(config({ AUTH_JWT_PUBLIC_KEY_FILE: file('pkcs1.pem', pkcs1) }));
    expect(new TokenVerifier(keys).verify(rs()).tenant).toBe('demo');
  });

  it('never checks an HS256 token against the public key (algorithm confusion)', () => {
    const path = file('pub-confusion.pem', pem(rsa.publicKey));
    const keys = loadTokenKeys(config({ AUTH_JWT_PUBLIC_KEY_FILE: path }));
    const forged = hs({ tenant: 'demo' }, {}, pem(rsa.publicKey));
    expect(failure(() => new TokenVerifier(keys).verify(forged))).toMatchObject({
      reason: 'unsupported_algorithm',
    });
  });

  it('picks the key of a JWKS by the token kid, and skips keys of other kinds', () => {
    const jwks = {
      keys: [
        jwk(ec.publicKey, { kid: 'ec-1' }),
        jwk(otherRsa.publicKey, { kid: 'enc-1', use: 'enc' }),
        jwk(rsa.publicKey, { kid: 'k1', use: 'sig', alg: 'RS256' }),
        jwk(otherRsa.publicKey, { kid: 'k2' }),
      ],
    };
    const keys = loadTokenKeys(
      config({ AUTH_JWT_PUBLIC_KEY_FILE: file('jwks.json', JSON.stringify(jwks)) }),
    );
    expect([...keys.rsaByKid.keys()]).toEqual(['k1', 'k2']);
    const verifier = new TokenVerifier(keys);
    expect(verifier.verify(rs({ keyid: 'k1' })).tenant).toBe('demo');
    expect(verifier.verify(rs({ keyid: 'k2' }, otherRsa.privateKey)).tenant).toBe('demo');
    expect(failure(() => verifier.verify(rs({ keyid: 'k2' })))).toMatchObject({
      reason: 'invalid_signature',
    });
    expect(failure(() => verifier.verify(rs({ keyid: 'k9' })))).toMatchObject({
      reason: 'unknown_key',
    });
    expect(failure(() => verifier.verify(rs()))).toMatchObject({ reason: 'unknown_key' });
  });

  it('accepts both kinds of token when both a secret and a key are configured', () => {
    const keys = loadTokenKeys(
      config({
        AUTH_JWT_SECRET: SECRET,
        AUTH_JWT_PUBLIC_KEY_FILE: file('both.pem', pem(rsa.publicKey)),
      }),
    );
    const verifier = new TokenVerifier(keys);
    expect(verifier.verify(rs()).userId).toBe(4);
    expect(verifier.verify(hs({ tenant: 'demo' })).userId).toBe(4);
  });
});

describe('loadTokenKeys refuses a key file it cannot use, naming the variable', () => {
  it.each<[string, () => string, string]>([
    ['a missing file', () => join(dir, 'nope.pem'), 'cannot be read (ENOENT)'],
    [
      'a private key',
      () => file('priv.pem', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
      'private key',
    ],
    ['an EC key', () => file('ec.pem', pem(ec.publicKey)), 'is a ec key, RS256 needs RSA'],
    ['text that is no key', () => file('junk.pem', 'hello'), 'AUTH_JWT_PUBLIC_KEY_FILE must be'],
    [
      'a JWKS without RSA keys',
      () => file('ec.json', JSON.stringify({ keys: [jwk(ec.publicKey)] })),
      'holds no RSA signing key',
    ],
    [
      'JSON that is no JWKS',
      () => file('obj.json', '{"kty":"RSA"}'),
      'a JWKS is an object with a "keys" array',
    ],
    ['broken JSON', () => file('broken.json', '{"keys": ['), 'not JSON'],
  ])('%s', (_what, path, message) => {
    expect(() => loadTokenKeys(config({ AUTH_JWT_PUBLIC_KEY_FILE: path() }))).toThrow(message);
  });
});
