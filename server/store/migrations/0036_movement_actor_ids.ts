// The leaner movement log, second step (issue 30): who made a movement is stored once per name, in
// `movement_actors`, and each movement holds its id (`actor_id`) instead of the text. The actor is
// the same for every movement of an import, a till or a person, and was 22 bytes of every history
// row and of `stock_history_actor`, whose 85 MB at 1M barcodes (1.8M movements) were the largest
// index of the database (bench/NOTES.md). Names are shared by all accounts: a name is reached only
// through an account's own movements, or looked up by the name itself to filter them.
//
// No foreign key on `actor_id` (a check per inserted row, a trigger per row on PostgreSQL): the one
// writer of the history (movements/movement-log.ts) takes each id from the table in the same
// transaction, and the consistency check (consistency.ts) counts ids the table does not have.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('movement_actors')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('movement_actors_name', ['name'])
    .execute();
  await db
    .insertInto('movement_actors')
    .columns(['name'])
    .expression(db.selectFrom('stock_history').select('actor').distinct().where('actor', 'is not', null))
    .execute();
  await db.schema.alterTable('stock_history').addColumn('actor_id', 'integer').execute();
  await db
    .updateTable('stock_history')
    .set((eb) => ({
      actor_id: eb.selectFrom('movement_actors as a').select('a.id').whereRef('a.name', '=', 'stock_history.actor'),
    }))
    .where('actor', 'is not', null)
    .execute();
  await db.schema.dropIndex('stock_history_actor').execute();
  await db.schema.alterTable('stock_history').dropColumn('actor').execute();
  // The history filtered by actor (one person's changes), newest first (stock-history.ts).
  await db.schema.createIndex('stock_history_actor').on('stock_history').columns(['account_id', 'actor_id', 'hlc_key']).execute();
  // Tables added after 0022_change_notices announce their changes like the others (PostgreSQL).
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce(${'movement_actors'}::regclass)`.execute(db);
}
