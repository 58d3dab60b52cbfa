// Background sync while the server runs (serve, npm start, the desktop app): one loop per linked
// account, a round every few seconds while the upstream answers, backing off (up to a minute) while
// it does not, never in the way of the local API. Links made or removed while it runs are picked up.
import type { Logger } from 'pino';
import type { Store } from '../store/store.ts';
import { roundsOf } from './rounds.ts';

export interface SyncLoopOptions {
  /** Between rounds while the upstream answers. */
  intervalMs?: number;
  /** The longest wait after failures (the wait doubles from intervalMs up to this). */
  maxBackoffMs?: number;
  logger?: Logger;
}

export const DEFAULT_SYNC_INTERVAL_MS = 5_000;
export const MAX_SYNC_BACKOFF_MS = 60_000;

export interface SyncLoops {
  /** Runs a round of every link now (after a local write, say), without waiting for the timer. */
  nudge(): void;
  /** Lets a round in progress finish, then stops. */
  stop(): Promise<void>;
}

export function startSyncLoops(store: Store, options: SyncLoopOptions = {}): SyncLoops {
  const intervalMs = options.intervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
  const maxBackoffMs = options.maxBackoffMs ?? MAX_SYNC_BACKOFF_MS;
  const failures = new Map<number, number>();
  // When each link's last round ended, on this process's monotonic clock. Not the link's
  // last_attempt_at: that is written with the store's clock, which may be moved (a test's skewed
  // instance) or may jump (NTP correcting a laptop's clock), and measuring the backoff across the two
  // clocks made the loop wait for their difference (an instance an hour ahead stopped syncing for an
  // hour after one failed round; one an hour behind never backed off).
  const roundEnds = new Map<number, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const rounds = roundsOf(store);
  // The link the loop is running a round of: its own rounds' success is handled where it awaits them.
  let current: number | undefined;
  // A round someone asked for (Sync now) that reached the upstream ends the backoff at once: the loop
  // would otherwise sleep out a minute of it with the upstream back and writes waiting.
  const unsubscribe = rounds.onSuccess((accountId) => {
    if (accountId === current || !failures.delete(accountId)) return;
    nudge();
  });
  const roundOfAll = async () => {
    const now = performance.now();
    let wait = intervalMs;
    for (const link of await store.sync.links()) {
      if (stopped) return wait;
      const failed = failures.get(link.accountId) ?? 0;
      const backoff = failed === 0 ? 0 : Math.min(maxBackoffMs, intervalMs * 2 ** (failed - 1));
      const lastEnd = roundEnds.get(link.accountId) ?? Number.NEGATIVE_INFINITY;
      if (failed > 0 && now - lastEnd < backoff) {
        wait = Math.min(wait, backoff - (now - lastEnd));
        continue;
      }
      current = link.accountId;
      try {
        const result = await rounds.run(link).round;
        failures.delete(link.accountId);
        if (result.pushed + result.pulled > 0 || result.catalogueCopied)
          options.logger?.info({ account: link.account, ...result }, 'sync round');
      } catch (error) {
        failures.set(link.accountId, failed + 1);
        options.logger?.warn({ account: link.account, err: (error as Error).message, failures: failed + 1 }, 'sync round failed');
        wait = Math.min(wait, Math.min(maxBackoffMs, intervalMs * 2 ** failed));
      }
      current = undefined;
      roundEnds.set(link.accountId, performance.now());
    }
    return wait;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };

  function run() {
    timer = undefined;
    running = roundOfAll()
      .catch((error: unknown) => {
        options.logger?.error({ err: error }, 'sync loop');
        return intervalMs;
      })
      .then((wait) => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(wait);
      });
  }

  function nudge() {
    if (stopped) return;
    if (running) again = true;
    else if (timer) {
      clearTimeout(timer);
      schedule(0);
    }
  }

  schedule(0);
  return {
    nudge,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
