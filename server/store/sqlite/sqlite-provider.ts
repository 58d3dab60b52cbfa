// SQLite as the product chooses it: the default engine, a file (or `:memory:`) at any location no
// other engine claims. Its backups are copies made with SQLite's online backup API and restored in
// place (backup.ts).
import type { EngineProvider } from '../engine-provider.ts';
import { preparePrivateFile } from '../private-files.ts';
import { backupDatabase, checkFile, restoreDatabase } from './backup.ts';
import { SqliteEngine, sqliteSchemaNeeds } from './sqlite-engine.ts';

export const sqliteProvider: EngineProvider<'sqlite'> = {
  kind: 'sqlite',
  name: 'SQLite',
  // Every location is a path; the registry asks this provider last.
  matches: () => true,
  displayLocation: (location) => location,
  async open(location) {
    // The folder of a new file is created on the way; the file is private to the user (private-files.ts).
    if (location !== ':memory:') preparePrivateFile(location);
    return SqliteEngine.open(location);
  },
  backup: async (location, target) => ({ report: await backupDatabase(location, target) }),
  restore: restoreDatabase,
  check: checkFile,
  demoBeside: true,
  restoreInPlace: true,
  schema: sqliteSchemaNeeds,
};
