import '../../modules';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigValidationError, configVariableNames, loadConfig } from './app-config';
import { featureDefinitions, featureVariables } from './features';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('gives every setting its default when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATABASE_URL: undefined,
      EMBEDDED_PG_PORT: 54320,
      FEATURE_GENERIC_TABLES: false,
      FEATURE_RPC: false,
      TENANT_POOL_MAX: 5,
      TENANT_DATASOURCE_MAX: 20,
      LOG_LEVEL: 'info',
      BODY_LIMIT: '1mb',
      DEFAULT_TIME_ZONE: 'UTC',
      DEMO_TENANT: true,
      LOG_FORMAT: 'auto',
      // decided at start: on with the embedded PostgreSQL, off with DATABASE_URL
      MIGRATE_TENANTS_AT_START: undefined,
    });
  });

  it('reads typed values and treats empty variables as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      FEATURE_RPC: 'TRUE',
      FEATURE_GENERIC_TABLES: '1',
      LOG_LEVEL: 'Debug',
      DEFAULT_TIME_ZONE: 'America/Lima',
      DATABASE_URL: 'postgres://app:secret@db.internal:5432/comandas_control',
      TENANT_POOL_MAX: '',
      MIGRATE_TENANTS_AT_START: 'false',
      LOG_FORMAT: 'JSON',
    });
    expect(config.PORT).toBe(8080);
    expect(config.MIGRATE_TENANTS_AT_START).toBe(false);
    expect(config.LOG_FORMAT).toBe('json');
    expect(config.FEATURE_RPC).toBe(true);
    expect(config.FEATURE_GENERIC_TABLES).toBe(true);
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.DEFAULT_TIME_ZONE).toBe('America/Lima');
    expect(config.DATABASE_URL).toBe('postgres://app:secret@db.internal:5432/comandas_control');
    expect(config.TENANT_POOL_MAX).toBe(5);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    ['PORT', '70000', 'PORT must be an integer from 0 to 65535 (got "70000")'],
    ['PORT', '3000.5', 'PORT must be an integer from 0 to 65535 (got "3000.5")'],
    ['FEATURE_RPC', 'yes', 'FEATURE_RPC must be true or false (also 1 or 0) (got "yes")'],
    [
      'FEATURE_GENERIC_TABLES',
      'on',
      'FEATURE_GENERIC_TABLES must be true or false (also 1 or 0) (got "on")',
    ],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    ['LOG_FORMAT', 'yaml', 'LOG_FORMAT must be one of: auto, json, pretty (got "yaml")'],
    [
      'MIGRATE_TENANTS_AT_START',
      'sometimes',
      'MIGRATE_TENANTS_AT_START must be true or false (also 1 or 0) (got "sometimes")',
    ],
    ['TENANT_POOL_MAX', '0', 'TENANT_POOL_MAX must be an integer from 1 to 100 (got "0")'],
    [
      'TENANT_DATASOURCE_MAX',
      '-3',
      'TENANT_DATASOURCE_MAX must be an integer from 1 to 10000 (got "-3")',
    ],
    ['BODY_LIMIT', 'huge', 'BODY_LIMIT must be a size like 100kb or 1mb (got "huge")'],
    ['DATABASE_URL', 'mysql://x@y/z', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['DEFAULT_TIME_ZONE', 'Mars/Olympus', 'DEFAULT_TIME_ZONE must be an IANA time zone'],
    [
      'NODE_ENV',
      'staging',
      'NODE_ENV must be one of: development, production, test (got "staging")',
    ],
    ['TENANT_DB_PREFIX', 'Bad-Prefix', 'TENANT_DB_PREFIX must be lowercase letters'],
    ['RATE_LIMIT_MAX', '-1', 'RATE_LIMIT_MAX must be an integer from 0 to 1000000 (got "-1")'],
    ['CORS_ORIGINS', 'pos.example.com', 'CORS_ORIGINS must be comma-separated origins'],
    ['CORS_ORIGINS', 'https://pos.example.com/app', 'CORS_ORIGINS must be comma-separated origins'],
    ['CORS_ORIGINS', '*', 'CORS_ORIGINS must be comma-separated origins'],
    ['DB_STATEMENT_TIMEOUT_MS', '1.5', 'DB_STATEMENT_TIMEOUT_MS must be an integer'],
    ['REQUEST_TIMEOUT_MS', 'soon', 'REQUEST_TIMEOUT_MS must be an integer'],
    ['REDIS_URL', 'http://cache:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['REDIS_URL', 'redis://cache/db', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['TRUST_PROXY', 'true', 'TRUST_PROXY must be the hops or the proxies, not "true"'],
    ['TRUST_PROXY', '10.0.0.0/8; rm', 'TRUST_PROXY must be a number of hops'],
    ['AUTH_SESSION_HOURS', '48', 'AUTH_SESSION_HOURS must be an integer from 1 to 24'],
    ['SIGN_IN_QUEUE_PER_CLIENT', '0', 'SIGN_IN_QUEUE_PER_CLIENT must be an integer from 1'],
    [
      'SIGN_IN_QUEUE_MAX',
      '5',
      'SIGN_IN_QUEUE_MAX must be at least SIGN_IN_QUEUE_PER_CLIENT (got 5 and 10)',
    ],
  ])('refuses %s=%s naming the variable and what it accepts', (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('reads the trusted proxies and the length of sign-in sessions', () => {
    expect(loadConfig({})).toMatchObject({ TRUST_PROXY: '', AUTH_SESSION_HOURS: 12 });
    expect(loadConfig({ TRUST_PROXY: '1', AUTH_SESSION_HOURS: '8' })).toMatchObject({
      TRUST_PROXY: '1',
      AUTH_SESSION_HOURS: 8,
    });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toBe(
      '10.0.0.0/8, loopback',
    );
  });

  it('reads the limits: rate, CORS origins, statement and request timeouts', () => {
    expect(loadConfig({})).toMatchObject({
      RATE_LIMIT_MAX: 1200,
      RATE_LIMIT_WINDOW_MS: 60_000,
      CORS_ORIGINS: '',
      DB_STATEMENT_TIMEOUT_MS: 30_000,
      REQUEST_TIMEOUT_MS: 60_000,
    });
    const config = loadConfig({
      RATE_LIMIT_MAX: '0',
      CORS_ORIGINS: 'https://pos.example.com, http://localhost:5173',
    });
    expect(config.RATE_LIMIT_MAX).toBe(0);
    expect(config.CORS_ORIGINS).toBe('https://pos.example.com, http://localhost:5173');
  });

  it('reads REDIS_URL (unset: the rate limit counts in memory)', () => {
    expect(loadConfig({}).REDIS_URL).toBeUndefined();
    for (const url of [
      'redis://127.0.0.1:6379',
      'rediss://app:s%40cret@cache.internal:6380/2',
      'redis://:secret@cache',
    ]) {
      expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url);
    }
  });

  describe('authentication switches', () => {
    const secret = 'a-development-secret-of-32-chars!';

    it('is off by default, and jwt needs a secret or a public key file', () => {
      expect(loadConfig({})).toMatchObject({ AUTH_MODE: 'off', AUTH_ALLOW_ANONYMOUS: false });
      expect(problemsOf({ AUTH_MODE: 'jwt' })).toEqual([
        'AUTH_MODE=jwt needs AUTH_JWT_SECRET (HS256) or AUTH_JWT_PUBLIC_KEY_FILE (RS256), or both',
      ]);
      expect(loadConfig({ AUTH_MODE: 'JWT', AUTH_JWT_SECRET: secret }).AUTH_MODE).toBe('jwt');
      expect(loadConfig({ AUTH_MODE: 'jwt', AUTH_JWT_PUBLIC_KEY_FILE: 'keys.pem' })).toMatchObject({
        AUTH_JWT_PUBLIC_KEY_FILE: 'keys.pem',
        AUTH_JWT_SECRET: undefined,
      });
    });

    it('refuses a secret shorter than 32 characters and unknown modes', () => {
      expect(problemsOf({ AUTH_MODE: 'jwt', AUTH_JWT_SECRET: 'short' })).toEqual([
        'AUTH_JWT_SECRET must be a secret of at least 32 characters (got "short")',
      ]);
      expect(problemsOf({ AUTH_MODE: 'basic' })).toEqual([
        'AUTH_MODE must be one of: off, jwt (got "basic")',
      ]);
    });

    it('refuses to run anonymous in production unless told so explicitly', () => {
      const [problem] = problemsOf({ NODE_ENV: 'production' });
      expect(problem).toContain('AUTH_MODE=off with NODE_ENV=production would answer anyone');
      expect(problemsOf({ NODE_ENV: 'production', AUTH_ALLOW_ANONYMOUS: 'false' })).toHaveLength(1);
      expect(problemsOf({ NODE_ENV: 'production', AUTH_ALLOW_ANONYMOUS: 'true' })).toEqual([]);
      expect(
        problemsOf({ NODE_ENV: 'production', AUTH_MODE: 'jwt', AUTH_JWT_SECRET: secret }),
      ).toEqual([]);
      // development and test stay anonymous by default
      expect(problemsOf({ NODE_ENV: 'development' })).toEqual([]);
    });
  });

  it('lists every bad variable at once', () => {
    expect(
      problemsOf({ PORT: 'x', FEATURE_RPC: 'maybe', LOG_LEVEL: 'x' }).map((p) => p.split(' ')[0]),
    ).toEqual(expect.arrayContaining(['PORT', 'FEATURE_RPC', 'LOG_LEVEL']));
  });

  it('knows exactly the variables that .env.example documents, a module’s switch by its plugin', () => {
    const example = readFileSync(join(__dirname, '..', '..', '..', '.env.example'), 'utf8');
    const documented = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const known = configVariableNames();
    // nothing documented that the service does not read
    expect(documented.filter((variable) => !known.includes(variable))).toEqual([]);
    // every variable documented there, but a module's switch, which its plugin describes (the
    // OpenAPI document, GET /tenant and the tenant CLI's usage show it) with its page of docs/
    const switches = featureVariables() as string[];
    expect(known.filter((v) => !switches.includes(v) && !documented.includes(v))).toEqual([]);
    for (const { variable, description } of featureDefinitions().values())
      expect(`${variable}: ${description}`).toMatch(/\(docs\/[a-z-]+\.md\)$/);
  });
});
