// Opens the store at a location: a PostgreSQL URL (postgres://user@host:5432/db) or a SQLite file
// (or `:memory:`), the default. The folder of a new SQLite file is created on the way; both are
// private to the user (private-files.ts).
import type { Engine } from './engine.ts';
import { PostgresEngine } from './postgres/postgres-engine.ts';
import { preparePrivateFile } from './private-files.ts';
import { SqliteEngine } from './sqlite/sqlite-engine.ts';
import { type Store, type StoreOptions, createStore } from './store.ts';

/** True for a location that names a PostgreSQL database rather than a SQLite file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export interface OpenOptions extends StoreOptions {
  /** PostgreSQL: connections per process. */
  poolSize?: number;
}

/** The engine for a location, migrated and ready, without a store around it (openStore builds one;
 * tests wrap the engine first, e.g. to count its statements). */
export async function openEngine(location: string, { poolSize }: Pick<OpenOptions, 'poolSize'> = {}): Promise<Engine> {
  if (isPostgresLocation(location)) return PostgresEngine.open(location, poolSize !== undefined ? { poolSize } : {});
  if (location !== ':memory:') preparePrivateFile(location);
  return SqliteEngine.open(location);
}

export async function openStore(location: string, { poolSize, ...options }: OpenOptions = {}): Promise<Store> {
  return createStore(await openEngine(location, { poolSize }), options);
}
