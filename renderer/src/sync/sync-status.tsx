// The link's status (GET sync/status), read once per signed-in session and shared by every view: the
// indicator in the top bar and the sync view. Read again every 3 s while the account follows an
// upstream or has conflicts (every 30 s otherwise), after each write of stock this device makes, and when the page
// comes back into view; never while the page is hidden. Only reading: nothing here touches the focus
// or the scan capture.
import { type ReactNode, createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { SyncNowAnswer, SyncStatus } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { readStored, writeStored } from '../common/device-storage.ts';

/** How often the status is read while the page is shown and the account follows an upstream: one small request, cheap for the server. */
export const SYNC_POLL_MS = 3_000;
/** How often while nothing is shown (no link, no conflict): only conflicts brought by followers could appear, and they are rare. */
export const UNLINKED_POLL_MS = 30_000;

export interface SyncState {
  /** The last answer, or null before the first. */
  status: SyncStatus | null;
  /** Whether the account followed an upstream at the last answer on this device: the indicator keeps its place while loading. */
  wasLinked: boolean;
  /** Reads the status now (after a conflict was resolved, say). */
  refresh(): void;
  /** Runs a round of sync now (Sync now) and shows the status it ends with. */
  syncNow(): Promise<SyncNowAnswer>;
}

const SyncContext = createContext<SyncState | null>(null);

const linkedKey = (account: string) => `sync-linked.${account}`;

/** Whether the indicator shows at all: a link, or conflicts to decide on (an upstream has those too). */
export const showsIndicator = (status: SyncStatus): boolean => status.linked || status.conflicts > 0;

export function SyncStatusProvider({ children }: { children: ReactNode }) {
  const { client, account } = useSession();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const wasLinked = readStored(linkedKey(account.account)) === 'yes';
  const timer = useRef<number | undefined>(undefined);
  const inFlight = useRef(false);
  const again = useRef(false);
  const active = useRef(true);
  const shown = useRef(true);

  const read = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    client
      .syncStatus()
      .then(
        (next) => {
          // The same answer again changes nothing on screen: no render every few seconds while scanning.
          setStatus((prev) => (prev !== null && JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
          shown.current = showsIndicator(next);
          writeStored(linkedKey(account.account), showsIndicator(next) ? 'yes' : null);
        },
        () => undefined, // the server is away: the other views say so; the last status stays shown
      )
      .finally(() => {
        inFlight.current = false;
        if (!active.current) return;
        if (again.current) {
          again.current = false;
          read();
        } else if (document.visibilityState !== 'hidden')
          timer.current = window.setTimeout(read, shown.current ? SYNC_POLL_MS : UNLINKED_POLL_MS);
      });
  }, [client, account.account]);

  useEffect(() => {
    active.current = true;
    setStatus(null); // another account's status is not this one's
    read();
    const unsubscribe = client.onStockWritten(read);
    const onVisible = () => {
      if (document.visibilityState !== 'hidden' && timer.current === undefined && !inFlight.current) read();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active.current = false;
      unsubscribe();
      document.removeEventListener('visibilitychange', onVisible);
      window.clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [client, read]);

  const syncNow = useCallback(async () => {
    const answer = await client.syncNow();
    setStatus(answer.status);
    return answer;
  }, [client]);

  return <SyncContext.Provider value={{ status, wasLinked, refresh: read, syncNow }}>{children}</SyncContext.Provider>;
}

export function useSyncStatus(): SyncState {
  const state = useContext(SyncContext);
  if (!state) throw new Error('useSyncStatus() outside SyncStatusProvider');
  return state;
}
