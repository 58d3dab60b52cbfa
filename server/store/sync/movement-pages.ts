// Pages of an account's movements in the order they were recorded here (their arrival), for a
// downstream instance's pull and for this instance's own push of what its upstream does not hold;
// and how many the upstream still lacks.
import type { MovementKind, SyncMovement, VersionVector } from '../../../shared/index.ts';
import type { ExpressionBuilder } from 'kysely';
import type { Queries } from '../engine.ts';
import { NO_WAREHOUSE, type StockHistoryTable } from '../schema.ts';

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
      'h.actor',
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
    source: row.source,
    reason: row.reason,
    reference: row.reference,
    created_at: row.created_at,
    // Who made it travels with it; a movement made before actors sends none (what older versions read).
    ...(row.actor !== null ? { actor: row.actor } : {}),
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
