// Reorder points (docs/REORDER.md): per unit and warehouse (warehouse 0 without warehouses) the
// minimum below which it is low, and the optional target a purchase orders up to. They belong to
// the catalogue (sync hands them down with it), so they live in a table of their own beside the
// stock, keyed like it; the low-stock list walks `reorder_points_account` and probes the stock by
// its key, so it never reads the stock of units that have no reorder point.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

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
  // The low-stock webhook (docs/REORDER.md, "Webhook"): where an account's crossings go, with the
  // secret they are signed with and how far the stock history was looked through; and the outbox of
  // events, each delivered at least once under its own id, retried with backoff.
  await db.schema
    .createTable('low_stock_webhooks')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('history_cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('low_stock_events')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('low_stock_events_id').unique().on('low_stock_events').columns(['account_id', 'event_id']).execute();
  await db.schema.createIndex('low_stock_events_due').on('low_stock_events').columns(['delivered_at', 'next_attempt_at']).execute();
  // Tables added after 0022_change_notices announce their changes like the others (PostgreSQL).
  if (needs.changeNotices === 'notify-triggers') {
    for (const table of ['reorder_points', 'low_stock_webhooks', 'low_stock_events'])
      await sql`SELECT barcode_inventory_announce(${table}::regclass)`.execute(db);
  }
}
