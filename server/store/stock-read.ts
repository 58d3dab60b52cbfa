// Reading stock: records for a list of barcodes in one query, and warehouse lists. This is the hot
// path of the read endpoint, so its statements are compiled once per list length and reused
// (db.prepared), and the ordering is done in JavaScript on a handful of rows per barcode: an
// ORDER BY here made SQLite build a temporary b-tree for every request (docs/BENCHMARKS.md).
import type { StockRecord, Warehouse } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Database } from './database.ts';
import { NO_WAREHOUSE } from './schema.ts';

export function listWarehouses(db: Database, account: Account): Warehouse[] {
  // Copied out of what db.kept holds, so a caller may change its list.
  return warehousesOf(db, account).map((w) => ({ ...w }));
}

/** The account's warehouses, kept until the database changes (most reads need them). Do not modify. */
function warehousesOf(db: Database, account: Account): readonly Warehouse[] {
  return db.kept(`warehouses:${account.id}`, () =>
    db
      .prepared('stock.warehouses', () => db.kysely.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', 0).orderBy('id'))
      .all(account.id),
  );
}

/** `n` placeholder barcodes, so one compiled statement serves every list of that length. */
const placeholders = (n: number): string[] => Array.from({ length: n }, () => '');

const byWarehouse = (a: StockRecord, b: StockRecord) => ((a as { warehouse: number }).warehouse ?? 0) - ((b as { warehouse: number }).warehouse ?? 0);

/**
 * Stock records of the given barcodes of one account, grouped by barcode, each group ordered by
 * warehouse id. Barcodes the account does not have are absent from the map.
 */
export function readStockRecords(db: Database, account: Account, barcodes: readonly string[]): Map<string, StockRecord[]> {
  const byBarcode = new Map<string, StockRecord[]>();
  if (barcodes.length === 0) return byBarcode;
  const n = barcodes.length;
  if (!account.warehousesEnabled) {
    const rows = db
      .prepared(`stock.read.plain.${n}`, () =>
        db.kysely
          .selectFrom('stock_units as u')
          .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'u.id').on('s.warehouse_id', '=', NO_WAREHOUSE))
          .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity'])
          .where('u.account_id', '=', 0)
          .where('u.barcode', 'in', placeholders(n)),
      )
      .all(NO_WAREHOUSE, account.id, ...barcodes);
    for (const row of rows) {
      byBarcode.set(row.barcode, [
        { item: row.item_id, liquid_stock: row.variant_id, barcode: row.barcode, quantity: row.quantity ?? 0 },
      ]);
    }
    return byBarcode;
  }

  const rows = db
    .prepared(`stock.read.warehouses.${n}`, () =>
      db.kysely
        .selectFrom('stock_units as u')
        .leftJoin('stock as s', 's.unit_id', 'u.id')
        .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
        .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity', 'w.id as warehouse_id', 'w.name as warehouse_name'])
        .where('u.account_id', '=', 0)
        .where('u.barcode', 'in', placeholders(n)),
    )
    .all(account.id, ...barcodes);
  let allWarehouses: readonly Warehouse[] | undefined;
  const withoutStock = new Map<string, { item_id: number; variant_id: number | null }>();
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
    } else {
      withoutStock.set(row.barcode, row);
    }
  }
  for (const [barcode, records] of byBarcode) {
    if (records.length > 1) records.sort(byWarehouse);
    else if (records.length === 0) {
      // A known barcode with no stock definition: one zero record per warehouse of the account.
      const unit = withoutStock.get(barcode)!;
      allWarehouses ??= warehousesOf(db, account);
      for (const warehouse of allWarehouses) {
        records.push({ item: unit.item_id, liquid_stock: unit.variant_id, barcode, quantity: 0, warehouse: warehouse.id, warehouse_name: warehouse.name });
      }
    }
  }
  return byBarcode;
}
