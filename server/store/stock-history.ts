// Reading the stock history: newest first, filtered by barcode, warehouse, source and time range,
// paged by id (a cursor that stays correct while new changes are appended).
import type { HistoryEntry, HistoryQuery } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';

export interface HistoryPageData {
  results: HistoryEntry[];
  /** Id to continue after, or null when this was the last page. */
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
      'h.old_quantity',
      'h.new_quantity',
      'h.source',
      'h.reason',
      'h.reference',
      'h.token_id',
      'h.created_at',
    ])
    .where('h.account_id', '=', account.id)
    .orderBy('h.id', 'desc')
    .limit(query.limit + 1);
  if (query.barcode !== undefined) select = select.where('u.barcode', '=', query.barcode);
  if (query.warehouse !== undefined) select = select.where('h.warehouse_id', '=', query.warehouse);
  if (query.source !== undefined) select = select.where('h.source', '=', query.source);
  // Stored instants are ISO 8601 UTC with milliseconds: normalise the bounds so text order is time order.
  if (query.since !== undefined) select = select.where('h.created_at', '>=', new Date(query.since).toISOString());
  if (query.until !== undefined) select = select.where('h.created_at', '<', new Date(query.until).toISOString());
  if (query.cursor !== undefined) select = select.where('h.id', '<', Number(query.cursor));
  const rows = await q.all(select);
  const page = rows.slice(0, query.limit);
  return {
    results: page.map((row) => ({
      id: row.id,
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
      created_at: row.created_at,
    })),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.id) : null,
  };
}
