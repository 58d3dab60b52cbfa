// Reading the stock history: the movements of an account, newest first in fold (time) order,
// filtered by barcode, warehouse, source and time range, paged by timestamp. Each filter has an
// index of its own (migrations 0007_movements, 0032_movement_actors, 0035_hlc_keys), ending with the
// timestamp's order key, so a filter that matches nothing costs one index look-up, not a scan of the
// history.
import type { HistoryEntry, HistoryQuery, MovementKind } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { actorIdNamed, actorNameOf, sourceIdNamed, sourceNameOf } from './movements/movement-names.ts';
import { hlcFloor, hlcKey, parseHlc } from './movements/hlc.ts';
import { NO_WAREHOUSE } from './schema.ts';
import { instanceLabels } from './sync/instance-labels.ts';
import { before, newestFirst, timeBound } from './movements/time-order.ts';

export interface HistoryPageData {
  results: HistoryEntry[];
  /** Timestamp to continue before, or null when this was the last page. */
  nextCursor: string | null;
}

export async function readStockHistory(q: Queries, account: Account, query: HistoryQuery): Promise<HistoryPageData> {
  let select = q.k
    .selectFrom('stock_history as h')
    .innerJoin('stock_units as u', 'u.id', 'h.unit_id')
    .leftJoin('warehouses as w', 'w.id', 'h.warehouse_id')
    .select([
      'h.id',
      'u.barcode',
      'h.item_id',
      'h.variant_id',
      'h.warehouse_id',
      'w.name as warehouse_name',
      'h.origin',
      'h.seq',
      'h.kind',
      'h.value',
      'h.hlc',
      'h.old_quantity',
      'h.new_quantity',
      sourceNameOf('h').as('source'),
      'h.reason',
      'h.reference',
      'h.token_id',
      'h.created_ms',
      actorNameOf('h').as('actor'),
    ])
    .where('h.account_id', '=', account.id)
    .$call(newestFirst('h'))
    .limit(query.limit + 1);
  if (query.barcode !== undefined) {
    // The barcode's unit first: a barcode the account does not have matches nothing, at once.
    const unit = await q.first(
      q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', query.barcode),
    );
    if (!unit) return { results: [], nextCursor: null };
    select = select.where('h.unit_id', '=', unit.id);
  }
  if (query.warehouse !== undefined) select = select.where('h.warehouse_id', '=', query.warehouse);
  if (query.source !== undefined) select = select.where('h.source_id', '=', sourceIdNamed(query.source));
  if (query.actor !== undefined) select = select.where('h.actor_id', '=', actorIdNamed(query.actor));
  // A floor's key bounds exactly the timestamps at or after it; a cursor's key bounds its range, the
  // text cuts it (movements/hlc.ts, hlcKey).
  if (query.since !== undefined) select = select.where('h.hlc_key', '>=', hlcKey(hlcFloor(Date.parse(query.since))));
  if (query.until !== undefined) select = select.where('h.hlc_key', '<', hlcKey(hlcFloor(Date.parse(query.until))));
  if (query.cursor !== undefined) select = select.$call(before(timeBound(query.cursor), 'h'));
  const rows = await q.all(select);
  const page = rows.slice(0, query.limit);
  const labels = await instanceLabels(
    q,
    account.id,
    page.map((row) => row.origin),
  );
  return {
    results: page.map((row) => ({
      id: row.id,
      movement: `${row.origin}-${row.seq}`,
      origin: row.origin,
      origin_label: labels.get(row.origin) ?? null,
      kind: row.kind as MovementKind,
      value: row.value,
      barcode: row.barcode,
      item: row.item_id,
      liquid_stock: row.variant_id,
      warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
      warehouse_name: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_name,
      old_quantity: row.old_quantity,
      new_quantity: row.new_quantity,
      source: row.source,
      reason: row.reason,
      reference: row.reference,
      token: row.token_id,
      actor: row.actor,
      instance: row.origin,
      hlc: row.hlc,
      occurred_at: new Date(parseHlc(row.hlc)?.wall ?? 0).toISOString(),
      created_at: new Date(row.created_ms).toISOString(),
    })),
    nextCursor: rows.length > query.limit ? page.at(-1)!.hlc : null,
  };
}
