// The account a request's work is done for, carried through its awaits, so that what it waits for
// deep in the store (a PostgreSQL connection: postgres/fair-connections.ts) can wait in that
// account's line. Set by the router once the token has named the account; before that, the token's
// look-up waits in a line of the token's or of its client's (tokens.ts, TokenLines).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/** Work done for no account: group commits, the server's own upkeep. */
export const NO_ACCOUNT = 0;

const acting = new AsyncLocalStorage<number>();

/**
 * The line of a token's look-up, made before any account is known (tokens.ts, TokenLines): one per
 * token, so that the look-ups of one account's burst do not hold up another's in arrival order.
 * Negative, never an account's id; two keys that share a line only share their turns.
 */
export function tokenLine(tokenHash: string): number {
  return -1 - Number.parseInt(tokenHash.slice(0, 12), 16);
}

/** The line of look-ups of tokens a client presents that were never seen valid: one per client. */
export function clientLine(client: string): number {
  return tokenLine(createHash('sha256').update(`client ${client}`).digest('hex'));
}

export function actFor<T>(accountId: number, work: () => T): T {
  return acting.run(accountId, work);
}

export function actingAccount(): number {
  return acting.getStore() ?? NO_ACCOUNT;
}
