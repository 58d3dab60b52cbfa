// The account a request's work is done for, carried through its awaits, so that what it waits for
// deep in the store (a PostgreSQL connection: postgres/fair-connections.ts) can wait in that
// account's line. Set by the router once the token has named the account.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Work done for no account: group commits, the server's own upkeep. */
export const NO_ACCOUNT = 0;

const acting = new AsyncLocalStorage<number>();

export function actFor<T>(accountId: number, work: () => T): T {
  return acting.run(accountId, work);
}

export function actingAccount(): number {
  return acting.getStore() ?? NO_ACCOUNT;
}
