import type { KeyObject } from 'node:crypto';
import {
  decode,
  JsonWebTokenError,
  NotBeforeError,
  TokenExpiredError,
  verify,
  type Jwt,
  type JwtPayload,
} from 'jsonwebtoken';
import { MAX_INT4 } from '../common/validation';
import { isTenantSlug } from '../tenancy/tenant-slug';
import { authenticationRequired } from '../common/errors/common.errors';
import {
  invalidClaims,
  invalidSignature,
  invalidToken,
  keyNotNamed,
  malformedAuthorization,
  tokenExpired,
  tokenNotYetValid,
  unknownKey,
  unreadableToken,
  unsupportedAlgorithm,
} from './auth.errors';
import type { TokenKeys } from './token-keys';

/** What a verified token says (docs/security.md, claims). */
export interface TokenClaims {
  /** `sub`: the user's id_usuario in the tenant database. */
  userId: number;
  /** `tenant`: the slug of the tenant the token was issued for. */
  tenant: string;
  /** `exp`, in seconds since the epoch. */
  expiresAt: number;
  /** `jti`: the session of a token issued by sign-in (docs/sign-in.md), which logout revokes. */
  sessionId?: string;
  /** `iat`, in seconds since the epoch, when the token says when it was issued. */
  issuedAt?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function userIdOf(sub: unknown): number | undefined {
  const text = typeof sub === 'number' ? String(sub) : sub;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_INT4 ? id : undefined;
}

/** Reads `Authorization: Bearer <token>`; anything else is a 401. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw authenticationRequired();
  const match = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)\s*$/i.exec(header);
  if (!match) throw malformedAuthorization();
  return match[1];
}

/**
 * Verifies tokens with the configured keys: HS256 with the shared secret, RS256 with the
 * public key(s). The algorithm a token names picks the key kind, and only that algorithm is
 * accepted for it, so an HS256 token can never be checked against a public key.
 */
export class TokenVerifier {
  constructor(private readonly keys: TokenKeys) {}

  verify(token: string): TokenClaims {
    let decoded: Jwt | null = null;
    try {
      decoded = decode(token, { complete: true });
    } catch {
      // a header or payload that is not JSON
    }
    if (!decoded || typeof decoded.payload !== 'object') throw unreadableToken();
    const { alg, kid } = decoded.header;
    const key = this.keyFor(alg, kid);
    let payload: JwtPayload;
    try {
      payload = verify(token, key, { algorithms: [alg as 'HS256' | 'RS256'] }) as JwtPayload;
    } catch (error) {
      throw this.translate(error);
    }
    if (typeof payload.exp !== 'number') throw invalidClaims('no-expiry');
    const userId = userIdOf(payload.sub);
    if (userId === undefined) throw invalidClaims('subject');
    const tenant = (payload as { tenant?: unknown }).tenant;
    if (typeof tenant !== 'string' || !isTenantSlug(tenant)) throw invalidClaims('tenant');
    const jti = payload.jti;
    if (jti !== undefined && (typeof jti !== 'string' || !UUID.test(jti)))
      throw invalidClaims('token-id');
    return {
      userId,
      tenant,
      expiresAt: payload.exp,
      ...(jti ? { sessionId: jti } : {}),
      ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
    };
  }

  private keyFor(alg: string, kid: string | undefined): KeyObject {
    if (alg === 'HS256' && this.keys.secret) return this.keys.secret;
    if (alg === 'RS256') {
      if (kid !== undefined) {
        const key = this.keys.rsaByKid.get(kid);
        if (key) return key;
        if (this.keys.rsaByKid.size > 0 || this.keys.rsaUnnamed.length > 0) throw unknownKey(kid);
      } else if (this.keys.rsaUnnamed.length + this.keys.rsaByKid.size === 1) {
        return this.keys.rsaUnnamed[0] ?? [...this.keys.rsaByKid.values()][0];
      } else if (this.keys.rsaUnnamed.length + this.keys.rsaByKid.size > 1) {
        throw keyNotNamed();
      }
    }
    const accepted = [this.keys.secret ? 'HS256' : '', this.hasRsa() ? 'RS256' : ''].filter(
      Boolean,
    );
    throw unsupportedAlgorithm(alg, accepted);
  }

  private hasRsa(): boolean {
    return this.keys.rsaByKid.size + this.keys.rsaUnnamed.length > 0;
  }

  private translate(error: unknown) {
    if (error instanceof TokenExpiredError) return tokenExpired(error.expiredAt.toISOString());
    if (error instanceof NotBeforeError) return tokenNotYetValid(error.date.toISOString());
    if (error instanceof JsonWebTokenError && /signature/.test(error.message))
      return invalidSignature();
    return invalidToken(error instanceof Error ? error.message : undefined);
  }
}
