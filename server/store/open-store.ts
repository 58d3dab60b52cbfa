// Opens the store at a location: a SQLite file (or `:memory:`), the default. The folder of a new
// file is created on the way.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SqliteEngine } from './sqlite/sqlite-engine.ts';
import { type Store, type StoreOptions, createStore } from './store.ts';

export async function openStore(location: string, options: StoreOptions = {}): Promise<Store> {
  if (location !== ':memory:') mkdirSync(path.dirname(path.resolve(location)), { recursive: true });
  return createStore(await SqliteEngine.open(location), options);
}
