// Which storage engine the tests run on. The `sqlite` project of vitest.config.ts runs every test
// file on SQLite files; the `postgres` project re-runs the files that hold for both engines with
// BARCODE_INVENTORY_TEST_ENGINE=postgres, on one throwaway cluster (test/support/postgres-global.ts)
// where every test server, child server and probe gets a database of its own.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { ConsistencyReport } from '../../server/store/consistency.ts';
import { providerFor } from '../../server/store/engines.ts';

export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE_ENV_VAR = 'BARCODE_INVENTORY_TEST_ENGINE';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the test cluster, provided by test/support/postgres-global.ts. */
    postgresAdminUrl: string;
    /** A database holding the migrated, empty schema, copied by every test database. */
    postgresTemplate: string;
  }
}

export function testEngine(): TestEngine {
  const value = process.env[TEST_ENGINE_ENV_VAR] ?? 'sqlite';
  if (value !== 'sqlite' && value !== 'postgres') throw new Error(`${TEST_ENGINE_ENV_VAR} must be sqlite or postgres, not ${value}`);
  return value;
}

export const onPostgres = (): boolean => testEngine() === 'postgres';

function adminUrl(): string {
  const url = inject('postgresAdminUrl');
  if (!url)
    throw new Error(
      `${TEST_ENGINE_ENV_VAR}=postgres needs the test cluster: run the tests through vitest.config.ts (project "postgres"), whose globalSetup starts it.`,
    );
  return url;
}

/** Where a new database would live: a file in `dir` (SQLite) or a not yet created database on the
 * test cluster (PostgreSQL); create it with createDatabase. Synchronous, for suites that name their
 * database while they are being collected. */
export function databaseLocation(dir: string, fileName = 'inventory.db'): string {
  if (!onPostgres()) return path.join(dir, fileName);
  const url = new URL(adminUrl());
  url.pathname = `/bi_${process.pid}_${randomBytes(6).toString('hex')}`;
  return url.toString();
}

/** Creates the database named by databaseLocation (nothing to do for a SQLite file): a copy of the
 * migrated template, or with `empty` one without any table (to build an old schema in). */
export async function createDatabase(location: string, { empty = false }: { empty?: boolean } = {}): Promise<void> {
  if (!location.startsWith('postgres')) return;
  const name = new URL(location).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${empty ? 'template0' : inject('postgresTemplate')}`);
  } finally {
    await admin.end();
  }
  if (empty) return;
  // A copy would share the template's instance id, which sync rightly refuses as "a restored copy
  // that kept running" (docs/SYNC.md): give it its own, as migrating it afresh would.
  const copy = new pg.Client({ connectionString: location });
  await copy.connect();
  try {
    await copy.query('UPDATE instance SET id = $1, created_at = $2', [randomBytes(5).toString('hex'), new Date().toISOString()]);
  } finally {
    await copy.end();
  }
}

/** A new database with no data: a file in `dir` or a database of its own on the test cluster. */
export async function newDatabase(dir: string, fileName?: string, options?: { empty?: boolean }): Promise<string> {
  const location = databaseLocation(dir, fileName);
  await createDatabase(location, options);
  return location;
}

/** Drops a test database (SQLite files go with their folder). */
export async function dropDatabase(location: string): Promise<void> {
  if (!location.startsWith('postgres')) return;
  const name = new URL(location).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The checks `barcode-inventory check` runs, read-only: SQLite's on the file, PostgreSQL's through the store. */
export async function checkDatabase(location: string): Promise<ConsistencyReport> {
  return providerFor(location).check(location);
}
