// PostgreSQL's connections shared out by account. pg's pool hands out connections in the order they
// were asked for, so an account with 40 requests in flight held every connection and the queue
// behind them, and another account's request came back 37th-41st of 41 (test/api/account-fairness).
// Here a connection is asked for in the line of the account acting (acting-account.ts), at most the
// pool's size are out at once, and a connection given back goes to the next line in rotation. A wait
// longer than the pool's own connect timeout fails as the database being unavailable (a 503), as
// pg's would.
import { FairQueue } from '../../fair-queue.ts';

interface Waiter {
  /** Gives the waiter its connection; false when it has given up already. */
  grant(): boolean;
}

export class FairConnections {
  private free: number;
  private readonly queue = new FairQueue<Waiter>();
  private readonly timeoutMs: number;

  constructor(size: number, timeoutMs: number) {
    this.free = size;
    this.timeoutMs = timeoutMs;
  }

  /** Resolves when `accountId` may take a connection; `release` must follow once it is given back. */
  acquire(accountId: number): Promise<void> {
    if (this.free > 0 && this.queue.size === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      // Dropped once the wait has timed out: a waiter that gave up stays in its line until a
      // connection comes back, and during a long stall must not keep its request alive meanwhile.
      let waiting: (() => void) | undefined = resolve;
      const timer = setTimeout(() => {
        waiting = undefined;
        reject(Object.assign(new Error(`connection timeout: no connection came free within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      }, this.timeoutMs);
      this.queue.push(accountId, {
        grant: () => {
          if (!waiting) return false;
          clearTimeout(timer);
          waiting();
          return true;
        },
      });
    });
  }

  release(): void {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) if (next.grant()) return;
    this.free++;
  }
}
