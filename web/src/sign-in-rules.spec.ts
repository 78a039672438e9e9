import { ApiError } from './api';
import {
  hasExpired,
  isUnauthenticated,
  pinAfterKey,
  pinComplete,
  retryMinutes,
  signInProblem,
} from './sign-in-rules';

describe('the PIN pad', () => {
  it('takes digits up to six, and Backspace takes the last one back', () => {
    let pin = '';
    for (const key of ['4', '8', 'a', '2', 'Enter', '7', '1', '6', '9'])
      pin = pinAfterKey(pin, key);
    expect(pin).toBe('482716');
    expect(pinAfterKey(pin, 'Backspace')).toBe('48271');
    expect(pinAfterKey('', 'Backspace')).toBe('');
  });

  it('sends 4 to 6 digits', () => {
    expect(['', '482', '4827', '482716', '4827160'].map(pinComplete)).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('a refused sign-in, for people', () => {
  const refusal = (
    status: number,
    code: string,
    headers?: Record<string, string>,
    detail?: unknown,
  ) => new ApiError(status, code, 'refused', detail, undefined, new Headers(headers));

  it('names the wrong credential in Spanish, without saying which part was wrong', () => {
    expect(signInProblem(refusal(401, 'INVALID_CREDENTIALS'), 'pin')).toBe('PIN incorrecto');
    expect(signInProblem(refusal(401, 'INVALID_CREDENTIALS'), 'password')).toBe(
      'Documento o contraseña incorrectos',
    );
  });

  it('says how many whole minutes to wait after too many attempts, from Retry-After', () => {
    expect(signInProblem(refusal(429, 'TOO_MANY_ATTEMPTS', { 'Retry-After': '840' }), 'pin')).toBe(
      'Demasiados intentos: vuelve a intentar en 14 min',
    );
    expect(signInProblem(refusal(429, 'TOO_MANY_ATTEMPTS', { 'Retry-After': '5' }), 'pin')).toBe(
      'Demasiados intentos: vuelve a intentar en 1 min',
    );
    // without the header (a proxy dropped it), the envelope's detail says the same
    expect(
      signInProblem(refusal(429, 'TOO_MANY_ATTEMPTS', {}, { retryAfterSeconds: 900 }), 'password'),
    ).toBe('Demasiados intentos: vuelve a intentar en 15 min');
    expect(signInProblem(refusal(429, 'TOO_MANY_ATTEMPTS'), 'pin')).toBe(
      'Demasiados intentos: espera unos minutos y vuelve a intentar',
    );
  });

  it('says a full sign-in queue is a wait of seconds, not the lockout', () => {
    expect(signInProblem(refusal(429, 'SIGN_IN_BUSY', { 'Retry-After': '2' }), 'pin')).toBe(
      'Hay muchos ingresos a la vez: vuelve a intentar en 2 s',
    );
    expect(signInProblem(refusal(503, 'SIGN_IN_BUSY', { 'Retry-After': '1' }), 'password')).toBe(
      'Hay muchos ingresos a la vez: vuelve a intentar en 1 s',
    );
    expect(signInProblem(refusal(503, 'SIGN_IN_BUSY'), 'pin')).toBe(
      'Hay muchos ingresos a la vez: vuelve a intentar en un momento',
    );
  });

  it('leaves any other refusal as it is, shown with its code', () => {
    const unavailable = refusal(404, 'SIGN_IN_NOT_AVAILABLE');
    expect(signInProblem(unavailable, 'pin')).toBe(unavailable);
    const network = new ApiError(0, 'NETWORK', 'El servicio no responde');
    expect(signInProblem(network, 'password')).toBe(network);
  });
});

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, rounding up to whole minutes', () => {
    const now = Date.parse('2026-03-02T12:00:00Z');
    expect(retryMinutes('60', now)).toBe(1);
    expect(retryMinutes('61', now)).toBe(2);
    expect(retryMinutes('Mon, 02 Mar 2026 12:10:30 GMT', now)).toBe(11);
    expect(retryMinutes('0', now)).toBe(1);
    expect(retryMinutes(null, now)).toBeNull();
    expect(retryMinutes('pronto', now)).toBeNull();
  });
});

describe('the end of a session', () => {
  it('is a 401 UNAUTHENTICATED, not a wrong credential or a refusal of permission', () => {
    expect(isUnauthenticated(new ApiError(401, 'UNAUTHENTICATED', 'expired'))).toBe(true);
    expect(isUnauthenticated(new ApiError(401, 'INVALID_CREDENTIALS', 'no'))).toBe(false);
    expect(isUnauthenticated(new ApiError(403, 'FORBIDDEN', 'no'))).toBe(false);
    expect(isUnauthenticated(new Error('x'))).toBe(false);
  });

  it('has come when the saved token’s expires_at has passed', () => {
    const now = Date.parse('2026-03-02T12:00:00Z');
    const session = { tenant: 'demo', token: 'tok', expires_at: '2026-03-02T11:59:59Z' };
    expect(hasExpired(session, now)).toBe(true);
    expect(hasExpired({ ...session, expires_at: '2026-03-02T20:00:00Z' }, now)).toBe(false);
    // without authentication there is no token to expire
    expect(hasExpired({ tenant: 'demo', token: '' }, now)).toBe(false);
  });
});
