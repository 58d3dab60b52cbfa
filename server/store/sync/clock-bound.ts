// How far a batch of another instance's movements may move this instance's clock (docs/SYNC.md,
// "Clocks"). A movement stamped ahead of this wall clock (up to MAX_CLOCK_AHEAD_MS: another machine's
// clock is fast) is applied at its stamp, but what this instance records next is stamped at most
// MAX_CLOCK_DRAG_MS past its own wall clock: one push stamped a day ahead stamped every later local
// movement, here and wherever it spread, with tomorrow's date.
import { MAX_CLOCK_DRAG_MS } from '../../../shared/index.ts';
import type { Hlc } from '../movements/hlc.ts';

/** The timestamp the clock moves past after seeing `seen`: `seen`, or the latest this wall clock lets it drag to. */
export function draggedAtMost(seen: Hlc, now: number): Hlc {
  const limit = now + MAX_CLOCK_DRAG_MS;
  return seen.wall <= limit ? seen : { wall: limit, counter: 0, instance: seen.instance };
}
