import { ApiError, type Session } from './api';

/** A PIN has 4 to 6 digits (the service's rule for setting one). */
export const PIN_MIN = 4;
export const PIN_MAX = 6;

/** What Entrar says after the service stopped taking the session's token. */
export const SESSION_ENDED = 'Tu sesión terminó: vuelve a entrar';

export type SignInMethod = 'pin' | 'password';

const WRONG: Record<SignInMethod, string> = {
  pin: 'PIN incorrecto',
  password: 'Documento o contraseña incorrectos',
};

/** The PIN after one key of the pad or the keyboard: a digit (up to PIN_MAX), or Backspace. */
export function pinAfterKey(pin: string, key: string): string {
  if (key === 'Backspace') return pin.slice(0, -1);
  if (/^[0-9]$/.test(key) && pin.length < PIN_MAX) return pin + key;
  return pin;
}

/** Whether the PIN can be sent. */
export function pinComplete(pin: string): boolean {
  return pin.length >= PIN_MIN && pin.length <= PIN_MAX;
}

/**
 * Whole minutes to wait, from a Retry-After header (seconds, or an HTTP date); at least 1.
 * `null` when there is no usable header.
 */
export function retryMinutes(
  retryAfter: string | null | undefined,
  now = Date.now(),
): number | null {
  if (!retryAfter) return null;
  const text = retryAfter.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : (Date.parse(text) - now) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.max(1, Math.ceil(seconds / 60));
}

/**
 * A refused sign-in as the person at the tablet reads it: a wrong credential, the lockout or a
 * full sign-in queue in plain Spanish; any other refusal (an unknown restaurant, sign-in not served here, no
 * connection) as the ApiError itself, shown with its code.
 */
export function signInProblem(error: unknown, method: SignInMethod): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 401 && error.code === 'INVALID_CREDENTIALS') return WRONG[method];
  if (error.code === 'SIGN_IN_BUSY') {
    // the service's sign-in queue is full (429 for this device, 503 for the instance): seconds
    const text = error.headers?.get('Retry-After')?.trim();
    const seconds = text && /^\d+$/.test(text) ? Math.max(1, Number(text)) : null;
    return seconds === null || seconds > 60
      ? 'Hay muchos ingresos a la vez: vuelve a intentar en un momento'
      : `Hay muchos ingresos a la vez: vuelve a intentar en ${seconds} s`;
  }
  if (error.status === 429) {
    const detail = error.detail as { retryAfterSeconds?: unknown } | undefined;
    const minutes =
      retryMinutes(error.headers?.get('Retry-After')) ??
      (typeof detail?.retryAfterSeconds === 'number'
        ? retryMinutes(String(detail.retryAfterSeconds))
        : null);
    return minutes === null
      ? 'Demasiados intentos: espera unos minutos y vuelve a intentar'
      : `Demasiados intentos: vuelve a intentar en ${minutes} min`;
  }
  return error;
}

/** Whether a refusal means the service wants someone to sign in (no token, or one it no longer takes). */
export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'UNAUTHENTICATED';
}

/** Whether a saved session's token has expired by now (a session without expiry never does). */
export function hasExpired(session: Session, now = Date.now()): boolean {
  if (!session.token || !session.expires_at) return false;
  const end = Date.parse(session.expires_at);
  return Number.isFinite(end) && end <= now;
}
