// Wrong PINs are slowed per person, never locking out anyone else (docs/SECURITY.md, "People"): the
// first FREE_TRIES wrong PINs of a person cost nothing (typos happen), then each further try must wait
// a delay that doubles (5 s, 10 s, 20 s, … up to 15 minutes) after the last wrong one. Only that
// person's PIN is slowed: other people, badges (theirs too) and every token go on as before. A right
// PIN clears the count; wrong PINs are forgotten an hour after the last. Kept in memory per server
// process: a restart forgives, which costs a guesser a restart per few tries.
export const FREE_TRIES = 3;
const FIRST_DELAY_MS = 5_000;
const MAX_DELAY_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;

interface Failures {
  count: number;
  last: number;
}

export interface PinGuard {
  /** Milliseconds before the person's next PIN may be tried; 0 when it may be tried now. */
  wait(key: string, now?: number): number;
  failed(key: string, now?: number): void;
  succeeded(key: string): void;
}

export function delayAfter(count: number): number {
  if (count < FREE_TRIES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (count - FREE_TRIES));
}

export function createPinGuard(): PinGuard {
  const failures = new Map<string, Failures>();
  const current = (key: string, now: number) => {
    const entry = failures.get(key);
    if (entry && now - entry.last > FORGET_AFTER_MS) {
      failures.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    wait(key, now = Date.now()) {
      const entry = current(key, now);
      return entry ? Math.max(0, entry.last + delayAfter(entry.count) - now) : 0;
    },
    failed(key, now = Date.now()) {
      const entry = current(key, now);
      failures.set(key, { count: (entry?.count ?? 0) + 1, last: now });
      // Bounded memory: guesses at many people cannot grow the map without end.
      if (failures.size > 10_000) failures.delete(failures.keys().next().value!);
    },
    succeeded(key) {
      failures.delete(key);
    },
  };
}
