// Label settings of an account (docs/LABELS.md): the prefix of the codes the shop makes for items that
// have none, the number of the next such code, and the label printer (address:port) that ZPL is sent
// to. A table of its own: nothing else reads it, and an account without a row has the defaults.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('label_settings')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('code_prefix', 'text')
    .addColumn('next_code', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('printer', 'text')
    .execute();
  // A table added after 0022_change_notices announces its changes like the others (PostgreSQL).
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce('label_settings'::regclass)`.execute(db);
}
