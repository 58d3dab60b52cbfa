// Every list endpoint of the store's large tables is paged or streamed, and each page stays within a
// bound whatever the size of the database, shown on a generated database (100,000 barcodes with stock
// in two warehouses: 200,000 export rows; 14,000 reorder points; 2,000 stocktakes; one session of 8,000 lines) by counting
// what the real engine did per request — reads, statements, rows per statement. No timings. SQLite's
// query plans of the same pages (every page a range of an index, no sort of the whole table) are
// checked in paged-lists-sqlite-plans.test.ts.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LOW_STOCK_STRETCH } from '../../server/store/low-stock.ts';
import { EXPORT_PAGE_UNITS } from '../../server/store/stock-export.ts';
import { COUNTS_PAGE_LINES } from '../../server/store/stocktakes/review.ts';
import { LOW_STOCK_PATH, type LowStockPage, STOCKTAKES_PATH, STOCK_EXPORT_PATH, type StocktakePage } from '../../shared/index.ts';
import { KNOWN_LINES, SESSIONS, UNITS, UNKNOWN_LINES, useLargeDatabase } from '../support/large-database.ts';

describe('paged lists on a large database', () => {
  const large = useLargeDatabase();
  const get = (target: string) => large.get(target);

  it('lists stocktakes a page at a time, with four statements whatever the page size', async () => {
    for (const limit of [10, 100]) {
      large.counting.reset();
      const response = await get(`${STOCKTAKES_PATH}?limit=${limit}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as StocktakePage;
      expect(page.results).toHaveLength(limit);
      expect(large.counting.tally).toMatchObject({ reads: 1, statements: 4 });
      expect(large.counting.tally.maxRows).toBeLessThanOrEqual(limit + 1);
    }

    // Following `next` visits every session once, newest first.
    const seen: number[] = [];
    let next: string | null = `${STOCKTAKES_PATH}?limit=100`;
    let biggest = 0;
    while (next !== null) {
      large.counting.reset();
      const page = (await (await get(next)).json()) as StocktakePage;
      biggest = Math.max(biggest, large.counting.tally.statements);
      seen.push(...page.results.map((s) => s.id));
      next = page.next;
    }
    expect(seen).toHaveLength(SESSIONS);
    expect(new Set(seen).size).toBe(SESSIONS);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(biggest).toBe(4);
    const session = (await (await get(`${STOCKTAKES_PATH}?limit=1`)).json()) as StocktakePage;
    expect(session.results[0]!.totals).toEqual({
      known_lines: KNOWN_LINES,
      unknown_lines: UNKNOWN_LINES,
      counted_units: 3 * KNOWN_LINES,
      scans: KNOWN_LINES + UNKNOWN_LINES,
      committed_lines: 0,
    });
    console.log(`[paged lists] /stocktakes/: ${SESSIONS} sessions, every page 1 read of 4 statements, at most limit + 1 rows each`);
  });

  /** Reads of a walk of `points` reorder points: a stretch each LOW_STOCK_STRETCH, and the last one's end. */
  const stretches = (points: number) => Math.floor(points / LOW_STOCK_STRETCH) + 1;

  it('pages the low-stock list: a read of two statements per stretch of reorder points (one more with a warehouse), at most limit + 1 rows', async () => {
    // The generator's reorder points: every tenth unit in Main at minimum 25 (quantity id % 50), every 25th in Back at 3 (id % 7).
    const ids = Array.from({ length: UNITS }, (_, i) => i + 1);
    const low = ids.filter((id) => id % 10 === 0 && id % 50 <= 25).length + ids.filter((id) => id % 25 === 0 && id % 7 <= 3).length;
    let next: string | null = `${LOW_STOCK_PATH}?limit=500`;
    let seen = 0;
    let pages = 0;
    while (next !== null) {
      large.counting.reset();
      const page = (await (await get(next)).json()) as LowStockPage;
      // 14,000 reorder points: two stretches, each where it ends and its best candidates.
      expect(large.counting.tally).toMatchObject({ reads: stretches(14_000), statements: 2 * stretches(14_000) });
      expect(large.counting.tally.maxRows).toBeLessThanOrEqual(501);
      seen += page.results.length;
      pages++;
      next = page.next;
    }
    expect(seen).toBe(low);
    large.counting.reset();
    expect((await get(`${LOW_STOCK_PATH}?limit=100&warehouse=2`)).status).toBe(200);
    // Back's 4,000 reorder points: the warehouse checked, then one stretch.
    expect(large.counting.tally).toMatchObject({ reads: 1 + stretches(4_000), statements: 1 + 2 * stretches(4_000) });
    console.log(
      `[paged lists] /low-stock/: ${low} low of 14,000 reorder points, ${pages} pages of 500, each ${stretches(14_000)} reads of 2 statements (stretches of ${LOW_STOCK_STRETCH})`,
    );
  });

  it('streams the stock export in pages of 1000 barcodes, each its own read', async () => {
    large.counting.reset();
    const response = await get(STOCK_EXPORT_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(UNITS * 2);
    expect(rows[0]).toMatchObject({ item_id: '1', barcode: 'P1', warehouse: 'Main' });
    expect(rows.at(-1)).toMatchObject({ item_id: String(UNITS - UNITS / 10), variant_name: `V${(UNITS / 10) * 2}`, warehouse: 'Back' });
    const pages = Math.ceil(UNITS / EXPORT_PAGE_UNITS);
    expect(large.counting.tally.reads).toBe(pages);
    expect(large.counting.tally.statements).toBe(2 * pages);
    expect(large.counting.tally.maxRows).toBeLessThanOrEqual(EXPORT_PAGE_UNITS * 2 + 1);
    console.log(
      `[paged lists] export/stock.csv: ${rows.length} rows in ${large.counting.tally.reads} reads, at most ${large.counting.tally.maxRows} rows per statement`,
    );

    large.counting.reset();
    const main = await get(`${STOCK_EXPORT_PATH}?warehouse_name=Back`);
    expect(parse(await main.text(), { columns: true })).toHaveLength(UNITS);
    expect(large.counting.tally.maxRows).toBeLessThanOrEqual(EXPORT_PAGE_UNITS + 1);
  });

  it("streams a large session's counts.csv in pages of 1000 lines", async () => {
    const session = (await large.probe.first<{ id: number }>('SELECT max(id) AS id FROM stocktakes'))!.id;
    large.counting.reset();
    const response = await get(`${STOCKTAKES_PATH}${session}/counts.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(KNOWN_LINES + UNKNOWN_LINES);
    expect(rows.slice(0, KNOWN_LINES).every((r) => r.known === 'yes')).toBe(true);
    expect(rows.slice(KNOWN_LINES).every((r) => r.known === 'no')).toBe(true);
    // Each page reads the session and one page of lines; an empty page ends the known and the unknown lines.
    const pages = Math.ceil(KNOWN_LINES / COUNTS_PAGE_LINES) + 1 + Math.ceil(UNKNOWN_LINES / COUNTS_PAGE_LINES) + 1;
    expect(large.counting.tally.reads).toBe(pages);
    expect(large.counting.tally.maxRows).toBeLessThanOrEqual(COUNTS_PAGE_LINES);
    console.log(
      `[paged lists] counts.csv: ${rows.length} lines in ${large.counting.tally.reads} reads, at most ${large.counting.tally.maxRows} rows per statement`,
    );
  });
});
