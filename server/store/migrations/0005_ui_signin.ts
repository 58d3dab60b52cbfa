// One-time sign-in codes of the scanner UI: stored hashed, expire, work once.
import type { Kysely } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('signin_codes')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
}
