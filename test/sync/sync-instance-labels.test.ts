// Conflicts and the history name the instance that made a movement by the label its owner chose at
// `sync link` ("Shop 12"), where this instance knows it: its own label on a follower, and each
// follower's label on the upstream it registered with (issue 28, "The shop worker sees it").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, STOCK_HISTORY_PATH, SYNC_CONFLICTS_PATH, type Conflict, type HistoryPage } from '../../shared/index.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';

describe('instances named by their labels', () => {
  let upstream: TestServer;
  let shop: Follower;
  let north: string;
  beforeEach(async () => {
    upstream = await startTestServer();
    north = upstream.tokens.north!;
    shop = await follow(upstream, await upstream.newToken('north', 'sync'), 'north', undefined, 'Shop 12');
    await shop.round();
  });
  afterEach(async () => {
    await shop.server.stop();
    await upstream.stop();
  });

  const set = (server: TestServer, token: string, quantity: number, reference: string) =>
    call(server, 'POST', INVENTORY_PATH, token, [{ barcode: MUG, quantity, warehouse_name: 'Main', reference }]);
  /** The MUG's history on `server`: reference → [origin, origin_label]. */
  const origins = async (server: TestServer, token: string) =>
    Object.fromEntries(
      (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${MUG}&warehouse=10`, token)).results.map((h) => [
        h.reference,
        [h.origin, h.origin_label],
      ]),
    );

  it('in the history: the follower by its label on the upstream, and on itself; the upstream, which chose none, by none', async () => {
    const [shopId, upstreamId] = [await shop.server.store.sync.instance(), await upstream.store.sync.instance()];
    await set(shop.server, shop.token, 8, 'shelf');
    await set(upstream, north, 6, 'office');
    await shop.round();
    const expected = { shelf: [shopId, 'Shop 12'], office: [upstreamId, null] };
    expect(await origins(upstream, north)).toMatchObject(expected);
    expect(await origins(shop.server, shop.token)).toMatchObject(expected);
  });

  it('in the conflicts: each side by the label of the instance that made it, where it is known', async () => {
    await set(shop.server, shop.token, 4, 'shelf recount');
    await set(upstream, north, 9, 'office');
    await shop.round();
    const sides = async (server: TestServer, token: string) => {
      const [conflict] = await call<Conflict[]>(server, 'GET', SYNC_CONFLICTS_PATH, token);
      return [conflict!.later, conflict!.earlier].map((side) => [side.reference, side.origin_label]);
    };
    const expected = expect.arrayContaining([
      ['shelf recount', 'Shop 12'],
      ['office', null],
    ]);
    expect(await sides(upstream, north)).toEqual(expected);
    expect(await sides(shop.server, shop.token)).toEqual(expected);
  });
});
