// Instances that follow one another, for the sync tests: real servers on temporary databases, linked
// the way `barcode-inventory sync link` links them, with rounds run on demand (no background loop).
import type { Account, Link, Store } from '../../server/store/store.ts';
import { linkAccount } from '../../server/sync/link-account.ts';
import { type RoundResult, syncRound } from '../../server/sync/sync-round.ts';
import { type TestServer, startTestServer } from './test-server.ts';

export interface Follower {
  server: TestServer;
  account: Account;
  /** A manager's token of the account on this instance, for its own API. */
  token: string;
  /** A sync token of the account on this instance: what an instance following this one links with. */
  syncToken: string;
  link(): Promise<Link>;
  round(): Promise<RoundResult>;
}

/** Starts an empty instance and makes `accountName` follow `upstream` with `upstreamToken` (of role sync there), as `sync link` does. */
export async function follow(
  upstream: Pick<TestServer, 'url'>,
  upstreamToken: string,
  accountName: string,
  server?: TestServer,
  label?: string,
): Promise<Follower> {
  const instance = server ?? (await startTestServer({ accounts: [] }));
  await linkStore(instance.store, upstream.url, upstreamToken, accountName, label);
  const account = (await instance.store.accounts.find(accountName))!;
  const token = (await instance.store.tokens.create(accountName, 'sync test', 'manager')).key;
  const syncToken = (await instance.store.tokens.create(accountName, 'sync test link', 'sync')).key;
  const link = async () => (await instance.store.sync.linkOf(account))!;
  return { server: instance, account, token, syncToken, link, round: async () => syncRound(instance.store, await link()) };
}

/** Links as `sync link` does (registration, catalogue, link), without its first round. */
export async function linkStore(store: Store, upstreamUrl: string, token: string, accountName: string, label?: string): Promise<void> {
  await linkAccount(store, { upstream: upstreamUrl, account: accountName, token, label });
}
