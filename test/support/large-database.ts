// The generated database of the paged-list tests (paged-lists.test.ts on both engines, its SQLite
// query plans in paged-lists-sqlite-plans.test.ts): 100,000 barcodes with stock in two warehouses
// (200,000 export rows), 14,000 reorder points and 60,000 sales, 2,000 stocktakes and one session of
// 8,000 lines, served by a real server
// whose engine counts what each request did (counting-engine.ts).
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openEngine, openStore } from '../../server/store/open-store.ts';
import { HLC_KEY_COUNTERS } from '../../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../../server/store/movements/movement-names.ts';
import { createStore } from '../../server/store/store.ts';
import { STOCKTAKES_PATH } from '../../shared/index.ts';
import { countingEngine } from './counting-engine.ts';
import { type DatabaseProbe, probeDatabase } from './database-probe.ts';
import { createDatabase, databaseLocation, dropDatabase } from './test-engine.ts';
import { seedDatabase, tempDir } from './test-server.ts';

export const UNITS = 100_000;
export const SESSIONS = 2_000;
export const KNOWN_LINES = 5_000;
export const UNKNOWN_LINES = 3_000;

export const catalogue = {
  accounts: [
    {
      name: 'big',
      warehouses_enabled: true,
      warehouses: [
        { id: 1, name: 'Main' },
        { id: 2, name: 'Back' },
      ],
      items: [],
    },
    { name: 'small', warehouses_enabled: false, items: [{ id: 9_000_001, name: 'Pen', barcode: 'PEN', stock: [{ quantity: 1 }] }] },
  ],
};

/** Fills the database with plain SQL: items with one barcode each (every tenth with two variants instead), stock in both warehouses, sessions and lines. */
export async function generate(probe: DatabaseProbe): Promise<void> {
  const big = (await probe.first<{ id: number }>("SELECT id FROM accounts WHERE name = 'big'"))!.id;
  const plain = UNITS - (UNITS / 10) * 2; // 80,000 plain items …
  const withVariants = UNITS / 10; // … and 10,000 items of two variants each
  await probe.run('BEGIN');
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO items (id, account_id, name) SELECT i, ?, 'Item ' || i FROM n`,
    plain + withVariants,
    big,
  );
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO stock_units (account_id, barcode, item_id, variant_id) SELECT ?, 'P' || i, i, NULL FROM n`,
    plain,
    big,
  );
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO variants (id, item_id, account_id, name) SELECT 1000000 + i, ? + (i + 1) / 2, ?, 'V' || i FROM n`,
    withVariants * 2,
    plain,
    big,
  );
  await probe.run(
    `INSERT INTO stock_units (account_id, barcode, item_id, variant_id) SELECT ?, 'V' || id, item_id, id FROM variants WHERE account_id = ?`,
    big,
    big,
  );
  await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) SELECT id, 1, id % 50 FROM stock_units WHERE account_id = ?', big);
  await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) SELECT id, 2, id % 7 FROM stock_units WHERE account_id = ?', big);
  // Reorder points on every tenth unit in Main (quantity id % 50 against a minimum of 25: about half
  // of them low) and every 25th in Back, so the low-stock list has a walk to show.
  await probe.run(
    'INSERT INTO reorder_points (unit_id, warehouse_id, account_id, minimum, target) SELECT id, 1, account_id, 25, 60 FROM stock_units WHERE account_id = ? AND id % 10 = 0',
    big,
  );
  await probe.run(
    'INSERT INTO reorder_points (unit_id, warehouse_id, account_id, minimum, target) SELECT id, 2, account_id, 3, NULL FROM stock_units WHERE account_id = ? AND id % 25 = 0',
    big,
  );
  // Sales to weigh the low-stock list by: 60,000 adjusts of the units with a reorder point in Main,
  // so the planner's statistics know the history is large.
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 59999)
     INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
     SELECT u.account_id, u.id, u.item_id, u.variant_id, 1, 'generated', 1 + n.i, 'adjust', -1, (1700000000000 + n.i) * ${HLC_KEY_COUNTERS}, 1, 0, ${SOURCE_IDS.api}, 1700000000000 + n.i
     FROM n JOIN stock_units u ON u.id = 10 * (1 + n.i % 9000)`,
  );
  const at = new Date().toISOString();
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO stocktakes (account_id, warehouse_id, name, blind, status, created_at) SELECT ?, 1, 'Session ' || i, 0, 'open', ? FROM n`,
    SESSIONS,
    big,
    at,
  );
  const session = (await probe.first<{ id: number }>('SELECT max(id) AS id FROM stocktakes'))!.id;
  await probe.run(
    `INSERT INTO stocktake_lines (stocktake_id, barcode, unit_id, counted, resolution, created_at, updated_at)
     SELECT ?, barcode, id, 3, NULL, ?, ? FROM stock_units WHERE account_id = ? ORDER BY id LIMIT ?`,
    session,
    at,
    at,
    big,
    KNOWN_LINES,
  );
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO stocktake_lines (stocktake_id, barcode, unit_id, counted, resolution, created_at, updated_at) SELECT ?, 'UNKNOWN-' || i, NULL, 1, 'pending', ?, ? FROM n`,
    UNKNOWN_LINES,
    session,
    at,
    at,
  );
  // Lines of 200 other sessions after the large one's, as a database in use has them.
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
     INSERT INTO stocktake_lines (stocktake_id, barcode, unit_id, counted, resolution, created_at, updated_at)
     SELECT 1 + i / 50, 'P' || (1 + i % 50), 1 + i % 50, 1, NULL, ?, ? FROM n`,
    at,
    at,
  );
  await probe.run(
    `INSERT INTO stocktake_scans (stocktake_id, line_id, kind, amount, created_at) SELECT stocktake_id, id, 'scan', counted, ? FROM stocktake_lines`,
    at,
  );
  await probe.run('COMMIT');
  await probe.run('ANALYZE');
}

export interface LargeDatabase {
  server: RunningServer;
  counting: ReturnType<typeof countingEngine>;
  probe: DatabaseProbe;
  get(target: string): Promise<Response>;
  post(target: string, body: unknown): Promise<Response>;
}

/** Builds the large database and its server before the suite's tests, and removes them after. */
export function useLargeDatabase(): LargeDatabase {
  const { dir, remove } = tempDir('bi-paged-');
  const dbFile = databaseLocation(dir, 'large.db');
  let token: string;
  const large = {
    get: (target: string) => fetch(`${large.server.url}${target}`, { headers: { authorization: `Token ${token}` } }),
    post: (target: string, body: unknown) =>
      fetch(`${large.server.url}${target}`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  } as LargeDatabase;

  beforeAll(async () => {
    await createDatabase(dbFile);
    token = (await seedDatabase(dbFile, catalogue)).big!;
    large.probe = probeDatabase(dbFile);
    await generate(large.probe);
    await (await openStore(dbFile)).close(); // migrations done before the tally starts
    large.counting = countingEngine(await openEngine(dbFile));
    large.server = await startServer({ store: createStore(large.counting.engine), port: 0 });
    await large.get(`${STOCKTAKES_PATH}?limit=1`); // the token lookup is kept from here on
  }, 120_000);

  afterAll(async () => {
    await large.probe?.close();
    await large.server?.close();
    await dropDatabase(dbFile);
    remove();
  });

  return large;
}
