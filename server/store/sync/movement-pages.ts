// Pages of an account's movements in the order they were recorded here (their arrival), for a
// downstream instance's pull and for this instance's own push of what its upstream does not hold;
// and how many the upstream still lacks. No query grows with the number of origins: pages are read
// by arrival id alone, and what the other side holds is left out here, in JavaScript (an OR term per
// origin made SQLite refuse the query at about 1,000 origins: "Expression tree is too large").
import {
  MOVEMENT_SOURCES,
  type MovementKind,
  REASON_PATTERN,
  type SyncMovement,
  type VersionVector,
  withoutUnsafeCharacters,
} from '../../../shared/index.ts';
import { type Queries, inList } from '../engine.ts';
import { SOURCE_IDS, actorNameOf } from '../movements/movement-names.ts';
import { NO_WAREHOUSE } from '../schema.ts';
import { heldVector } from './held-vector.ts';

/** Whether the other side lacks `movement`, by what it holds (`held`: highest sequence per origin). */
export const notHeldBy = (held: VersionVector) => (movement: { origin: string; seq: number }) =>
  movement.seq > (held[movement.origin] ?? 0);

/** This version's source names by their ids (movements/movement-names.ts). */
const sourceNames = new Map<number, SyncMovement['source']>(MOVEMENT_SOURCES.map((name) => [SOURCE_IDS[name], name]));

/**
 * A stored movement's text as a push or a page may carry it. What this version records always
 * passes; a movement another instance pushed before pushed text was checked (docs/SYNC.md, "Pushed
 * text") may hold text the receiver now refuses, and would stop every round that sends it: its
 * reference is sent without control or text-direction characters, a reason that is not a short code
 * as none, and a `source` of none of this version's as `api` (such a movement came in through the
 * API's push). Its `created_at` is sent as the server writes times (migration 0037 made older text
 * its timestamp's time).
 */
function sendable(row: { source_id: number; reason: string | null; reference: string | null; created_ms: number }) {
  return {
    source: sourceNames.get(row.source_id) ?? 'api',
    reason: row.reason === null || REASON_PATTERN.test(row.reason) ? row.reason : null,
    reference: row.reference === null ? null : withoutUnsafeCharacters(row.reference),
    created_at: new Date(row.created_ms).toISOString(),
  };
}

/** The account's movements of the arrival ids `ids`, in the order they were recorded here. */
async function readMovements(
  q: Queries,
  accountId: number,
  ids: readonly number[],
): Promise<(SyncMovement & { arrival: number; bytes: number })[]> {
  const query = q.k
    .selectFrom('stock_history as h')
    .innerJoin('stock_units as u', 'u.id', 'h.unit_id')
    .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
    .select([
      'h.id',
      'h.origin',
      'h.seq',
      'h.kind',
      'h.value',
      'h.hlc',
      'h.item_id',
      'h.variant_id',
      'h.warehouse_id',
      'u.barcode',
      'v.body as seen',
      'h.source_id',
      'h.reason',
      'h.reference',
      'h.created_ms',
      actorNameOf('h').as('actor'),
    ])
    .where('h.account_id', '=', accountId)
    .where('h.id', 'in', inList(ids))
    .orderBy('h.id');
  // Movements of one batch mostly carry the same seen vector: each text is parsed once.
  const vectors = new Map<string, VersionVector>();
  const parsed = (body: string) => {
    let vector = vectors.get(body);
    if (!vector) vectors.set(body, (vector = JSON.parse(body) as VersionVector));
    return vector;
  };
  return (await q.all(query)).map((row) => ({
    arrival: row.id,
    // About as long as its JSON: the fields but the vector take at most a few hundred bytes.
    bytes: MOVEMENT_BYTES + (row.seen?.length ?? 0),
    id: `${row.origin}-${row.seq}`,
    origin: row.origin,
    seq: row.seq,
    kind: row.kind as MovementKind,
    value: row.value,
    hlc: row.hlc,
    item: row.item_id,
    liquid_stock: row.variant_id,
    warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
    barcode: row.barcode,
    seen: row.seen ? parsed(row.seen) : null,
    ...sendable(row),
    // Who made it travels with it; a movement made before actors sends none (what older versions read).
    ...(row.actor !== null ? { actor: row.actor } : {}),
  }));
}

/** A movement's JSON without its seen vector, at most (ids, stamps, a barcode and a reference at their longest). */
const MOVEMENT_BYTES = 1024;
/**
 * The most a pull's page carries, about: a page of 500 sets whose seen vectors name thousands of
 * origins each would pass what a follower reads (upstream-client.ts, MAX_ANSWER_BYTES); it then
 * holds fewer movements, and `more` says the rest follows.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/** How many arrival ids a page's scan reads per statement. */
const SCAN_CHUNK = 2_000;
/**
 * The most movements a page looks at: what the other side holds is passed over by a scan of ids,
 * origins and sequences alone, so that a follower coming back with thousands of its own movements
 * pulls them past in a few requests instead of one empty page per 500. It bounds a request's cost
 * whatever the caller says it holds, at about what a page of 500 read whole costs: a pull holds the
 * server no longer than it did before (bench/NOTES.md, "The pull passes over what the follower holds").
 */
export const MAX_SCANNED_PER_PAGE = 5_000;

/**
 * A page of the account's movements recorded here after `after` that the other side does not hold
 * (`held`: its highest sequence per origin), at most `limit` of them and about MAX_PAGE_BYTES, in
 * arrival order: a pull's page (`held`, what the caller says it has) and the next batch of a push
 * (what the upstream holds). `next_cursor` moves past everything the page covered, sent or held;
 * `more` says whether movements were recorded after it. Found by a narrow scan of at most
 * MAX_SCANNED_PER_PAGE arrivals, then read whole only for those in the page.
 */
export async function readNotHeld(
  q: Queries,
  accountId: number,
  after: number,
  limit: number,
  held: VersionVector = {},
): Promise<{ movements: SyncMovement[]; next_cursor: number; more: boolean }> {
  const lacks = notHeldBy(held);
  const wanted: number[] = [];
  let covered = after;
  let scanned = 0;
  let more = false;
  scan: for (;;) {
    const chunk = Math.min(SCAN_CHUNK, MAX_SCANNED_PER_PAGE - scanned + 1);
    const rows = await q.all(
      q.k
        .selectFrom('stock_history')
        .select(['id', 'origin', 'seq'])
        .where('account_id', '=', accountId)
        .where('id', '>', covered)
        .orderBy('id')
        .limit(chunk),
    );
    for (const row of rows) {
      // One row past the page, or past the scan's bound: there is more, the page ends before it.
      const sent = lacks(row);
      if ((sent && wanted.length === limit) || scanned === MAX_SCANNED_PER_PAGE) {
        more = true;
        break scan;
      }
      if (sent) wanted.push(row.id);
      covered = row.id;
      scanned++;
    }
    if (rows.length < chunk) break; // the end of what is recorded
  }
  if (wanted.length === 0) return { movements: [], next_cursor: covered, more };
  const movements: SyncMovement[] = [];
  let bytes = 0;
  for (const { arrival, bytes: size, ...movement } of await readMovements(q, accountId, wanted)) {
    if (movements.length > 0 && bytes + size > MAX_PAGE_BYTES) {
      // The rest waits for the next page, from just before this one.
      return { movements, next_cursor: arrival - 1, more: true };
    }
    movements.push(movement);
    bytes += size;
  }
  return { movements, next_cursor: covered, more };
}

/**
 * How many of the account's movements the upstream does not hold yet: of those recorded here after
 * the link's push cursor (everything up to it is held upstream), per origin. An origin's movements
 * after an arrival id are a run of its sequence without gaps (each origin's are applied in order),
 * so its count is its highest there less what the upstream holds of it, or of the run's start.
 */
export async function countPending(q: Queries, accountId: number, upstream: VersionVector, pushCursor: number): Promise<number> {
  const rows = await q.all(
    q.k
      .selectFrom('stock_history')
      .select((eb) => ['origin', eb.fn.min('seq').as('low'), eb.fn.max('seq').as('high')])
      .where('account_id', '=', accountId)
      .where('id', '>', pushCursor)
      .groupBy('origin'),
  );
  let pending = 0;
  for (const row of rows) pending += Math.max(0, Number(row.high) - Math.max(upstream[row.origin] ?? 0, Number(row.low) - 1));
  return pending;
}

/**
 * Just before the earliest arrival here of the movements named (`{origin: seq}`): where a push resumes
 * when the upstream lacks them (0 when one is not held here).
 */
export async function arrivalBefore(q: Queries, accountId: number, movements: Record<string, number>): Promise<number> {
  let before = Number.MAX_SAFE_INTEGER;
  for (const [origin, seq] of Object.entries(movements)) {
    const row = await q.first(
      q.k.selectFrom('stock_history').select('id').where('account_id', '=', accountId).where('origin', '=', origin).where('seq', '=', seq),
    );
    before = Math.min(before, row ? row.id - 1 : 0);
  }
  return before === Number.MAX_SAFE_INTEGER ? 0 : before;
}

/**
 * The arrival id up to which everything recorded here is held by the upstream (`upstream`: its highest
 * sequence per origin), found by sequence rather than by reading pages: each origin's movements arrive
 * here in sequence, so nothing recorded before the first movement the upstream lacks of any origin is
 * lacking; when it lacks nothing, everything recorded here is held. The last arrival is read before
 * what is held, so a movement recorded between the two reads shows as lacking (writes are one at a
 * time on both engines: ids are taken in commit order). 0 when a lacking movement is not found here.
 */
export async function heldUpstreamUpTo(q: Queries, accountId: number, upstream: VersionVector): Promise<number> {
  const last = await q.first(
    q.k
      .selectFrom('stock_history')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('account_id', '=', accountId),
  );
  const lacking: Record<string, number> = {};
  for (const [origin, seq] of Object.entries(await heldVector(q, accountId)))
    if (seq > (upstream[origin] ?? 0)) lacking[origin] = (upstream[origin] ?? 0) + 1;
  return Object.keys(lacking).length === 0 ? Number(last?.id ?? 0) : arrivalBefore(q, accountId, lacking);
}
