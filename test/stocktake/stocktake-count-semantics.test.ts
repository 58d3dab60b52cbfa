// A stocktake line is a count at the time of its last scan (docs/SYNC.md, "A count is a fact at
// a time"): a sale recorded before the scan is already in what was counted; a sale recorded after it,
// before the commit, stays applied on top of the count. Through the API, the review and the history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, STOCKTAKES_PATH, STOCK_HISTORY_PATH, stocktakePath } from '../../shared/index.ts';
import type { CommitResult, HistoryPage, Stocktake, StocktakeReview } from '../../shared/index.ts';
import { stocktakeReviewSchema } from '../../shared/index.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('a count is a fact at a time', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(3));
    token = server.tokens.shop!;
  });
  afterAll(() => server.stop());

  const sell = (barcode: string, reference: string) =>
    call(server, 'POST', ADJUST_PATH, token, [{ barcode, delta: -1, warehouse_name: 'Main', reason: 'sale', reference }]);
  const quantityInMain = async (barcode: string) => {
    const body = await call<{ results: { warehouse: number; quantity: number }[] }>(
      server,
      'GET',
      `${INVENTORY_PATH}?barcodes=${barcode}`,
      token,
    );
    return body.results.find((r) => r.warehouse === 70)!.quantity;
  };

  it('keeps a sale made after the last scan on top of the count, and counts one made before it once', async () => {
    // The shelf holds 10 of B0001 (the catalogue's book quantity).
    const { id } = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await sell('B0001', 'receipt 1'); // before counting: the shelf now holds 9
    for (let i = 0; i < 9; i++) await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0001' }, 201);
    await sell('B0001', 'receipt 2'); // after the last scan, before the commit: the shelf holds 8
    expect(await quantityInMain('B0001')).toBe(8);

    // The review says it before the commit: counted 9, 1 sold since → 8.
    const review = stocktakeReviewSchema.parse(await call<StocktakeReview>(server, 'GET', stocktakePath(id, 'review'), token));
    expect(review.lines.find((l) => l.barcode === 'B0001')).toMatchObject({
      counted: 9,
      moved_since_count: -1,
      after_commit: 8,
      book_quantity: 8,
      difference: 0,
    });

    const result = await call<CommitResult>(server, 'POST', stocktakePath(id, 'commit'), token, { zero_uncounted: false });
    expect(result).toMatchObject({ applied: 1, failed: 0 });
    // Not 9 (the count alone, which would lose the second sale): the count, then the sale after it.
    expect(await quantityInMain('B0001')).toBe(8);

    // The history explains each step, in the order they happened.
    const history = await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=B0001&warehouse=70`, token);
    const steps = history.results.map((h) => [h.kind, h.value, h.old_quantity, h.new_quantity, h.reference]).reverse();
    expect(steps).toEqual([
      ['set', 10, null, 10, null], // the import
      ['adjust', -1, 10, 9, 'receipt 1'],
      ['count', 9, 9, 9, `stocktake:${id}@${await server.store.sync.instance()}`],
      ['adjust', -1, 9, 8, 'receipt 2'],
    ]);
    // The committed line says what the count replaced: 9 on the books when it was counted.
    const committed = await call<StocktakeReview>(server, 'GET', stocktakePath(id, 'review'), token);
    expect(committed.lines.find((l) => l.barcode === 'B0001')).toMatchObject({
      counted: 9,
      book_quantity: 9,
      difference: 0,
      commit: { state: 'applied', book_quantity: 9 },
    });
  });

  it('corrects a shelf that holds less than the books, and still keeps the sales after the count', async () => {
    const { id } = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    // Books say 10 of B0002; the shelf holds 3 (seven were lost), counted now.
    await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0002', amount: 3 }, 201);
    await sell('B0002', 'receipt 3');
    await sell('B0002', 'receipt 4');
    const review = await call<StocktakeReview>(server, 'GET', stocktakePath(id, 'review'), token);
    expect(review.lines.find((l) => l.barcode === 'B0002')).toMatchObject({
      counted: 3,
      moved_since_count: -2,
      after_commit: 1,
      book_quantity: 8,
      difference: -7,
    });
    await call<CommitResult>(server, 'POST', stocktakePath(id, 'commit'), token, { zero_uncounted: false });
    expect(await quantityInMain('B0002')).toBe(1);
  });

  it('lets a set made after the count win: the count no longer decides the quantity', async () => {
    const { id } = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0000', amount: 4 }, 201);
    await call(server, 'POST', INVENTORY_PATH, token, [{ barcode: 'B0000', quantity: 6, warehouse_name: 'Main' }]);
    const review = await call<StocktakeReview>(server, 'GET', stocktakePath(id, 'review'), token);
    expect(review.lines.find((l) => l.barcode === 'B0000')).toMatchObject({ counted: 4, moved_since_count: null, after_commit: 6 });
    await call<CommitResult>(server, 'POST', stocktakePath(id, 'commit'), token, { zero_uncounted: false });
    expect(await quantityInMain('B0000')).toBe(6);
  });
});
