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

// Both statements return ready records: the columns are named, ordered and defaulted as the
// answer's records are (item, liquid_stock, barcode, quantity[, warehouse]), so a row becomes the
// record itself instead of being copied into a new object. The warehouse's name is not joined in
// SQL: the account's warehouse list (warehousesOf, kept between requests) already has it, and a
// lookup of the warehouses table per record was 16% of the query's time (docs/BENCHMARKS.md).
const plainRecords = statement('stock.read.plain', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units as u')
    .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'u.id').on('s.warehouse_id', '=', NO_WAREHOUSE))
    .select((eb) => [
      'u.item_id as item',
      'u.variant_id as liquid_stock',
      'u.barcode',
      eb.fn.coalesce('s.quantity', eb.lit(0)).as('quantity'),
    ])
    .where('u.account_id', '=', p('accountId'))
    .where('u.barcode', 'in', p.list('barcodes')),
);

const warehouseRecords = statement('stock.read.warehouses', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units as u')
    .leftJoin('stock as s', 's.unit_id', 'u.id')
    .select((eb) => [
      'u.item_id as item',
      'u.variant_id as liquid_stock',
      'u.barcode',
      eb.fn.coalesce('s.quantity', eb.lit(0)).as('quantity'),
      's.warehouse_id as warehouse',
    ])
    .where('u.account_id', '=', p('accountId'))
    .where('u.barcode', 'in', p.list('barcodes')),
);

type WarehouseRecord = Extract<StockRecord, { warehouse: number }>;
const byWarehouse = (a: WarehouseRecord, b: WarehouseRecord) => a.warehouse - b.warehouse;

/**
 * Whether a barcode's records are already in warehouse order. They nearly always are (SQLite reads
 * `stock` by its key, unit then warehouse), and sorting even three records allocates the sort's
 * work arrays: 14% of what a GET of 50 barcodes allocated (bench/NOTES.md).
 */
export function inWarehouseOrder(records: readonly WarehouseRecord[]): boolean {
  for (let i = 1; i < records.length; i++) if (records[i - 1]!.warehouse > records[i]!.warehouse) return false;
  return true;
}

/** Warehouse names by id, made once per kept warehouse list. */
const namesOfList = new WeakMap<readonly Warehouse[], Map<number, string>>();

function namesOf(warehouses: readonly Warehouse[]): Map<number, string> {
  let names = namesOfList.get(warehouses);
  if (!names) namesOfList.set(warehouses, (names = new Map(warehouses.map((w) => [w.id, w.name]))));
  return names;
}

/**
 * Stock records of the given barcodes of one account, grouped by barcode, each group ordered by
 * warehouse id. Barcodes the account does not have are absent from the map.
 */
export async function readStockRecords(
  q: Queries,
  account: Account,
  barcodes: readonly string[],
  /**
   * The account's warehouses (warehousesOf, read just before the transaction): they name the
   * records' warehouses, and a barcode without stock gets a zero record in each.
   */
  warehouses: readonly Warehouse[],
): Promise<Map<string, StockRecord[]>> {
  const byBarcode = new Map<string, StockRecord[]>();
  if (barcodes.length === 0) return byBarcode;
  const params = { accountId: account.id, barcodes: barcodes as string[] };
  if (!account.warehousesEnabled) {
    for (const record of await q.all(plainRecords, params)) byBarcode.set(record.barcode, [record]);
    return byBarcode;
  }
  const names = namesOf(warehouses);
  const grouped = byBarcode as Map<string, WarehouseRecord[]>;
  // A known barcode whose rows name none of the account's warehouses (no stock definition): its unit, for the zero records.
  const withoutStock = new Map<string, { item: number; liquid_stock: number | null }>();
  for (const row of await q.all(warehouseRecords, params)) {
    let records = grouped.get(row.barcode);
    if (!records) grouped.set(row.barcode, (records = []));
    const name = row.warehouse === null ? undefined : names.get(row.warehouse);
    if (name !== undefined) {
      // The row becomes the record: its one missing field is added in the answer's key order.
      const record = row as typeof row & { warehouse_name?: string };
      record.warehouse_name = name;
      records.push(record as WarehouseRecord);
    } else withoutStock.set(row.barcode, row);
  }
  for (const [barcode, records] of grouped) {
    if (records.length === 0) {
      // A known barcode with no stock definition: one zero record per warehouse of the account (in id order).
      const unit = withoutStock.get(barcode)!;
      for (const warehouse of warehouses) {
        records.push({
          item: unit.item,
          liquid_stock: unit.liquid_stock,
          barcode,
          quantity: 0,
          warehouse: warehouse.id,
          warehouse_name: warehouse.name,
        });
      }
    } else if (!inWarehouseOrder(records)) records.sort(byWarehouse);
  }
  return byBarcode;
}
