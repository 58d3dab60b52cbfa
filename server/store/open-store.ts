// Opens the store at a location: a PostgreSQL URL (postgres://user@host:5432/db) or a SQLite file
// (or `:memory:`), the default; the engine is the one engines.ts finds for the location.
import type { EngineOpenOptions } from './engine-provider.ts';
import type { Engine } from './engine.ts';
import { providerFor } from './engines.ts';
import { type Store, type StoreOptions, createStore } from './store.ts';

export interface OpenOptions extends StoreOptions, EngineOpenOptions {}

/** The engine for a location, migrated and ready, without a store around it (openStore builds one;
 * tests wrap the engine first, e.g. to count its statements). */
export async function openEngine(location: string, { poolSize }: EngineOpenOptions = {}): Promise<Engine> {
  return providerFor(location).open(location, poolSize !== undefined ? { poolSize } : {});
}

export async function openStore(location: string, { poolSize, ...options }: OpenOptions = {}): Promise<Store> {
  return createStore(await openEngine(location, { poolSize }), options);
}
