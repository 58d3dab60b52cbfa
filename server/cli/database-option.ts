// The `--db` option every command that opens the database takes, and opening the store with it.
import { DB_ENV_VAR, defaultDatabaseLocation } from '../paths.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';

export const databaseOption = ['--db <file>', `SQLite database file (default: $${DB_ENV_VAR} or ${defaultDatabaseLocation({})})`] as const;

export function databaseOf(options: { db?: string }): string {
  return options.db ?? defaultDatabaseLocation();
}

/** Opens the store, runs `work`, closes it. */
export async function withStore<T>(options: { db?: string }, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(databaseOf(options));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
