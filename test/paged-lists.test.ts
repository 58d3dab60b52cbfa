// Every list endpoint of the store's large tables is paged or streamed, and each page stays within a
// bound whatever the size of the database, shown on a generated database (100,000 barcodes with stock
// in two warehouses: 200,000 export rows; 2,000 stocktakes; one session of 8,000 lines) by counting
// what the real engine did per request — reads, statements, rows per statement — and by SQLite's own
// query plans (every page a range of an index, no sort of the whole table). No timings.
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/start.ts';
import { openStore } from '../server/store/open-store.ts';
import { SqliteEngine } from '../server/store/sqlite/sqlite-engine.ts';
import { EXPORT_PAGE_UNITS } from '../server/store/stock-export.ts';
import { COUNTS_PAGE_LINES } from '../server/store/stocktakes.ts';
import { createStore } from '../server/store/store.ts';
import { STOCKTAKES_PATH, STOCK_EXPORT_PATH, type StocktakePage } from '../shared/index.ts';
import { countingEngine } from './support/counting-engine.ts';
import { type DatabaseProbe, probeDatabase } from './support/database-probe.ts';
import { seedDatabase, tempDir } from './support/test-server.ts';

const UNITS = 100_000;
const SESSIONS = 2_000;
const KNOWN_LINES = 5_000;
const UNKNOWN_LINES = 3_000;

const catalogue = {
  accounts: [
    { name: 'big', warehouses_enabled: true, warehouses: [{ id: 1, name: 'Main' }, { id: 2, name: 'Back' }], items: [] },
    { name: 'small', warehouses_enabled: false, items: [{ id: 9_000_001, name: 'Pen', barcode: 'PEN', stock: [{ quantity: 1 }] }] },
  ],
};

/** Fills the database with plain SQL: items with one barcode each (every tenth with two variants instead), stock in both warehouses, sessions and lines. */
async function generate(probe: DatabaseProbe): Promise<void> {
  const big = (await probe.first<{ id: number }>("SELECT id FROM accounts WHERE name = 'big'"))!.id;
  const plain = UNITS - (UNITS / 10) * 2; // 80,000 plain items …
  const withVariants = UNITS / 10; // … and 10,000 items of two variants each
  await probe.run('BEGIN');
  await probe.run(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO items (id, account_id, name) SELECT i, ?, 'Item ' || i FROM n`, plain + withVariants, big);
  await probe.run(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO stock_units (account_id, barcode, item_id, variant_id) SELECT ?, 'P' || i, i, NULL FROM n`, plain, big);
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO variants (id, item_id, account_id, name) SELECT 1000000 + i, ? + (i + 1) / 2, ?, 'V' || i FROM n`,
    withVariants * 2,
    plain,
    big,
  );
  await probe.run(`INSERT INTO stock_units (account_id, barcode, item_id, variant_id) SELECT ?, 'V' || id, item_id, id FROM variants WHERE account_id = ?`, big, big);
  await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) SELECT id, 1, id % 50 FROM stock_units WHERE account_id = ?', big);
  await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) SELECT id, 2, id % 7 FROM stock_units WHERE account_id = ?', big);
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
    session, at, at, big, KNOWN_LINES,
  );
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO stocktake_lines (stocktake_id, barcode, unit_id, counted, resolution, created_at, updated_at) SELECT ?, 'UNKNOWN-' || i, NULL, 1, 'pending', ?, ? FROM n`,
    UNKNOWN_LINES, session, at, at,
  );
  // Lines of 200 other sessions after the large one's, as a database in use has them.
  await probe.run(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
     INSERT INTO stocktake_lines (stocktake_id, barcode, unit_id, counted, resolution, created_at, updated_at)
     SELECT 1 + i / 50, 'P' || (1 + i % 50), 1 + i % 50, 1, NULL, ?, ? FROM n`,
    at, at,
  );
  await probe.run(`INSERT INTO stocktake_scans (stocktake_id, line_id, kind, amount, created_at) SELECT stocktake_id, id, 'scan', counted, ? FROM stocktake_lines`, at);
  await probe.run('COMMIT');
  await probe.run('ANALYZE');
}

describe('paged lists on a large database', () => {
  const { dir, remove } = tempDir('bi-paged-');
  const dbFile = path.join(dir, 'large.db');
  let server: RunningServer;
  let counting: ReturnType<typeof countingEngine>;
  let probe: DatabaseProbe;
  let token: string;

  beforeAll(async () => {
    token = (await seedDatabase(dbFile, catalogue)).big!;
    probe = probeDatabase(dbFile);
    await generate(probe);
    await (await openStore(dbFile)).close(); // migrations done before the tally starts
    counting = countingEngine(await SqliteEngine.open(dbFile));
    server = await startServer({ store: createStore(counting.engine), port: 0 });
    await fetch(`${server.url}${STOCKTAKES_PATH}?limit=1`, { headers: { authorization: `Token ${token}` } }); // the token lookup is kept from here on
  }, 120_000);

  afterAll(async () => {
    await probe?.close();
    await server?.close();
    remove();
  });

  const get = (target: string) => fetch(`${server.url}${target}`, { headers: { authorization: `Token ${token}` } });

  /**
   * The plan lines of the tally's page queries (those with a LIMIT), as SQLite plans them. The other
   * queries of a page fetch the rows of the page's own ids, a set bounded by the page size.
   */
  async function plans(): Promise<string[]> {
    const lines: string[] = [];
    for (const { sql, parameters } of counting.tally.queries) {
      if (!sql.includes(" limit ?")) continue;
      const plan = await probe.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...parameters);
      lines.push(...plan.map((p) => p.detail));
    }
    return lines;
  }

  it('lists stocktakes a page at a time, with four statements whatever the page size', async () => {
    for (const limit of [10, 100]) {
      counting.reset();
      const response = await get(`${STOCKTAKES_PATH}?limit=${limit}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as StocktakePage;
      expect(page.results).toHaveLength(limit);
      expect(counting.tally).toMatchObject({ reads: 1, statements: 4 });
      expect(counting.tally.maxRows).toBeLessThanOrEqual(limit + 1);
    }
    const planned = await plans();
    expect(planned.filter((line) => /TEMP B-TREE|^SCAN /.test(line))).toEqual([]);
    expect(planned.some((line) => /USING (COVERING )?INDEX stocktakes_account/.test(line))).toBe(true);

    // Following `next` visits every session once, newest first.
    const seen: number[] = [];
    let next: string | null = `${STOCKTAKES_PATH}?limit=100`;
    let biggest = 0;
    while (next !== null) {
      counting.reset();
      const page = (await (await get(next)).json()) as StocktakePage;
      biggest = Math.max(biggest, counting.tally.statements);
      seen.push(...page.results.map((s) => s.id));
      next = page.next;
    }
    expect(seen).toHaveLength(SESSIONS);
    expect(new Set(seen).size).toBe(SESSIONS);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(biggest).toBe(4);
    const session = (await (await get(`${STOCKTAKES_PATH}?limit=1`)).json()) as StocktakePage;
    expect(session.results[0]!.totals).toEqual({ known_lines: KNOWN_LINES, unknown_lines: UNKNOWN_LINES, counted_units: 3 * KNOWN_LINES, scans: KNOWN_LINES + UNKNOWN_LINES });
    console.log(`[paged lists] /stocktakes/: ${SESSIONS} sessions, every page 1 read of 4 statements, at most limit + 1 rows each`);
  });

  it('streams the stock export in pages of 1000 barcodes, each its own read', async () => {
    counting.reset();
    const response = await get(STOCK_EXPORT_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(UNITS * 2);
    expect(rows[0]).toMatchObject({ item_id: '1', barcode: 'P1', warehouse: 'Main' });
    expect(rows.at(-1)).toMatchObject({ item_id: String(UNITS - UNITS / 10), variant_name: `V${(UNITS / 10) * 2}`, warehouse: 'Back' });
    const pages = Math.ceil(UNITS / EXPORT_PAGE_UNITS);
    expect(counting.tally.reads).toBe(pages);
    expect(counting.tally.statements).toBe(2 * pages);
    expect(counting.tally.maxRows).toBeLessThanOrEqual(EXPORT_PAGE_UNITS * 2 + 1);
    const planned = await plans();
    expect(planned.filter((line) => /TEMP B-TREE|MULTI-INDEX|^SCAN /.test(line))).toEqual([]);
    expect(planned.some((line) => line.includes('INDEX stock_units_export_order'))).toBe(true);
    console.log(`[paged lists] export/stock.csv: ${rows.length} rows in ${counting.tally.reads} reads, at most ${counting.tally.maxRows} rows per statement`);

    counting.reset();
    const main = await get(`${STOCK_EXPORT_PATH}?warehouse_name=Back`);
    expect(parse(await main.text(), { columns: true })).toHaveLength(UNITS);
    expect(counting.tally.maxRows).toBeLessThanOrEqual(EXPORT_PAGE_UNITS + 1);
  });

  it("streams a large session's counts.csv in pages of 1000 lines", async () => {
    const session = (await probe.first<{ id: number }>('SELECT max(id) AS id FROM stocktakes'))!.id;
    counting.reset();
    const response = await get(`${STOCKTAKES_PATH}${session}/counts.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(KNOWN_LINES + UNKNOWN_LINES);
    expect(rows.slice(0, KNOWN_LINES).every((r) => r.known === 'yes')).toBe(true);
    expect(rows.slice(KNOWN_LINES).every((r) => r.known === 'no')).toBe(true);
    // Each page reads the session and one page of lines; an empty page ends the known and the unknown lines.
    const pages = Math.ceil(KNOWN_LINES / COUNTS_PAGE_LINES) + 1 + Math.ceil(UNKNOWN_LINES / COUNTS_PAGE_LINES) + 1;
    expect(counting.tally.reads).toBe(pages);
    expect(counting.tally.maxRows).toBeLessThanOrEqual(COUNTS_PAGE_LINES);
    const planned = await plans();
    expect(planned.filter((line) => /TEMP B-TREE|^SCAN (l|stocktake_lines)\b/.test(line))).toEqual([]);
    expect(planned.some((line) => line.includes('stocktake_lines_session_order'))).toBe(true);
    console.log(`[paged lists] counts.csv: ${rows.length} lines in ${counting.tally.reads} reads, at most ${counting.tally.maxRows} rows per statement`);
  });
});
