import { unauthenticatedSpec } from '../common/errors/common.errors';
import { defineError } from '../common/errors/error-catalogue';
import { problemInSpanish } from '../common/errors/validation-spanish';

/** The error codes of staff sign-in (docs/sign-in.md). */

/**
 * One answer for an unknown document or user, a wrong password and a wrong PIN; with the
 * challenge every 401 carries (RFC 9110), naming the scheme the answer of a sign-in is used with.
 */
export const invalidCredentials = defineError({
  status: 401,
  code: 'INVALID_CREDENTIALS',
  summary: 'Unknown document or user, wrong password or wrong PIN: one answer for all',
  en: () => 'The credentials are not valid',
  es: () => 'Las credenciales no son válidas',
  headers: () => ({ 'WWW-Authenticate': 'Bearer realm="comandas"' }),
  example: [],
});

export const tooManyAttempts = defineError({
  status: 429,
  code: 'TOO_MANY_ATTEMPTS',
  summary:
    '5 failures within 15 minutes for this account (or this device, for PINs): wait Retry-After seconds',
  en: (retryAfterSeconds: number) =>
    `Too many failed sign-ins: try again in ${retryAfterSeconds} s`,
  es: (retryAfterSeconds) =>
    `Demasiados intentos fallidos de entrar: vuelva a intentarlo en ${retryAfterSeconds} s`,
  detail: (retryAfterSeconds) => ({ retryAfterSeconds }),
  headers: (retryAfterSeconds) => ({ 'Retry-After': String(retryAfterSeconds) }),
  example: [840],
});

/**
 * The sign-in's hash queue has no room (docs/sign-in.md, "The hash queue"): 429 when this client
 * address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins in it, 503 when the whole queue holds
 * SIGN_IN_QUEUE_MAX. Answered at once, instead of waiting behind a flood; nothing was checked.
 */
export const signInBusyClient = defineError({
  status: 429,
  code: 'SIGN_IN_BUSY',
  name: 'SIGN_IN_BUSY_CLIENT',
  summary:
    'This client address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash: wait Retry-After seconds (nothing was checked or counted)',
  en: (limit: number, retryAfterSeconds: number) =>
    `This client has ${limit} sign-ins waiting already: try again in ${retryAfterSeconds} s`,
  es: (limit, retryAfterSeconds) =>
    `Este cliente ya tiene ${limit} ingresos en espera: vuelva a intentarlo en ${retryAfterSeconds} s`,
  detail: (limit, retryAfterSeconds) => ({ scope: 'client', limit, retryAfterSeconds }),
  headers: (_limit, retryAfterSeconds) => ({ 'Retry-After': String(retryAfterSeconds) }),
  example: [10, 1],
});

export const signInBusyInstance = defineError({
  status: 503,
  code: 'SIGN_IN_BUSY',
  summary:
    'This instance already has SIGN_IN_QUEUE_MAX sign-ins waiting for a hash: wait Retry-After seconds (another instance may have room)',
  en: (limit: number, retryAfterSeconds: number) =>
    `This instance has ${limit} sign-ins waiting already: try again in ${retryAfterSeconds} s`,
  es: (limit, retryAfterSeconds) =>
    `Esta instancia ya tiene ${limit} ingresos en espera: vuelva a intentarlo en ${retryAfterSeconds} s`,
  detail: (limit, retryAfterSeconds) => ({ scope: 'instance', limit, retryAfterSeconds }),
  headers: (_limit, retryAfterSeconds) => ({ 'Retry-After': String(retryAfterSeconds) }),
  example: [100, 2],
});

/** The busy answer of a scope: the client's share of the queue, or the instance's whole queue. */
export const signInBusy = (
  scope: 'client' | 'instance',
  limit: number,
  retryAfterSeconds: number,
) =>
  scope === 'client'
    ? signInBusyClient(limit, retryAfterSeconds)
    : signInBusyInstance(limit, retryAfterSeconds);

/** Why this instance serves no sign-in. */
export type SignInUnavailable = 'auth-off' | 'other-issuer';

export const signInNotAvailable = defineError({
  status: 404,
  code: 'SIGN_IN_NOT_AVAILABLE',
  summary:
    'Sign-in needs AUTH_MODE=jwt with AUTH_JWT_SECRET (tokens from another issuer otherwise)',
  en: (why: SignInUnavailable) =>
    `Sign-in is not served here: ${
      why === 'auth-off'
        ? 'AUTH_MODE is off: no route asks for a token'
        : 'tokens come from the issuer whose public key is configured (AUTH_JWT_PUBLIC_KEY_FILE); sign in there'
    }`,
  es: (why) =>
    `Aquí no se puede entrar: ${
      why === 'auth-off'
        ? 'AUTH_MODE está en off y ninguna ruta pide un token'
        : 'los tokens los emite el servicio cuya clave pública está configurada (AUTH_JWT_PUBLIC_KEY_FILE); entre allí'
    }`,
  example: ['other-issuer'],
});

export const userNotFound = defineError({
  status: 404,
  code: 'USER_NOT_FOUND',
  summary: 'No staff member has this id',
  en: (id: number) => `Usuario ${id} does not exist`,
  es: (id) => `El usuario ${id} no existe`,
  detail: (id) => ({ id_usuario: id }),
  example: [9999],
});

export const pinInUse = defineError({
  status: 409,
  code: 'PIN_IN_USE',
  summary: 'Another staff member has this PIN',
  en: () => 'Another staff member of this restaurant has this PIN: choose another one',
  es: () => 'Otra persona del personal de este restaurante tiene este PIN: elija otro',
  example: [],
});

export const weakSecret = defineError({
  status: 400,
  code: 'VALIDATION_FAILED',
  name: 'WEAK_SECRET',
  summary: 'A password under 10 characters, or a trivial PIN',
  en: (problems: string[]) => problems.join('; '),
  es: (problems) => problems.map(problemInSpanish).join('; '),
  detail: (problems) => problems,
  example: [
    [
      'pin is too easy to guess (a repeated digit, a run such as 1234 or 9876, a repeated pattern or a common PIN)',
    ],
  ],
});

export const emptyCredentials = defineError({
  status: 400,
  code: 'EMPTY_CHANGE',
  summary: 'Neither password nor pin was sent',
  en: () => 'Send password and/or pin (a value to set it, null to remove it)',
  es: () => 'Envíe password y/o pin (un valor para fijarlo, null para quitarlo)',
  example: [],
});

export const tokenNotRevocable = defineError({
  status: 409,
  code: 'TOKEN_NOT_REVOCABLE',
  summary: 'The token has no session id (made by npm run token or another issuer)',
  en: () => 'This token was not issued by sign-in (it has no session id): it ends when it expires',
  es: () => 'Este token no se emitió al entrar (no tiene id de sesión): termina cuando vence',
  example: [],
});

export const signOutWithoutToken = defineError(
  unauthenticatedSpec('missing', {
    name: 'SIGN_OUT_WITHOUT_TOKEN',
    summary: 'Sign out without the session’s token',
    en: () => 'Sign out needs the session’s token',
    es: () => 'Para salir se necesita el token de la sesión',
    example: [],
  }),
);
