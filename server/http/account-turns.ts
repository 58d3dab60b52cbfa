// Turns of the event loop, shared out by account.
//
// Fair: requests used to run in the order they arrived, so an account with 32 connections got about
// 32 of every 33 turns, and another account's scanner on one connection went from a 0.4 ms GET to
// 15-25 ms (bench/NOTES.md). Here an authenticated request, once its account is known, starts at once
// only if nobody waits and no request has started since the loop's last check phase; otherwise it
// waits in its account's line, and at the check phase the lines are served in rotation. An account
// then waits behind about one request of each other busy account, however many connections they
// have. A turn is one request's work up to its first wait for I/O: the API's requests are bounded
// (50 barcodes, 50 rows, 500 movements), and the long reports read in stretches with a turn of the
// loop between them (store/movements-per-day.ts).
//
// Short: a request served at the check phase runs until it waits for I/O or ends, and the next one
// starts only while the turn has done less than TURN_BUDGET_MS of work; the rest wait for the next
// turn. libuv accepts one new connection per turn of the loop (libuv pull request 3696), and turns
// that ran every request that had arrived (20-50 ms at 32 connections) let a burst of new
// connections in one per turn, the last after a second or more. Serving several requests per turn
// keeps group commit's groups (store/group-commit.ts) as large as before. An idle server defers
// nothing.

import { FairQueue } from '../fair-queue.ts';

/** Work a turn may do before the next waiting request is left for a later turn. */
export const TURN_BUDGET_MS = 2;

export class AccountTurns {
  /** Requests waiting for their turn, a line per account: each starts its request. */
  private readonly queue = new FairQueue<() => void>();
  /** Whether a request has started since the last check phase. */
  private turnTaken = false;
  private tickScheduled = false;
  private readonly budgetMs: number;

  constructor(budgetMs = TURN_BUDGET_MS) {
    this.budgetMs = budgetMs;
  }

  /** Requests waiting for their turn (tests look at it). */
  get waiting(): number {
    return this.queue.size;
  }

  /** Runs `work` for `accountId` now or at its account's turn; the answer is `work`'s. */
  run<T>(accountId: number, work: () => Promise<T>): Promise<T> {
    if (this.queue.size === 0 && !this.turnTaken) {
      this.takeTurn();
      return work();
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push(accountId, () => {
        try {
          work().then(resolve, reject);
        } catch (error) {
          reject(error as Error);
        }
      });
      this.scheduleTick();
    });
  }

  private takeTurn(): void {
    this.turnTaken = true;
    this.scheduleTick();
  }

  private scheduleTick(): void {
    if (this.tickScheduled) return;
    this.tickScheduled = true;
    setImmediate(this.tick);
  }

  /** The check phase: a new turn begins, and the rotation is served for up to the budget. */
  private readonly tick = (): void => {
    this.tickScheduled = false;
    this.turnTaken = false;
    void this.serve(performance.now());
  };

  private async serve(began: number): Promise<void> {
    // At least one request a turn, however small the budget.
    for (let served = 0; this.queue.size > 0; served++) {
      if (served > 0 && performance.now() - began >= this.budgetMs) return this.takeTurn();
      this.queue.shift()!();
      await untilSettled();
    }
  }
}

/**
 * Resolves once the microtasks queued so far, and those they queue, have run: a request just
 * started has then done its work up to its first wait for I/O. A tick queued from a microtask runs
 * only after Node has emptied the microtask queue.
 */
function untilSettled(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}
