// A database as an older release left it: every migration before a given one, run by kysely's
// Migrator directly, so a test can fill the tables in their old shape and then open the store (which
// runs the rest) to prove a migration on real data.
import { Kysely, type Dialect, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { type EngineKind, providerFor } from '../../server/store/engines.ts';
import { migrationsFor } from '../../server/store/migrations/registry.ts';

const dialects: Record<EngineKind, (location: string) => Dialect> = {
  sqlite: (location) => new SqliteDialect({ database: new BetterSqlite3(location) }),
  postgres: (location) => new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) }),
};

/** Runs every migration named before `first` on the (empty) database at `location`. */
export async function migrateBefore(location: string, first: string): Promise<void> {
  const engine = providerFor(location);
  const kysely = new Kysely<unknown>({ dialect: dialects[engine.kind](location) });
  const all = migrationsFor(engine.schema);
  const { error } = await new Migrator({
    db: kysely,
    provider: { getMigrations: async () => Object.fromEntries(Object.entries(all).filter(([name]) => name < first)) },
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  await kysely.destroy();
  if (error) throw error;
}
