// The first released schema (pinned in test/fixtures/schema-0001_initial.sql): accounts, their
// warehouses, items and variants, the barcodes (stock units), the stock per unit and warehouse, its
// history, and API tokens.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('warehouses_enabled', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('warehouses')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('warehouses_account_name', ['account_id', 'name'])
    .execute();
  await db.schema
    .createTable('items')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('variants')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stock_units')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id'))
    .addColumn('variant_id', 'integer', (c) => c.references('variants.id'))
    .addUniqueConstraint('stock_units_account_barcode', ['account_id', 'barcode'])
    .execute();
  // One unit per variant, and one per item that holds stock itself.
  await db.schema.createIndex('stock_units_variant').unique().on('stock_units').column('variant_id').execute();
  await db.schema
    .createIndex('stock_units_plain_item')
    .unique()
    .on('stock_units')
    .column('item_id')
    .where(sql.ref('variant_id'), 'is', null)
    .execute();
  await db.schema
    .createTable('stock')
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('stock_units.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_pk', ['unit_id', 'warehouse_id'])
    .execute();
  await db.schema
    .createTable('stock_history')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('stock_units.id'))
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'integer')
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('old_quantity', 'integer')
    .addColumn('new_quantity', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('token_id', 'integer')
    .addColumn('reason', 'text')
    .addColumn('reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_history_unit_time').on('stock_history').columns(['unit_id', 'created_at']).execute();
  await db.schema.createIndex('stock_history_account_time').on('stock_history').columns(['account_id', 'created_at']).execute();
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('label', 'text')
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
}
