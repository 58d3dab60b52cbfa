// How every view reaches the server: the signed-in session (its client and account) is provided once
// at the top of the signed-in screens, and views take it with useSession().
import { type ReactNode, createContext, useContext } from 'react';
import type { AccountInfo } from '../../../shared/index.ts';
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
