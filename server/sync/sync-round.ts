// One round of sync of one linked account (docs/SYNC.md, "A round"): learn what the upstream holds
// and its clock, copy its catalogue when it moved, push what it does not hold (in batches, each
// applied there once), pull what is new there (each page applied here with the cursor, together),
// and write down how it went. Safe to cut at any point and to run again: nothing is applied twice.
import { MAX_MOVEMENTS_PER_BATCH, type VersionVector, syncMessages } from '../../shared/index.ts';
import { parseCatalogue } from '../catalogue/import-catalogue.ts';
import type { Link, Store } from '../store/store.ts';
import { UpstreamClient, UpstreamError } from './upstream-client.ts';

export interface RoundResult {
  pushed: number;
  pulled: number;
  catalogueCopied: boolean;
  /** The upstream's clock minus this one's. */
  clockSkewMs: number;
}

/** A push refused for a gap is retried from where the upstream says, this many times. */
const GAP_RETRIES = 3;

/** While a long push goes up, the link's record of what the upstream holds is written this often. */
const PROGRESS_EVERY_MS = 1000;

/** A promise awaited later, or dropped when what came before it failed: its failure is then nobody's to report. */
function dropSafely<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export async function syncRound(store: Store, link: Link, options: { timeoutMs?: number } = {}): Promise<RoundResult> {
  const client = new UpstreamClient(link.upstreamUrl, link.token, options.timeoutMs);
  const account = { id: link.accountId, name: link.account, warehousesEnabled: link.warehousesEnabled };
  // The upstream answered: the link is online again. Written while the first push is applied there
  // (or before the pull, when nothing is pushed), when this instance waits anyway.
  let reachable: string | undefined; // the upstream's instance, until written
  const recordReachable = async () => {
    const instance = reachable;
    reachable = undefined;
    if (instance !== undefined) await store.sync.recordReachable(account, instance);
  };
  try {
    const before = store.sync.now();
    const state = await client.state();
    const clockSkewMs = Math.round(state.now - (before + store.sync.now()) / 2);
    if (state.account !== link.account)
      throw new UpstreamError(400, `The token is for account "${state.account}" upstream, not "${link.account}".`);
    if (state.warehouses_enabled !== link.warehousesEnabled) throw new UpstreamError(400, syncMessages.scenarioDiffers(link.account));
    if (link.offlineSince !== null || link.upstreamInstance !== state.instance) reachable = state.instance;
    // A moment after a push is sent: this instance's reads and writes block it (better-sqlite3 is
    // synchronous), and the request is written a few turns of the event loop after the call. Done at
    // once, they held up the push being sent (4-8 ms a push, measured from both ends).
    const shortlyAfterSending = <T>(work: () => Promise<T>) => dropSafely(new Promise((resolve) => setTimeout(resolve, 1)).then(work));

    let catalogueCopied = false;
    if (state.catalogue_version !== link.catalogueVersion) {
      const { version, catalogue } = await client.catalogue();
      await store.sync.writeUpstreamCatalogue(link.account, await parseCatalogue(catalogue), version);
      catalogueCopied = true;
    }

    // Push: oldest first; the upstream's answer says what it holds from then on. The next batch is
    // read here while the upstream applies the one sent: this instance's reads are off the round's
    // path. Read before that answer, it may hold movements the answer says are there already: they
    // are left out when it is sent.
    let upstream: VersionVector = { ...state.vector };
    let pushed = 0;
    let progressAt = store.sync.now();
    const readAfter = (after: number) =>
      dropSafely(
        store.sync
          .pending(account, upstream, MAX_MOVEMENTS_PER_BATCH, after)
          .then((page) => ({ ...page, json: JSON.stringify({ movements: page.movements }) })), // written while the push before it waits, too
      );
    let next = readAfter(0);
    for (let retries = 0; ;) {
      const { movements: read, last, json } = await next;
      if (read.length === 0) break;
      const batch = read.filter((m) => m.seq > (upstream[m.origin] ?? 0));
      if (batch.length === 0) {
        next = readAfter(last);
        continue;
      }
      const sent = client.push(batch, batch.length === read.length ? json : undefined);
      const written = reachable !== undefined ? shortlyAfterSending(recordReachable) : undefined;
      next = shortlyAfterSending(() => readAfter(last));
      try {
        const answer = await sent;
        await written;
        pushed += answer.applied;
        upstream = answer.vector;
        // What is still waiting shows in the status while a long backlog goes up (written at most
        // once a second: each is a durable write of its own).
        if (store.sync.now() - progressAt >= PROGRESS_EVERY_MS) {
          await store.sync.setUpstreamVector(account, upstream);
          progressAt = store.sync.now();
        }
      } catch (error) {
        const resume =
          error instanceof UpstreamError && error.status === 409 ? (error.answer.resume as Record<string, number> | undefined) : undefined;
        if (!resume || ++retries > GAP_RETRIES) throw error;
        for (const [origin, seq] of Object.entries(resume)) upstream[origin] = seq - 1;
        next = readAfter(0); // resuming may go back before this batch
      }
    }
    await recordReachable();
    await store.sync.setUpstreamVector(account, upstream);

    // Pull: each page applied together with the cursor past it; what this instance holds (its own
    // movements just pushed, above all) is left out by the upstream.
    let cursor = link.pullCursor;
    let pulled = 0;
    const have = (await store.sync.state(account)).vector;
    for (;;) {
      const page = await client.pull(cursor, MAX_MOVEMENTS_PER_BATCH, have);
      if (page.movements.length > 0) {
        pulled += (await store.sync.applyPulled(account, page.movements, page.next_cursor)).applied;
        for (const m of page.movements) upstream[m.origin] = Math.max(upstream[m.origin] ?? 0, m.seq);
      }
      cursor = page.next_cursor;
      if (!page.more) break;
    }

    await store.sync.recordRound(account, {
      ok: true,
      at: new Date(store.sync.now()).toISOString(),
      upstreamInstance: state.instance,
      clockSkewMs,
      upstreamVector: upstream,
      pullCursor: cursor,
    });
    return { pushed, pulled, catalogueCopied, clockSkewMs };
  } catch (error) {
    await recordReachable().catch(() => undefined); // it did answer: offline from this failure, not from before
    await store.sync
      .recordRound(account, { ok: false, at: new Date(store.sync.now()).toISOString(), error: (error as Error).message })
      .catch(() => undefined);
    throw error;
  }
}
