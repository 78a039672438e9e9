import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient, Me, Session, TenantInfo } from './api';

/** Who is signed in: the API client, the tenant, and what the user may do. */
export interface SessionState {
  api: ApiClient;
  session: Session;
  tenant: TenantInfo;
  me: Me;
  can(permission: string): boolean;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
