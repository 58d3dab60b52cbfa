// Stocktakes: count sessions, their lines (known and unknown barcodes) and the scans that
// built them; indexes that let the stock history be paged by id per account and per unit.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('stocktakes')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('blind', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('zero_uncounted', 'integer')
    .addColumn('token_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('commit_started_at', 'text')
    .addColumn('committed_at', 'text')
    .execute();
  await db.schema.createIndex('stocktakes_account').on('stocktakes').columns(['account_id', 'id']).execute();
  await db.schema
    .createTable('stocktake_lines')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('stocktake_id', 'integer', (c) => c.notNull().references('stocktakes.id'))
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.references('stock_units.id'))
    .addColumn('counted', 'integer', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('zeroed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('commit_state', 'text')
    .addColumn('book_quantity', 'integer')
    .addColumn('commit_errors', 'text')
    .addUniqueConstraint('stocktake_lines_barcode', ['stocktake_id', 'barcode'])
    .execute();
  // The review's "expected but not scanned" looks lines up by unit.
  await db.schema.createIndex('stocktake_lines_unit').on('stocktake_lines').columns(['stocktake_id', 'unit_id']).execute();
  await db.schema
    .createTable('stocktake_scans')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('stocktake_id', 'integer', (c) => c.notNull().references('stocktakes.id'))
    // No foreign key: undoing the only scan of a line deletes the line; its scans stay as the record.
    .addColumn('line_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('client_scan_id', 'text')
    .addColumn('terminal', 'text')
    .addColumn('token_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema
    .createIndex('stocktake_scans_client_id')
    .unique()
    .on('stocktake_scans')
    .columns(['stocktake_id', 'client_scan_id'])
    .where(sql.ref('client_scan_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('stocktake_scans_session').on('stocktake_scans').columns(['stocktake_id', 'id']).execute();
  await db.schema.createIndex('stock_history_account_id').on('stock_history').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('stock_history_unit_id').on('stock_history').columns(['unit_id', 'id']).execute();
}
