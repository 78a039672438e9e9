import { defineError } from '../common/errors/error-catalogue';
import { unauthenticatedSpec } from '../common/errors/common.errors';

/**
 * The 401s of a token (docs/security.md, "Answers"), each with the `detail.reason` and the
 * challenge of unauthenticatedSpec. The codes every route shares (UNAUTHENTICATED without a
 * token, TENANT_MISMATCH, FORBIDDEN) are in src/common/errors/common.errors.ts.
 */

export const malformedAuthorization = defineError(
  unauthenticatedSpec('malformed', {
    name: 'MALFORMED_AUTHORIZATION',
    summary: 'The Authorization header is not a Bearer JWT',
    en: () => 'The Authorization header must be "Bearer <JWT>"',
    es: () => 'La cabecera Authorization debe ser "Bearer <JWT>"',
    example: [],
  }),
);

export const unreadableToken = defineError(
  unauthenticatedSpec('malformed', {
    name: 'UNREADABLE_TOKEN',
    summary: 'The token is not a JWT that can be read',
    en: () => 'The token is not a readable JWT',
    es: () => 'El token no es un JWT legible',
    example: [],
  }),
);

export const invalidToken = defineError(
  unauthenticatedSpec('malformed', {
    name: 'INVALID_TOKEN',
    summary: 'The token library refused the token for another reason',
    en: (why?: string) => `The token is not valid${why === undefined ? '' : ` (${why})`}`,
    es: (why) => `El token no es válido${why === undefined ? '' : ` (${why})`}`,
    example: ['jwt malformed'],
  }),
);

/** What a claim of a token should be, when it is not. */
export type ClaimProblem = 'no-expiry' | 'subject' | 'tenant' | 'token-id';

const CLAIM_PROBLEMS: Record<ClaimProblem, { en: string; es: string }> = {
  'no-expiry': { en: 'The token has no expiry (exp)', es: 'El token no tiene vencimiento (exp)' },
  subject: {
    en: 'The token subject (sub) must be a user id',
    es: 'El sujeto del token (sub) debe ser el id de un usuario',
  },
  tenant: {
    en: 'The token has no tenant claim (a tenant slug)',
    es: 'El token no indica su restaurante (el claim tenant)',
  },
  'token-id': {
    en: 'The token id (jti) must be a UUID',
    es: 'El id del token (jti) debe ser un UUID',
  },
};

export const invalidClaims = defineError(
  unauthenticatedSpec('invalid_claims', {
    name: 'INVALID_CLAIMS',
    summary: 'A claim the service needs is missing or malformed (exp, sub, tenant, jti)',
    en: (problem: ClaimProblem) => CLAIM_PROBLEMS[problem].en,
    es: (problem) => CLAIM_PROBLEMS[problem].es,
    example: ['subject'],
  }),
);

export const unknownKey = defineError(
  unauthenticatedSpec('unknown_key', {
    name: 'UNKNOWN_KEY',
    summary: 'The key id (kid) names no configured key',
    en: (kid: string) => `No key with id "${kid}" verifies tokens here`,
    es: (kid) => `Ninguna clave con id "${kid}" verifica tokens aquí`,
    example: ['2026-01'],
  }),
);

export const keyNotNamed = defineError(
  unauthenticatedSpec('unknown_key', {
    name: 'KEY_NOT_NAMED',
    summary: 'Several keys verify tokens and the token names none (kid)',
    en: () => 'The token names no key id (kid) and several keys are configured',
    es: () => 'El token no indica el id de su clave (kid) y hay varias claves configuradas',
    example: [],
  }),
);

export const unsupportedAlgorithm = defineError(
  unauthenticatedSpec('unsupported_algorithm', {
    name: 'UNSUPPORTED_ALGORITHM',
    summary: 'The token is signed with an algorithm no configured key takes',
    en: (alg: string, accepted: string[]) =>
      `Tokens signed with ${alg} are not accepted (accepted: ${accepted.join(' or ')})`,
    es: (alg, accepted) =>
      `No se aceptan tokens firmados con ${alg} (se aceptan: ${accepted.join(' o ')})`,
    example: ['ES256', ['HS256']],
  }),
);

export const tokenExpired = defineError(
  unauthenticatedSpec('expired', {
    name: 'TOKEN_EXPIRED',
    summary: 'The token’s exp is past',
    en: (at: string) => `The token expired at ${at}`,
    es: (at) => `El token venció el ${at}`,
    example: ['2026-11-28T04:00:00.000Z'],
  }),
);

export const tokenNotYetValid = defineError(
  unauthenticatedSpec('not_yet_valid', {
    name: 'TOKEN_NOT_YET_VALID',
    summary: 'The token’s nbf is still to come',
    en: (from: string) => `The token is not valid before ${from}`,
    es: (from) => `El token no es válido antes del ${from}`,
    example: ['2026-11-28T04:00:00.000Z'],
  }),
);

export const invalidSignature = defineError(
  unauthenticatedSpec('invalid_signature', {
    name: 'INVALID_SIGNATURE',
    summary: 'The signature does not verify with the configured key',
    en: () => 'The token signature is not valid',
    es: () => 'La firma del token no es válida',
    example: [],
  }),
);

export const queryTokenTooLong = defineError(
  unauthenticatedSpec('query_token_too_long', {
    name: 'QUERY_TOKEN_TOO_LONG',
    summary:
      'A token in the query (?access_token=) lasts longer than the routes that take one allow',
    en: (maxSeconds: number) =>
      `A token in the query must expire within ${maxSeconds} s (npm run token -- --expires-in 5m); send longer ones in the Authorization header`,
    es: (maxSeconds) =>
      `Un token en la query debe vencer dentro de ${maxSeconds} s (npm run token -- --expires-in 5m); envíe los de más duración en la cabecera Authorization`,
    example: [300],
  }),
);

/** The request reached a route with a permission without a verified user (a bug of the guards). */
export const noAuthenticatedUser = defineError(
  unauthenticatedSpec('missing', {
    name: 'NO_AUTHENTICATED_USER',
    summary: 'No verified user on a route that needs one',
    en: () => 'Authentication required',
    es: () => 'Se necesita autenticación',
    example: [],
  }),
);

// the session of a verified token (session-validity.ts)

export const inactiveUser = defineError(
  unauthenticatedSpec('unknown_user', {
    name: 'INACTIVE_USER',
    summary: 'The token’s user is not an active user of the tenant',
    en: (idUsuario: number, tenant: string) =>
      `The token's user ${idUsuario} is not an active user of tenant "${tenant}"`,
    es: (idUsuario, tenant) =>
      `El usuario ${idUsuario} del token no es un usuario activo del restaurante "${tenant}"`,
    example: [12, 'la-mar'],
  }),
);

export const sessionSignedOut = defineError(
  unauthenticatedSpec('session_ended', {
    name: 'SESSION_SIGNED_OUT',
    summary: 'The session was signed out, or the user’s credentials changed',
    en: () => 'This session has ended (signed out, or the credentials changed): sign in again',
    es: () => 'Esta sesión terminó (se cerró o cambiaron las credenciales): vuelva a entrar',
    example: [],
  }),
);

export const sessionUserDeactivated = defineError(
  unauthenticatedSpec('session_ended', {
    name: 'SESSION_USER_DEACTIVATED',
    summary: 'The token was issued before the user was last deactivated',
    en: () => 'This session has ended (the user was deactivated since): sign in again',
    es: () => 'Esta sesión terminó (el usuario se desactivó después): vuelva a entrar',
    example: [],
  }),
);

export const sessionExpired = defineError(
  unauthenticatedSpec('expired', {
    name: 'SESSION_EXPIRED',
    summary: 'The token expired while it was in use',
    en: () => 'The token has expired: sign in again',
    es: () => 'El token venció: vuelva a entrar',
    example: [],
  }),
);
