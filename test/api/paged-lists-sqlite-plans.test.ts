// The query plans of the paged lists of paged-lists.test.ts, as SQLite makes them: every page a range
// of an index, no sort of the whole table; and the movements per day, one range of a history index. SQLite-only: EXPLAIN QUERY PLAN and its wording; the
// bounds on reads, statements and rows per page are checked on both engines in paged-lists.test.ts.
import { describe, expect, it } from 'vitest';
import { LOW_STOCK_PATH, MOVEMENTS_PER_DAY_PATH, STOCKTAKES_PATH, STOCK_EXPORT_PATH } from '../../shared/index.ts';
import { useLargeDatabase } from '../support/large-database.ts';

describe('query plans of paged lists on a large database', () => {
  const large = useLargeDatabase();

  /**
   * The plan lines of the tally's page queries (those with a LIMIT), as SQLite plans them. The other
   * queries of a page fetch the rows of the page's own ids, a set bounded by the page size.
   */
  async function plansOf(target: string): Promise<string[]> {
    large.counting.reset();
    const response = await large.get(target);
    expect(response.status).toBe(200);
    await response.text();
    const lines: string[] = [];
    for (const { sql, parameters } of large.counting.tally.queries) {
      // SQLite's statements write a bound value `+?` (server/store/sqlite/fixed-plan-compiler.ts).
      if (!sql.includes(' limit +?')) continue;
      const plan = await large.probe.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...parameters);
      lines.push(...plan.map((p) => p.detail));
    }
    return lines;
  }

  it('lists stocktakes by a range of an index', async () => {
    const planned = await plansOf(`${STOCKTAKES_PATH}?limit=100`);
    expect(planned.filter((line) => /TEMP B-TREE|^SCAN /.test(line))).toEqual([]);
    expect(planned.some((line) => /USING (COVERING )?INDEX stocktakes_account/.test(line))).toBe(true);
  });

  it('streams the stock export by a range of an index', async () => {
    const planned = await plansOf(STOCK_EXPORT_PATH);
    expect(planned.filter((line) => /TEMP B-TREE|MULTI-INDEX|^SCAN /.test(line))).toEqual([]);
    expect(planned.some((line) => line.includes('INDEX stock_units_export_order'))).toBe(true);
  });

  it('walks the reorder points for the low-stock list, probing the stock by its key: never a scan of the stock', async () => {
    for (const target of [`${LOW_STOCK_PATH}?limit=100`, `${LOW_STOCK_PATH}?limit=100&warehouse=1`]) {
      const planned = await plansOf(target);
      // The reorder points are walked (all of the account's, or one warehouse's range); nothing else is scanned.
      expect(
        planned.filter((line) => /^SCAN /.test(line) && line !== 'SCAN r'),
        target,
      ).toEqual([]);
      expect(planned, target).toContain('SEARCH s USING PRIMARY KEY (unit_id=? AND warehouse_id=?) LEFT-JOIN');
      expect(planned, target).toContainEqual(
        expect.stringMatching(/^SEARCH h USING INDEX stock_history_unit_hlc \(unit_id=\? AND warehouse_id=\? AND hlc_key>\?\)$/),
      );
      // The sort is of the low candidates only, one per stretch of reorder points, the walk bounding it.
      const sorts = planned.filter((line) => line.includes('TEMP B-TREE'));
      expect(sorts.length, target).toBeGreaterThanOrEqual(1);
      expect(new Set(sorts), target).toEqual(new Set(['USE TEMP B-TREE FOR ORDER BY']));
    }
    expect(await plansOf(`${LOW_STOCK_PATH}?limit=100&warehouse=2`)).toContainEqual(
      expect.stringMatching(/^SEARCH r USING (COVERING )?INDEX reorder_points_account \(account_id=\? AND warehouse_id=\?\)$/),
    );
  });

  it('commits a session batch by batch, each batch a range after the last one', async () => {
    // Session 1 (50 lines, not the large one the counts.csv test reads): the plan, not the size,
    // shows the walk. Without the range every batch walked from the session's first line past the
    // lines already handled: quadratic, 9 of a 100k catalogue's 18 s zeroing commit.
    large.counting.reset();
    const response = await large.post(`${STOCKTAKES_PATH}1/commit/`, { zero_uncounted: false });
    expect(response.status).toBe(200);
    expect((await response.json()).applied).toBe(50);
    const batches = large.counting.tally.queries.filter(({ sql }) => sql.includes('"commit_state" is null') && sql.includes(' limit +?'));
    expect(batches.length).toBe(2); // the 50 lines, then none left
    for (const { sql, parameters } of batches) {
      const planned = (await large.probe.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...parameters)).map((p) => p.detail);
      expect(planned).toEqual([
        expect.stringMatching(/^SEARCH l USING INDEX stocktake_lines_session_order \(stocktake_id=\? AND id>\?\)$/),
      ]);
    }
  });

  it("streams a large session's counts.csv by a range of an index", async () => {
    const session = (await large.probe.first<{ id: number }>('SELECT max(id) AS id FROM stocktakes'))!.id;
    const planned = await plansOf(`${STOCKTAKES_PATH}${session}/counts.csv`);
    expect(planned.filter((line) => /TEMP B-TREE|^SCAN (l|stocktake_lines)\b/.test(line))).toEqual([]);
    expect(planned.some((line) => line.includes('stocktake_lines_session_order'))).toBe(true);
  });

  it('counts the movements per day by one range of a history index: the warehouse, or the account', async () => {
    const planOf = async (target: string) => {
      large.counting.reset();
      const response = await large.get(target);
      expect(response.status).toBe(200);
      await response.text();
      const grouped = large.counting.tally.queries.filter((q) => q.sql.includes('group by'));
      expect(grouped).toHaveLength(1);
      return (await large.probe.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${grouped[0]!.sql}`, ...grouped[0]!.parameters)).map(
        (p) => p.detail,
      );
    };
    const warehouse = await planOf(`${MOVEMENTS_PER_DAY_PATH}?warehouse=1&days=90`);
    expect(warehouse.filter((line) => /^SCAN /.test(line))).toEqual([]);
    expect(warehouse).toContainEqual(
      expect.stringMatching(/^SEARCH h USING INDEX stock_history_warehouse_hlc \(warehouse_id=\? AND hlc_key>\? AND hlc_key<\?\)$/),
    );
    const account = await planOf(`${MOVEMENTS_PER_DAY_PATH}?days=90`);
    expect(account.filter((line) => /^SCAN /.test(line))).toEqual([]);
    expect(account).toContainEqual(
      expect.stringMatching(/^SEARCH h USING (COVERING )?INDEX stock_history_account_hlc \(account_id=\? AND hlc_key>\? AND hlc_key<\?\)$/),
    );
  });
});
