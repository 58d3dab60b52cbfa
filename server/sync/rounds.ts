// The rounds a server process runs, at most one at a time per linked account: the background loop's
// and those a person asks for (the scanner UI's Sync now, POST /api/v1/sync/now/) go through here, so
// a press while a round runs waits for that round instead of starting a second one beside it. (`sync
// now` in another process runs its own round; two rounds at once are safe, only wasteful: docs/SYNC.md.)
import type { Link, Store } from '../store/store.ts';
import { type RoundResult, syncRound } from './sync-round.ts';

export interface Rounds {
  /** Runs a round of `link` now, or joins the one running (`joined`); its promise settles when that round ends. */
  run(link: Link): { round: Promise<RoundResult>; joined: boolean };
  /** Calls `listener` with the account of every round that ends well; returns the unsubscribe. */
  onSuccess(listener: (accountId: number) => void): () => void;
}

const ofStore = new WeakMap<Store, Rounds>();

/** The rounds of `store` in this process (one set per open store, shared by the loop and the API). */
export function roundsOf(store: Store): Rounds {
  let rounds = ofStore.get(store);
  if (!rounds) ofStore.set(store, (rounds = createRounds(store)));
  return rounds;
}

function createRounds(store: Store): Rounds {
  const running = new Map<number, Promise<RoundResult>>();
  const listeners = new Set<(accountId: number) => void>();
  return {
    run(link) {
      const current = running.get(link.accountId);
      if (current) return { round: current, joined: true };
      const round = syncRound(store, link)
        .then((result) => {
          for (const listener of listeners) listener(link.accountId);
          return result;
        })
        .finally(() => running.delete(link.accountId));
      running.set(link.accountId, round);
      return { round, joined: false };
    },
    onSuccess(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
