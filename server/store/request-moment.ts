// One request sees the database as of when it began: on PostgreSQL, what engine.kept keeps is only
// used once the listener has heard every commit that ended before (postgres-engine.ts, heardSoFar).
// That costs a round trip on the listener; a request makes it once, not once per kept look-up (a GET
// of an account with warehouses keeps its token and its warehouse list).
import { AsyncLocalStorage } from 'node:async_hooks';

const requests = new AsyncLocalStorage<{ heard?: Promise<boolean> }>();

/** Runs one request's work: the kept look-ups within it share one wait for the listener. */
export function asOneRequest<T>(work: () => T): T {
  return requests.run({}, work);
}

/**
 * `hear()`'s answer, asked once per request: within asOneRequest the first call's wait serves the
 * calls after it (they come later, so what it heard is enough for them); outside it, every call waits.
 */
export function heardOncePerRequest(hear: () => Promise<boolean>): Promise<boolean> {
  const request = requests.getStore();
  if (request === undefined) return hear();
  return (request.heard ??= hear());
}
