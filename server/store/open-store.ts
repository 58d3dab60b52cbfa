// Opens the store at a location: a SQLite file (or `:memory:`), the default. The folder of a new
// file is created on the way; both are private to the user (private-files.ts).
import { preparePrivateFile } from './private-files.ts';
import { SqliteEngine } from './sqlite/sqlite-engine.ts';
import { type Store, createStore } from './store.ts';

export async function openStore(location: string): Promise<Store> {
  if (location !== ':memory:') preparePrivateFile(location);
  return createStore(await SqliteEngine.open(location));
}
