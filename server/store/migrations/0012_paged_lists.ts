// Lists read in pages (docs/API.md, "Lists"): the stock export walks an account's units in item
// order, and the counts CSV of a session walks its lines in id order, each page a range of an index.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('stock_units_export_order').on('stock_units').columns(['account_id', 'item_id', 'variant_id']).execute();
  await db.schema.createIndex('stocktake_lines_session_order').on('stocktake_lines').columns(['stocktake_id', 'id', 'unit_id']).execute();
}
