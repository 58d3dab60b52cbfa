// Reorder points (docs/REORDER.md): per unit and warehouse (warehouse 0 without warehouses) the
// minimum below which it is low, and the optional target a purchase orders up to. They belong to
// the catalogue (sync hands them down with it), so they live in a table of their own beside the
// stock, keyed like it; the low-stock list walks `reorder_points_account` and probes the stock by
// its key, so it never reads the stock of units that have no reorder point.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('reorder_points')
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('stock_units.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('minimum', 'integer', (c) => c.notNull())
    .addColumn('target', 'integer')
    .addPrimaryKeyConstraint('reorder_points_pk', ['unit_id', 'warehouse_id'])
    .execute();
  await db.schema.createIndex('reorder_points_account').on('reorder_points').columns(['account_id', 'warehouse_id', 'unit_id']).execute();
  // A table added after 0022_change_notices announces its changes like the others (PostgreSQL).
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce('reorder_points'::regclass)`.execute(db);
}
