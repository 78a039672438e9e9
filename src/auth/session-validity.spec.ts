import { sessionProblem } from './session-validity';
import type { StaffSessions } from './staff.repository';

const member = (over: Partial<StaffSessions> = {}): StaffSessions => ({
  revocadas: [],
  tokens_desde: null,
  id_usuario: 7,
  documento: '40000007',
  nombre: 'Rosa',
  activo: true,
  roles: ['mozo'],
  ...over,
});

describe('sessionProblem', () => {
  const user = { id_usuario: 7, tenant: 'alfa', sessionId: 's-1' };
  const deactivated = new Date('2026-12-01T10:00:00.600Z');
  const second = Math.floor(deactivated.getTime() / 1000);

  it('refuses an inactive user, a revoked session and an expired token', () => {
    expect(sessionProblem(undefined, user)?.reason).toBe('unknown_user');
    expect(sessionProblem(member({ activo: false }), user)?.reason).toBe('unknown_user');
    expect(sessionProblem(member({ revocadas: ['s-1'] }), user)?.reason).toBe('session_ended');
    expect(sessionProblem(member(), { ...user, expiresAt: 100 }, 100_000)?.reason).toBe('expired');
    expect(sessionProblem(member(), { ...user, expiresAt: 101 }, 100_000)).toBeUndefined();
  });

  it('refuses a token issued before the last deactivation, by its second', () => {
    const since = member({ tokens_desde: deactivated });
    expect(sessionProblem(since, { ...user, issuedAt: second - 1 })?.reason).toBe('session_ended');
    expect(sessionProblem(since, { ...user, issuedAt: undefined })?.reason).toBe('session_ended');
    // signed in again in the second of the reactivation: its iat is that whole second
    expect(sessionProblem(since, { ...user, issuedAt: second })).toBeUndefined();
    expect(sessionProblem(since, { ...user, issuedAt: second + 1 })).toBeUndefined();
  });
});
