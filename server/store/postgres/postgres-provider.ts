// PostgreSQL as the product chooses it: a postgres:// (or postgresql://) URL. Backups are pg_dump's
// (backup.ts); restoring one is pg_restore's job with the servers stopped, so `restore` refuses and
// says so (docs/DEPLOY.md, "Backups").
import { badRequest } from '../../errors.ts';
import type { EngineProvider } from '../engine-provider.ts';
import { createStore } from '../store.ts';
import { dumpDatabase } from './backup.ts';
import { PostgresEngine, displayLocation, postgresSchemaNeeds } from './postgres-engine.ts';

export const postgresProvider: EngineProvider<'postgres'> = {
  kind: 'postgres',
  name: 'PostgreSQL',
  matches: (location) => /^postgres(ql)?:\/\//i.test(location),
  displayLocation,
  open: (location, options = {}) => PostgresEngine.open(location, options),
  async backup(location, target) {
    const { bytes } = dumpDatabase(location, target);
    return { detail: `pg_dump custom format, ${bytes} bytes; restore with pg_restore, see docs/DEPLOY.md` };
  },
  async restore() {
    throw badRequest('A PostgreSQL database is restored with pg_restore, the servers stopped first: see docs/DEPLOY.md, "Backups".');
  },
  // PostgreSQL checks its own pages and foreign keys: the store's checks run through an open store.
  async check(location) {
    const store = createStore(await PostgresEngine.open(location));
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
