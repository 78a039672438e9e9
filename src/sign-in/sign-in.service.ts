import { Inject, Injectable } from '@nestjs/common';
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import type { AuthenticatedUser } from '../auth/auth.decorators';
import { CallerPermissions } from '../auth/caller-permissions';
import { permissionsOf } from '../auth/permissions';
import { StaffCache } from '../auth/staff-cache';
import { issuesTokens, type AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { FairSlots, SlotsFull, type SlotTicket } from '../common/fair-slots';
import { AppLogger, type Logger } from '../common/logging/logger';
import { TenantContext } from '../tenancy/tenant-context';
import { ATTEMPT_COUNTER, type AttemptCounter } from './attempt-counter';
import { CredentialsRepository, type SignInRow } from './credentials.repository';
import type { CredentialsBody, CredentialsDto, SessionDto } from './dto/sign-in.dto';
import {
  hashPassword,
  hashPin,
  needsRehash,
  sameHash,
  verifySecret,
} from '../common/secret-hashing';
import { passwordProblem, pinProblem } from './secret-rules';
import {
  emptyCredentials,
  invalidCredentials,
  pinInUse,
  signInBusy,
  signInNotAvailable,
  tokenNotRevocable,
  tooManyAttempts,
  userNotFound,
  weakSecret,
  type SignInUnavailable,
} from './sign-in.errors';

type Method = 'password' | 'pin';

/** The injection token of the FairSlots that sign-in's hashes take turns in. */
export const SIGN_IN_SLOTS = Symbol('SIGN_IN_SLOTS');

/**
 * Staff sign-in (docs/sign-in.md): a password or a PIN against its scrypt hash, one answer for
 * every wrong credential, the lockout, and the session token: the JWT the authentication guard
 * already verifies (sub, tenant, exp) with a `jti` that sign-out revokes.
 */
@Injectable()
export class SignInService {
  /** The HS256 key, when this instance issues tokens (AUTH_MODE=jwt with AUTH_JWT_SECRET). */
  private readonly key?: KeyObject;
  private readonly unavailable?: SignInUnavailable;
  /** The PIN salt of each tenant: drawn once by its migration, never changed. */
  private readonly salts = new Map<string, Buffer>();
  private readonly log: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: CredentialsRepository,
    private readonly tenants: TenantContext,
    private readonly cache: StaffCache,
    private readonly caller: CallerPermissions,
    @Inject(ATTEMPT_COUNTER) private readonly attempts: AttemptCounter,
    @Inject(SIGN_IN_SLOTS) private readonly slots: FairSlots,
    logger: AppLogger,
  ) {
    this.log = logger.child('SignIn');
    if (issuesTokens(config))
      this.key = createSecretKey(Buffer.from(config.AUTH_JWT_SECRET!, 'utf8'));
    else this.unavailable = config.AUTH_MODE !== 'jwt' ? 'auth-off' : 'other-issuer';
  }

  /** 404 SIGN_IN_NOT_AVAILABLE unless this instance issues tokens. */
  private requireAvailable(): KeyObject {
    if (!this.key) throw signInNotAvailable(this.unavailable!);
    return this.key;
  }

  async login(documento: string, password: string, address: string): Promise<SessionDto> {
    this.requireAvailable();
    const account = `documento:${documento.trim()}`;
    const { row, valid } = await this.attempt([account], address, async (inTurn) => {
      const found = await this.credentials.byDocumento(documento.trim());
      const matches = await inTurn(() => verifySecret(password, found?.password_hash));
      return { row: found, valid: matches };
    });
    if (!valid || !row?.activo) return this.failed('password', address);
    await this.attempts.reset(this.tenant, account);
    if (needsRehash(row.password_hash!)) {
      await this.credentials.rehashPassword(
        row.id_usuario,
        row.password_hash!,
        await hashPassword(password),
      );
    }
    return this.open(row, 'password');
  }

  async pin(pin: string, idUsuario: number | undefined, address: string): Promise<SessionDto> {
    this.requireAvailable();
    const device = `address:${address}`;
    const keys = [device];
    if (idUsuario !== undefined) keys.push(`usuario:${idUsuario}`);
    const { row, hash } = await this.attempt(keys, address, async (inTurn) => {
      // one hash, whichever way the PIN came: with the tenant's salt, it finds its owner
      const salt = await this.pinSalt();
      const made = await inTurn(() => hashPin(pin, salt));
      const found =
        idUsuario === undefined
          ? await this.credentials.byPinHash(made)
          : await this.credentials.byId(idUsuario);
      return { row: found, hash: made };
    });
    if (!row?.activo || row.pin_hash === null || !sameHash(row.pin_hash, hash))
      return this.failed('pin', address);
    // the device's count is not reset by a success (a PIN of one's own must not buy guesses):
    // only this attempt's reservation is given back
    await this.attempts.release(this.tenant, device);
    if (idUsuario !== undefined) await this.attempts.reset(this.tenant, keys[1]);
    return this.open(row, 'pin');
  }

  async logout(user: AuthenticatedUser): Promise<void> {
    this.requireAvailable();
    if (user.sessionId === undefined) throw tokenNotRevocable();
    await this.credentials.revokeSession(user.sessionId, user.id_usuario);
    this.cache.forget(user.tenant, user.id_usuario);
  }

  /** PUT /usuarios/:id/credenciales: sets or removes a password and/or a PIN. */
  async setCredentials(id: number, body: CredentialsBody): Promise<CredentialsDto> {
    const { password, pin } = body;
    if (password === undefined && pin === undefined) throw emptyCredentials();
    const problems = [
      typeof password === 'string' ? passwordProblem(password) : undefined,
      typeof pin === 'string' ? pinProblem(pin) : undefined,
    ].filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw weakSecret(problems);
    const change: { password_hash?: string | null; pin_hash?: string | null } = {};
    // the hashes are made before the transaction: it holds a lock, not a thread of the pool
    const [passwordHash, pinHash] = await Promise.all([
      typeof password === 'string' ? hashPassword(password) : password,
      typeof pin === 'string' ? this.pinSalt().then((salt) => hashPin(pin, salt)) : pin,
    ]);
    if (passwordHash !== undefined) change.password_hash = passwordHash;
    if (pinHash !== undefined) change.pin_hash = pinHash;
    const result = await this.credentials.transaction(async () => {
      if (!(await this.credentials.lockUser(id))) throw userNotFound(id);
      if (pinHash && (await this.credentials.pinHeldByOther(id, pinHash))) throw pinInUse();
      const held = await this.credentials.save(id, change);
      const closed = await this.credentials.revokeAllSessions(id);
      return { id_usuario: id, ...held, sesiones_cerradas: closed };
    });
    this.cache.forget(this.tenants.tenant.slug, id);
    this.log.info(
      {
        id_usuario: id,
        // what changed, never the secret: "set", "removed" or "unchanged"
        passwordChange:
          password === undefined ? 'unchanged' : password === null ? 'removed' : 'set',
        pinChange: pin === undefined ? 'unchanged' : pin === null ? 'removed' : 'set',
        sesiones_cerradas: result.sesiones_cerradas,
      },
      'staff credentials changed',
    );
    return result;
  }

  private get tenant(): string {
    return this.tenants.tenant.slug;
  }

  /**
   * One sign-in attempt. First a place in the hash queue, shared round-robin between tenants
   * and, within a tenant, client addresses (docs/sign-in.md, "The hash queue"): past its bounds,
   * 429 or 503 SIGN_IN_BUSY at once, before any query. Then an attempt of every key is reserved
   * (docs/sign-in.md, "Lockout"): 429 TOO_MANY_ATTEMPTS when a key has none left. Then `verify`
   * runs, its hash in its turn (`inTurn`). A failure keeps the reservations (the caller answers
   * 401); a success gives them back or resets them (the caller). When anything throws before a
   * verdict, nothing was checked: the reservations are given back.
   */
  private async attempt<T>(
    keys: string[],
    address: string,
    verify: (inTurn: <H>(hash: () => Promise<H>) => Promise<H>) => Promise<T>,
  ): Promise<T> {
    const ticket = this.admit(address);
    const reserved: string[] = [];
    try {
      for (const key of keys) {
        const wait = await this.attempts.reserve(this.tenant, key);
        if (wait > 0) throw tooManyAttempts(wait);
        reserved.push(key);
      }
      return await verify((hash) => ticket.run(hash));
    } catch (error) {
      await Promise.all(reserved.map((key) => this.attempts.release(this.tenant, key)));
      throw error;
    } finally {
      ticket.leave();
    }
  }

  private admit(address: string): SlotTicket {
    try {
      return this.slots.admit(this.tenant, address);
    } catch (error) {
      if (!(error instanceof SlotsFull)) throw error;
      const scope = error.scope === 'key' ? 'client' : 'instance';
      this.log.info(
        { address, scope, limit: error.limit },
        'sign-in refused: the hash queue is full',
      );
      throw signInBusy(scope, error.limit, error.retryAfterSeconds);
    }
  }

  private failed(method: Method, address: string): never {
    this.log.info({ method, address }, 'sign-in refused: invalid credentials');
    throw invalidCredentials();
  }

  private async pinSalt(): Promise<Buffer> {
    const slug = this.tenant;
    let salt = this.salts.get(slug);
    if (!salt) {
      salt = await this.credentials.pinSalt();
      this.salts.set(slug, salt);
    }
    return salt;
  }

  private async open(row: SignInRow, method: Method): Promise<SessionDto> {
    const key = this.requireAvailable();
    const jti = randomUUID();
    const lifetime = this.config.AUTH_SESSION_HOURS * 3_600;
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = new Date((issuedAt + lifetime) * 1000);
    await this.credentials.openSession(jti, row.id_usuario, method, expiresAt);
    const token = sign({ tenant: this.tenant, iat: issuedAt }, key, {
      algorithm: 'HS256',
      subject: String(row.id_usuario),
      expiresIn: lifetime,
      jwtid: jti,
    });
    this.log.info({ id_usuario: row.id_usuario, method }, 'staff signed in');
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_at: expiresAt.toISOString(),
      usuario: {
        id_usuario: row.id_usuario,
        nombre: row.nombre,
        roles: row.roles,
        permissions: this.caller.visible(permissionsOf(row.roles)),
      },
    };
  }
}
