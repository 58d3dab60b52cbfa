// Short turns of the event loop (issue 30, the GET stalls). libuv accepts one new connection per
// turn of the loop (libuv pull request 3696), and a turn used to run every request whose bytes had
// arrived in it: under load from 32 connections a turn took 20-50 ms, so a burst of new
// connections got in one per turn, the last after a second or more, before the server had read a
// byte of its request (GET at 32 connections: p99 5-15x its p50; the server's own time for the
// same requests stayed under 60 ms). Here a request that would start after TURN_BUDGET_MS of work
// in the current stretch of the loop waits for a later one, in arrival order, so the loop comes
// back to accept (and to read) every few milliseconds. An idle server defers nothing.
import type { Middleware } from 'koa';

export const TURN_BUDGET_MS = 2;

let stretchStarted: number | undefined;

/** Milliseconds of work since this stretch of the loop began; a stretch ends at the next check phase. */
function spentThisStretch(): number {
  const now = performance.now();
  if (stretchStarted === undefined) {
    stretchStarted = now;
    setImmediate(() => {
      stretchStarted = undefined;
    });
  }
  return now - stretchStarted;
}

const laterTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function turnBudget(budgetMs = TURN_BUDGET_MS): Middleware {
  return async (_ctx, next) => {
    while (spentThisStretch() >= budgetMs) await laterTurn();
    await next();
  };
}
