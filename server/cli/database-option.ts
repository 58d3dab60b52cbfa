// The database options every command that opens the store takes: `--database` (a PostgreSQL URL such
// as postgres://user@host:5432/inventory, or a SQLite file) and `--db FILE`, the SQLite file.
import type { Command } from 'commander';
import { clockFromEnvironment } from '../launch/clock-offset.ts';
import { DATABASE_ENV_VAR, DB_ENV_VAR, defaultDatabaseFile, defaultDatabaseLocation } from '../paths.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';

export interface DatabaseOptions {
  database?: string;
  db?: string;
}

/** Adds --database and --db to a command. */
export function withDatabaseOptions(command: Command): Command {
  return command
    .option(
      '--database <url-or-file>',
      `PostgreSQL URL (postgres://user@host:5432/db) or SQLite file (default: $${DATABASE_ENV_VAR}, $${DB_ENV_VAR} or ${defaultDatabaseFile()})`,
    )
    .option('--db <file>', 'SQLite database file (the same as --database FILE)');
}

export function databaseOf(options: DatabaseOptions): string {
  return options.database ?? options.db ?? defaultDatabaseLocation();
}

/** Opens the store (on the clock the environment asks for: launch/clock-offset.ts), runs `work`, closes it. */
export async function withStore<T>(options: DatabaseOptions, work: (store: Store) => Promise<T>): Promise<T> {
  const clock = clockFromEnvironment();
  const store = await openStore(databaseOf(options), clock ? { clock } : {});
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
