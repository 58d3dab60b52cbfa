// Tokens made by sign-in links expire after a time without use (docs/UI.md, "Signing in"): the token
// remembers when it was last used and how long it may idle; the sign-in code carries the idle time
// its link was made with. Tokens made with `token create` (tills, scripts) never expire.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('last_used_at', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('idle_expiry_seconds', 'integer').execute();
  await db.schema.alterTable('signin_codes').addColumn('token_idle_expiry_seconds', 'integer').execute();
}
