// Movements (docs/SYNC.md): the stock history becomes the log of immutable movements every instance
// exchanges. Each row gains its global identity (the instance that made it, `origin`, and that
// instance's sequence for the account, `seq`), what it says (`kind`: set, count or adjust, and its
// `value`), when it happened as a hybrid logical clock timestamp (`hlc`, the order quantities are
// folded in) and, for set and count, what its instance had seen (`seen_vector`), to tell conflicts.
// `old_quantity`/`new_quantity` stay: the quantity before and after the movement in fold order.
// The table is rebuilt because SQLite cannot add NOT NULL columns without defaults; the rows there
// were made by this instance and become its movements, each a set to the quantity it left.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId, bytewiseText } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
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
}
