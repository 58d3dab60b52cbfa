// The rows of a stock export: one per stock definition of an account (or of one of its warehouses),
// with names, in item order; a barcode with none gets one row without warehouse and quantity (only
// when the whole account is exported). CSV formatting is server/csv/stock-csv.ts.
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';

export interface ExportRow {
  item_id: number;
  item_name: string;
  variant_id: number | null;
  variant_name: string | null;
  barcode: string;
  /** null for the single figure of an account without warehouses, and for a barcode without stock. */
  warehouse: string | null;
  quantity: number | null;
}

export async function readStockExport(q: Queries, account: Account, warehouseName?: string): Promise<ExportRow[]> {
  let warehouseId: number | undefined;
  if (warehouseName !== undefined) {
    if (!account.warehousesEnabled) throw badRequest(`Account "${account.name}" has no warehouses.`);
    const warehouse = await q.first(q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('name', '=', warehouseName));
    if (!warehouse) throw badRequest(`No warehouses found with name: ${warehouseName}`);
    warehouseId = warehouse.id;
  }
  let query = q.k
    .selectFrom('stock_units as u')
    .innerJoin('items as i', 'i.id', 'u.item_id')
    .leftJoin('variants as v', 'v.id', 'u.variant_id')
    .leftJoin('stock as s', 's.unit_id', 'u.id')
    .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
    .select(['u.item_id', 'i.name as item_name', 'u.variant_id', 'v.name as variant_name', 'u.barcode', 's.warehouse_id', 'w.name as warehouse_name', 's.quantity'])
    .where('u.account_id', '=', account.id)
    .orderBy('u.item_id')
    .orderBy('u.variant_id')
    .orderBy('s.warehouse_id');
  if (warehouseId !== undefined) query = query.where('s.warehouse_id', '=', warehouseId);
  return (await q.all(query)).map((row) => ({
    item_id: row.item_id,
    item_name: row.item_name,
    variant_id: row.variant_id,
    variant_name: row.variant_name,
    barcode: row.barcode,
    warehouse: row.warehouse_id === null || row.warehouse_id === NO_WAREHOUSE ? null : (row.warehouse_name ?? null),
    quantity: row.quantity ?? null,
  }));
}
