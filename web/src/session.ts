import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api, TenantInfo } from './api';

/** Who is signed in: the API client, the tenant, and what the user may do. */
export interface Me {
  id_usuario: number | null;
  nombre: string | null;
  roles: string[];
  permissions: string[];
}

export interface SessionState {
  api: Api;
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
