// Vectors found by a hash of their text (docs/SYNC.md, "Bounded cost"). `sync_vectors` had a unique
// index on (account, body): every vector stored twice, once in the table and once in the index; with
// the account's whole seen vector interned after every push (a copy of it per push), 100 pushes of
// 500 new origins each grew a database by 220 MB for 17 MB sent. Now a vector is found by the first
// 64 bits of its SHA-256 (movements/vector-text.ts), and the instance's own seen vector is interned
// only when a set or count made here needs it after something new arrived (`accounts.seen_stale`).
// SQLite cannot drop a table's unique constraint, so the table is rebuilt, ids kept (movements name
// their vector by id).
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { vectorHash } from '../movements/vector-text.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('sync_vectors_hashed')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('sync_vectors')
      .select(['id', 'account_id', 'body'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    await db
      .insertInto('sync_vectors_hashed')
      .values(rows.map((row) => ({ id: row.id, account_id: row.account_id, hash: vectorHash(row.body), body: row.body })))
      .execute();
    after = rows[rows.length - 1]!.id;
  }
  await db.schema.dropTable('sync_vectors').execute();
  await db.schema.alterTable('sync_vectors_hashed').renameTo('sync_vectors').execute();
  await db.schema.createIndex('sync_vectors_hash').on('sync_vectors').columns(['account_id', 'hash']).execute();
  // The ids were copied: the identity numbers on after them (SQLite's AUTOINCREMENT does by itself).
  if (needs.autoId === 'identity')
    await sql`SELECT setval(pg_get_serial_sequence('sync_vectors', 'id'), coalesce(max(id), 0) + 1, false) FROM sync_vectors`.execute(db);
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce('sync_vectors')`.execute(db);

  await db.schema
    .alterTable('accounts')
    .addColumn('seen_stale', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
