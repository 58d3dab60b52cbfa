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
  };
}

export async function listLinks(q: Queries): Promise<Link[]> {
  return (await q.all(selectLinks(q).orderBy('l.account_id'))).map(toLink);
}

export async function linkOfAccount(q: Queries, accountId: number): Promise<Link | undefined> {
  const row = await q.first(selectLinks(q).where('l.account_id', '=', accountId));
  return row && toLink(row);
}

export async function createLink(q: Queries, accountId: number, upstreamUrl: string, token: string, at: string): Promise<void> {
  await q.run(q.k.insertInto('sync_links').values({ account_id: accountId, upstream_url: upstreamUrl, token, linked_at: at }));
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
        catalogueVersion?: number;
      }
    | { ok: false; error: string }
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
    : { last_attempt_at: round.at, last_error: round.error.slice(0, 500) };
  await q.run(q.k.updateTable('sync_links').set(update).where('account_id', '=', accountId));
  if (round.ok && round.pullCursor !== undefined) await advanceLink(q, accountId, round.pullCursor);
  if (!round.ok) {
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
  await q.run(
    q.k.updateTable('sync_links').set({ offline_since: null, upstream_instance: upstreamInstance }).where('account_id', '=', accountId),
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
  const pending = await countPending(q, account.id, link.upstreamVector);
  const skew = link.clockSkewMs;
  const warning = skew !== null && Math.abs(skew) > CLOCK_WARNING_MS ? syncMessages.clockWarning(skew) : null;
  const state = link.offlineSince !== null ? 'offline' : link.lastSuccessAt === null ? 'waiting' : pending > 0 ? 'waiting' : 'in_sync';
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
