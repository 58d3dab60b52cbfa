// One round of sync of one linked account (docs/SYNC.md, "A round"): learn what the upstream holds
// and its clock, copy its catalogue when it moved, push what it does not hold (in batches, each
// applied there once), pull what is new there (each page applied here with the cursor, together),
// and write down how it went. Safe to cut at any point and to run again: nothing is applied twice.
import { hostname } from 'node:os';
import {
  MAX_BODY_BYTES,
  MAX_FOLLOWER_LABEL_LENGTH,
  MAX_MOVEMENTS_PER_BATCH,
  type PushAnswer,
  type SyncMovement,
  type VersionVector,
  syncMessages,
} from '../../shared/index.ts';
import { parseCatalogue } from '../catalogue/import-catalogue.ts';
import type { Link, Store } from '../store/store.ts';
import { isApiError } from '../errors.ts';
import { RoundProblem, problemOf } from './round-problem.ts';
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

/** The label a follower registers with when its owner chose none: the machine's name. */
export function defaultLabel(): string {
  return hostname().slice(0, MAX_FOLLOWER_LABEL_LENGTH) || 'barcode-inventory';
}

/** How the upstream is named in what a round says. */
export const upstreamName = (url: string) => `The upstream ${url}`;

/**
 * Registers this instance with the upstream as a follower of the account (`sync link` does it first;
 * a link made by an earlier version does it at its next round). An upstream of an earlier version has
 * no registration (404): the round goes on, and asks again next time.
 */
export async function registerWith(client: UpstreamClient, instance: string, label: string): Promise<boolean> {
  try {
    await client.register(instance, label);
    return true;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return false;
    throw error;
  }
}

/**
 * The largest push body sent: under what an upstream reads (MAX_BODY_BYTES), with room to spare. A
 * batch of sets whose seen vectors name thousands of origins passes it; one movement never does (an
 * account has at most MAX_ORIGINS_PER_ACCOUNT origins: a vector of them is about half a megabyte).
 */
const MAX_PUSH_BYTES = (MAX_BODY_BYTES * 3) / 4;

/** Pushes `batch` (`json`: its body, already written) in one request, or in parts that fit MAX_PUSH_BYTES one after the other. */
async function pushInParts(client: UpstreamClient, batch: readonly SyncMovement[], json?: string): Promise<PushAnswer> {
  const body = json ?? JSON.stringify({ movements: batch });
  if (Buffer.byteLength(body) <= MAX_PUSH_BYTES) return client.push(batch, body);
  const answer: PushAnswer = { applied: 0, duplicates: 0, vector: {}, now: 0 };
  let part: SyncMovement[] = [];
  let bytes = 0;
  const send = async () => {
    const partAnswer = await client.push(part);
    answer.applied += partAnswer.applied;
    answer.duplicates += partAnswer.duplicates;
    Object.assign(answer.vector, partAnswer.vector);
    answer.now = partAnswer.now;
    part = [];
    bytes = 0;
  };
  for (const movement of batch) {
    const size = Buffer.byteLength(JSON.stringify(movement)) + 1;
    if (part.length > 0 && bytes + size > MAX_PUSH_BYTES) await send();
    part.push(movement);
    bytes += size;
  }
  if (part.length > 0) await send();
  return answer;
}

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
      throw new RoundProblem('wrong_account', `The token is for account "${state.account}" upstream, not "${link.account}".`);
    if (state.warehouses_enabled !== link.warehousesEnabled)
      throw new RoundProblem('wrong_account', syncMessages.scenarioDiffers(link.account));
    if (link.offlineSince !== null || link.upstreamInstance !== state.instance) reachable = state.instance;
    // Read after the state answered: whatever of this instance's own the upstream holds, this
    // instance made before that (the push is its only way there).
    const own = await store.sync.ownHighest(account);
    const register = async () => {
      if (await registerWith(client, own.instance, link.label ?? defaultLabel())) await store.sync.recordRegistered(account);
    };
    if (link.registeredAt === null) await register();
    // Movements said to be made here that this instance never made: someone pushed with its id.
    // Except in a link's first round, which takes them (a database restored from a backup).
    const takeOwn = link.lastSuccessAt === null;
    const claimed = state.vector[own.instance] ?? 0;
    if (claimed > own.seq && !takeOwn)
      throw new RoundProblem(
        'forged_own_movements',
        syncMessages.forgedOwnMovements(upstreamName(link.upstreamUrl), claimed - own.seq, own.instance),
      );
    // A moment after a push is sent: this instance's reads and writes block it (better-sqlite3 is
    // synchronous), and the request is written a few turns of the event loop after the call. Done at
    // once, they held up the push being sent (4-8 ms a push, measured from both ends).
    const shortlyAfterSending = <T>(work: () => Promise<T>) => dropSafely(new Promise((resolve) => setTimeout(resolve, 1)).then(work));

    let catalogueCopied = false;
    if (state.catalogue_version !== link.catalogueVersion) {
      const { version, catalogue } = await client.catalogue();
      try {
        await store.sync.writeUpstreamCatalogue(link.account, await parseCatalogue(catalogue), version);
      } catch (error) {
        // A document naming other accounts (the store's 502): nothing of it was written.
        if (isApiError(error) && error.status === 502) throw new RoundProblem('wrong_account', error.message);
        throw error;
      }
      catalogueCopied = true;
    }

    // Push: oldest first; the upstream's answer says what it holds from then on. The next batch is
    // read here while the upstream applies the one sent: this instance's reads are off the round's
    // path. Read before that answer, it may hold movements the answer says are there already: they
    // are left out when it is sent.
    // Reading starts at the link's push cursor: everything recorded here before it is held upstream.
    const upstream: VersionVector = { ...state.vector };
    let pushed = 0;
    const pushedOrigins = new Set<string>();
    let examined = link.pushCursor; // every movement recorded here up to it is held upstream
    // The cursor stops where the last push ended, so what the pulls brought after it (a whole history
    // after `sync link`: a million movements at a chain's head office, 2,000 pages) would be read
    // again page by page, all of it held upstream: start where the first movement it lacks arrived.
    examined = Math.max(examined, await store.sync.heldUpstreamUpTo(account, upstream));
    let registeredAgain = false;
    let progressAt = store.sync.now();
    const readAfter = (after: number) =>
      dropSafely(
        store.sync
          .pending(account, upstream, MAX_MOVEMENTS_PER_BATCH, after)
          .then((page) => ({ ...page, from: after, json: JSON.stringify({ movements: page.movements }) })), // written while the push before it waits, too
      );
    let next = readAfter(examined);
    for (let retries = 0; ;) {
      const { movements: read, last, from, json } = await next;
      if (last === from) break; // nothing recorded after it
      const batch = read.filter((m) => m.seq > (upstream[m.origin] ?? 0));
      if (batch.length === 0) {
        examined = last;
        next = readAfter(last);
        continue;
      }
      const sent = pushInParts(client, batch, batch.length === read.length ? json : undefined);
      const written = reachable !== undefined ? shortlyAfterSending(recordReachable) : undefined;
      next = shortlyAfterSending(() => readAfter(last));
      try {
        const answer = await sent;
        await written;
        pushed += answer.applied;
        // The answer names the batch's origins: merged into what the state said of the others.
        Object.assign(upstream, answer.vector);
        for (const m of batch) pushedOrigins.add(m.origin);
        examined = last;
        // What is still waiting shows in the status while a long backlog goes up (written at most
        // once a second: each is a durable write of its own).
        if (store.sync.now() - progressAt >= PROGRESS_EVERY_MS) {
          await store.sync.setUpstreamVector(account, upstream);
          progressAt = store.sync.now();
        }
      } catch (error) {
        // An upstream that lost this registration (its database replaced): register again, once.
        if (error instanceof UpstreamError && error.answer.code === 'follower_not_registered' && !registeredAgain) {
          registeredAgain = true;
          await register();
          next = readAfter(examined);
          continue;
        }
        const resume =
          error instanceof UpstreamError && error.status === 409 ? (error.answer.resume as Record<string, number> | undefined) : undefined;
        if (!resume || ++retries > GAP_RETRIES) throw error;
        for (const [origin, seq] of Object.entries(resume)) upstream[origin] = seq - 1;
        // Resuming may go back before this batch, even before the push cursor (an upstream restored
        // from a backup): from where the first movement it lacks arrived here.
        examined = Math.min(examined, await store.sync.arrivalBefore(account, resume));
        next = readAfter(examined);
      }
    }
    await recordReachable();
    await store.sync.setUpstreamVector(account, upstream);

    // Pull: each page applied together with the cursor past it; what this instance holds (its own
    // movements just pushed, above all) is left out by the upstream.
    let cursor = link.pullCursor;
    let pulled = 0;
    const have = (await store.sync.state(account)).vector;
    const first = [own.instance, ...pushedOrigins];
    for (;;) {
      const page = await client.pull(cursor, MAX_MOVEMENTS_PER_BATCH, have, first);
      if (page.movements.length > 0) {
        pulled += (
          await store.sync.applyPulled(account, page.movements, page.next_cursor, { upstreamName: upstreamName(link.upstreamUrl), takeOwn })
        ).applied;
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
      pushCursor: examined,
    });
    return { pushed, pulled, catalogueCopied, clockSkewMs };
  } catch (error) {
    await recordReachable().catch(() => undefined); // it did answer: offline from this failure, not from before
    await store.sync
      .recordRound(account, {
        ok: false,
        at: new Date(store.sync.now()).toISOString(),
        error: (error as Error).message,
        code: problemOf(error),
        unreachable: error instanceof UpstreamError && error.status === 0,
      })
      .catch(() => undefined);
    throw error;
  }
}
