import type { AuthenticatedUser } from './auth.decorators';
import type { StaffSessions } from './staff.repository';

/** Why a token's session no longer holds: the `detail.reason` of its 401. */
export interface SessionProblem {
  reason: 'unknown_user' | 'session_ended' | 'expired';
  message: string;
}

/**
 * Whether the session of a verified token still holds, given what the tenant's database says of
 * its user (docs/security.md, "Answers"): the user active, the session not signed out or ended
 * by a change of credentials, the token not issued before the user was last deactivated, and
 * not expired. The permission guard asks it of every request, the live streams of every open
 * stream (src/auth/live-sessions.ts): one rule for both.
 *
 * A token's `iat` is in whole seconds, so the deactivation's instant is compared by its second:
 * a user reactivated and signed in again within that second keeps the new token. A token issued
 * in that second before the deactivation is ended by its session, which the deactivation revoked.
 */
export function sessionProblem(
  member: StaffSessions | undefined,
  user: AuthenticatedUser,
  nowMs: number = Date.now(),
): SessionProblem | undefined {
  if (!member?.activo)
    return {
      reason: 'unknown_user',
      message: `The token's user ${user.id_usuario} is not an active user of tenant "${user.tenant}"`,
    };
  if (user.sessionId !== undefined && member.revocadas.includes(user.sessionId))
    return {
      reason: 'session_ended',
      message: 'This session has ended (signed out, or the credentials changed): sign in again',
    };
  if (
    member.tokens_desde !== null &&
    (user.issuedAt === undefined ||
      user.issuedAt < Math.floor(member.tokens_desde.getTime() / 1000))
  )
    return {
      reason: 'session_ended',
      message: 'This session has ended (the user was deactivated since): sign in again',
    };
  if (user.expiresAt !== undefined && user.expiresAt * 1000 <= nowMs)
    return { reason: 'expired', message: 'The token has expired: sign in again' };
  return undefined;
}
