// Links: this instance following an upstream (docs/SYNC.md, "Setting it up"): the link of an account,
// what each round learnt or how it failed, the pull cursor, and the status the CLI, the API and the
// scanner UI show.
import { CLOCK_WARNING_MS, type SyncStatus, type VersionVector, syncMessages } from '../../../shared/index.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import { countOpenConflicts } from './conflicts.ts';
import { instanceId } from './held-vector.ts';
import { countPending } from './movement-pages.ts';

export interface Link {
  accountId: number;
  account: string;
  warehousesEnabled: boolean;
  upstreamUrl: string;
  token: string;
  upstreamInstance: string | null;
  pullCursor: number;
  catalogueVersion: number | null;
  linkedAt: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  offlineSince: string | null;
  clockSkewMs: number | null;
  upstreamVector: VersionVector;
  /** The label this instance registers with upstream; null: the machine's hostname. */
  label: string | null;
  /** When the upstream took the registration; null: the next round registers first. */
  registeredAt: string | null;
  /** The arrival id here up to which the upstream holds every movement. */
  pushCursor: number;
}

function selectLinks(q: Queries) {
  return q.k
    .selectFrom('sync_links as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select([
      'l.account_id',
      'a.name',
      'a.warehouses_enabled',
      'l.upstream_url',
      'l.token',
      'l.upstream_instance',
      'l.pull_cursor',
      'l.catalogue_version',
      'l.linked_at',
      'l.last_attempt_at',
      'l.last_success_at',
      'l.last_error',
      'l.offline_since',
      'l.clock_skew_ms',
      'l.upstream_vector',
      'l.label',
      'l.registered_at',
      'l.push_cursor',
    ]);
}

function toLink(row: Awaited<ReturnType<ReturnType<typeof selectLinks>['execute']>>[number]): Link {
  return {
    accountId: row.account_id,
    account: row.name,
    warehousesEnabled: row.warehouses_enabled === 1,
    upstreamUrl: row.upstream_url,
    token: row.token,
    upstreamInstance: row.upstream_instance,
    pullCursor: row.pull_cursor,
    catalogueVersion: row.catalogue_version,
    linkedAt: row.linked_at,
    lastAttemptAt: row.last_attempt_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    offlineSince: row.offline_since,
    clockSkewMs: row.clock_skew_ms,
    upstreamVector: row.upstream_vector ? (JSON.parse(row.upstream_vector) as VersionVector) : {},
    label: row.label,
    registeredAt: row.registered_at,
    pushCursor: row.push_cursor,
  };
}

export async function listLinks(q: Queries): Promise<Link[]> {
  return (await q.all(selectLinks(q).orderBy('l.account_id'))).map(toLink);
}

export async function linkOfAccount(q: Queries, accountId: number): Promise<Link | undefined> {
  const row = await q.first(selectLinks(q).where('l.account_id', '=', accountId));
  return row && toLink(row);
}

export async function createLink(
  q: Queries,
  accountId: number,
  link: { upstreamUrl: string; token: string; label: string | null; registeredAt: string | null },
  at: string,
): Promise<void> {
  await q.run(
    q.k.insertInto('sync_links').values({
      account_id: accountId,
      upstream_url: link.upstreamUrl,
      token: link.token,
      label: link.label,
      registered_at: link.registeredAt,
      linked_at: at,
    }),
  );
}

/** The upstream took this instance's registration (a link made by an earlier version registers at its next round). */
export async function recordRegistered(q: Queries, accountId: number, at: string): Promise<void> {
  await q.run(q.k.updateTable('sync_links').set({ registered_at: at }).where('account_id', '=', accountId));
}

export async function removeLink(q: Queries, accountId: number): Promise<boolean> {
  return (await q.run(q.k.deleteFrom('sync_links').where('account_id', '=', accountId))).changes === 1;
}

/** What a round learnt or how it failed, written on the link. */
export async function recordRound(
  q: Queries,
  accountId: number,
  round: { at: string } & (
    | {
        ok: true;
        upstreamInstance: string;
        clockSkewMs: number;
        upstreamVector: VersionVector;
        pullCursor?: number;
        /** Everything recorded here up to this arrival id is held upstream (the push read that far). */
        pushCursor?: number;
        catalogueVersion?: number;
      }
    /** `unreachable`: the upstream did not answer (offline); otherwise it answered, or this side failed (an error). */
    | { ok: false; error: string; unreachable: boolean }
  ),
): Promise<void> {
  const update = round.ok
    ? {
        last_attempt_at: round.at,
        last_success_at: round.at,
        last_error: null,
        offline_since: null,
        upstream_instance: round.upstreamInstance,
        clock_skew_ms: round.clockSkewMs,
        upstream_vector: JSON.stringify(round.upstreamVector),
        ...(round.catalogueVersion !== undefined ? { catalogue_version: round.catalogueVersion } : {}),
      }
    : { last_attempt_at: round.at, last_error: round.error.slice(0, 500), ...(round.unreachable ? {} : { offline_since: null }) };
  await q.run(q.k.updateTable('sync_links').set(update).where('account_id', '=', accountId));
  if (round.ok && round.pullCursor !== undefined) await advanceLink(q, accountId, round.pullCursor);
  if (round.ok && round.pushCursor !== undefined)
    await q.run(
      q.k
        .updateTable('sync_links')
        .set({ push_cursor: round.pushCursor })
        .where('account_id', '=', accountId)
        .where('push_cursor', '<', round.pushCursor),
    );
  if (!round.ok && round.unreachable) {
    await q.run(
      q.k.updateTable('sync_links').set({ offline_since: round.at }).where('account_id', '=', accountId).where('offline_since', 'is', null),
    );
  }
}

/**
 * The upstream answered at the start of a round: the link is no longer offline, even while the round
 * still pushes and pulls (a long backlog then shows as movements waiting, not as offline).
 */
export async function recordReachable(q: Queries, accountId: number, upstreamInstance: string): Promise<void> {
  await q.run(q.k.updateTable('sync_links').set({ upstream_instance: upstreamInstance }).where('account_id', '=', accountId));
  // The error that made it offline was that it did not answer: no longer true. (Another error stays
  // until a round succeeds.)
  await q.run(
    q.k
      .updateTable('sync_links')
      .set({ offline_since: null, last_error: null })
      .where('account_id', '=', accountId)
      .where('offline_since', 'is not', null),
  );
}

/**
 * Moves a link's pull cursor forward (never back: two rounds may run at once, `sync now` beside the
 * background loop), in the transaction that applied the page, or with the round's record when the
 * pages held nothing new.
 */
export async function advanceLink(q: Queries, accountId: number, pullCursor: number): Promise<void> {
  await q.run(
    q.k
      .updateTable('sync_links')
      .set({ pull_cursor: pullCursor })
      .where('account_id', '=', accountId)
      .where('pull_cursor', '<', pullCursor),
  );
}

export async function setUpstreamVector(q: Queries, accountId: number, vector: VersionVector): Promise<void> {
  await q.run(
    q.k
      .updateTable('sync_links')
      .set({ upstream_vector: JSON.stringify(vector) })
      .where('account_id', '=', accountId),
  );
}

export async function linkStatus(q: Queries, account: Account, now: number): Promise<SyncStatus> {
  const conflicts = await countOpenConflicts(q, account.id);
  const link = await linkOfAccount(q, account.id);
  const instance = await instanceId(q);
  if (!link) {
    return {
      linked: false,
      instance,
      upstream: null,
      upstream_instance: null,
      state: 'unlinked',
      last_success_at: null,
      offline_since: null,
      last_error: null,
      pending: 0,
      conflicts,
      clock_skew_ms: null,
      clock_warning: null,
    };
  }
  const pending = await countPending(q, account.id, link.upstreamVector, link.pushCursor);
  const skew = link.clockSkewMs;
  const warning = skew !== null && Math.abs(skew) > CLOCK_WARNING_MS ? syncMessages.clockWarning(skew) : null;
  // A failed round whose upstream answered (a refusal, forged movements of this instance) is an error
  // until a round succeeds: the upstream is there, so "offline" would send the reader to the network.
  const state =
    link.offlineSince !== null
      ? 'offline'
      : link.lastError !== null
        ? 'error'
        : link.lastSuccessAt === null
          ? 'waiting'
          : pending > 0
            ? 'waiting'
            : 'in_sync';
  void now;
  return {
    linked: true,
    instance,
    upstream: link.upstreamUrl,
    upstream_instance: link.upstreamInstance,
    state,
    last_success_at: link.lastSuccessAt,
    offline_since: link.offlineSince,
    last_error: link.lastError,
    pending,
    conflicts,
    clock_skew_ms: skew,
    clock_warning: warning,
  };
}
