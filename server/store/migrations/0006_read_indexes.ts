// Read path (docs/BENCHMARKS.md): covering indexes for the read endpoint's one query, so
// each barcode costs two index searches instead of five (index, unit row, stock index, stock rows).
// On a 1M-barcode database most of those pages miss SQLite's cache; fewer searches is what keeps
// a read there nearly as fast as on a small catalogue.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('stock_units_read').on('stock_units').columns(['account_id', 'barcode', 'item_id', 'variant_id']).execute();
  await db.schema.createIndex('stock_read').on('stock').columns(['unit_id', 'warehouse_id', 'quantity']).execute();
}
