// The stock history endpoint over the real server: every change (import, API, stocktake) readable
// per barcode and per time range, newest first, paged by cursor, and only the caller's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, STOCK_HISTORY_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import type { HistoryEntry, HistoryPage, Stocktake } from '../../shared/index.ts';
import { historyPageSchema } from '../../shared/index.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('stock history API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(3));
    token = server.tokens.shop!;
    for (let q = 1; q <= 7; q++)
      await call(server, 'POST', INVENTORY_PATH, token, [{ barcode: 'B0001', quantity: q, warehouse_name: 'Back' }]);
    const session = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await call(server, 'POST', stocktakePath(session.id, 'scans'), token, { barcode: 'B0001', amount: 3 }, 201);
    await call(server, 'POST', stocktakePath(session.id, 'commit'), token, {});
  });
  afterAll(() => server.stop());

  const page = async (query: string) =>
    historyPageSchema.parse(await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?${query}`, token));

  it('lists the changes of a barcode newest first with source and old/new quantity', async () => {
    const { results, next } = await page('barcode=B0001');
    expect(next).toBeNull();
    expect(results.map((r) => [r.source, r.warehouse_name, r.old_quantity, r.new_quantity])).toEqual([
      ['stocktake', 'Main', 10, 3],
      ...[7, 6, 5, 4, 3, 2].map((q) => ['api', 'Back', q - 1, q]),
      ['api', 'Back', null, 1],
      ['import', 'Main', null, 10],
    ]);
    expect(results[1]!.token).toEqual(expect.any(Number));
  });

  it('pages with a cursor without gaps or repeats, also while new changes arrive', async () => {
    const seen: HistoryEntry[] = [];
    let first = await page('barcode=B0001&limit=4');
    seen.push(...first.results);
    // A change after the first page must not shift the later pages.
    await call(server, 'POST', INVENTORY_PATH, token, [{ barcode: 'B0001', quantity: 99, warehouse_name: 'Back' }]);
    let next = first.next;
    while (next) {
      const more = historyPageSchema.parse(await call<HistoryPage>(server, 'GET', next, token));
      seen.push(...more.results);
      next = more.next;
    }
    expect(seen).toHaveLength(9);
    expect(new Set(seen.map((e) => e.id)).size).toBe(9);
    expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort((a, b) => b - a));
    first = await page('barcode=B0001&limit=1');
    expect(first.results[0]!.new_quantity).toBe(99);
  });

  it('filters by time range, source and warehouse', async () => {
    const all = (await page('limit=500')).results;
    // The bound is an instant read from the data, so the expectation never depends on the clock.
    const bound = all.find((r) => r.source === 'api' && r.new_quantity === 4)!.created_at;
    const since = await page(`barcode=B0001&since=${encodeURIComponent(bound)}&source=api&warehouse=71`);
    const expectedSince = all.filter((r) => r.barcode === 'B0001' && r.created_at >= bound && r.source === 'api' && r.warehouse === 71);
    expect(since.results).toEqual(expectedSince);
    expect(since.results.map((r) => r.new_quantity)).toEqual(expect.arrayContaining([4, 5, 6, 7, 99]));
    const until = await page(`until=${encodeURIComponent(bound)}`);
    expect(until.results).toEqual(all.filter((r) => r.created_at < bound));
    expect(
      until.results
        .filter((r) => r.source === 'import')
        .map((r) => r.barcode)
        .sort(),
    ).toEqual(['0042/M', 'B0000', 'B0001', 'B0002']);
    const none = await page('barcode=does-not-exist');
    expect(none.results).toEqual([]);
  });

  it('refuses bad parameters with 400 and shows nothing of another account', async () => {
    for (const query of ['limit=0', 'limit=501', 'since=yesterday', 'cursor=abc', 'warehouse=x']) {
      const body = await call(server, 'GET', `${STOCK_HISTORY_PATH}?${query}`, token, undefined, 400);
      expect(body.detail).toMatch(/^Invalid query parameters: /);
    }
    const theirs = await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=B0001`, server.tokens.other!);
    expect(theirs.results).toEqual([]);
    const own = await call<HistoryPage>(server, 'GET', STOCK_HISTORY_PATH, server.tokens.other!);
    expect(own.results.map((r) => [r.barcode, r.warehouse, r.new_quantity])).toEqual([['111', null, 7]]);
    await call(server, 'GET', STOCK_HISTORY_PATH, 'nope', undefined, 401);
  });
});
