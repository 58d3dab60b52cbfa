// GTIN equivalence (docs/API.md): an account may match GTINs by their 14-digit form. Off by default,
// so every existing account keeps exact matching.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('gtin_equivalence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
