// Roles (docs/API.md, "Roles"): every token has one, and a sign-in code carries the role of the token
// it is exchanged for. Tokens made before roles keep what they could do (docs/SECURITY.md, "Least
// privilege"): a sign-in link's token (the tokens that expire when idle) becomes `manager`, what the
// scanner UI does; any other token becomes `full`, every endpoint, because it may be an integration
// or the token a follower syncs with, and nothing stored tells which. A column default cannot be
// dropped on SQLite, so it is '', which is no role: a row written without one is refused, not let in.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db
    .updateTable('api_tokens')
    .set({ role: sql`case when idle_expiry_seconds is null then 'full' else 'manager' end` })
    .execute();
  await db.schema.alterTable('signin_codes').addColumn('token_role', 'text').execute();
}
