// Versioned schema migrations, kept in code so they survive bundling (kysely's file-based provider
// does not), one definition for every engine. Forward-only: a released migration never changes what
// it does to a database; add a new one instead. Where engines spell a column differently, the
// helpers below say it once (an id that numbers itself; timestamps compared as plain text), from
// what the engine's provider says it needs (`SchemaNeeds`, engine-provider.ts).

import { randomBytes } from 'node:crypto';
import { type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import type { SchemaNeeds } from './engine-provider.ts';

/** A migration, told what the engine it runs on needs. */
interface EngineMigration {
  up(db: Kysely<any>, needs: SchemaNeeds): Promise<void>;
}

/** An integer primary key that numbers itself: AUTOINCREMENT on SQLite (ids never reused), an identity on PostgreSQL. */
function autoId(needs: SchemaNeeds): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return needs.autoId === 'identity' ? (c) => c.primaryKey().generatedByDefaultAsIdentity() : (c) => c.primaryKey().autoIncrement();
}

/**
 * Text compared byte by byte (hybrid logical clock timestamps: their text order is time order).
 * SQLite compares text that way already; PostgreSQL would use the database's locale, in which
 * punctuation may not count.
 */
function bytewiseText(needs: SchemaNeeds) {
  return needs.bytewiseCollation === null ? ('text' as const) : sql`text collate ${sql.id(needs.bytewiseCollation)}`;
}

const initial: EngineMigration = {
  async up(db: Kysely<any>, needs: SchemaNeeds) {
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
  },
};

// POS integration (docs/POS.md): the answers of writes sent with an Idempotency-Key, per
// account, so a retried request is answered again instead of applied again, also after a restart.
const pos: EngineMigration = {
  async up(db: Kysely<any>) {
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
const stocktakes: EngineMigration = {
  async up(db: Kysely<any>, needs: SchemaNeeds) {
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
  },
};

/** One-time sign-in codes of the scanner UI: stored hashed, expire, work once. */
const uiSignin: EngineMigration = {
  async up(db: Kysely<any>, needs: SchemaNeeds) {
    await db.schema
      .createTable('signin_codes')
      .addColumn('id', 'integer', autoId(needs))
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
const readIndexes: EngineMigration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('stock_units_read').on('stock_units').columns(['account_id', 'barcode', 'item_id', 'variant_id']).execute();
    await db.schema.createIndex('stock_read').on('stock').columns(['unit_id', 'warehouse_id', 'quantity']).execute();
  },
};

// Movements (docs/SYNC.md): the stock history becomes the log of immutable movements every instance
// exchanges. Each row gains its global identity (the instance that made it, `origin`, and that
// instance's sequence for the account, `seq`), what it says (`kind`: set, count or adjust, and its
// `value`), when it happened as a hybrid logical clock timestamp (`hlc`, the order quantities are
// folded in) and, for set and count, what its instance had seen (`seen_vector`), to tell conflicts.
// `old_quantity`/`new_quantity` stay: the quantity before and after the movement in fold order.
// The table is rebuilt because SQLite cannot add NOT NULL columns without defaults; the rows there
// were made by this instance and become its movements, each a set to the quantity it left.
const movements: EngineMigration = {
  async up(db: Kysely<any>, needs: SchemaNeeds) {
    const instance = randomBytes(5).toString('hex');
    await db.schema
      .createTable('instance')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('last_hlc', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('instance').values({ id: instance, last_hlc: null, created_at: new Date().toISOString() }).execute();

    await db.schema
      .createTable('stock_movements')
      .addColumn('id', 'integer', autoId(needs))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('unit_id', 'integer', (c) => c.notNull().references('stock_units.id'))
      .addColumn('item_id', 'integer', (c) => c.notNull())
      .addColumn('variant_id', 'integer')
      .addColumn('warehouse_id', 'integer', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'integer', (c) => c.notNull())
      .addColumn('hlc', bytewiseText(needs), (c) => c.notNull())
      .addColumn('seen_vector', 'integer')
      .addColumn('old_quantity', 'integer')
      .addColumn('new_quantity', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('token_id', 'integer')
      .addColumn('reason', 'text')
      .addColumn('reference', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Existing rows, oldest first, a thousand at a time: each is a set to the quantity it left, at
    // the time it was recorded (the counter keeps rows of the same millisecond apart and in order).
    const seqs = new Map<number, number>();
    let last = { wall: -1, counter: 0 };
    for (let after = 0; ;) {
      const rows = await db.selectFrom('stock_history').selectAll().where('id', '>', after).orderBy('id').limit(1000).execute();
      if (rows.length === 0) break;
      const values = rows.map((row: any) => {
        const seq = (seqs.get(row.account_id) ?? 0) + 1;
        seqs.set(row.account_id, seq);
        const parsed = Date.parse(row.created_at);
        const wall = Math.max(Number.isFinite(parsed) ? parsed : 0, last.wall);
        last = wall === last.wall ? { wall, counter: last.counter + 1 } : { wall, counter: 0 };
        const hlc = `${String(wall).padStart(16, '0')}-${String(last.counter).padStart(5, '0')}-${instance}`;
        const {
          id,
          account_id,
          unit_id,
          item_id,
          variant_id,
          warehouse_id,
          old_quantity,
          new_quantity,
          source,
          token_id,
          reason,
          reference,
          created_at,
        } = row;
        return {
          id,
          account_id,
          unit_id,
          item_id,
          variant_id,
          warehouse_id,
          origin: instance,
          seq,
          kind: 'set',
          value: new_quantity,
          hlc,
          old_quantity,
          new_quantity,
          source,
          token_id,
          reason,
          reference,
          created_at,
        };
      });
      await db.insertInto('stock_movements').values(values).execute();
      after = rows[rows.length - 1]!.id;
    }
    if (last.wall >= 0) {
      await db
        .updateTable('instance')
        .set({ last_hlc: `${String(last.wall).padStart(16, '0')}-${String(last.counter).padStart(5, '0')}-${instance}` })
        .execute();
    }
    await db.schema.dropTable('stock_history').execute();
    await db.schema.alterTable('stock_movements').renameTo('stock_history').execute();
    // One instance's movements of an account are numbered without gaps: the key of a movement, and
    // how upstream finds what it has not seen yet.
    await db.schema.createIndex('stock_history_origin_seq').unique().on('stock_history').columns(['account_id', 'origin', 'seq']).execute();
    // The fold of one unit in one warehouse, in time order.
    await db.schema.createIndex('stock_history_unit_hlc').on('stock_history').columns(['unit_id', 'warehouse_id', 'hlc']).execute();
    // History pages: the account's newest first, or by warehouse, or by source.
    await db.schema.createIndex('stock_history_account_hlc').on('stock_history').columns(['account_id', 'hlc']).execute();
    await db.schema.createIndex('stock_history_warehouse_hlc').on('stock_history').columns(['warehouse_id', 'hlc']).execute();
    await db.schema.createIndex('stock_history_source_hlc').on('stock_history').columns(['account_id', 'source', 'hlc']).execute();
    // What a downstream instance pulls: the account's movements in the order they arrived here.
    await db.schema.createIndex('stock_history_account_id').on('stock_history').columns(['account_id', 'id']).execute();

    // What an instance has seen of other instances, as {origin: highest seq}; interned, since every
    // set and count made between two syncs shares one.
    await db.schema
      .createTable('sync_vectors')
      .addColumn('id', 'integer', autoId(needs))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addUniqueConstraint('sync_vectors_body', ['account_id', 'body'])
      .execute();
    // The account's current one (null until something of another instance arrived), and the
    // version of its catalogue, which downstream instances copy when it moves.
    await db.schema.alterTable('accounts').addColumn('seen_vector', 'integer').execute();
    await db.schema
      .alterTable('accounts')
      .addColumn('catalogue_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    // Two movements of one unit and warehouse where the later, a set or count, was made without
    // seeing the earlier: the fold keeps the later, and both are listed for review.
    await db.schema
      .createTable('stock_conflicts')
      .addColumn('id', 'integer', autoId(needs))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('unit_id', 'integer', (c) => c.notNull())
      .addColumn('warehouse_id', 'integer', (c) => c.notNull())
      .addColumn('later_origin', 'text', (c) => c.notNull())
      .addColumn('later_seq', 'integer', (c) => c.notNull())
      .addColumn('earlier_origin', 'text', (c) => c.notNull())
      .addColumn('earlier_seq', 'integer', (c) => c.notNull())
      .addColumn('detected_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('stock_conflicts_pair', ['account_id', 'later_origin', 'later_seq', 'earlier_origin', 'earlier_seq'])
      .execute();
    await db.schema.createIndex('stock_conflicts_unit').on('stock_conflicts').columns(['unit_id', 'warehouse_id']).execute();

    // An account of this instance that follows an upstream instance.
    await db.schema
      .createTable('sync_links')
      .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
      .addColumn('upstream_url', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('upstream_instance', 'text')
      .addColumn('pull_cursor', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('catalogue_version', 'integer')
      .addColumn('linked_at', 'text', (c) => c.notNull())
      .addColumn('last_attempt_at', 'text')
      .addColumn('last_success_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('offline_since', 'text')
      .addColumn('clock_skew_ms', 'integer')
      // What the upstream held per origin at the last round: what is still to push.
      .addColumn('upstream_vector', 'text')
      .execute();

    // A stocktake line is a count at the time of its last scan or edit.
    await db.schema.alterTable('stocktake_lines').addColumn('counted_hlc', 'text').execute();
  },
};

// Stored answers of Idempotency-Key requests are capped per account (docs/POS.md, "Safe retries"):
// their size is kept beside them, and an index lets an account's count and bytes within the
// retention window be summed from the index alone.
const idempotencyAnswerSize: EngineMigration = {
  async up(db: Kysely<any>, needs: SchemaNeeds) {
    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('response_bytes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // Bytes, not characters: the cap is on what the answers take up.
    await sql`UPDATE idempotency_keys SET response_bytes = ${needs.textBytes('response_body')}`.execute(db);
    await db.schema
      .createIndex('idempotency_keys_account_usage')
      .on('idempotency_keys')
      .columns(['account_id', 'created_at', 'response_bytes'])
      .execute();
  },
};

// Tokens made by sign-in links expire after a time without use (docs/UI.md, "Signing in"): the token
// remembers when it was last used and how long it may idle; the sign-in code carries the idle time
// its link was made with. Tokens made with `token create` (tills, scripts) never expire.
const tokenIdleExpiry: EngineMigration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('api_tokens').addColumn('last_used_at', 'text').execute();
    await db.schema.alterTable('api_tokens').addColumn('idle_expiry_seconds', 'integer').execute();
    await db.schema.alterTable('signin_codes').addColumn('token_idle_expiry_seconds', 'integer').execute();
  },
};

// Lists read in pages (docs/API.md, "Lists"): the stock export walks an account's units in item
// order, and the counts CSV of a session walks its lines in id order, each page a range of an index.
const pagedLists: EngineMigration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('stock_units_export_order').on('stock_units').columns(['account_id', 'item_id', 'variant_id']).execute();
    await db.schema.createIndex('stocktake_lines_session_order').on('stocktake_lines').columns(['stocktake_id', 'id', 'unit_id']).execute();
  },
};

// GTIN equivalence (docs/API.md): an account may match GTINs by their 14-digit form. Off by default,
// so every existing account keeps exact matching.
const gtinEquivalence: EngineMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('accounts')
      .addColumn('gtin_equivalence', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/**
 * PostgreSQL: every identity column's sequence continues after the highest id its table holds.
 * 0007_movements copied the history rows, ids included, into a new table whose identity had numbered
 * nothing yet, so on a PostgreSQL database that had history before 0007 the next movement took
 * id 1 again and every write answered 500 (duplicate key stock_movements_pkey; found by
 * test/upgrade-from-first-schema.test.ts on PostgreSQL). SQLite's AUTOINCREMENT follows the largest
 * id by itself: nothing to do there.
 */
const identitySequences: EngineMigration = {
  async up(db: Kysely<unknown>, needs: SchemaNeeds) {
    if (needs.autoId !== 'identity') return;
    await sql`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' LOOP
          EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), coalesce(max(%I), 0) + 1, false) FROM %I', r.table_name, r.column_name, r.column_name, r.table_name);
        END LOOP;
      END $$`.execute(db);
  },
};

/**
 * PostgreSQL: every change to a table announces itself on the channel the server processes listen
 * on (postgres-engine.ts, engine.kept), whoever makes it — also psql or another tool, not only the
 * store's own writes, which NOTIFY anyway. SQLite's engine sees other connections' commits through
 * PRAGMA data_version; without this, a PostgreSQL server kept a token or a warehouse list that had
 * been changed by SQL from outside until the store's next write (found by
 * test/signout-and-idle-expiry.test.ts on PostgreSQL). A table added by a later migration must get
 * the trigger too (barcode_inventory_announce below).
 */
const changeNotices: EngineMigration = {
  async up(db: Kysely<unknown>, needs: SchemaNeeds) {
    if (needs.changeNotices !== 'notify-triggers') return;
    await sql`
      CREATE FUNCTION barcode_inventory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('barcode_inventory_changes', '');
        RETURN NULL;
      END $$`.execute(db);
    await sql`
      CREATE FUNCTION barcode_inventory_announce(target regclass) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER barcode_inventory_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION barcode_inventory_changed()', target);
      END $$`.execute(db);
    await sql`
      SELECT barcode_inventory_announce(format('%I', table_name)::regclass) FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('kysely_migration', 'kysely_migration_lock')`.execute(
      db,
    );
  },
};

/**
 * SQLite: `stock` keyed by (unit, warehouse) in one b-tree (WITHOUT ROWID). It was a rowid table
 * with two indexes on the same key (stock_pk, and stock_read carrying the quantity for covering
 * reads), so every quantity written changed two b-trees and dirtied pages of both: a sync batch
 * of 500 movements committed about a third more pages than its history rows alone. Keyed by its
 * primary key, the table is its own covering index for reads. PostgreSQL keeps its heap and
 * indexes: nothing to do there. Rebuilds the table: 2.6 s for 3 million rows (1M barcodes in three
 * warehouses), once.
 */
const stockKeyed: EngineMigration = {
  async up(db: Kysely<unknown>, needs: SchemaNeeds) {
    if (!needs.keyedTables) return;
    await sql`
      CREATE TABLE stock_keyed (
        unit_id integer NOT NULL REFERENCES stock_units (id),
        warehouse_id integer NOT NULL,
        quantity integer NOT NULL,
        CONSTRAINT stock_pk PRIMARY KEY (unit_id, warehouse_id)
      ) WITHOUT ROWID`.execute(db);
    await sql`INSERT INTO stock_keyed (unit_id, warehouse_id, quantity) SELECT unit_id, warehouse_id, quantity FROM stock ORDER BY unit_id, warehouse_id`.execute(
      db,
    );
    await sql`DROP TABLE stock`.execute(db);
    await sql`ALTER TABLE stock_keyed RENAME TO stock`.execute(db);
  },
};

/**
 * Stocktake changes: each session numbers the writes to its lines (`stocktakes.change_seq`), and a
 * line keeps the number of its last change, so a counting page asks for the lines changed since
 * the last it saw (stocktakes.ts, `linesChangedAfter`) instead of every line every two seconds:
 * 5.5 MB and a stall of up to 220 ms in the page per refresh at 20,000 lines.
 */
const stocktakeChanges: EngineMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('stocktakes')
      .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('stocktake_lines')
      .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('stocktake_lines_change').on('stocktake_lines').columns(['stocktake_id', 'change_seq']).execute();
  },
};

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, EngineMigration> = {
  '0001_initial': initial,
  '0002_pos': pos,
  '0003_stocktakes': stocktakes,
  '0005_ui_signin': uiSignin,
  '0006_read_indexes': readIndexes,
  '0007_movements': movements,
  '0010_idempotency_answer_size': idempotencyAnswerSize,
  '0011_token_idle_expiry': tokenIdleExpiry,
  '0012_paged_lists': pagedLists,
  '0020_gtin_equivalence': gtinEquivalence,
  '0021_identity_sequences': identitySequences,
  '0022_change_notices': changeNotices,
  '0023_stock_keyed': stockKeyed,
  '0024_stocktake_changes': stocktakeChanges,
};

/** The migrations as kysely's Migrator runs them, on an engine that needs `needs`. */
export function migrationsFor(needs: SchemaNeeds): Record<string, Migration> {
  return Object.fromEntries(Object.entries(migrations).map(([name, migration]) => [name, { up: (db) => migration.up(db, needs) }]));
}

/** Brings a database to the latest schema; throws naming the migration that failed. */
export async function runMigrations(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  // Unordered: branches add migrations in parallel (0002_pos after 0003_stocktakes had run on some
  // databases); each migration touches its own tables, so running a missing lower one later is safe.
  const { error, results } = await new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(needs) },
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
