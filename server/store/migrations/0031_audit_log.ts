// The audit log (docs/API.md, "Audit log"): what changed that is not a movement of stock (catalogue
// imports, tokens and people, roles, stocktake commits and undos, conflict resolutions, sync links),
// who did it and when. Append-only: the store only inserts and reads it, and no endpoint writes it.
import type { Kysely } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer')
    .addColumn('token_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'id']).execute();
}
