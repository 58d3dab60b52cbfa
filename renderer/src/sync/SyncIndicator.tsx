// The sync state at a glance, in the top bar of every view while the account follows an upstream:
// in sync / N waiting / offline since … / conflicts / the clock. A link to the sync view (status and
// conflicts). It only shows what it read: it takes no focus and no keys. It has a row of its own at the
// bottom of the bar, one line high, so a longer or shorter state never moves anything else, and the bar
// at 1280 px keeps its one row of controls; while the first status is on its way the row is kept on a
// device that saw the account linked before, so the page does not jump when it arrives.
import { formatSince } from '../common/format.ts';
import { syncTexts } from '../common/texts.ts';
import { SYNC_HREF } from './sync-route.ts';
import { showsIndicator, useSyncStatus } from './sync-status.tsx';
import type { SyncStatus } from '../../../shared/index.ts';

/** The indicator's few words for the state of the link (empty when the account follows no upstream). */
export function stateWords(status: SyncStatus): string {
  switch (status.state) {
    case 'in_sync':
      return syncTexts.inSync;
    case 'waiting':
      return status.pending > 0 ? syncTexts.waitingCount(status.pending) : syncTexts.catchingUp;
    case 'offline':
    case 'error': {
      const since = status.offline_since ? syncTexts.offlineSince(formatSince(status.offline_since)) : syncTexts.problem;
      return status.pending > 0 ? `${since} · ${syncTexts.alsoWaiting(status.pending)}` : since;
    }
    case 'unlinked':
      return '';
  }
}

/** ok (in sync), busy (sending), off (cannot reach the upstream), warn (a decision or the clock). */
export function toneOf(status: SyncStatus): 'ok' | 'busy' | 'off' | 'warn' {
  if (status.conflicts > 0 || status.clock_warning) return 'warn';
  if (status.state === 'in_sync') return 'ok';
  if (status.state === 'offline' || status.state === 'error') return 'off';
  return 'busy';
}

export function SyncIndicator({ current }: { current: boolean }) {
  const { status, wasLinked } = useSyncStatus();
  if (status === null) return wasLinked ? <div className="sync-row" aria-hidden="true" /> : null;
  if (!showsIndicator(status)) return null;
  const summary = syncTexts.summary(status, status.state === 'offline' && status.offline_since ? formatSince(status.offline_since) : null);
  const words = stateWords(status);
  return (
    <div className="sync-row">
      <a
        href={SYNC_HREF}
        className={`sync-indicator sync-${toneOf(status)}`}
        title={summary}
        aria-current={current ? 'page' : undefined}
        data-testid="sync-indicator"
        data-state={status.state}
        data-pending={status.pending}
        data-conflicts={status.conflicts}
      >
        <span className="sync-dot" aria-hidden="true" />
        {words ? <span className="sync-words">{words}</span> : null}
        {status.conflicts > 0 ? <span className="sync-flag">{syncTexts.conflicts(status.conflicts)}</span> : null}
        {status.clock_warning ? <span className="sync-flag">{syncTexts.checkClock}</span> : null}
      </a>
    </div>
  );
}
