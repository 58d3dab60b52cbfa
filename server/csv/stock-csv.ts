// Stock of an account as CSV, in the same columns the CSV catalogue import reads, so an export can be
// edited and imported back. One row per stock definition; a barcode with none gets one row with an
// empty warehouse and quantity (only when the whole account is exported).
import { stringify } from 'csv-stringify/sync';
import type { Account } from '../store/accounts.ts';
import type { Database } from '../store/database.ts';
import { NO_WAREHOUSE } from '../store/schema.ts';

export const CATALOGUE_CSV_COLUMNS = ['item_id', 'item_name', 'variant_id', 'variant_name', 'barcode', 'warehouse', 'quantity'] as const;

export class ExportError extends Error {}

/** The stock CSV of an account; `warehouseName` narrows it to one warehouse (warehouse scenario). */
export function stockCsv(db: Database, account: Account, warehouseName?: string): string {
  let warehouseId: number | undefined;
  if (warehouseName !== undefined) {
    if (!account.warehousesEnabled) throw new ExportError(`Account "${account.name}" has no warehouses.`);
    const warehouse = db.first(
      db.kysely.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('name', '=', warehouseName),
    );
    if (!warehouse) throw new ExportError(`No warehouses found with name: ${warehouseName}`);
    warehouseId = warehouse.id;
  }
  let query = db.kysely
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
  const rows = db.all(query).map((row) => [
    row.item_id,
    row.item_name,
    row.variant_id ?? '',
    row.variant_name ?? '',
    row.barcode,
    row.warehouse_id === null || row.warehouse_id === NO_WAREHOUSE ? '' : (row.warehouse_name ?? ''),
    row.quantity ?? '',
  ]);
  return stringify(rows, { header: true, columns: [...CATALOGUE_CSV_COLUMNS] });
}
