// Reading stock: records for a list of barcodes in a constant number of queries, and warehouse lists.
import type { StockRecord, Warehouse } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Database } from './database.ts';
import { NO_WAREHOUSE } from './schema.ts';

export function listWarehouses(db: Database, account: Account): Warehouse[] {
  return db.all(
    db.kysely.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id).orderBy('id'),
  );
}

/**
 * Stock records of the given barcodes of one account, grouped by barcode, each group ordered by
 * warehouse id. Barcodes the account does not have are absent from the map.
 */
export function readStockRecords(db: Database, account: Account, barcodes: readonly string[]): Map<string, StockRecord[]> {
  const byBarcode = new Map<string, StockRecord[]>();
  if (barcodes.length === 0) return byBarcode;
  if (!account.warehousesEnabled) {
    const rows = db.all(
      db.kysely
        .selectFrom('stock_units as u')
        .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'u.id').on('s.warehouse_id', '=', NO_WAREHOUSE))
        .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity'])
        .where('u.account_id', '=', account.id)
        .where('u.barcode', 'in', barcodes),
    );
    for (const row of rows) {
      byBarcode.set(row.barcode, [
        { item: row.item_id, liquid_stock: row.variant_id, barcode: row.barcode, quantity: row.quantity ?? 0 },
      ]);
    }
    return byBarcode;
  }

  const rows = db.all(
    db.kysely
      .selectFrom('stock_units as u')
      .leftJoin('stock as s', 's.unit_id', 'u.id')
      .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
      .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity', 'w.id as warehouse_id', 'w.name as warehouse_name'])
      .where('u.account_id', '=', account.id)
      .where('u.barcode', 'in', barcodes)
      .orderBy('w.id'),
  );
  let allWarehouses: Warehouse[] | undefined;
  for (const row of rows) {
    let records = byBarcode.get(row.barcode);
    if (!records) byBarcode.set(row.barcode, (records = []));
    if (row.warehouse_id !== null && row.warehouse_name !== null) {
      records.push({
        item: row.item_id,
        liquid_stock: row.variant_id,
        barcode: row.barcode,
        quantity: row.quantity ?? 0,
        warehouse: row.warehouse_id,
        warehouse_name: row.warehouse_name,
      });
    } else if (records.length === 0) {
      // A known barcode with no stock definition: one zero record per warehouse of the account.
      allWarehouses ??= listWarehouses(db, account);
      for (const warehouse of allWarehouses) {
        records.push({
          item: row.item_id,
          liquid_stock: row.variant_id,
          barcode: row.barcode,
          quantity: 0,
          warehouse: warehouse.id,
          warehouse_name: warehouse.name,
        });
      }
    }
  }
  return byBarcode;
}
