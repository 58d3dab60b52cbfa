// Reorder points travel with the catalogue (docs/REORDER.md, "Sync"): set at head office, they reach
// a follower with its next round; a change and a removal up there replace what the follower had; the
// follower's own low-stock list uses them; and the follower refuses to set them itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOW_STOCK_PATH, type LowStockPage, REORDER_POINTS_PATH, type ReorderPointList } from '../../shared/index.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';
const SHIRT = '8690000000024';

describe('reorder points through sync', () => {
  let upstream: TestServer;
  let shop: Follower;
  let north: string;
  beforeEach(async () => {
    upstream = await startTestServer();
    north = upstream.tokens.north!;
    shop = await follow(upstream, await upstream.newToken('north', 'sync'), 'north');
    await shop.round();
  });
  afterEach(async () => {
    await shop.server.stop();
    await upstream.stop();
  });

  const points = async (server: TestServer, token: string) =>
    (await call<ReorderPointList>(server, 'GET', `${REORDER_POINTS_PATH}?barcodes=${MUG},${SHIRT}`, token)).results.map((p) => [
      p.barcode,
      p.warehouse_name,
      p.minimum,
      p.target,
    ]);

  it('copies them to the follower, then their change and removal', async () => {
    await call(upstream, 'POST', REORDER_POINTS_PATH, north, [
      { barcode: MUG, warehouse_name: 'Main', minimum: 6, target: 20 },
      { barcode: MUG, warehouse_name: 'Backroom', minimum: 1 },
      { barcode: SHIRT, warehouse_name: 'Main', minimum: 2, target: 9 },
    ]);
    expect(await shop.round()).toMatchObject({ catalogueCopied: true });
    const expected = [
      [MUG, 'Main', 6, 20],
      [MUG, 'Backroom', 1, null],
      [SHIRT, 'Main', 2, 9],
    ];
    expect(await points(upstream, north)).toEqual(expected);
    expect(await points(shop.server, shop.token)).toEqual(expected);
    // The follower's low-stock list answers from them: the mug (5 ≤ 6) and the empty backroom (0 ≤ 1).
    const low = await call<LowStockPage>(shop.server, 'GET', LOW_STOCK_PATH, shop.token);
    expect(low.results.map((e) => [e.barcode, e.warehouse_name, e.suggested_order])).toEqual([
      [MUG, 'Main', 15],
      [MUG, 'Backroom', 1],
    ]);

    await call(upstream, 'POST', REORDER_POINTS_PATH, north, [
      { barcode: MUG, warehouse_name: 'Backroom', minimum: null },
      { barcode: SHIRT, warehouse_name: 'Main', minimum: 4 },
    ]);
    expect(await shop.round()).toMatchObject({ catalogueCopied: true });
    const changed = [
      [MUG, 'Main', 6, 20],
      [SHIRT, 'Main', 4, null],
    ];
    expect(await points(shop.server, shop.token)).toEqual(changed);
    // Nothing moved upstream: the next round copies nothing and the points stay.
    expect(await shop.round()).toMatchObject({ catalogueCopied: false });
    expect(await points(shop.server, shop.token)).toEqual(changed);
  });

  it('refuses to set them on the follower: its catalogue comes from upstream', async () => {
    const refused = await shop.server.request('POST', REORDER_POINTS_PATH, {
      token: shop.token,
      body: [{ barcode: MUG, warehouse_name: 'Main', minimum: 3 }],
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('catalogue_from_upstream');
    expect(await points(shop.server, shop.token)).toEqual([]);
  });
});
