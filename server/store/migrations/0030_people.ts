// People on a shared scanner PC (docs/API.md, "People"): named people of an account with a role, each
// signing in with a badge (stored only as its SHA-256, like a token's key) and/or a PIN (stored only as
// a salted scrypt hash: a PIN is short, so a fast unsalted hash would give it away). A person's
// sign-in is a token of theirs (`api_tokens.person_id`) that expires after the account's idle time.
import type { Kysely } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { autoId } from './migration.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('people')
    .addColumn('id', 'integer', autoId(needs))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('badge_hash', 'text', (c) => c.unique())
    .addColumn('pin_hash', 'text')
    .addColumn('pin_salt', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('people_account').on('people').columns(['account_id', 'id']).execute();
  await db.schema.alterTable('api_tokens').addColumn('person_id', 'integer').execute();
  await db.schema.createIndex('api_tokens_person').on('api_tokens').columns(['person_id']).execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('person_idle_minutes', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
}
