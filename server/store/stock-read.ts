// Reading stock: records for a list of barcodes in one query, and warehouse lists. This is the hot
// path of the read endpoint, so its statements are compiled once per list length and reused, and
// the ordering is done in JavaScript on a handful of rows per barcode: an ORDER BY here made SQLite
// build a temporary b-tree for every request (docs/BENCHMARKS.md).
import type { StockRecord, Warehouse } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import { type Engine, type Param, type Queries, statement } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';

const warehousesOfAccount = statement('stock.warehouses', (k, p: Param<{ accountId: number }>) =>
  k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', p('accountId')).orderBy('id'),
);

/** The account's warehouses, kept until the database changes (most reads need them). Do not modify. */
export function warehousesOf(engine: Engine, account: Account): Promise<readonly Warehouse[]> {
  return engine.kept(`warehouses:${account.id}`, (q) => q.all(warehousesOfAccount, { accountId: account.id }));
}

export async function listWarehouses(engine: Engine, account: Account): Promise<Warehouse[]> {
  // Copied out of what engine.kept holds, so a caller may change its list.
  return (await warehousesOf(engine, account)).map((w) => ({ ...w }));
}

const plainRecords = statement('stock.read.plain', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units as u')
    .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'u.id').on('s.warehouse_id', '=', NO_WAREHOUSE))
    .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity'])
    .where('u.account_id', '=', p('accountId'))
    .where('u.barcode', 'in', p.list('barcodes')),
);

const warehouseRecords = statement('stock.read.warehouses', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units as u')
    .leftJoin('stock as s', 's.unit_id', 'u.id')
    .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
    .select(['u.barcode', 'u.item_id', 'u.variant_id', 's.quantity', 'w.id as warehouse_id', 'w.name as warehouse_name'])
    .where('u.account_id', '=', p('accountId'))
    .where('u.barcode', 'in', p.list('barcodes')),
);

const byWarehouse = (a: StockRecord, b: StockRecord) => ((a as { warehouse: number }).warehouse ?? 0) - ((b as { warehouse: number }).warehouse ?? 0);

/**
 * Stock records of the given barcodes of one account, grouped by barcode, each group ordered by
 * warehouse id. Barcodes the account does not have are absent from the map.
 */
export async function readStockRecords(
  q: Queries,
  account: Account,
  barcodes: readonly string[],
  /** The account's warehouses (warehousesOf, read before the transaction): a barcode without stock gets a zero record in each. */
  warehouses: readonly Warehouse[],
): Promise<Map<string, StockRecord[]>> {
  const byBarcode = new Map<string, StockRecord[]>();
  if (barcodes.length === 0) return byBarcode;
  const params = { accountId: account.id, barcodes: barcodes as string[] };
  if (!account.warehousesEnabled) {
    for (const row of await q.all(plainRecords, params)) {
      byBarcode.set(row.barcode, [{ item: row.item_id, liquid_stock: row.variant_id, barcode: row.barcode, quantity: row.quantity ?? 0 }]);
    }
    return byBarcode;
  }
  const withoutStock = new Map<string, { item_id: number; variant_id: number | null }>();
  for (const row of await q.all(warehouseRecords, params)) {
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
      for (const warehouse of warehouses) {
        records.push({ item: unit.item_id, liquid_stock: unit.variant_id, barcode, quantity: 0, warehouse: warehouse.id, warehouse_name: warehouse.name });
      }
    }
  }
  return byBarcode;
}
