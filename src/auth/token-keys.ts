import {
  createPublicKey,
  createSecretKey,
  X509Certificate,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigValidationError, type AppConfig } from '../common/config/app-config';

/** The keys tokens are verified with, loaded once at start-up. */
export interface TokenKeys {
  /**
   * HS256 shared secret (AUTH_JWT_SECRET), as a KeyObject made once: given the string,
   * jsonwebtoken would derive one on every verification (about 0.3 ms, half a request's CPU).
   */
  secret?: KeyObject;
  /** RS256 public keys by key id (a JWKS file) ... */
  rsaByKid: Map<string, KeyObject>;
  /** ... and without one (a PEM file, or JWKS entries without kid). */
  rsaUnnamed: KeyObject[];
}

const FILE_VARIABLE = 'AUTH_JWT_PUBLIC_KEY_FILE';

function problem(file: string, why: string): ConfigValidationError {
  return new ConfigValidationError([
    `${FILE_VARIABLE} must be a PEM public key or certificate, or a JWKS file of RSA keys (got ${JSON.stringify(file)}): ${why}`,
  ]);
}

function rsaOnly(key: KeyObject, file: string, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa')
    throw problem(file, `${what} is a ${key.asymmetricKeyType ?? 'non-RSA'} key, RS256 needs RSA`);
  return key;
}

function fromPem(text: string, file: string): KeyObject {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
    throw problem(file, 'it holds a private key; give the service the public key only');
  try {
    const key = text.includes('-----BEGIN CERTIFICATE-----')
      ? new X509Certificate(text).publicKey
      : createPublicKey(text);
    return rsaOnly(key, file, 'the key');
  } catch (error) {
    if (error instanceof ConfigValidationError) throw error;
    throw problem(file, (error as Error).message);
  }
}

function fromJwks(text: string, file: string, keys: TokenKeys): void {
  let jwks: unknown;
  try {
    jwks = JSON.parse(text);
  } catch (error) {
    throw problem(file, `not JSON (${(error as Error).message})`);
  }
  const entries = (jwks as { keys?: unknown }).keys;
  if (!Array.isArray(entries)) throw problem(file, 'a JWKS is an object with a "keys" array');
  entries.forEach((entry: JsonWebKey & { kid?: unknown; use?: unknown; alg?: unknown }, i) => {
    // Keys for other uses or algorithms may share the set; they verify nothing here.
    if (entry.kty !== 'RSA') return;
    if (entry.use !== undefined && entry.use !== 'sig') return;
    if (entry.alg !== undefined && entry.alg !== 'RS256') return;
    let key: KeyObject;
    try {
      key = createPublicKey({ key: entry, format: 'jwk' });
    } catch (error) {
      throw problem(file, `keys[${i}]: ${(error as Error).message}`);
    }
    if (key.type !== 'public') throw problem(file, `keys[${i}] is a private key`);
    if (typeof entry.kid === 'string' && entry.kid !== '') keys.rsaByKid.set(entry.kid, key);
    else keys.rsaUnnamed.push(key);
  });
  if (keys.rsaByKid.size + keys.rsaUnnamed.length === 0)
    throw problem(file, 'it holds no RSA signing key (kty "RSA", use "sig" or none)');
}

/** Reads the keys of the config; a bad key file stops the start naming the variable. */
export function loadTokenKeys(config: AppConfig): TokenKeys {
  const keys: TokenKeys = {
    secret: config.AUTH_JWT_SECRET
      ? createSecretKey(Buffer.from(config.AUTH_JWT_SECRET, 'utf8'))
      : undefined,
    rsaByKid: new Map(),
    rsaUnnamed: [],
  };
  const file = config.AUTH_JWT_PUBLIC_KEY_FILE;
  if (!file) return keys;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw problem(
      file,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  if (text.trimStart().startsWith('{')) fromJwks(text, file, keys);
  else keys.rsaUnnamed.push(fromPem(text, file));
  return keys;
}
