// Conflicts as groups (docs/SYNC.md, "Conflicts"). A conflict was a pair of movements, one row for
// every earlier movement a set or count had not seen: 500 sets of two instances racing on one unit
// stored 62,501 rows, and listing them checked each with a query of its own. Now a set or count is
// judged against what it overrode (the set or count before it and the adjusts since), and the
// conflicting ones of a place form groups, one row each, open until a set or count made having seen
// all of a group's members. The rules are movements/fold.ts; this migration recomputes the groups of
// every place that had pairs from its history with them (a place without pairs has no group: every
// conflicting movement of the new rule was the later one of some pair), then drops the pairs.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { type SeenVector, type WalkMovement, conflictGroups } from '../movements/fold.ts';
import { autoId, bytewiseText } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('stock_conflict_groups')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('unit_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('first_origin', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'integer', (c) => c.notNull())
    .addColumn('first_hlc', bytewiseText(needs), (c) => c.notNull())
    .addColumn('last_origin', 'text', (c) => c.notNull())
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .addColumn('earlier_origin', 'text', (c) => c.notNull())
    .addColumn('earlier_seq', 'integer', (c) => c.notNull())
    .addColumn('movements', 'integer', (c) => c.notNull())
    .addColumn('racing', 'integer', (c) => c.notNull())
    .addColumn('members', 'text', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('resolved_origin', 'text')
    .addColumn('resolved_seq', 'integer')
    .addColumn('resolved_hlc', bytewiseText(needs))
    .addColumn('detected_at', 'text', (c) => c.notNull())
    .execute();
  // A movement is the first of at most one group.
  await db.schema
    .createIndex('stock_conflict_groups_first')
    .unique()
    .on('stock_conflict_groups')
    .columns(['account_id', 'first_origin', 'first_seq'])
    .execute();
  // A place's groups in time order: the one open at a point, those from there on.
  await db.schema
    .createIndex('stock_conflict_groups_place')
    .on('stock_conflict_groups')
    .columns(['unit_id', 'warehouse_id', 'first_hlc'])
    .execute();
  // The account's open groups newest first (the list, the status's count), and all of them.
  await db.schema.createIndex('stock_conflict_groups_open').on('stock_conflict_groups').columns(['account_id', 'open', 'id']).execute();
  await db.schema.createIndex('stock_conflict_groups_account').on('stock_conflict_groups').columns(['account_id', 'id']).execute();
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce('stock_conflict_groups')`.execute(db);

  const places = await db
    .selectFrom('stock_conflicts as c')
    .innerJoin('stock_history as l', (join) =>
      join.onRef('l.account_id', '=', 'c.account_id').onRef('l.origin', '=', 'c.later_origin').onRef('l.seq', '=', 'c.later_seq'),
    )
    .select(['c.account_id', 'c.unit_id', 'c.warehouse_id', 'l.hlc', 'c.detected_at'])
    .orderBy('c.unit_id')
    .orderBy('c.warehouse_id')
    .execute();
  const detected = new Map<string, { accountId: number; unitId: number; warehouseId: number; pairs: { hlc: string; at: string }[] }>();
  for (const row of places) {
    const key = `${row.unit_id}/${row.warehouse_id}`;
    let place = detected.get(key);
    if (!place) detected.set(key, (place = { accountId: row.account_id, unitId: row.unit_id, warehouseId: row.warehouse_id, pairs: [] }));
    place.pairs.push({ hlc: row.hlc, at: row.detected_at });
  }
  const now = new Date().toISOString();
  for (const place of detected.values()) {
    const history: (WalkMovement & { seen: SeenVector })[] = (
      await db
        .selectFrom('stock_history as h')
        .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
        .select(['h.origin', 'h.seq', 'h.kind', 'h.hlc', 'v.body'])
        .where('h.unit_id', '=', place.unitId)
        .where('h.warehouse_id', '=', place.warehouseId)
        .orderBy('h.hlc')
        .execute()
    ).map((row) => ({ origin: row.origin, seq: row.seq, kind: row.kind, hlc: row.hlc, seen: row.body ? JSON.parse(row.body) : {} }));
    for (const group of conflictGroups(history, (m) => m.seen)) {
      // When it was first seen here: the earliest pair whose later movement the group holds.
      const pairs = place.pairs
        .filter((p) => p.hlc >= group.first.hlc && (!group.resolvedBy || p.hlc < group.resolvedBy.hlc))
        .map((p) => p.at);
      await db
        .insertInto('stock_conflict_groups')
        .values({
          account_id: place.accountId,
          unit_id: place.unitId,
          warehouse_id: place.warehouseId,
          first_origin: group.first.origin,
          first_seq: group.first.seq,
          first_hlc: group.first.hlc,
          last_origin: group.last.origin,
          last_seq: group.last.seq,
          earlier_origin: group.earlier.origin,
          earlier_seq: group.earlier.seq,
          movements: group.movements,
          racing: group.racing ? 1 : 0,
          members: JSON.stringify(group.members),
          open: group.resolvedBy ? 0 : 1,
          resolved_origin: group.resolvedBy?.origin ?? null,
          resolved_seq: group.resolvedBy?.seq ?? null,
          resolved_hlc: group.resolvedBy?.hlc ?? null,
          detected_at: pairs.length > 0 ? pairs.reduce((a, b) => (a < b ? a : b)) : now,
        })
        .execute();
    }
  }
  await db.schema.dropTable('stock_conflicts').execute();
}
