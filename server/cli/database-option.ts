// The database options every command that opens the store takes: `--database` (a PostgreSQL URL such
// as postgres://user@host:5432/inventory, or a SQLite file) and `--db FILE`, the SQLite file.
import { existsSync, rmSync } from 'node:fs';
import type { Command } from 'commander';
import { isApiError } from '../errors.ts';
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

/**
 * Opens the store (on the clock the environment asks for: launch/clock-offset.ts), runs `work`, closes it.
 * An account the database does not have is said with the database's name: a command pasted without
 * --db reads the default database, and "No account named north" alone does not say that.
 * `removeIfCreated`: a SQLite file this command created is removed again when `work` fails (a failed
 * `sync link`, a refused `import` or `csv import` must not leave an empty database behind); with
 * `'always'`, also when it succeeds (a dry run, which writes nothing).
 */
export async function withStore<T>(
  options: DatabaseOptions,
  work: (store: Store) => Promise<T>,
  { removeIfCreated = false }: { removeIfCreated?: boolean | 'always' } = {},
): Promise<T> {
  const clock = clockFromEnvironment();
  const location = databaseOf(options);
  // A file that was not there before (a PostgreSQL URL never is a file): this command made it.
  const created = removeIfCreated && !existsSync(location);
  const store = await openStore(location, clock ? { clock } : {});
  let failed = false;
  try {
    return await work(store);
  } catch (error) {
    failed = true;
    if (isApiError(error) && (error as { unknownAccount?: boolean }).unknownAccount)
      error.message = `${error.message} (database: ${location}; another one is named with --db or --database)`;
    throw error;
  } finally {
    await store.close();
    if ((failed || removeIfCreated === 'always') && created && existsSync(location))
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${location}${suffix}`, { force: true });
  }
}
