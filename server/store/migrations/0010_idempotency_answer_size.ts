// Stored answers of Idempotency-Key requests are capped per account (docs/POS.md, "Safe retries"):
// their size is kept beside them, and an index lets an account's count and bytes within the
// retention window be summed from the index alone.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
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
}
