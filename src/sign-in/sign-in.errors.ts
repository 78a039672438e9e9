import {
  BadRequestError,
  ConflictError,
  DomainError,
  NotFoundError,
} from '../common/errors/domain-error';
import { example } from '../common/http/openapi-errors';

/** The error codes of staff sign-in, as small factories (docs/sign-in.md). */

/**
 * One answer for an unknown document or user, a wrong password and a wrong PIN; with the
 * challenge every 401 carries (RFC 9110), naming the scheme the answer of a sign-in is used with.
 */
export const invalidCredentials = () =>
  new DomainError({
    status: 401,
    code: 'INVALID_CREDENTIALS',
    message: 'The credentials are not valid',
    headers: { 'WWW-Authenticate': 'Bearer realm="comandas"' },
  });

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new DomainError({
    status: 429,
    code: 'TOO_MANY_ATTEMPTS',
    message: `Too many failed sign-ins: try again in ${retryAfterSeconds} s`,
    detail: { retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/**
 * The sign-in's hash queue has no room (docs/sign-in.md, "The hash queue"): 429 when this client
 * address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins in it, 503 when the whole queue holds
 * SIGN_IN_QUEUE_MAX. Answered at once, instead of waiting behind a flood; nothing was checked.
 */
export const signInBusy = (
  scope: 'client' | 'instance',
  limit: number,
  retryAfterSeconds: number,
) =>
  new DomainError({
    status: scope === 'client' ? 429 : 503,
    code: 'SIGN_IN_BUSY',
    message:
      scope === 'client'
        ? `This client has ${limit} sign-ins waiting already: try again in ${retryAfterSeconds} s`
        : `This instance has ${limit} sign-ins waiting already: try again in ${retryAfterSeconds} s`,
    detail: { scope, limit, retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const signInNotAvailable = (why: string) =>
  new NotFoundError(`Sign-in is not served here: ${why}`, 'SIGN_IN_NOT_AVAILABLE');

export const userNotFound = (id: number) =>
  new NotFoundError(`Usuario ${id} does not exist`, 'USER_NOT_FOUND', { id_usuario: id });

export const pinInUse = () =>
  new ConflictError(
    'Another staff member of this restaurant has this PIN: choose another one',
    'PIN_IN_USE',
  );

export const weakSecret = (problems: string[]) =>
  new BadRequestError(problems.join('; '), 'VALIDATION_FAILED', problems);

export const emptyCredentials = () =>
  new BadRequestError(
    'Send password and/or pin (a value to set it, null to remove it)',
    'EMPTY_CHANGE',
  );

export const tokenNotRevocable = () =>
  new ConflictError(
    'This token was not issued by sign-in (it has no session id): it ends when it expires',
    'TOKEN_NOT_REVOCABLE',
  );

/** The examples of these codes in the OpenAPI document. */
export const SIGN_IN_ERRORS = {
  INVALID_CREDENTIALS: example(
    401,
    'INVALID_CREDENTIALS',
    'Unknown document or user, wrong password or wrong PIN: one answer for all',
    'The credentials are not valid',
  ),
  TOO_MANY_ATTEMPTS: example(
    429,
    'TOO_MANY_ATTEMPTS',
    '5 failures within 15 minutes for this account (or this device, for PINs): wait Retry-After seconds',
    'Too many failed sign-ins: try again in 840 s',
    { retryAfterSeconds: 840 },
  ),
  SIGN_IN_BUSY_CLIENT: example(
    429,
    'SIGN_IN_BUSY',
    'This client address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash: wait Retry-After seconds (nothing was checked or counted)',
    'This client has 10 sign-ins waiting already: try again in 1 s',
    { scope: 'client', limit: 10, retryAfterSeconds: 1 },
    {},
    'SIGN_IN_BUSY_CLIENT',
  ),
  SIGN_IN_BUSY: example(
    503,
    'SIGN_IN_BUSY',
    'This instance already has SIGN_IN_QUEUE_MAX sign-ins waiting for a hash: wait Retry-After seconds (another instance may have room)',
    'This instance has 100 sign-ins waiting already: try again in 2 s',
    { scope: 'instance', limit: 100, retryAfterSeconds: 2 },
  ),
  SIGN_IN_NOT_AVAILABLE: example(
    404,
    'SIGN_IN_NOT_AVAILABLE',
    'Sign-in needs AUTH_MODE=jwt with AUTH_JWT_SECRET (tokens from another issuer otherwise)',
    'Sign-in is not served here: tokens come from the issuer whose public key is configured (AUTH_JWT_PUBLIC_KEY_FILE)',
  ),
  USER_NOT_FOUND: example(
    404,
    'USER_NOT_FOUND',
    'No staff member has this id',
    'Usuario 9999 does not exist',
    { id_usuario: 9999 },
  ),
  PIN_IN_USE: example(
    409,
    'PIN_IN_USE',
    'Another staff member has this PIN',
    'Another staff member of this restaurant has this PIN: choose another one',
  ),
  WEAK_SECRET: example(
    400,
    'VALIDATION_FAILED',
    'A password under 10 characters, or a trivial PIN',
    'pin is too easy to guess (a repeated digit, a run such as 1234 or 9876, a repeated pattern or a common PIN)',
    [
      'pin is too easy to guess (a repeated digit, a run such as 1234 or 9876, a repeated pattern or a common PIN)',
    ],
    {},
    'WEAK_SECRET',
  ),
  EMPTY_CHANGE: example(
    400,
    'EMPTY_CHANGE',
    'Neither password nor pin was sent',
    'Send password and/or pin (a value to set it, null to remove it)',
  ),
  TOKEN_NOT_REVOCABLE: example(
    409,
    'TOKEN_NOT_REVOCABLE',
    'The token has no session id (made by npm run token or another issuer)',
    'This token was not issued by sign-in (it has no session id): it ends when it expires',
  ),
};
