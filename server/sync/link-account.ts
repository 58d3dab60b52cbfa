// Linking an account to an upstream (`barcode-inventory sync link`, docs/SYNC.md "Setting it up"):
// check that the token is the account's there, register this instance as a follower under its
// label, copy the account's catalogue (its own and nothing else), and record the link. The first
// round is the caller's to run.
import { badRequest } from '../errors.ts';
import { syncMessages } from '../../shared/index.ts';
import { parseCatalogue } from '../catalogue/import-catalogue.ts';
import type { Store } from '../store/store.ts';
import { defaultLabel, registerWith } from './sync-round.ts';
import { UpstreamClient } from './upstream-client.ts';

export interface LinkRequest {
  upstream: string;
  account: string;
  token: string;
  /** How the upstream names this instance (conflicts, histories); default: the machine's name. */
  label?: string | undefined;
}

/** Links `account` to `upstream`; returns the upstream's instance id. Nothing is written here when a check fails. */
export async function linkAccount(store: Store, request: LinkRequest): Promise<{ upstreamInstance: string }> {
  const client = new UpstreamClient(request.upstream, request.token);
  const state = await client.state();
  if (state.account !== request.account)
    throw badRequest(`The token is for account "${state.account}" on ${request.upstream}, not "${request.account}".`);
  const local = await store.accounts.find(request.account);
  if (local && local.warehousesEnabled !== state.warehouses_enabled) throw badRequest(syncMessages.scenarioDiffers(request.account));
  if (local) {
    const existing = await store.sync.linkOf(local);
    if (existing) throw badRequest(syncMessages.alreadyLinked(request.account, existing.upstreamUrl));
  }
  const label = request.label ?? defaultLabel();
  // Registered first: an upstream that refuses this instance (another token speaks for it) leaves
  // nothing half done here.
  const registered = await registerWith(client, await store.sync.instance(), label);
  const { version, catalogue } = await client.catalogue();
  await store.sync.writeUpstreamCatalogue(request.account, await parseCatalogue(catalogue), version);
  await store.sync.link(
    request.account,
    request.upstream,
    request.token,
    label,
    registered ? new Date(store.sync.now()).toISOString() : null,
  );
  return { upstreamInstance: state.instance };
}
