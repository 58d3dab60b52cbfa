// vitest globalSetup of the `postgres` project: ONE throwaway PostgreSQL cluster for all its test
// files (test/support/postgres-cluster.ts); each test file then creates its own databases on it
// (test/support/test-engine.ts), so files stay independent. When no PostgreSQL is installed this
// fails the run with one line saying what to install: the PostgreSQL tests are never skipped.
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  console.log(`postgres project: ${cluster.source}, cluster on port ${cluster.port}`);
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
