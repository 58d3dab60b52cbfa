// Versioned schema migrations, kept in code so they survive bundling (kysely's file-based provider
// does not), one definition for every engine: one file per migration in this folder, named by its
// key, listed here in the order they run. Forward-only: a released migration never changes what it
// does to a database; add a new one instead. Where engines spell a column differently, the helpers
// of migration.ts say it once, from what the engine's provider says it needs (`SchemaNeeds`,
// engine-provider.ts).
import { type Migration, Migrator } from 'kysely/migration';
import type { Kysely } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import type { EngineMigration } from './migration.ts';
import * as initial from './0001_initial.ts';
import * as pos from './0002_pos.ts';
import * as stocktakes from './0003_stocktakes.ts';
import * as uiSignin from './0005_ui_signin.ts';
import * as readIndexes from './0006_read_indexes.ts';
import * as movements from './0007_movements.ts';
import * as idempotencyAnswerSize from './0010_idempotency_answer_size.ts';
import * as tokenIdleExpiry from './0011_token_idle_expiry.ts';
import * as pagedLists from './0012_paged_lists.ts';
import * as gtinEquivalence from './0020_gtin_equivalence.ts';
import * as identitySequences from './0021_identity_sequences.ts';
import * as changeNotices from './0022_change_notices.ts';
import * as stockKeyed from './0023_stock_keyed.ts';
import * as stocktakeChanges from './0024_stocktake_changes.ts';
import * as tokenRoles from './0025_token_roles.ts';
import * as conflictGroups from './0026_conflict_groups.ts';
import * as vectorHashes from './0027_vector_hashes.ts';
import * as labelSettings from './0028_label_settings.ts';
import * as syncFollowers from './0029_sync_followers.ts';
import * as people from './0030_people.ts';
import * as auditLog from './0031_audit_log.ts';
import * as movementActors from './0032_movement_actors.ts';
import * as syncProblemCodes from './0033_sync_problem_codes.ts';
import * as reorderPoints from './0034_reorder_points.ts';
import * as hlcKeys from './0035_hlc_keys.ts';
import * as movementActorIds from './0036_movement_actor_ids.ts';
import * as leanHistoryRows from './0037_lean_history_rows.ts';

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, EngineMigration> = {
  '0001_initial': initial,
  '0002_pos': pos,
  '0003_stocktakes': stocktakes,
  '0005_ui_signin': uiSignin,
  '0006_read_indexes': readIndexes,
  '0007_movements': movements,
  '0010_idempotency_answer_size': idempotencyAnswerSize,
  '0011_token_idle_expiry': tokenIdleExpiry,
  '0012_paged_lists': pagedLists,
  '0020_gtin_equivalence': gtinEquivalence,
  '0021_identity_sequences': identitySequences,
  '0022_change_notices': changeNotices,
  '0023_stock_keyed': stockKeyed,
  '0024_stocktake_changes': stocktakeChanges,
  '0025_token_roles': tokenRoles,
  '0026_conflict_groups': conflictGroups,
  '0027_vector_hashes': vectorHashes,
  '0028_label_settings': labelSettings,
  '0029_sync_followers': syncFollowers,
  '0030_people': people,
  '0031_audit_log': auditLog,
  '0032_movement_actors': movementActors,
  '0033_sync_problem_codes': syncProblemCodes,
  '0034_reorder_points': reorderPoints,
  '0035_hlc_keys': hlcKeys,
  '0036_movement_actor_ids': movementActorIds,
  '0037_lean_history_rows': leanHistoryRows,
};

/** The migrations as kysely's Migrator runs them, on an engine that needs `needs`. */
export function migrationsFor(needs: SchemaNeeds): Record<string, Migration> {
  return Object.fromEntries(Object.entries(migrations).map(([name, migration]) => [name, { up: (db) => migration.up(db, needs) }]));
}

/** Brings a database to the latest schema; throws naming the migration that failed. */
export async function runMigrations(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  // Unordered: branches add migrations in parallel (0002_pos after 0003_stocktakes had run on some
  // databases); each migration touches its own tables, so running a missing lower one later is safe.
  const { error, results } = await new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(needs) },
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
