// PostgreSQL as the product chooses it: a postgres:// (or postgresql://) URL. Backups are pg_dump's
// (backup.ts); restoring one is pg_restore's job with the servers stopped, so `restore` refuses and
// says so (docs/DEPLOY.md, "Backups").
import { badRequest } from '../../errors.ts';
import type { EngineProvider } from '../engine-provider.ts';
import { createStore } from '../store.ts';
import { dumpDatabase } from './backup.ts';
import { displayLocation } from './display-location.ts';
import { postgresSchemaNeeds } from './schema-needs.ts';

// The driver (`pg`) and the engine load when a PostgreSQL database is opened, not with the program:
// a server on SQLite keeps them out of its memory.
const postgresEngine = async () => (await import('./postgres-engine.ts')).PostgresEngine;

export const postgresProvider: EngineProvider<'postgres'> = {
  kind: 'postgres',
  name: 'PostgreSQL',
  matches: (location) => /^postgres(ql)?:\/\//i.test(location),
  displayLocation,
  open: async (location, options = {}) => (await postgresEngine()).open(location, options),
  async backup(location, target) {
    const { bytes } = dumpDatabase(location, target);
    return { detail: `pg_dump custom format, ${bytes} bytes; restore with pg_restore, see docs/DEPLOY.md` };
  },
  async restore() {
    throw badRequest('A PostgreSQL database is restored with pg_restore, the servers stopped first: see docs/DEPLOY.md, "Backups".');
  },
  // PostgreSQL checks its own pages and foreign keys: the store's checks run through an open store.
  async check(location) {
    const store = createStore(await (await postgresEngine()).open(location));
    try {
      return await store.check();
    } finally {
      await store.close();
    }
  },
  demoBeside: false,
  restoreInPlace: false,
  schema: postgresSchemaNeeds,
};
