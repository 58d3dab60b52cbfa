import { defineConfig } from 'vitest/config';

// The test files that hold for both storage engines: the `postgres` project runs them again on a
// throwaway PostgreSQL cluster (test/support/postgres-global.ts, test/support/test-engine.ts). The
// files left out are SQLite-only by nature: DEVELOPERS.md, "Tests on both engines", says why.
export const bothEngines = [
  'test/smoke.test.ts',
  'test/api-auth-isolation.test.ts',
  'test/api-protocol.test.ts',
  'test/api-read.test.ts',
  'test/api-update.test.ts',
  'test/api-warehouse.test.ts',
  'test/pos-adjust.test.ts',
  'test/pos-guarded-set.test.ts',
  'test/pos-idempotency.test.ts',
  'test/pos-openapi.test.ts',
  'test/stocktake-api.test.ts',
  'test/stocktake-commit.test.ts',
  'test/stocktake-count-semantics.test.ts',
  'test/stocktake-idempotency.test.ts',
  'test/history-api.test.ts',
  'test/csv-round-trip.test.ts',
  'test/csv-formula-injection.test.ts',
  'test/sync-api.test.ts',
  'test/multi-process-writers.test.ts',
  'test/crash-durability.test.ts',
  'test/hostile-input.test.ts',
  'test/upgrade-from-first-schema.test.ts',
  'test/isolation.test.ts',
  'test/gtin-equivalence.test.ts',
  'test/signout-and-idle-expiry.test.ts',
  'test/openapi-document.test.ts',
  'test/stocktake-e2e.test.ts',
  'test/barcode-control-characters.test.ts',
  'test/pos-discovery.test.ts',
  'test/canonical-requests.test.ts',
  'test/cli.test.ts',
  'test/pos-migration.test.ts',
  'test/catalogue-import.test.ts',
  'test/catalogue-file-import.test.ts',
  'test/ui-server.test.ts',
  'test/e2e/scanner-ui.test.ts',
  'test/e2e/scanner-work.test.ts',
  'test/http-hardening.test.ts',
  'test/idempotency-caps.test.ts',
  'test/paged-lists.test.ts',
];

/** Files about PostgreSQL itself: only the `postgres` project runs them. */
export const postgresOnly = ['test/postgres-import-statistics.test.ts', 'test/postgres-check-and-backup.test.ts'];

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // expect.poll waits for the UI or a server to get somewhere; its 1 s default fails on a loaded
  // 2-core CI machine. As long as Playwright's own step timeout (test/support/ui-harness.ts).
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    projects: [
      {
        extends: false,
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: postgresOnly,
          env: { BARCODE_INVENTORY_TEST_ENGINE: 'sqlite' },
          globalSetup: ['test/support/build-ui.ts'], // builds the UI for test/e2e when it is missing or stale
        },
      },
      {
        extends: false,
        test: {
          ...shared,
          name: 'postgres',
          include: [...bothEngines, ...postgresOnly],
          env: { BARCODE_INVENTORY_TEST_ENGINE: 'postgres' },
          // One throwaway cluster, a database per test server; the UI build for the browser tests among the files.
          globalSetup: ['test/support/build-ui.ts', 'test/support/postgres-global.ts'],
        },
      },
    ],
  },
});
