// The conflicts this instance has seen (docs/SYNC.md, "Conflicts"), listed with both sides and
// whether someone who saw both has recorded the quantity since. The movement log detects them as it
// applies movements; the rules are movements/fold.ts.
import type { Conflict, MovementKind, VersionVector } from '../../../shared/index.ts';
import type { Queries } from '../engine.ts';
import { ABSOLUTE_KINDS, isAbsolute, resolvesConflict } from '../movements/fold.ts';
import { parseHlc } from '../movements/hlc.ts';
import { NO_WAREHOUSE } from '../schema.ts';

export async function countOpenConflicts(q: Queries, accountId: number): Promise<number> {
  return (await listConflicts(q, accountId, 'open', 10_000)).length;
}

/**
 * The account's conflicts, newest first. One is resolved once a later set or count of the same unit
 * and warehouse was made by an instance that had seen both movements (resolvesConflict).
 */
export async function listConflicts(q: Queries, accountId: number, state: 'open' | 'all', limit: number): Promise<Conflict[]> {
  const rows = await q.all(
    q.k
      .selectFrom('stock_conflicts as c')
      .innerJoin('stock_units as u', 'u.id', 'c.unit_id')
      .leftJoin('warehouses as w', 'w.id', 'c.warehouse_id')
      .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'c.unit_id').onRef('s.warehouse_id', '=', 'c.warehouse_id'))
      .innerJoin('stock_history as l', (join) =>
        join.onRef('l.account_id', '=', 'c.account_id').onRef('l.origin', '=', 'c.later_origin').onRef('l.seq', '=', 'c.later_seq'),
      )
      .innerJoin('stock_history as e', (join) =>
        join.onRef('e.account_id', '=', 'c.account_id').onRef('e.origin', '=', 'c.earlier_origin').onRef('e.seq', '=', 'c.earlier_seq'),
      )
      .select([
        'c.id',
        'c.unit_id',
        'c.warehouse_id',
        'c.detected_at',
        'u.barcode',
        'u.item_id',
        'u.variant_id',
        'w.name as warehouse_name',
        's.quantity',
        'l.origin as l_origin',
        'l.seq as l_seq',
        'l.kind as l_kind',
        'l.value as l_value',
        'l.hlc as l_hlc',
        'l.source as l_source',
        'l.reference as l_reference',
        'e.origin as e_origin',
        'e.seq as e_seq',
        'e.kind as e_kind',
        'e.value as e_value',
        'e.hlc as e_hlc',
        'e.source as e_source',
        'e.reference as e_reference',
      ])
      .where('c.account_id', '=', accountId)
      .orderBy('c.id', 'desc'),
  );
  const conflicts: Conflict[] = [];
  for (const row of rows) {
    const resolved = await isResolved(
      q,
      row.unit_id,
      row.warehouse_id,
      { origin: row.l_origin, seq: row.l_seq, hlc: row.l_hlc },
      { origin: row.e_origin, seq: row.e_seq },
    );
    if (state === 'open' && resolved) continue;
    const side = (p: 'l' | 'e') => ({
      movement: `${row[`${p}_origin`]}-${row[`${p}_seq`]}`,
      kind: row[`${p}_kind`] as MovementKind,
      value: row[`${p}_value`],
      origin: row[`${p}_origin`],
      occurred_at: new Date(parseHlc(row[`${p}_hlc`])?.wall ?? 0).toISOString(),
      source: row[`${p}_source`],
      reference: row[`${p}_reference`],
    });
    conflicts.push({
      id: row.id,
      barcode: row.barcode,
      item: row.item_id,
      liquid_stock: row.variant_id,
      warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
      warehouse_name: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_name,
      later: side('l'),
      earlier: side('e'),
      racing: isAbsolute(row.e_kind),
      quantity: row.quantity ?? null,
      resolved,
      detected_at: row.detected_at,
    });
    if (conflicts.length >= limit) break;
  }
  return conflicts;
}

async function isResolved(
  q: Queries,
  unitId: number,
  warehouseId: number,
  later: { origin: string; seq: number; hlc: string },
  earlier: { origin: string; seq: number },
): Promise<boolean> {
  const candidates = await q.all(
    q.k
      .selectFrom('stock_history as h')
      .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
      .select(['h.origin', 'h.seq', 'v.body'])
      .where('h.unit_id', '=', unitId)
      .where('h.warehouse_id', '=', warehouseId)
      .where('h.hlc', '>', later.hlc)
      .where('h.kind', 'in', ABSOLUTE_KINDS),
  );
  return candidates.some((c) => resolvesConflict(c, c.body ? (JSON.parse(c.body) as VersionVector) : {}, later, earlier));
}
