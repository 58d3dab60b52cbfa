// How every view reaches the server: the signed-in session (its client and account) is provided once
// at the top of the signed-in screens, and views take it with useSession(); useMay() says what the
// signed-in role may do, so views hide the rest.
import { type ReactNode, createContext, useCallback, useContext } from 'react';
import { type AccountInfo, type Role, roleMay } from '../../../shared/index.ts';
import type { ApiClient } from './api-client.ts';

export interface Session {
  client: ApiClient;
  account: AccountInfo;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in session; only views under SessionProvider (every signed-in screen) may call it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside the signed-in screens');
  return session;
}

/**
 * Whether the signed-in role may do what the endpoints open to `roles` do: one of the `MAY` groups the
 * endpoint table declares (shared/roles.ts), so the UI hides exactly what the server would refuse.
 */
export function useMay(): (roles: readonly Role[]) => boolean {
  const { role } = useSession().account;
  // One function per role: views list it among their effects' dependencies.
  return useCallback((roles) => roleMay(role, roles), [role]);
}
