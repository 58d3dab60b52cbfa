import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Every test file runs on every storage engine: the `sqlite` project on SQLite files, the `postgres`
// project again on a throwaway PostgreSQL cluster (test/support/postgres-global.ts,
// test/support/test-engine.ts). A file runs on one engine only when it is listed below WITH its
// reason; test/project/engine-lists.test.ts fails on a listed file that does not exist, a reason left
// empty, a file listed twice, or a "no database" file that reaches a database, and keeps the table in
// DEVELOPERS.md ("Tests on both engines") equal to these lists.

/** Files about SQLite itself (its files, its plans, its own machinery): only the `sqlite` project runs them. */
export const sqliteOnly: Record<string, string> = {
  'test/ui/low-stock-ui.test.ts':
    "the page's stock card mark, its minimum form and the low-stock view: the page, not the engine (the list and the reorder points run on both engines in test/api/low-stock-api.test.ts and reorder-points-api.test.ts)",
  'test/ui/per-day-ui.test.ts':
    "the page's movements per day and a chart's details line on tap and keys: the page, not the engine (the per-day answer runs on both engines in test/api/movements-per-day-api.test.ts)",
  'test/ui/labels-ui.test.ts':
    "the page's Print labels and the PDF it downloads; the labels' queries run on both engines in test/api/labels-api.test.ts",
  'test/ui/camera-scan.test.ts':
    "a fake camera in Debian's chromium reading codes into the page: the camera and the page, not the engine (the stocktake it counts into runs on both in test/stocktake/)",
  'test/store/storage-faults.test.ts': "injects storage faults (full disk, read-only file, I/O errors) into the SQLite engine's file",
  'test/store/page-cache.test.ts':
    "SQLite's page cache (`PRAGMA cache_size`) of the store's connection, and the bulk write's; PostgreSQL's buffers are the server's own",
  'test/store/private-files.test.ts': 'file modes of the `.db`, `-wal` and `-shm` files and of the files the CLI writes beside them',
  'test/cli/backup-cli.test.ts':
    "SQLite's online backup and `restore` of a `.db` file; PostgreSQL is backed up with `pg_dump` and restored with `pg_restore` (test/store/postgres-check-and-backup.test.ts)",
  'test/cli/restore-revocations.test.ts':
    '`restore` of a SQLite backup file: PostgreSQL is restored with `pg_restore`, outside the program',
  'test/store/concurrency.test.ts':
    'takes a SQLite online backup and runs `checkFile` in the middle of the load; its PostgreSQL counterpart is test/store/multi-process-writers.test.ts',
  'test/launch/lazy-packages.test.ts': 'a server on a SQLite file must not load the PostgreSQL driver; on PostgreSQL it needs it',
  'test/store/group-commit-sqlite.test.ts':
    "the SQLite engine's side of group commit (a full disk in the middle of a group, the loop turning within one); PostgreSQL's is test/store/group-commit-postgres.test.ts",
  'test/store/kept-lookups-sqlite.test.ts':
    "the SQLite engine's own change detection (`PRAGMA data_version` across two connections); what is kept is tested on both in kept-lookups.test.ts",
  'test/launch/ui-server-sqlite-demo.test.ts':
    'the launcher\'s demo: `demo.db` created beside the real SQLite file; a PostgreSQL database has no "beside" (test/launch/ui-server.test.ts runs on both)',
  'test/api/idempotency-caps-sqlite-file.test.ts':
    'how much the `.db` and `-wal` files grow for stored answers; the caps themselves are in idempotency-caps.test.ts (both engines)',
  'test/store/stock-table-sqlite-layout.test.ts':
    "the `stock` table's SQLite layout (WITHOUT ROWID) and the plan of a quantity's read; the data through that migration is in upgrade-from-first-schema.test.ts",
  'test/store/planner-statistics-sqlite.test.ts':
    "SQLite's planner statistics of stock_units (`sqlite_stat1`, `EXPLAIN QUERY PLAN` of a re-import's look-ups); PostgreSQL analyses after an import (postgres-import-statistics.test.ts)",
  'test/api/paged-lists-sqlite-plans.test.ts':
    "SQLite's query plans (`EXPLAIN QUERY PLAN`) of the paged lists; the bounds on reads and rows are in paged-lists.test.ts (both engines)",
  'test/cli/node-flags.test.ts':
    'the V8 flags `serve` restarts itself with; the database it is given is a SQLite file by path, incidental to the test',
  'test/launch/electron-shell.test.ts':
    'the desktop shell started on its default database, a SQLite file: the shell never chooses an engine',
  'test/project/bench-scripts.test.ts':
    'runs the bench scripts on the small sizes, and the bench measures SQLite files (bench/postgres.ts is `npm run bench -- --engine postgres`)',
  'test/ui/accessibility.test.ts':
    "axe-core on the pages: what the page renders, not the engine's answers (the browser tests through a server run on both: scanner-ui, scanner-work)",
  'test/ui/launcher.test.ts': "`npm start`'s launcher front and its demo database beside a SQLite file",
  'test/ui/real-keyboard.test.ts':
    'a real X keyboard under Xvfb typing into the page: the keys, not the engine (and a minute per engine on 2 cores)',
  'test/ui/scan-after-load.test.ts': 'keys typed while the page loads: the page, not the engine',
  'test/ui/scanner-input.test.ts': "how the page reads a scanner's keys: the page, not the engine",
  'test/ui/screenshots.test.ts': "the README's screenshots, written once",
  'test/ui/languages.test.ts': "the page's words in each language, and its layout in them: the page, not the engine",
  'test/ui/no-silent-mistakes.test.ts':
    "what the page says and prevents at the shelf: the page, not the engine (the server's refusals behind it are tested on both)",
  'test/catalogue/import-problems.test.ts':
    'what a refused catalogue file says (JSON position, CSV separator and quotes, all problems at once), into a SQLite file: the refusal comes before any write',
  'test/cli/cli-says-which-database.test.ts':
    'the database a command names and the empty SQLite file a failed `sync link` must not leave: files by path',
  'test/ui/sync-ui.test.ts':
    "the page's sync indicator, the offline stocktake and the conflict resolved from the keyboard, across two linked servers: the page, not the engine (sync rounds, conflicts and their resolution run on both engines in test/sync/, and a minute per engine on 2 cores)",
  'test/ui/people-ui.test.ts':
    "the page's shared-scanner sign-in by badge and PIN and the people admin: the page, not the engine (people, badges and PINs run on both engines in test/api/people-api.test.ts and test/http/signout-and-idle-expiry.test.ts)",
  'test/ui/roles-ui.test.ts':
    'what the page shows each role: the page, not the engine (what each role may call runs on both engines in test/api/roles.test.ts)',
  'test/ui/signin-switch.test.ts':
    "the page's sign-in and account switch; tokens on both engines are in test/http/signout-and-idle-expiry.test.ts",
};

/** Files about PostgreSQL itself: only the `postgres` project runs them. */
export const postgresOnly: Record<string, string> = {
  'test/store/postgres-import-statistics.test.ts': "PostgreSQL's planner statistics after a bulk import",
  'test/store/kept-lookups-postgres.test.ts': "what is kept waits for the listener's notifications (its backend stopped with SIGSTOP)",
  'test/store/postgres-connection-loss.test.ts': 'a PostgreSQL server ending the connections of a store that closes them',
  'test/store/postgres-check-and-backup.test.ts': "`check` and `backup` of a PostgreSQL database (`pg_dump`), the engine's own tools",
  'test/store/fair-connections-postgres.test.ts':
    "PostgreSQL's connection pool shared out by account: SQLite has one connection and no pool",
  'test/store/group-commit-postgres.test.ts':
    "the PostgreSQL engine's group commit (savepoints on one connection, a connection ended by the server); SQLite's is test/store/group-commit-sqlite.test.ts",
};

/** Files that open no database: they run once, in the `sqlite` project; an engine would change nothing in them. */
export const noDatabase: Record<string, string> = {
  'test/store/warehouse-order.test.ts':
    'a pure check of a list of records; the reads it orders run on both engines in test/api/api-read.test.ts',
  'test/api/read-answer.test.ts': 'builds read answers from values in memory',
  'test/store/in-list.test.ts': 'pads IN lists in memory',
  'test/shared/actor-form.test.ts': 'reads actor texts in memory',
  'test/shared/time-zone.test.ts': "time zones' offsets and day starts, from the runtime's Intl",
  'test/cli/cli-node-version.test.ts': 'the command on a Node without type stripping stops before it opens anything',
  'test/http/compiled-check.test.ts': 'the compiled body check against zod, on values in memory',
  'test/http/account-turns.test.ts': 'turns shared out by account on their own, against the event loop',
  'test/store/fair-connections.test.ts': "PostgreSQL's connections shared out by account, counted in memory without a database",
  'test/labels/label-symbols.test.ts': 'labels rendered from values in memory and decoded back: no catalogue is read',
  'test/launch/electron-security-settings.test.ts': "the desktop window's settings, read from the shell's source",
  'test/pos/pos-shared.test.ts': 'the POS row checks in shared/',
  'test/project/install-policy.test.ts': "package.json's install policy",
  'test/project/lint-cycles.test.ts': "ESLint's cycle rule on files in a temporary folder",
  'test/project/engine-lists.test.ts': 'these lists',
  'test/shared/gs1-gtin.test.ts': 'GS1 and GTIN rules in shared/',
  'test/shared/shared-purity.test.ts': "shared/'s imports",
  'test/shared/shared-validation.test.ts': 'row validation in shared/',
  'test/store/fold.test.ts': 'the fold and conflict rules, a pure module',
  'test/store/hlc.test.ts': 'the hybrid logical clock, a pure module',
  'test/store/postgres-without-install.test.ts': "the embedded PostgreSQL package's binaries run; no database is created",
  'test/sync/upstream-client.test.ts': 'the upstream client against small misbehaving HTTP servers',
  'test/ui/scan-detector.test.ts': 'the scan detector, a pure module of the UI',
  'test/ui/scanner-reading.test.ts': "reading a scanner's keys, pure modules of the UI",
  'test/ui/ui-catalogues.test.ts': "the UI's catalogues and the renderer's sources, read as files",
};

const onlyOne = (lists: Record<string, string>[]) => lists.flatMap((list) => Object.keys(list));

const shared = {
  // A worker per core: Vitest's default leaves one core free, which on CI's two cores ran the files
  // one at a time (21 minutes); the browser and PostgreSQL tests spend much of theirs waiting. Set on
  // each project: they do not extend the root config, whose maxWorkers they would not read.
  maxWorkers: availableParallelism(),
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
          exclude: onlyOne([postgresOnly]),
          env: { BARCODE_INVENTORY_TEST_ENGINE: 'sqlite' },
          globalSetup: ['test/support/build-ui.ts'], // builds the UI for the browser tests when it is missing or stale
        },
      },
      {
        extends: false,
        test: {
          ...shared,
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: onlyOne([sqliteOnly, noDatabase]),
          env: { BARCODE_INVENTORY_TEST_ENGINE: 'postgres' },
          // One throwaway cluster, a database per test server; the UI build for the browser tests among the files.
          globalSetup: ['test/support/build-ui.ts', 'test/support/postgres-global.ts'],
        },
      },
    ],
  },
});
