// Pages of an account's movements in the order they were recorded here (their arrival), for a
// downstream instance's pull and for this instance's own push of what its upstream does not hold;
// and how many the upstream still lacks.
import {
  CREATED_AT_PATTERN,
  MOVEMENT_SOURCES,
  type MovementKind,
  REASON_PATTERN,
  type SyncMovement,
  type VersionVector,
  withoutUnsafeCharacters,
} from '../../../shared/index.ts';
import type { ExpressionBuilder } from 'kysely';
import type { Queries } from '../engine.ts';
import { parseHlc } from '../movements/hlc.ts';
import { NO_WAREHOUSE, type StockHistoryTable } from '../schema.ts';

const sources = new Set<string>(MOVEMENT_SOURCES);

/**
 * A stored movement's text as a push or a page may carry it. What this version records always
 * passes; a movement another instance pushed before pushed text was checked (docs/SYNC.md, "Pushed
 * text") may hold text the receiver now refuses, and would stop every round that sends it: its
 * reference is sent without control or text-direction characters, a reason that is not a short code
 * as none, a `source` of none of this version's as `api` (such a movement came in through the API's
 * push), and a `created_at` not written as the server writes it as the time of its timestamp.
 */
function sendable(row: { source: string; reason: string | null; reference: string | null; created_at: string; hlc: string }) {
  return {
    source: (sources.has(row.source) ? row.source : 'api') as SyncMovement['source'],
    reason: row.reason === null || REASON_PATTERN.test(row.reason) ? row.reason : null,
    reference: row.reference === null ? null : withoutUnsafeCharacters(row.reference),
    created_at: CREATED_AT_PATTERN.test(row.created_at) ? row.created_at : new Date(parseHlc(row.hlc)?.wall ?? 0).toISOString(),
  };
}

/** Every origin's movements past what `upstream` holds of it (all of an origin it has none of). */
function notHeldBy(eb: ExpressionBuilder<{ h: StockHistoryTable }, 'h'>, upstream: VersionVector) {
  const known = Object.entries(upstream);
  return eb.or([
    ...known.map(([origin, seq]) => eb.and([eb('h.origin', '=', origin), eb('h.seq', '>', seq)])),
    ...(known.length > 0
      ? [
          eb(
            'h.origin',
            'not in',
            known.map(([origin]) => origin),
          ),
        ]
      : [eb.lit(true)]),
  ]);
}

/** A page of the account's movements in the order they were recorded here, after `after`. */
export async function readMovements(
  q: Queries,
  accountId: number,
  where: { after?: number; pending?: VersionVector },
  limit: number,
): Promise<(SyncMovement & { arrival: number })[]> {
  let query = q.k
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
      'h.source',
      'h.reason',
      'h.reference',
      'h.created_at',
    ])
    .where('h.account_id', '=', accountId)
    .orderBy('h.id')
    .limit(limit);
  if (where.after !== undefined) query = query.where('h.id', '>', where.after);
  const { pending } = where;
  if (pending !== undefined) query = query.where((eb) => notHeldBy(eb, pending));
  // Movements of one batch mostly carry the same seen vector: each text is parsed once.
  const vectors = new Map<string, VersionVector>();
  const parsed = (body: string) => {
    let vector = vectors.get(body);
    if (!vector) vectors.set(body, (vector = JSON.parse(body) as VersionVector));
    return vector;
  };
  return (await q.all(query)).map((row) => ({
    arrival: row.id,
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
  }));
}

/** The arrival number of the account's newest movement here (0 without any). */
export async function lastArrival(q: Queries, accountId: number): Promise<number> {
  const row = await q.first(
    q.k
      .selectFrom('stock_history')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('account_id', '=', accountId),
  );
  return Number(row?.id ?? 0);
}

/** How many of the account's movements the upstream does not hold yet. */
export async function countPending(q: Queries, accountId: number, upstream: VersionVector): Promise<number> {
  const row = await q.first(
    q.k
      .selectFrom('stock_history as h')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('h.account_id', '=', accountId)
      .where((eb) => notHeldBy(eb, upstream)),
  );
  return Number(row?.n ?? 0);
}
