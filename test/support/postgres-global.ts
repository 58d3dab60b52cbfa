// vitest globalSetup of the `postgres` project: ONE throwaway PostgreSQL cluster for all its test
// files (test/support/postgres-cluster.ts); each test file then creates its own databases on it
// (test/support/test-engine.ts), so files stay independent: each a copy of a template migrated once. When no PostgreSQL is installed this
// fails the run with one line saying what to install: the PostgreSQL tests are never skipped.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../server/store/open-store.ts';
import { startPostgresCluster } from './postgres-cluster.ts';

/** Migrated once per run; every test database is a copy of it (CREATE DATABASE … TEMPLATE). */
export const MIGRATED_TEMPLATE = 'bi_migrated_template';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  console.log(`postgres project: ${cluster.source}, cluster on port ${cluster.port}`);
  project.provide('postgresAdminUrl', cluster.adminUrl);
  // The migrations run here once, through the store as `serve` runs them, instead of in every test
  // database (22 migrations, each a durable commit). test/store/upgrade-from-first-schema.test.ts still
  // runs them one by one on an empty database.
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(cluster.adminUrl);
  templateUrl.pathname = `/${MIGRATED_TEMPLATE}`;
  await (await openStore(templateUrl.toString())).close();
  project.provide('postgresTemplate', MIGRATED_TEMPLATE);
  return () => cluster.stop();
}
