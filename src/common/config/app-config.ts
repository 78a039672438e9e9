import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';
import { featureDefinitions, featureVariables, type FeatureSwitches } from './features';

/**
 * Every setting of the service, read once from the environment at boot and validated.
 * A bad value stops the process with a message naming the variable and what it accepts
 * (see `loadConfig`). `.env.example` lists every variable with its default.
 */

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

function toBoolean({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const word = BOOLEAN_WORDS[value.trim().toLowerCase()];
  return word ?? value;
}

function toInteger({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) return value;
  return Number(value.trim());
}

function EnvInt(min: number, max: number): PropertyDecorator {
  const accepts = `an integer from ${min} to ${max}`;
  return (target, key) => {
    Transform(toInteger)(target, key);
    IsInt({ message: accepts })(target, key);
    Min(min, { message: accepts })(target, key);
    Max(max, { message: accepts })(target, key);
  };
}

function EnvBool(): PropertyDecorator {
  return (target, key) => {
    Transform(toBoolean)(target, key);
    IsBoolean({ message: 'true or false (also 1 or 0)' })(target, key);
  };
}

function EnvEnum(values: readonly string[]): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    )(target, key);
    IsIn(values, { message: `one of: ${values.join(', ')}` })(target, key);
  };
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const AUTH_MODES = ['off', 'jwt'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** auto: readable lines on a terminal, JSON lines otherwise (docs/architecture.md, Logs). */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AppConfig {
  @EnvEnum(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** Interface the HTTP server binds to. */
  @IsString({ message: 'a host name or IP address' })
  @Matches(/^[A-Za-z0-9.:-]+$/, { message: 'a host name or IP address' })
  HOST = '0.0.0.0';

  @EnvInt(0, 65535)
  PORT = 3000;

  /**
   * PostgreSQL URL of the control database (the tenant catalog). Tenant databases are
   * created on the same server unless a tenant has its own URL. Unset: embedded PostgreSQL.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^\s/]+(\/[A-Za-z0-9_-]*)?(\?\S*)?$/, {
    message: 'a postgres:// or postgresql:// URL (postgres://user:pass@host:5432/control_db)',
  })
  DATABASE_URL?: string = undefined;

  /** Port of the embedded PostgreSQL (only used without DATABASE_URL). */
  @EnvInt(1024, 65535)
  EMBEDDED_PG_PORT = 54320;

  /** Data directory of the embedded PostgreSQL (only used without DATABASE_URL). */
  @IsString({ message: 'a directory path' })
  @Matches(/\S/, { message: 'a directory path' })
  EMBEDDED_PG_DATA_DIR = '.data/postgres';

  /** Prefix of the tenant databases created on the control server (prefix + slug). */
  @IsString({
    message: 'lowercase letters, digits and _ (at most 30), starting with a letter or _',
  })
  @Matches(/^[a-z_][a-z0-9_]{0,29}$/, {
    message: 'lowercase letters, digits and _ (at most 30), starting with a letter or _',
  })
  TENANT_DB_PREFIX = 'comandas_';

  /** Provision the `demo` tenant with demo data when the catalog has no tenant `demo` yet. */
  @EnvBool()
  DEMO_TENANT = true;

  /**
   * Bring every tenant's database to the code's schema at start (what `npm run tenant --
   * migrate --all` does), under an advisory lock so that instances starting together take turns.
   * Unset: on with the embedded PostgreSQL (development), off with DATABASE_URL.
   */
  @IsOptional()
  @EnvBool()
  MIGRATE_TENANTS_AT_START?: boolean = undefined;

  @EnvInt(1, 100)
  CONTROL_POOL_MAX = 4;

  /** Connections in each tenant's pool. */
  @EnvInt(1, 100)
  TENANT_POOL_MAX = 5;

  /** Tenant DataSources kept open at once; the least recently used is closed past this. */
  @EnvInt(1, 10000)
  TENANT_DATASOURCE_MAX = 20;

  /** A tenant DataSource unused for this long is closed (0: never). */
  @EnvInt(0, 86_400_000)
  TENANT_IDLE_TIMEOUT_MS = 300_000;

  /**
   * How long a tenant's catalog row (status, features, time zone) and a user's roles
   * (AUTH_MODE=jwt) are cached; 0: no cache.
   */
  @EnvInt(0, 3_600_000)
  TENANT_CACHE_TTL_MS = 5_000;

  /** How long to wait for a PostgreSQL connection before giving up. */
  @EnvInt(100, 120_000)
  DB_CONNECT_TIMEOUT_MS = 5_000;

  @EnvEnum(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /**
   * How log lines are written: json (one JSON object a line, for machines), pretty (readable,
   * for a person), or auto: pretty when the output is a terminal, json otherwise.
   */
  @EnvEnum(LOG_FORMATS)
  LOG_FORMAT: LogFormatSetting = 'auto';

  /** Largest accepted request body, e.g. 100kb, 1mb. */
  @IsString({ message: 'a size like 100kb or 1mb' })
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'a size like 100kb or 1mb' })
  BODY_LIMIT = '1mb';

  /**
   * The HTTP server's limits (docs/security.md): connections open at once (more are closed as
   * they come; keep it above SSE_MAX_CLIENTS, each live stream holds one).
   */
  @EnvInt(16, 1_000_000)
  HTTP_MAX_CONNECTIONS = 4_096;

  /**
   * A connection must send a request's head within this (a new connection too, from its first
   * moment); an idle connection with no request is closed after it.
   */
  @EnvInt(100, 600_000)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** A request, head and body, must be received within this (408); 0: no limit. */
  @EnvInt(0, 3_600_000)
  HTTP_REQUEST_TIMEOUT_MS = 300_000;

  /** How long a connection stays open between two requests. */
  @EnvInt(100, 600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /**
   * A request body must arrive at this pace on average after its first 5 seconds, or it is cut
   * (408, connection closed); 0: no pace asked.
   */
  @EnvInt(0, 100_000_000)
  HTTP_BODY_MIN_BYTES_PER_S = 1_024;

  /** The largest request head (request line and headers) accepted (431 beyond). */
  @EnvInt(1_024, 1_048_576)
  HTTP_MAX_HEADER_BYTES = 16_384;

  /** Requests a client may make to one tenant per RATE_LIMIT_WINDOW_MS (0: no limit). */
  @EnvInt(0, 1_000_000)
  RATE_LIMIT_MAX = 1_200;

  /** The window of RATE_LIMIT_MAX, in milliseconds. */
  @EnvInt(1_000, 3_600_000)
  RATE_LIMIT_WINDOW_MS = 60_000;

  /**
   * Redis holding the rate-limit and sign-in lockout counts, shared by every instance
   * (redis://host:6379/0, rediss:// for TLS). Unset: each instance counts its rate limit in its
   * own memory, and the lockout counts in the tenant's database. Redis away: the rate limit fails
   * open, the lockout counts in the database (docs/security.md).
   */
  @IsOptional()
  @Matches(/^rediss?:\/\/(\S+@)?[^\s/@]+(\/\d{0,2})?(\?\S*)?$/, {
    message: 'a redis:// or rediss:// URL (redis://user:pass@host:6379/0)',
  })
  REDIS_URL?: string = undefined;

  /**
   * Origins allowed to call the API from a browser, comma-separated
   * (https://pos.example.com,http://localhost:5173); empty: no cross-origin calls.
   */
  @IsString({ message: 'comma-separated origins such as https://pos.example.com' })
  @Matches(/^(|\s*https?:\/\/[^\s,/]+\s*(,\s*https?:\/\/[^\s,/]+\s*)*)$/, {
    message: 'comma-separated origins such as https://pos.example.com (scheme://host[:port])',
  })
  CORS_ORIGINS = '';

  /**
   * The reverse proxies whose X-Forwarded-For names the client (the rate limit's and the PIN
   * lockout's client address): a number of hops (1: the proxy just in front), or a
   * comma-separated list of addresses, subnets or the names loopback, linklocal, uniquelocal.
   * Empty: no proxy is trusted and the client is the connection's peer.
   */
  @IsString({ message: 'a number of hops, or addresses/subnets such as 10.0.0.0/8,loopback' })
  @Matches(/^(|\d{1,2}|[\w.:/-]+(\s*,\s*[\w.:/-]+)*)$/, {
    message: 'a number of hops, or addresses/subnets such as 10.0.0.0/8,loopback',
  })
  @Matches(/^(?!\s*true\s*$)/i, {
    message:
      'the hops or the proxies, not "true" (trusting every proxy lets any client pick its address)',
  })
  TRUST_PROXY = '';

  /** A tenant database statement running longer is cancelled (503); 0: no limit. */
  @EnvInt(0, 3_600_000)
  DB_STATEMENT_TIMEOUT_MS = 30_000;

  /** A request not answered in this time gets 503 REQUEST_TIMEOUT (imports excepted); 0: none. */
  @EnvInt(0, 3_600_000)
  REQUEST_TIMEOUT_MS = 60_000;

  /** Most live streams (GET /comandas/stream) one instance serves at once (503 beyond). */
  @EnvInt(1, 100_000)
  SSE_MAX_CLIENTS = 1_000;

  /** Of them, the most one tenant may hold on one instance (429 beyond; at most SSE_MAX_CLIENTS). */
  @EnvInt(1, 100_000)
  SSE_MAX_PER_TENANT = 100;

  /**
   * Of them, the most one user (AUTH_MODE=jwt) may hold on one instance (429 beyond; at most
   * SSE_MAX_PER_TENANT).
   */
  @EnvInt(1, 100_000)
  SSE_MAX_PER_USER = 10;

  /**
   * Behind PgBouncer in transaction pooling LISTEN does not work: the live feed's session
   * connection goes to the server directly. `pooler:6432=db:5432,...` maps a host:port of the
   * tenants' URLs to the server's own (docs/architecture.md, Scale-out).
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.-]+:\d+=[A-Za-z0-9.-]+:\d+(,[A-Za-z0-9.-]+:\d+=[A-Za-z0-9.-]+:\d+)*$/, {
    message: 'host:port=host:port pairs separated by commas',
  })
  DIRECT_DATABASE_HOSTS?: string = undefined;

  /** A directory of extra device drivers (one sub-directory with a manifest.json each). */
  @IsOptional()
  @IsString({ message: 'a directory path' })
  DEVICE_DRIVERS_PATH?: string = undefined;

  /** Punches sent to import_asistencia per call when importing a file or a push. */
  @EnvInt(1, 100_000)
  IMPORT_BATCH_SIZE = 2_000;

  /** Largest attendance file accepted by POST /api/v1/asistencia/import. */
  @EnvInt(1_024, 2_147_483_647)
  UPLOAD_MAX_BYTES = 104_857_600;

  /**
   * How long the answer of a write sent with an Idempotency-Key is kept (a retry within it gets
   * that answer again); expired keys are purged (docs/comandas.md, idempotent writes).
   */
  @EnvInt(1, 720)
  IDEMPOTENCY_TTL_HOURS = 24;

  /**
   * Two pendiente reservations of one table must start at least this many minutes apart (409
   * MESA_ALREADY_BOOKED otherwise, docs/reservas.md); 0: no such rule.
   */
  @EnvInt(0, 1_440)
  RESERVAS_WINDOW_MINUTES = 120;

  /**
   * off: no credentials asked (refused with NODE_ENV=production unless AUTH_ALLOW_ANONYMOUS);
   * jwt: every API route but health needs a Bearer token (docs/security.md).
   */
  @EnvEnum(AUTH_MODES)
  AUTH_MODE: AuthMode = 'off';

  /** With NODE_ENV=production, AUTH_MODE=off starts only when this is true. */
  @EnvBool()
  AUTH_ALLOW_ANONYMOUS = false;

  /** Shared secret of HS256 tokens (at least 32 characters). */
  @IsOptional()
  @IsString({ message: 'a secret of at least 32 characters' })
  @MinLength(32, { message: 'a secret of at least 32 characters' })
  AUTH_JWT_SECRET?: string = undefined;

  /**
   * How long a session opened by sign-in lasts (POST /auth/login, /auth/pin): a shift. The
   * token expires then and the staff member signs in again.
   */
  @EnvInt(1, 24)
  AUTH_SESSION_HOURS = 12;

  /**
   * Sign-ins (POST /auth/login, /auth/pin) of one client address to one tenant that may wait for
   * their hash on an instance at once, the one hashing included: 429 SIGN_IN_BUSY beyond, with
   * Retry-After (docs/sign-in.md, "The hash queue"). The queue is shared round-robin between the
   * tenants, and within a tenant between the addresses, so a flood waits behind itself.
   */
  @EnvInt(1, 10_000)
  SIGN_IN_QUEUE_PER_CLIENT = 10;

  /**
   * Sign-ins that may wait for their hash on an instance at once, all clients together: 503
   * SIGN_IN_BUSY beyond, with Retry-After (at least SIGN_IN_QUEUE_PER_CLIENT).
   */
  @EnvInt(1, 100_000)
  SIGN_IN_QUEUE_MAX = 100;

  /** Public key of RS256 tokens: a PEM file (public key or certificate) or a JWKS file. */
  @IsOptional()
  @IsString({ message: 'a file path' })
  AUTH_JWT_PUBLIC_KEY_FILE?: string = undefined;

  /**
   * Webhooks (docs/webhooks.md): endpoints on private, loopback and link-local addresses are
   * refused (400 WEBHOOK_URL_NOT_ALLOWED) unless this is true: development and tests only.
   */
  @EnvBool()
  WEBHOOKS_ALLOW_PRIVATE = false;

  /**
   * The waits between a message's failed attempts and its next one, in order (`5s`, `5m`,
   * `2h`, `1d`); after the last one fails the message is given up (fallido).
   */
  @Matches(/^\s*\d+\s*(ms|s|m|h|d)\s*(,\s*\d+\s*(ms|s|m|h|d)\s*){0,19}$/, {
    message: 'durations such as 5s,5m,30m,2h separated by commas (at most 20)',
  })
  WEBHOOKS_RETRY_DELAYS = '5s,5m,30m,2h,5h,10h,10h';

  /** An attempt (connect, send, answer) not done in this time fails as a timeout. */
  @EnvInt(100, 60_000)
  WEBHOOKS_TIMEOUT_MS = 15_000;

  /**
   * How long a claimed message is another instance's to leave alone; an instance that dies
   * mid-delivery leaves its messages to the others after it (more than the timeout).
   */
  @EnvInt(1_000, 3_600_000)
  WEBHOOKS_LEASE_MS = 60_000;

  /**
   * How often an instance reads the tenants with messages due (one query of the control
   * database's `outbox_due`, whatever the number of tenants): the backstop of the wake-ups.
   */
  @EnvInt(100, 600_000)
  WEBHOOKS_POLL_MS = 5_000;

  /**
   * How often an instance visits every tenant with the feature on, due or not (and once at its
   * start): what finds messages no write of the service woke, e.g. written with SQL.
   */
  @EnvInt(1_000, 86_400_000)
  WEBHOOKS_SWEEP_MS = 3_600_000;

  /** Messages one instance sends at once per tenant (one key's messages one after another). */
  @EnvInt(1, 256)
  WEBHOOKS_CONCURRENCY = 16;

  /** IANA time zone given to new tenants (business dates, day boundaries). */
  @IsString({ message: 'an IANA time zone such as America/Lima or UTC' })
  @Matches(/\S/, { message: 'an IANA time zone such as America/Lima or UTC' })
  DEFAULT_TIME_ZONE = 'UTC';
}

// The FEATURE_* switches come from the modules' features (features.ts): the interface merged
// into the class types them, featureKeys() validates them like the other variables the first
// time a config is read (the modules are installed by then), and loadConfig gives them the
// default their module declares.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface AppConfig extends FeatureSwitches {}

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

let configKeys: (keyof AppConfig)[] | undefined;

/** The variables of the config: the class's own, then the features' switches (validated once). */
function allConfigKeys(): (keyof AppConfig)[] {
  if (configKeys === undefined) {
    const switches = featureVariables();
    for (const variable of switches) EnvBool()(AppConfig.prototype, variable);
    configKeys = [...Object.keys(new AppConfig()), ...switches] as (keyof AppConfig)[];
  }
  return configKeys;
}

/** The names of every environment variable the service reads. */
export function configVariableNames(): string[] {
  return [...allConfigKeys()];
}

/**
 * Builds the validated config from environment variables. Unset and empty variables take
 * their defaults. Throws `ConfigValidationError` naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of allConfigKeys()) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }
  const config = plainToInstance(AppConfig, raw);
  for (const { variable, default: on } of featureDefinitions().values())
    config[variable as keyof FeatureSwitches] ??= on;
  const problems = validateSync(config, { forbidUnknownValues: false }).flatMap(
    (error: ValidationError) => {
      const accepts = Object.values(error.constraints ?? {})[0] ?? 'a valid value';
      return [`${error.property} must be ${accepts} (got ${JSON.stringify(raw[error.property])})`];
    },
  );
  if (
    !problems.some((p) => p.startsWith('DEFAULT_TIME_ZONE')) &&
    !isTimeZone(config.DEFAULT_TIME_ZONE)
  ) {
    problems.push(
      `DEFAULT_TIME_ZONE must be an IANA time zone such as America/Lima or UTC (got ${JSON.stringify(
        config.DEFAULT_TIME_ZONE,
      )})`,
    );
  }
  problems.push(...authProblems(config, raw));
  if (
    config.HTTP_REQUEST_TIMEOUT_MS !== 0 &&
    config.HTTP_REQUEST_TIMEOUT_MS < config.HTTP_HEADERS_TIMEOUT_MS
  ) {
    problems.push(
      `HTTP_REQUEST_TIMEOUT_MS must be 0 or at least HTTP_HEADERS_TIMEOUT_MS (got ${config.HTTP_REQUEST_TIMEOUT_MS} and ${config.HTTP_HEADERS_TIMEOUT_MS})`,
    );
  }
  if (config.HTTP_MAX_CONNECTIONS <= config.SSE_MAX_CLIENTS) {
    problems.push(
      `HTTP_MAX_CONNECTIONS must be above SSE_MAX_CLIENTS, each live stream holds a connection (got ${config.HTTP_MAX_CONNECTIONS} and ${config.SSE_MAX_CLIENTS})`,
    );
  }
  if (config.SIGN_IN_QUEUE_MAX < config.SIGN_IN_QUEUE_PER_CLIENT) {
    problems.push(
      `SIGN_IN_QUEUE_MAX must be at least SIGN_IN_QUEUE_PER_CLIENT (got ${config.SIGN_IN_QUEUE_MAX} and ${config.SIGN_IN_QUEUE_PER_CLIENT})`,
    );
  }
  if (config.WEBHOOKS_LEASE_MS < config.WEBHOOKS_TIMEOUT_MS + 3_000) {
    problems.push(
      `WEBHOOKS_LEASE_MS must be at least WEBHOOKS_TIMEOUT_MS + 3000 (got ${config.WEBHOOKS_LEASE_MS} and ${config.WEBHOOKS_TIMEOUT_MS})`,
    );
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return config;
}

/**
 * Whether this service issues tokens itself (staff sign-in, docs/sign-in.md): AUTH_MODE=jwt with
 * the HS256 secret. With a public key alone, tokens come from that key's issuer.
 */
export function issuesTokens(config: AppConfig): boolean {
  return config.AUTH_MODE === 'jwt' && Boolean(config.AUTH_JWT_SECRET);
}

/** The rules between the AUTH_* variables (each one alone is checked by its decorators). */
function authProblems(config: AppConfig, raw: Record<string, string>): string[] {
  if (config.AUTH_MODE === 'jwt' && !raw.AUTH_JWT_SECRET && !raw.AUTH_JWT_PUBLIC_KEY_FILE) {
    return [
      'AUTH_MODE=jwt needs AUTH_JWT_SECRET (HS256) or AUTH_JWT_PUBLIC_KEY_FILE (RS256), or both',
    ];
  }
  if (
    config.NODE_ENV === 'production' &&
    config.AUTH_MODE === 'off' &&
    !config.AUTH_ALLOW_ANONYMOUS
  ) {
    return [
      'AUTH_MODE=off with NODE_ENV=production would answer anyone: set AUTH_MODE=jwt, or ' +
        'AUTH_ALLOW_ANONYMOUS=true if a gateway in front authenticates every request',
    ];
  }
  return [];
}

export { isTimeZone };
