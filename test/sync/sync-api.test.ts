// Sync between instances over real HTTP (docs/SYNC.md): a follower copies its upstream's catalogue,
// movements flow both ways exactly once and land at their place in time, counts keep the sales
// recorded after them, conflicts are listed, and bad batches are refused whole.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MAX_MOVEMENTS_PER_BATCH,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_CATALOGUE_PATH,
  SYNC_FOLLOWERS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  type Conflict,
  type HistoryPage,
  type PullPage,
  type Stocktake,
  type SyncMovement,
  type SyncState,
  type SyncStatus,
  stocktakePath,
  syncMessages,
} from '../../shared/index.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { syncRound } from '../../server/sync/sync-round.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { runCli } from '../support/cli.ts';
import { LinkProxy } from '../support/link-proxy.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { type TestServer, exampleCatalogue, startTestServer, tempDir } from '../support/test-server.ts';

const MUG = '8690000000017';
const SHIRT = '8690000000024';

describe('sync between instances', () => {
  let upstream: TestServer;
  let shop: Follower;
  /** A manager's token on the upstream (its own API), and the sync token the shop links with. */
  let north: string;
  let link: string;
  beforeEach(async () => {
    upstream = await startTestServer();
    north = upstream.tokens.north!;
    link = await upstream.newToken('north', 'sync');
    shop = await follow(upstream, link, 'north');
  });
  afterEach(async () => {
    await shop.server.stop();
    await upstream.stop();
  });

  const quantity = async (server: TestServer, token: string, barcode: string, warehouse = 10) => {
    const body = await call<{ results: { warehouse: number; quantity: number }[] }>(
      server,
      'GET',
      `${INVENTORY_PATH}?barcodes=${barcode}`,
      token,
    );
    return body.results.find((r) => r.warehouse === warehouse)!.quantity;
  };
  const set = (server: TestServer, token: string, barcode: string, value: number, reference?: string) =>
    call(server, 'POST', INVENTORY_PATH, token, [
      { barcode, quantity: value, warehouse_name: 'Main', ...(reference ? { reference } : {}) },
    ]);
  const sell = (server: TestServer, token: string, barcode: string, reference: string, delta = -1) =>
    call(server, 'POST', ADJUST_PATH, token, [{ barcode, delta, warehouse_name: 'Main', reason: 'sale', reference }]);
  const history = async (server: TestServer, token: string, barcode: string) =>
    (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${barcode}&warehouse=10`, token)).results.reverse();

  it('copies the catalogue and the stock, then moves each movement both ways exactly once', async () => {
    // The link's first round brings the upstream's stock (the import's set movements).
    await shop.round();
    expect(await quantity(shop.server, shop.token, MUG)).toBe(5);
    await set(shop.server, shop.token, MUG, 8, 'shop count');
    await sell(upstream, north, SHIRT, 'till 1');
    const round = await shop.round();
    expect(round).toMatchObject({ pushed: 1, pulled: 1 });
    for (const [server, token] of [
      [upstream, north],
      [shop.server, shop.token],
    ] as const) {
      expect(await quantity(server, token, MUG)).toBe(8);
      expect(await quantity(server, token, SHIRT)).toBe(2);
    }
    // Another round moves nothing: nothing is applied twice.
    expect(await shop.round()).toMatchObject({ pushed: 0, pulled: 0 });
    const ids = async (server: TestServer, token: string) =>
      (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?limit=500`, token)).results.map((h) => h.movement).sort();
    expect(await ids(shop.server, shop.token)).toEqual(await ids(upstream, north));
    expect(new Set(await ids(upstream, north)).size).toBe((await ids(upstream, north)).length);
  });

  it('pushes a backlog of several batches in order, each movement once, and the answer stays the same after it', async () => {
    await shop.round();
    // 1,050 movements: three pushes, so the next batch is read (and written out) while one is applied.
    const requests = Math.ceil((2 * MAX_MOVEMENTS_PER_BATCH + 50) / 50);
    for (let i = 0; i < requests; i++) {
      const rows = Array.from({ length: 50 }, (_, j) => ({
        barcode: j % 2 === 0 ? MUG : SHIRT,
        delta: 1,
        warehouse_name: 'Main',
        reference: `receipt ${i}-${j}`,
      }));
      await call(shop.server, 'POST', ADJUST_PATH, shop.token, rows);
    }
    expect(await shop.round()).toMatchObject({ pushed: requests * 50, pulled: 0 });
    for (const barcode of [MUG, SHIRT])
      expect(await quantity(upstream, north, barcode)).toBe(await quantity(shop.server, shop.token, barcode));
    const state = await call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link);
    expect(state.vector).toEqual((await shop.server.store.sync.state(shop.account)).vector);
    expect(await shop.round()).toMatchObject({ pushed: 0, pulled: 0 });
  });

  it('starts a push at the first movement the upstream lacks, not at every page the pulls brought after the last push', async () => {
    // 1,050 movements upstream (three pages), pulled by the shop's first round after its push phase.
    for (let i = 0; i < Math.ceil((2 * MAX_MOVEMENTS_PER_BATCH + 50) / 50); i++)
      await call(
        upstream,
        'POST',
        ADJUST_PATH,
        north,
        Array.from({ length: 50 }, (_, j) => ({ barcode: j % 2 === 0 ? MUG : SHIRT, delta: 1, warehouse_name: 'Main' })),
      );
    expect((await shop.round()).pulled).toBeGreaterThanOrEqual(2 * MAX_MOVEMENTS_PER_BATCH + 50);
    await sell(shop.server, shop.token, MUG, 'after the pull');
    await sell(shop.server, shop.token, SHIRT, 'after the pull');
    // The round's reads of what waits to go up, by where each started (`after`).
    const store = shop.server.store;
    const reads: number[] = [];
    const counted = {
      ...store,
      sync: {
        ...store.sync,
        pending: (...args: Parameters<typeof store.sync.pending>) => (reads.push(args[3] ?? 0), store.sync.pending(...args)),
      },
    };
    expect(await syncRound(counted, await shop.link())).toMatchObject({ pushed: 2, pulled: 0 });
    // One page holding the two sales, and the empty one after it: not the 1,050 pulled movements before them.
    expect(reads.length).toBe(2);
    const firstSale = await shop.server.store.sync.arrivalBefore(shop.account, { [await shop.server.store.sync.instance()]: 1 });
    expect(reads[0]).toBe(firstSale);
    expect(await quantity(upstream, north, MUG)).toBe(await quantity(shop.server, shop.token, MUG));
    // Idle, it reads one empty page after everything recorded here, and the next sale goes up.
    reads.length = 0;
    expect(await syncRound(counted, await shop.link())).toMatchObject({ pushed: 0, pulled: 0 });
    expect(reads.length).toBe(1);
    await sell(shop.server, shop.token, MUG, 'later');
    expect(await syncRound(counted, await shop.link())).toMatchObject({ pushed: 1, pulled: 0 });
    expect(await quantity(upstream, north, MUG)).toBe(await quantity(shop.server, shop.token, MUG));
  });

  it("moves the upstream's clock past the latest movement of a batch, so what it records next comes after", async () => {
    // A shop PC 3 minutes ahead (within the 5 a push may drag a clock): its movements are stamped
    // later than the upstream's wall clock. (Further ahead: test/sync/sync-door.test.ts, "clocks".)
    const ahead = await startTestServer({ accounts: [] }, { clock: { now: () => Date.now() + 3 * 60_000 } });
    // A follower of its own, with a sync token of its own: a token speaks for one follower.
    const fast = await follow(upstream, await upstream.newToken('north', 'sync'), 'north', ahead);
    try {
      await fast.round();
      for (let i = 0; i < 3; i++) await set(fast.server, fast.token, i % 2 === 0 ? MUG : SHIRT, 20 + i);
      expect(await fast.round()).toMatchObject({ pushed: 3 });
      await sell(upstream, north, MUG, 'till 1');
      const [pushed, sale] = [(await history(upstream, north, SHIRT)).at(-1)!, (await history(upstream, north, MUG)).at(-1)!];
      // The sale comes after the shop's sets in the fold (it is applied on top of them), though the
      // upstream's own wall clock is 3 minutes behind them.
      expect(sale.reference).toBe('till 1');
      expect(sale.hlc > pushed.hlc).toBe(true);
      expect(Number(sale.hlc.slice(0, 16))).toBeGreaterThanOrEqual(Number(pushed.hlc.slice(0, 16)));
      expect(await quantity(upstream, north, MUG)).toBe(22 - 1);
    } finally {
      await ahead.stop();
    }
  });

  it("moves the pull cursor past the follower's own movements coming back, with the round's record, and never back", async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 8, 'shop count');
    // Pushed, then pulled back as the upstream's newest: nothing to apply, and the cursor still moves past it.
    expect(await shop.round()).toMatchObject({ pushed: 1, pulled: 0 });
    const all = await call<PullPage>(upstream, 'GET', `${SYNC_MOVEMENTS_PATH}?after=0&limit=${MAX_MOVEMENTS_PER_BATCH}`, link);
    const end = all.next_cursor;
    expect((await shop.link()).pullCursor).toBe(end);
    // What the caller holds (`have`) is left out, and the cursor still moves past it.
    const held = (await call<SyncState>(shop.server, 'GET', SYNC_STATE_PATH, shop.syncToken)).vector;
    const have = Object.entries(held)
      .map(([origin, seq]) => `${origin}:${seq}`)
      .join(',');
    expect(await call<PullPage>(upstream, 'GET', `${SYNC_MOVEMENTS_PATH}?after=0&have=${have}`, link)).toMatchObject({
      movements: [],
      next_cursor: end,
      more: false,
    });
    const shopOrigin = all.movements.at(-1)!.origin;
    const partly = await call<PullPage>(
      upstream,
      'GET',
      `${SYNC_MOVEMENTS_PATH}?after=0&limit=1&have=${shopOrigin}:${held[shopOrigin]}`,
      link,
    );
    expect(partly.movements.map((m) => m.origin)).not.toContain(shopOrigin);
    expect(partly.more).toBe(true);
    expect((await call<{ detail: string }>(upstream, 'GET', `${SYNC_MOVEMENTS_PATH}?have=nonsense`, link, undefined, 400)).detail).toMatch(
      /have/,
    );
    // A slower round that started earlier (sync now beside the background loop) records an older cursor: kept where it was.
    await shop.server.store.sync.recordRound(shop.account, {
      ok: true,
      at: new Date().toISOString(),
      upstreamInstance: 'x',
      clockSkewMs: 0,
      upstreamVector: (await shop.link()).upstreamVector,
      pullCursor: 1,
    });
    expect((await shop.link()).pullCursor).toBe(end);
    expect(await shop.round()).toMatchObject({ pushed: 0, pulled: 0 });
  });

  it('folds a movement that arrives late in at its time: count − the sales recorded after it', async () => {
    await shop.round();
    // The shop (offline from here) counts the mug: 3 on the shelf.
    const { id } = await call<Stocktake>(shop.server, 'POST', STOCKTAKES_PATH, shop.token, { warehouse_name: 'Main' }, 201);
    await call(shop.server, 'POST', stocktakePath(id, 'scans'), shop.token, { barcode: MUG, amount: 3 }, 201);
    // Meanwhile the till at the upstream sells two, after the count.
    await sell(upstream, north, MUG, 'receipt 1');
    await sell(upstream, north, MUG, 'receipt 2');
    expect(await quantity(upstream, north, MUG)).toBe(3);
    await call(shop.server, 'POST', stocktakePath(id, 'commit'), shop.token, { zero_uncounted: false });
    expect(await quantity(shop.server, shop.token, MUG)).toBe(3);

    await shop.round();
    for (const [server, token] of [
      [upstream, north],
      [shop.server, shop.token],
    ] as const) {
      expect(await quantity(server, token, MUG)).toBe(1); // 3 counted, then 2 sold
      const steps = (await history(server, token, MUG)).map((h) => [h.kind, h.value, h.old_quantity, h.new_quantity]);
      expect(steps).toEqual([
        ['set', 5, null, 5],
        ['count', 3, 5, 3],
        ['adjust', -1, 3, 2],
        ['adjust', -1, 2, 1],
      ]);
    }
  });

  it('lists two sets made without seeing each other as a conflict, the later kept, until someone sets it again', async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 4, 'shop');
    await set(upstream, north, MUG, 9, 'office');
    await shop.round();
    for (const [server, token] of [
      [upstream, north],
      [shop.server, shop.token],
    ] as const) {
      expect(await quantity(server, token, MUG)).toBe(9);
      const conflicts = await call<Conflict[]>(server, 'GET', SYNC_CONFLICTS_PATH, token);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({
        barcode: MUG,
        warehouse: 10,
        racing: true,
        resolved: false,
        quantity: 9,
        later: { kind: 'set', value: 9, reference: 'office' },
        earlier: { kind: 'set', value: 4, reference: 'shop' },
      });
    }
    // Someone who has seen both records the quantity again: resolved everywhere after the next round.
    await set(shop.server, shop.token, MUG, 6, 'recounted');
    await shop.round();
    for (const [server, token] of [
      [upstream, north],
      [shop.server, shop.token],
    ] as const) {
      expect(await call<Conflict[]>(server, 'GET', SYNC_CONFLICTS_PATH, token)).toEqual([]);
      expect(await call<Conflict[]>(server, 'GET', `${SYNC_CONFLICTS_PATH}?state=all`, token)).toMatchObject([{ resolved: true }]);
      expect(await quantity(server, token, MUG)).toBe(6);
    }
  });

  it('groups sets made one after another without seeing each other into one conflict, and `sync conflicts` says how many', async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 4, 'shop');
    await set(upstream, north, MUG, 9, 'office');
    await set(shop.server, shop.token, MUG, 7, 'shop again'); // still without seeing the office's 9
    await shop.round();
    for (const [server, token] of [
      [upstream, north],
      [shop.server, shop.token],
    ] as const) {
      expect(await quantity(server, token, MUG)).toBe(7);
      expect(await call<Conflict[]>(server, 'GET', SYNC_CONFLICTS_PATH, token)).toMatchObject([
        {
          movements: 2,
          racing: true,
          resolved: false,
          first: { kind: 'set', value: 9, reference: 'office' },
          later: { kind: 'set', value: 7, reference: 'shop again' },
          earlier: { kind: 'set', value: 9, reference: 'office' },
        },
      ]);
      expect(await call<SyncStatus>(server, 'GET', SYNC_STATUS_PATH, token)).toMatchObject({ conflicts: 1 });
    }
    const listed = await runCli(['sync', 'conflicts', '--account', 'north', '--db', shop.server.dbFile]);
    expect(listed.stdout).toMatch(
      /: set 7 \(\w+, [^)]+\) kept over set 9 \(\w+, [^)]+\); now 7\n {2}2 changes made without seeing each other since \S+; /,
    );
    // A set made having seen all of it resolves the one group, everywhere.
    await set(upstream, north, MUG, 6, 'recounted');
    await shop.round();
    expect(await call<Conflict[]>(shop.server, 'GET', `${SYNC_CONFLICTS_PATH}?state=all`, shop.token)).toMatchObject([
      { movements: 2, resolved: true },
    ]);
    expect(await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).toMatchObject({ conflicts: 0 });
  });

  it("keeps the shop's stocktake 1 and the upstream's stocktake 1 apart: each reference names the instance that counted it", async () => {
    await shop.round();
    const countMug = async (server: TestServer, token: string) => {
      const { id } = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { name: 'Mugs', warehouse_name: 'Main' }, 201);
      await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: MUG }, 201);
      await call(server, 'POST', stocktakePath(id, 'commit'), token, { zero_uncounted: false });
      return id;
    };
    // Each instance numbers its own sessions: both count in their stocktake 1.
    expect([await countMug(upstream, north), await countMug(shop.server, shop.token)]).toEqual([1, 1]);
    await shop.round();
    const references = (await call<HistoryPage>(upstream, 'GET', `${STOCK_HISTORY_PATH}?source=stocktake`, north)).results.map(
      (h) => h.reference,
    );
    expect(references.sort()).toEqual(
      [`stocktake:1@${await upstream.store.sync.instance()}`, `stocktake:1@${await shop.server.store.sync.instance()}`].sort(),
    );
  });

  it('flags a set made without seeing a sale that happened before it', async () => {
    await shop.round();
    await sell(upstream, north, MUG, 'receipt 9');
    await set(shop.server, shop.token, MUG, 5, 'shop set');
    await shop.round();
    const conflicts = await call<Conflict[]>(upstream, 'GET', SYNC_CONFLICTS_PATH, north);
    expect(conflicts).toMatchObject([
      { racing: false, later: { kind: 'set', value: 5 }, earlier: { kind: 'adjust', value: -1, reference: 'receipt 9' } },
    ]);
    expect(await quantity(upstream, north, MUG)).toBe(5);
  });

  it('applies a batch sent twice once, refuses a gap with where to resume, and changes nothing on refusal', async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 7);
    await set(shop.server, shop.token, MUG, 6);
    const state = await call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link);
    const pending = (await shop.server.store.sync.pending(shop.account, state.vector, 10)).movements;
    expect(pending).toHaveLength(2);
    const push = (movements: SyncMovement[], status = 200) => call(upstream, 'POST', SYNC_MOVEMENTS_PATH, link, { movements }, status);
    // The second movement alone leaves a gap: refused whole, with where to resume.
    const gap = await push([pending[1]!], 409);
    expect(gap).toMatchObject({ resume: { [pending[0]!.origin]: pending[0]!.seq } });
    expect(await quantity(upstream, north, MUG)).toBe(5);
    expect(await push(pending)).toMatchObject({ applied: 2, duplicates: 0 });
    expect(await push(pending)).toMatchObject({ applied: 0, duplicates: 2 });
    expect(await quantity(upstream, north, MUG)).toBe(6);
    // The same movement twice in one batch: applied once, then answered as held (its row is
    // written with the batch's others, so the check of the second must see it first).
    await set(shop.server, shop.token, MUG, 4);
    const [again] = (
      await shop.server.store.sync.pending(shop.account, (await call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link)).vector, 10)
    ).movements;
    expect(await push([again!, again!])).toMatchObject({ applied: 1, duplicates: 1 });
    expect(await quantity(upstream, north, MUG)).toBe(4);
    // Same id, other content: two databases claiming one instance.
    const forged = { ...pending[1]!, value: 99 };
    expect((await push([forged], 409)).detail).toContain('other content');
  });

  it('refuses a movement whose timestamp its origin gave another movement, in the batch or stored, and applies nothing of the batch', async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 7);
    await set(shop.server, shop.token, MUG, 6);
    const state = await call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link);
    const [first, second] = (await shop.server.store.sync.pending(shop.account, state.vector, 10)).movements;
    const push = (movements: SyncMovement[], status = 200) => call(upstream, 'POST', SYNC_MOVEMENTS_PATH, link, { movements }, status);
    // A forged second movement stamped with the first one's timestamp: the fold's order between the
    // two would be whatever each database returns first.
    const forged = { ...second!, hlc: first!.hlc };
    const inBatch = await push([first!, forged], 422);
    expect(inBatch).toMatchObject({ code: 'sync_movement_refused' });
    expect(inBatch.detail).toBe(syncMessages.movementRefused(forged.id, syncMessages.timestampReused(first!.id)));
    expect(await quantity(upstream, north, MUG)).toBe(5);
    expect(await push([first!])).toMatchObject({ applied: 1 });
    const stored = await push([forged], 422);
    expect(stored.detail).toBe(syncMessages.movementRefused(forged.id, syncMessages.timestampReused(first!.id)));
    expect(await quantity(upstream, north, MUG)).toBe(7);
    // The real one, and a batch sent again whole (its held movement is a duplicate, not a reuse).
    expect(await push([first!, second!])).toMatchObject({ applied: 1, duplicates: 1 });
    expect(await quantity(upstream, north, MUG)).toBe(6);
  });

  it("refuses movements of another account's units, from a clock far ahead, and malformed or oversized batches", async () => {
    await shop.round();
    await set(shop.server, shop.token, MUG, 7);
    const [movement] = (
      await shop.server.store.sync.pending(shop.account, (await call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link)).vector, 10)
    ).movements;
    const push = (body: unknown, status: number, token = link) => call(upstream, 'POST', SYNC_MOVEMENTS_PATH, token, body, status);
    // kiosk's sync token, registered for the shop's instance in kiosk: north's mug does not exist for it.
    const kiosk = await upstream.newToken('kiosk', 'sync');
    await call(upstream, 'POST', SYNC_FOLLOWERS_PATH, kiosk, { instance: movement!.origin, label: 'kiosk shop' });
    expect((await push({ movements: [movement] }, 422, kiosk)).detail).toContain('does not have');
    const wall = Date.now() + 25 * 3600_000;
    const ahead = { ...movement!, hlc: `${String(wall).padStart(16, '0')}-00000-${movement!.origin}` };
    expect((await push({ movements: [ahead] }, 422)).detail).toContain('ahead of this instance');
    // Refused by the compiled check first, then described by zod, field and all.
    expect((await push({ movements: [{ ...movement!, kind: 'teleport' }] }, 400)).detail).toContain('movements.0.kind');
    await push({ movements: Array.from({ length: MAX_MOVEMENTS_PER_BATCH + 1 }, () => movement) }, 400);
    await push({ movements: [] }, 400);
    expect(await quantity(upstream, north, MUG)).toBe(5);
  });

  it("pulls pages in the order the upstream recorded them, and only the caller account's", async () => {
    const page = await call<PullPage>(upstream, 'GET', `${SYNC_MOVEMENTS_PATH}?after=0&limit=2`, link);
    expect(page.movements).toHaveLength(2);
    expect(page.more).toBe(true);
    const rest = await call<PullPage>(upstream, 'GET', `${SYNC_MOVEMENTS_PATH}?after=${page.next_cursor}`, link);
    expect(rest.more).toBe(false);
    const barcodes = [...page.movements, ...rest.movements].map((m) => m.barcode);
    expect(barcodes).not.toContain('111'); // kiosk's pen
    expect(new Set(barcodes)).toEqual(new Set([MUG, SHIRT]));
  });

  it('refuses a catalogue import for a linked account, and says how the link goes', async () => {
    const document = exampleCatalogue() as { accounts: { name: string }[] };
    document.accounts = document.accounts.filter((a) => a.name === 'north');
    const refused = await shop.server.store.catalogue.write(await parseCatalogue(document)).catch((error: unknown) => error);
    expect(isCatalogueRefusal(refused) && refused.problems[0]).toContain(`follows ${upstream.url}`);

    expect(await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).toMatchObject({
      linked: true,
      state: 'waiting',
      last_success_at: null,
    });
    await shop.round();
    await set(shop.server, shop.token, MUG, 2);
    expect(await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).toMatchObject({
      state: 'waiting',
      pending: 1,
      conflicts: 0,
    });
    await shop.round();
    const status = await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token);
    expect(status).toMatchObject({ state: 'in_sync', pending: 0, clock_warning: null });
    expect(Math.abs(status.clock_skew_ms!)).toBeLessThan(60_000);
    // Which instance is which, for the UI to name the computers of a conflict's two sides.
    const [here, there] = await Promise.all([
      call<SyncState>(shop.server, 'GET', SYNC_STATE_PATH, shop.syncToken),
      call<SyncState>(upstream, 'GET', SYNC_STATE_PATH, link),
    ]);
    expect(status).toMatchObject({ instance: here.instance, upstream_instance: there.instance });
    expect(await call<SyncStatus>(upstream, 'GET', SYNC_STATUS_PATH, north)).toMatchObject({
      linked: false,
      state: 'unlinked',
      instance: there.instance,
      upstream_instance: null,
    });
    // The upstream away: offline since the failed round, the work waiting.
    await set(shop.server, shop.token, MUG, 3);
    await upstream.stop();
    await expect(shop.round()).rejects.toThrow('cannot be reached');
    expect(await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).toMatchObject({
      state: 'offline',
      pending: 1,
      offline_since: expect.any(String),
      last_error: expect.stringContaining('cannot be reached'),
    });
    // `sync status` says it in the words the scanner UI uses (syncMessages.summary).
    const cli = await runCli(['sync', 'status', '--db', shop.server.dbFile]);
    expect(cli.stdout).toContain(`north → ${upstream.url}: offline`);
    expect(cli.stdout).toMatch(
      new RegExp(
        `Offline: ${upstream.url} cannot be reached since \\S+\\. Scanning and counting go on here; everything is sent when it is back\\. 1 change made here waits to be sent\\.`,
      ),
    );
    upstream = await startTestServer(); // afterEach stops it again
  });
});

describe('a link whose upstream comes back', () => {
  // The round records the link online while its first push is applied upstream (server/sync/sync-round.ts).
  it('is online while its first push is on its way, and offline from the failed round when a round fails before it', async () => {
    const upstream = await startTestServer();
    const proxy = new LinkProxy('shop');
    await proxy.listen();
    proxy.setTarget(upstream.port);
    const shop = await follow(proxy, await upstream.newToken('north', 'sync'), 'north');
    const goOffline = async () => {
      proxy.cutNow();
      await call(shop.server, 'POST', INVENTORY_PATH, shop.token, [{ barcode: MUG, quantity: 7, warehouse_name: 'Main' }]);
      await expect(shop.round()).rejects.toThrow();
      proxy.heal();
      return (await shop.link()).offlineSince!;
    };
    try {
      await shop.round();
      expect(await goOffline()).not.toBeNull();
      // Back, with the push held on its way up: the status already says so.
      const push = proxy.holdNextPush();
      const round = shop.round();
      await vi.waitFor(async () => expect((await shop.link()).offlineSince).toBeNull(), { timeout: 5_000 });
      expect(await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).toMatchObject({
        state: 'waiting',
        pending: 1,
        offline_since: null,
      });
      push.release();
      expect(await round).toMatchObject({ pushed: 1 });

      // Back, but the round fails before its push (the catalogue moved upstream, and its copy is
      // cut): offline from that round, not from the one before it.
      const before = await goOffline();
      const document = exampleCatalogue() as { accounts: { name: string; items: unknown[] }[] };
      document.accounts[0]!.items.push({ id: 102, name: 'Tea towel', barcode: '8690000000031' });
      await upstream.store.catalogue.write(await parseCatalogue(document));
      proxy.hooks = { onRequestSent: (request, connection) => request.path.startsWith(SYNC_CATALOGUE_PATH) && connection.destroy() };
      const started = new Date().toISOString();
      await expect(shop.round()).rejects.toThrow();
      const after = (await shop.link()).offlineSince!;
      expect(after > before && after >= started).toBe(true);
      proxy.hooks = {};
      expect(await shop.round()).toMatchObject({ catalogueCopied: true });
    } finally {
      await shop.server.stop();
      await upstream.stop();
      await proxy.close();
    }
  });
});

describe('a tunnel to an upstream that listens on loopback only', () => {
  // `ssh -L 9000:127.0.0.1:8270 shop-pc`, then `sync link --upstream http://127.0.0.1:9000`: the
  // upstream sees Host 127.0.0.1:9000, a port it does not listen on. The proxy forwards the bytes as
  // they are, as the tunnel does.
  it('links through the tunnel with the real `sync link`, and its rounds go through', async () => {
    const upstream = await startTestServer();
    const tunnel = new LinkProxy('tunnel');
    await tunnel.listen();
    tunnel.setTarget(upstream.port);
    const { dir, remove } = tempDir();
    const laptopDb = await newDatabase(dir, 'laptop.db', { empty: true });
    const linkToken = await upstream.newToken('north', 'sync');
    try {
      expect(new URL(tunnel.url).port).not.toBe(String(upstream.port));
      const link = (args: string[], input?: string) =>
        runCli(['sync', 'link', '--upstream', tunnel.url, '--account', 'north', '--db', laptopDb, ...args], {}, input);
      expect((await link([])).stderr).toContain('Give the upstream token with --token <token>, --token - (standard input) or --token-file');
      // The token on standard input, kept out of the process list and the shell's history.
      const linked = await link(['--token', '-'], `${linkToken}\n`);
      expect(linked.stderr).toBe('');
      expect(linked.code).toBe(0);
      await call(upstream, 'POST', INVENTORY_PATH, upstream.tokens.north!, [{ barcode: MUG, quantity: 42, warehouse_name: 'Main' }]);
      const round = await runCli(['sync', 'now', '--db', laptopDb]);
      expect(round.code, round.stderr).toBe(0);
      expect(round.stdout).toMatch(/\b1 pulled\b/);
      expect((await runCli(['sync', 'status', '--db', laptopDb])).stdout).toContain('in sync');
      // Or from a file.
      writeFileSync(path.join(dir, 'token'), `${linkToken}\n`);
      expect((await link(['--token-file', path.join(dir, 'token')])).stderr).toContain('already follows');
      expect((await link(['--token-file', path.join(dir, 'missing')])).stderr).toContain('Cannot read the token file');
    } finally {
      await tunnel.close();
      await upstream.stop();
      await dropDatabase(laptopDb);
      remove();
    }
  });
});

describe('chains of instances', () => {
  it("carries a laptop's movement through the shop PC to head office, and head office's back down", async () => {
    const office = await startTestServer();
    const token = office.tokens.north!;
    const shop = await follow(office, await office.newToken('north', 'sync'), 'north');
    // The laptop follows the shop PC with a sync token of the shop PC.
    const laptop = await follow(shop.server, shop.syncToken, 'north');
    try {
      await shop.round();
      await laptop.round();
      await call(laptop.server, 'POST', ADJUST_PATH, laptop.token, [
        { barcode: MUG, delta: -2, warehouse_name: 'Main', reference: 'laptop' },
      ]);
      await call(office, 'POST', ADJUST_PATH, token, [{ barcode: SHIRT, delta: 5, warehouse_name: 'Main', reference: 'delivery' }]);
      await laptop.round(); // laptop → shop
      await shop.round(); // shop → office, office → shop
      await laptop.round(); // shop → laptop
      for (const [server, t] of [
        [office, token],
        [shop.server, shop.token],
        [laptop.server, laptop.token],
      ] as const) {
        const body = await call<{ results: { barcode: string; warehouse: number; quantity: number }[] }>(
          server,
          'GET',
          `${INVENTORY_PATH}?barcodes=${MUG},${SHIRT}`,
          t,
        );
        expect(body.results.filter((r) => r.warehouse === 10).map((r) => [r.barcode, r.quantity])).toEqual([
          [MUG, 3],
          [SHIRT, 8],
        ]);
      }
    } finally {
      await laptop.server.stop();
      await shop.server.stop();
      await office.stop();
    }
  });
});
