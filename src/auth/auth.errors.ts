import { DomainError, ForbiddenError } from '../common/errors/domain-error';

/** Why a request is not authenticated (the `detail.reason` of a 401). */
export type UnauthenticatedReason =
  | 'missing'
  | 'malformed'
  | 'expired'
  | 'not_yet_valid'
  | 'invalid_signature'
  | 'unsupported_algorithm'
  | 'unknown_key'
  | 'invalid_claims'
  | 'unknown_user'
  | 'session_ended'
  | 'query_token_too_long';

/**
 * 401 UNAUTHENTICATED with the RFC 6750 challenge: no `error` attribute when no credentials
 * were sent, `invalid_token` otherwise.
 */
export function unauthenticated(reason: UnauthenticatedReason, message: string): DomainError {
  const challenge =
    reason === 'missing'
      ? 'Bearer realm="comandas"'
      : `Bearer realm="comandas", error="invalid_token", error_description="${message.replace(/"/g, "'")}"`;
  return new DomainError({
    status: 401,
    code: 'UNAUTHENTICATED',
    message,
    detail: { reason },
    headers: { 'WWW-Authenticate': challenge },
  });
}

export const tenantMismatch = (claim: string, requested: string) =>
  new ForbiddenError(
    `The token was issued for tenant "${claim}", not for "${requested}"`,
    'TENANT_MISMATCH',
    { tokenTenant: claim, requestedTenant: requested },
  );

export const forbidden = (permission: string, roles: readonly string[]) =>
  new ForbiddenError(
    roles.length === 0
      ? `This needs the permission "${permission}" and the user holds no role`
      : `This needs the permission "${permission}", which the role(s) ${roles.join(', ')} do not give`,
    'FORBIDDEN',
    { permission, roles },
  );
