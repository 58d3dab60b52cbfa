// Versioned schema migrations, kept in code so they survive bundling (kysely's file-based provider
// does not). Forward-only: a released migration is never edited; add a new one instead.
import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { sql } from 'kysely';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
    await db.schema
      .createIndex('stock_history_unit_time')
      .on('stock_history')
      .columns(['unit_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('stock_history_account_time')
      .on('stock_history')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('label', 'text')
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
  },
};

// POS integration (docs/POS.md): the answers of writes sent with an Idempotency-Key, per
// account, so a retried request is answered again instead of applied again, also after a restart.
const pos: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('response_body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
  },
};

// Stocktakes: count sessions, their lines (known and unknown barcodes) and the scans that
// built them; indexes that let the stock history be paged by id per account and per unit.
const stocktakes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stocktakes')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
  },
};

/** One-time sign-in codes of the scanner UI: stored hashed, expire, work once. */
const uiSignin: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('signin_codes')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
  },
};

// Read path (docs/BENCHMARKS.md): covering indexes for the read endpoint's one query, so
// each barcode costs two index searches instead of five (index, unit row, stock index, stock rows).
// On a 1M-barcode database most of those pages miss SQLite's cache; fewer searches is what keeps
// a read there nearly as fast as on a small catalogue.
const readIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('stock_units_read').on('stock_units').columns(['account_id', 'barcode', 'item_id', 'variant_id']).execute();
    await db.schema.createIndex('stock_read').on('stock').columns(['unit_id', 'warehouse_id', 'quantity']).execute();
  },
};

// GTIN equivalence (docs/API.md): an account may match GTINs by their 14-digit form. Off by default,
// so every existing account keeps exact matching.
const gtinEquivalence: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('accounts').addColumn('gtin_equivalence', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_pos': pos,
  '0003_stocktakes': stocktakes,
  '0005_ui_signin': uiSignin,
  '0006_read_indexes': readIndexes,
  '0020_gtin_equivalence': gtinEquivalence,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Brings a database to the latest schema; throws naming the migration that failed. */
export async function runMigrations(db: Kysely<unknown>): Promise<void> {
  // Unordered: branches add migrations in parallel (0002_pos after 0003_stocktakes had run on some
  // databases); each migration touches its own tables, so running a missing lower one later is safe.
  const { error, results } = await new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
