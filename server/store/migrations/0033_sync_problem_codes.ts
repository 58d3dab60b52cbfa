// Why a link's last round failed, for a program (docs/SYNC.md, "Problems"): beside the words of
// `last_error`, its code (shared/sync-schemas.ts, syncProblemCodes), which the status answers and the
// scanner UI says in a shop worker's words. A link that failed before this version has none: the
// status then says `upstream_unreachable` while it is offline, `unknown` otherwise.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_links').addColumn('last_error_code', 'text').execute();
}
