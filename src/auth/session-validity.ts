import type { DomainError } from '../common/errors/domain-error';
import type { AuthenticatedUser } from './auth.decorators';
import {
  inactiveUser,
  sessionExpired,
  sessionSignedOut,
  sessionUserDeactivated,
} from './auth.errors';
import type { StaffSessions } from './staff.repository';

/** Why a token's session no longer holds: the `detail.reason` of its 401. */
export interface SessionProblem {
  reason: 'unknown_user' | 'session_ended' | 'expired';
  /** In English, as a live stream's `event: end` says it. */
  message: string;
  /** The 401 a request gets for it. */
  error: DomainError;
}

function problem(reason: SessionProblem['reason'], error: DomainError): SessionProblem {
  return { reason, message: error.message, error };
}

/**
 * Whether the session of a verified token still holds, given what the tenant's database says of
 * its user (docs/security.md, "Answers"): the user active, the session not signed out or ended
 * by a change of credentials, the token not issued before the user was last deactivated, and
 * not expired. The permission guard asks it of every request, the live streams of every open
 * stream (src/auth/live-sessions.ts): one rule for both.
 */
export function sessionProblem(
  member: StaffSessions | undefined,
  user: AuthenticatedUser,
  nowMs: number = Date.now(),
): SessionProblem | undefined {
  if (!member?.activo) return problem('unknown_user', inactiveUser(user.id_usuario, user.tenant));
  if (user.sessionId !== undefined && member.revocadas.includes(user.sessionId))
    return problem('session_ended', sessionSignedOut());
  if (member.tokens_desde !== null && issuedBefore(user, member.tokens_desde))
    return problem('session_ended', sessionUserDeactivated());
  if (user.expiresAt !== undefined && user.expiresAt * 1000 <= nowMs)
    return problem('expired', sessionExpired());
  return undefined;
}

/**
 * Whether the token may have been issued before the user's last deactivation. A token's `iat`
 * counts whole seconds: a token without a session (`npm run token`, another issuer) issued in
 * the second of the deactivation is refused, since it may come from before it; a session's
 * token of that second is taken, since the deactivation revoked every session open then (so a
 * user reactivated and signed in again within that second keeps the new session).
 */
function issuedBefore(user: AuthenticatedUser, deactivated: Date): boolean {
  if (user.issuedAt === undefined) return true;
  const second = Math.floor(deactivated.getTime() / 1000);
  return user.sessionId === undefined ? user.issuedAt <= second : user.issuedAt < second;
}
