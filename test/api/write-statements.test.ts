// A POST of rows (update and adjust) sends the same few statements whatever its row count (issue 30):
// the stored quantities of the request are read in one query, its movements and the quantities they
// leave are written in one statement each. Counted through the engine (test/support/counting-engine.ts)
// on a real server; on PostgreSQL every statement is a round trip, so this bounds the round trips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH } from '../../shared/index.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { createStore } from '../../server/store/store.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { shopCatalogue } from '../support/stocktake-fixtures.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

/**
 * Statements one write of rows sends besides the engine's own (BEGIN, lock, COMMIT), whatever its row
 * count: the instance, the units with their quantities, the warehouses, the account's state, the
 * movements, the quantities written, the instance's clock (docs/ARCHITECTURE.md, "The write path of a
 * row list"). A write alone in its group; in a group, the instance is read and written once for all.
 */
const MOST_STATEMENTS = 7;

describe('statements of a POST of rows', () => {
  const { dir, remove } = tempDir();
  let location: string;
  let token: string;
  let counting: ReturnType<typeof countingEngine>;
  let running: RunningServer;
  beforeAll(async () => {
    location = await newDatabase(dir);
    token = (await seedDatabase(location, shopCatalogue(120))).shop!;
    counting = countingEngine(await openEngine(location));
    running = await startServer({ store: createStore(counting.engine), port: 0 });
  });
  afterAll(async () => {
    await running.close();
    await dropDatabase(location);
    remove();
  });

  /** The statements the write of one POST sent, after it answered every row. */
  const statementsOf = async (path: string, rows: Record<string, unknown>[]) => {
    counting.reset();
    const res = await fetch(running.url + path, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: unknown[]; errors: unknown[] };
    expect({ results: body.results.length, errors: body.errors }).toEqual({ results: rows.length, errors: [] });
    const tally = counting.reset();
    expect(tally.writes).toBe(1);
    return tally.writeStatements;
  };
  const barcodes = (from: number, count: number) => Array.from({ length: count }, (_, i) => `B${String(from + i).padStart(4, '0')}`);

  it('sets 5 rows and 50 rows with the same statements', async () => {
    const set = (from: number, count: number) =>
      statementsOf(
        INVENTORY_PATH,
        barcodes(from, count).map((barcode, i) => ({ barcode, quantity: i, warehouse_name: i % 2 ? 'Main' : 'Back' })),
      );
    await set(0, 1); // the account's first write interns what it has seen: once, not per request
    const fifty = await set(0, 50);
    expect(await set(50, 5)).toBe(fifty);
    expect(fifty).toBeLessThanOrEqual(MOST_STATEMENTS);
  });

  it('adjusts 5 rows and 50 rows with the same statements', async () => {
    const adjust = (from: number, count: number) =>
      statementsOf(
        ADJUST_PATH,
        barcodes(from, count).map((barcode, i) => ({ barcode, delta: i - 2, warehouse_name: i % 2 ? 'Main' : 'Back' })),
      );
    const fifty = await adjust(60, 50);
    expect(await adjust(110, 5)).toBe(fifty);
    expect(fifty).toBeLessThanOrEqual(MOST_STATEMENTS);
  });
});
