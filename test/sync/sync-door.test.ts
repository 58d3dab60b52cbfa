// Trust at the door of sync (docs/SYNC.md, "Who may speak for an origin", "Clocks", "Pushed text"):
// who may push which origin's movements, the follower's alarm when movements of its own origin turn up
// that it never made, bounded cost whatever the number of origins, a link that touches its own account
// only, a clock that a push drags at most 5 minutes, and pushed text checked as local input is. Real
// servers on both engines; a made-up upstream (a small HTTP server) where the follower is on trial.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MAX_CLOCK_DRAG_MS,
  MAX_MOVEMENTS_PER_BATCH,
  STOCK_HISTORY_PATH,
  SYNC_CATALOGUE_PATH,
  SYNC_FOLLOWERS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  type HistoryPage,
  type PullPage,
  type PushAnswer,
  type SyncState,
  type SyncStatus,
  syncMessages,
} from '../../shared/index.ts';
import { syncRound } from '../../server/sync/sync-round.ts';
import { type FakeUpstream, MUG, fakeUpstream, hlcAt, madeUp, madeUpOrigins, push, register } from '../support/made-up-movements.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow, linkStore } from '../support/sync-instances.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of running.splice(0).reverse()) await server.stop();
});

async function upstreamServer(): Promise<TestServer> {
  const server = await startTestServer();
  running.push(server);
  return server;
}

/** A sync token of north on `server` made for one follower (`sync link` takes one per computer). */
const linkToken = async (server: TestServer, label = 'link') => (await server.store.tokens.create('north', label, 'sync')).key;

async function follower(upstream: TestServer, label?: string): Promise<Follower> {
  const instance = await startTestServer({ accounts: [] });
  running.push(instance);
  return follow(upstream, await linkToken(upstream, label), 'north', instance, label);
}

const quantity = async (server: TestServer, token: string, barcode = MUG) =>
  (
    await call<{ results: { warehouse: number; quantity: number }[] }>(server, 'GET', `${INVENTORY_PATH}?barcodes=${barcode}`, token)
  ).results.find((r) => r.warehouse === 10)!.quantity;
const sell = (server: TestServer, token: string, reference: string) =>
  call(server, 'POST', ADJUST_PATH, token, [{ barcode: MUG, delta: -1, warehouse_name: 'Main', reason: 'sale', reference }]);
const statusOf = (f: Follower) => call<SyncStatus>(f.server, 'GET', SYNC_STATUS_PATH, f.token);
const instanceOf = (server: TestServer) => server.store.sync.instance();

describe('who may speak for an origin', () => {
  it("refuses a till token's push of a follower's origin: the follower's sales arrive, and it is in sync", async () => {
    // The scenario: B follows A; a north token on A (a till's) pushes 50 movements whose
    // origin is B's instance id (public in A's state), taking B's next numbers; B's till sells 3.
    // A till's token (as a scanner's) does not reach sync at all; a sync token of its own must have
    // registered a follower, and that follower is not B.
    const a = await upstreamServer();
    const b = await follower(a, 'B');
    await b.round();
    const bId = await instanceOf(b.server);
    const next = (await b.server.store.sync.ownHighest(b.account)).seq + 1;
    const forged = Array.from({ length: 50 }, (_, i) => madeUp(bId, next + i, { value: -1 }));
    expect(await push(a, await a.newToken('north', 'till'), forged, 403)).toMatchObject({ code: 'role_forbidden' });
    expect(await push(a, a.tokens.north!, forged, 403)).toMatchObject({ code: 'role_forbidden' }); // a manager's, as the scanner UI's
    expect(await push(a, await linkToken(a, 'unregistered'), forged, 403)).toMatchObject({ code: 'follower_not_registered' });
    // A follower of its own (registered, with a token of its own) may not push B's either.
    const rogue = await linkToken(a, 'rogue');
    await register(a, rogue, 'rogue0001', 'Rogue');
    const refused = await push(a, rogue, forged, 403);
    expect(refused).toMatchObject({ code: 'origin_not_owned', origin: bId });
    expect(refused.detail).toBe(syncMessages.originOfAnother(bId, syncMessages.ownerFollower(bId, 'B')));
    for (const r of ['till 1', 'till 2', 'till 3']) await sell(b.server, b.token, r);
    await b.round();
    await b.round();
    expect(await quantity(a, a.tokens.north!)).toBe(2);
    expect(await quantity(b.server, b.token)).toBe(2);
    expect(await statusOf(b)).toMatchObject({ state: 'in_sync', pending: 0, last_error: null });
  });

  it('registers a follower under its label: one token for one instance, never this instance, never one another valid token holds', async () => {
    const a = await upstreamServer();
    const [t1, t2] = [await linkToken(a, 'laptop'), await linkToken(a, 'other')];
    expect(await register(a, t1, 'laptop01', 'Laptop 1')).toMatchObject({ instance: 'laptop01', label: 'Laptop 1' });
    expect(await register(a, t1, 'laptop01', 'Laptop 2')).toMatchObject({ instance: 'laptop01', label: 'Laptop 2' });
    const own = await instanceOf(a);
    expect((await register(a, t1, own, 'Me', 422)).detail).toBe(syncMessages.followerOfItself(own));
    expect((await register(a, t2, 'laptop01', 'Thief', 409)).detail).toBe(syncMessages.instanceTaken('laptop01', 'Laptop 2'));
    expect((await register(a, t1, 'laptop02', 'Laptop 3', 409)).detail).toBe(syncMessages.tokenTaken('laptop01', 'Laptop 2'));
    // Text a person reads: no control or direction characters; an instance id as instances make them.
    expect((await register(a, t2, 'laptop03', 'Lap\u202etop', 400)).detail).toContain('U+202E');
    await register(a, t2, 'Laptop 3', 'x', 400);
    await call(a, 'POST', SYNC_FOLLOWERS_PATH, t2, { instance: 'laptop03' }, 400);
    // A replaced computer: its token revoked here, a new token takes the instance and what it owns.
    await push(a, t1, [madeUp('laptop01', 1)]);
    await a.store.tokens.revoke((await a.store.tokens.list('north')).find((t) => t.label === 'laptop')!.id);
    expect(await register(a, t2, 'laptop01', 'Laptop 1 (new)')).toMatchObject({ instance: 'laptop01', label: 'Laptop 1 (new)' });
    expect(await push(a, t2, [madeUp('laptop01', 2)])).toMatchObject({ applied: 1 });
    expect(await a.probe.all('SELECT instance, label FROM sync_followers ORDER BY instance')).toEqual([
      { instance: 'laptop01', label: 'Laptop 1 (new)' },
    ]);
  });

  it('lets a follower push its own origin and those it brings first; never this instance’s, another’s, or its upstream’s', async () => {
    const a = await upstreamServer();
    const [t1, t2] = [await linkToken(a, 'shop 1'), await linkToken(a, 'shop 2')];
    await register(a, t1, 'shop0001', 'Shop 1');
    await register(a, t2, 'shop0002', 'Shop 2');
    // Shop 1 brings its own movements and those of a laptop that follows it.
    expect(await push(a, t1, [madeUp('shop0001', 1), madeUp('laptop01', 1), madeUp('laptop01', 2)])).toMatchObject({ applied: 3 });
    const own = await instanceOf(a);
    const cases: [string, ReturnType<typeof madeUp>, string][] = [
      ['the laptop Shop 1 brings', madeUp('laptop01', 3), syncMessages.ownerFollower('shop0001', 'Shop 1')],
      ["Shop 1's own", madeUp('shop0001', 2), syncMessages.ownerFollower('shop0001', 'Shop 1')],
    ];
    for (const [label, movement, owner] of cases) {
      const refused = await push(a, t2, [madeUp('shop0002', 1), movement], 403);
      expect(refused.detail, label).toBe(syncMessages.originOfAnother(movement.origin, owner));
    }
    expect((await push(a, t2, [madeUp(own, 1)], 403)).detail).toBe(syncMessages.originIsOwn(own));
    // Refused whole: nothing of Shop 2's own movement in those batches was applied.
    expect((await call<SyncState>(a, 'GET', SYNC_STATE_PATH, t2)).vector).not.toHaveProperty('shop0002');
    expect(await push(a, t2, [madeUp('shop0002', 1)])).toMatchObject({ applied: 1 });
    // Shop 2's own instance is its own even before it pushed: Shop 1 may not claim it first.
    await register(a, await linkToken(a, 'shop 3'), 'shop0003', 'Shop 3');
    expect((await push(a, t1, [madeUp('shop0003', 1)], 403)).detail).toBe(
      syncMessages.originOfAnother('shop0003', syncMessages.ownerFollower('shop0003', 'Shop 3')),
    );
  });

  it("carries a laptop's origin through its shop to head office; the laptop cannot push head office's origin at the shop", async () => {
    const office = await upstreamServer();
    const shop = await follower(office, 'Shop');
    const laptopServer = await startTestServer({ accounts: [] });
    running.push(laptopServer);
    const laptop = await follow(shop.server, shop.syncToken, 'north', laptopServer);
    await call(office, 'POST', ADJUST_PATH, office.tokens.north!, [{ barcode: MUG, delta: 4, warehouse_name: 'Main' }]);
    await shop.round();
    await laptop.round();
    await sell(laptop.server, laptop.token, 'laptop sale');
    await laptop.round();
    await shop.round();
    const [officeId, shopId, laptopId] = [await instanceOf(office), await instanceOf(shop.server), await instanceOf(laptop.server)];
    // Head office: the laptop's origin is the shop's to bring (the shop made nothing of its own yet).
    expect(await office.probe.all('SELECT origin, owner FROM sync_origins')).toEqual([{ origin: laptopId, owner: shopId }]);
    // At the shop, head office's origin came from its upstream: the laptop may not push it there.
    const held = (await call<SyncState>(shop.server, 'GET', SYNC_STATE_PATH, shop.syncToken)).vector[officeId]!;
    const refused = await push(shop.server, (await laptop.link()).token, [madeUp(officeId, held + 1)], 403);
    expect(refused.detail).toBe(syncMessages.originOfAnother(officeId, syncMessages.ownerUpstream));
    expect(await quantity(office, office.tokens.north!)).toBe(8);
  });
});

/** North's catalogue alone, as an upstream hands it down. */
const northDocument = () => {
  const document = exampleCatalogue() as { accounts: { name: string; items: { stock?: unknown }[] }[] };
  const north = document.accounts.find((a) => a.name === 'north')!;
  for (const item of north.items as { stock?: unknown; variants?: { stock?: unknown }[] }[]) {
    delete item.stock;
    for (const variant of item.variants ?? []) delete variant.stock;
  }
  return { accounts: [north] };
};

/** An upstream made up by the test: what a hostile or broken head office (or anything on the plain-HTTP path) may answer. */
async function madeUpUpstream(options: {
  vector?: () => Record<string, number>;
  catalogue?: () => { version: number; catalogue: unknown };
  page?: () => PullPage;
}): Promise<FakeUpstream> {
  const catalogue = options.catalogue ?? (() => ({ version: 1, catalogue: northDocument() }));
  const upstream = await fakeUpstream((method, path) => {
    if (method === 'GET' && path.startsWith(SYNC_STATE_PATH))
      return {
        body: {
          instance: 'madeup01',
          now: Date.now(),
          account: 'north',
          warehouses_enabled: true,
          catalogue_version: catalogue().version,
          vector: options.vector?.() ?? {},
        },
      };
    if (method === 'POST' && path.startsWith(SYNC_FOLLOWERS_PATH))
      return { body: { instance: 'whoever', label: 'x', registered_at: new Date().toISOString() } };
    if (method === 'GET' && path.startsWith(SYNC_CATALOGUE_PATH)) return { body: catalogue() };
    if (method === 'GET' && path.startsWith(SYNC_MOVEMENTS_PATH))
      return { body: options.page?.() ?? { movements: [], next_cursor: 0, more: false, now: Date.now() } };
    if (method === 'POST' && path.startsWith(SYNC_MOVEMENTS_PATH))
      return { body: { applied: 0, duplicates: 0, vector: {}, now: Date.now() } };
    return undefined;
  });
  running.push({ stop: () => upstream.close() });
  return upstream;
}

/** A follower of north linked to `upstream` as `sync link` links it: an empty instance, or `server`. */
async function linkedTo(upstream: { url: string }, server?: TestServer): Promise<Follower> {
  const instance = server ?? (await startTestServer({ accounts: [] }));
  if (!server) running.push(instance);
  await linkStore(instance.store, upstream.url, 'bi_madeup', 'north', 'Laptop 2');
  const account = (await instance.store.accounts.find('north'))!;
  const token = (await instance.store.tokens.create('north', 'own', 'manager')).key;
  const syncToken = (await instance.store.tokens.create('north', 'own link', 'sync')).key;
  const link = async () => (await instance.store.sync.linkOf(account))!;
  return { server: instance, account, token, syncToken, link, round: async () => syncRound(instance.store, await link()) };
}

describe("the follower's alarm: movements of its own origin that it never made", () => {
  it("fails the round loudly when the upstream's state holds more of this instance's movements than it made", async () => {
    let claimed = 0;
    const upstream = await madeUpUpstream({ vector: () => (claimed > 0 ? { [own]: claimed } : {}) });
    const laptop = await linkedTo(upstream);
    const own = await instanceOf(laptop.server);
    await laptop.round();
    for (const r of ['till 1', 'till 2', 'till 3']) await sell(laptop.server, laptop.token, r);
    claimed = 50; // someone pushed 50 movements with this instance's id upstream
    const expected = syncMessages.forgedOwnMovements(`The upstream ${upstream.url}`, 47, own);
    for (let round = 0; round < 2; round++) await expect(laptop.round()).rejects.toThrow(expected);
    expect(await statusOf(laptop)).toMatchObject({
      state: 'error',
      last_error: expected,
      problem: { code: 'forged_own_movements', detail: expected },
      offline_since: null,
      pending: 3,
    });
    // Nothing was pushed under the upstream's claim.
    expect(upstream.requests.filter((r) => r.method === 'POST' && r.path.startsWith(SYNC_MOVEMENTS_PATH))).toEqual([]);
    // Said in the words of the scanner UI and `sync status` too.
    expect(syncMessages.summary(await statusOf(laptop), null)).toContain('has stopped');
  });

  it('refuses a pulled page with movements of its own origin it never made, and applies nothing of it', async () => {
    let page: PullPage = { movements: [], next_cursor: 0, more: false, now: Date.now() };
    const upstream = await madeUpUpstream({ page: () => page });
    const laptop = await linkedTo(upstream);
    const own = await instanceOf(laptop.server);
    await laptop.round();
    await sell(laptop.server, laptop.token, 'till 1');
    const mine = (await laptop.server.store.sync.ownHighest(laptop.account)).seq;
    page = { movements: [1, 2, 3].map((i) => madeUp(own, mine + i, { value: -10 })), next_cursor: 3, more: false, now: Date.now() };
    await expect(laptop.round()).rejects.toThrow(syncMessages.forgedOwnMovements(`The upstream ${upstream.url}`, 3, own));
    expect((await laptop.server.store.sync.ownHighest(laptop.account)).seq).toBe(mine);
    expect(await quantity(laptop.server, laptop.token)).toBe(-1); // the catalogue carries no stock: only the sale
    expect(await statusOf(laptop)).toMatchObject({ state: 'error' });
    // Once the upstream stops sending them, the next round succeeds and the error clears.
    page = { movements: [], next_cursor: 3, more: false, now: Date.now() };
    await laptop.round();
    expect(await statusOf(laptop)).toMatchObject({ state: 'in_sync', last_error: null });
  });
});

describe('a database restored from a backup', () => {
  it("takes back its own movements in a link's first round, and numbers its next ones after them", async () => {
    const a = await upstreamServer();
    const token = await linkToken(a, 'B');
    const bServer = await startTestServer({ accounts: [] });
    running.push(bServer);
    const b = await follow(a, token, 'north', bServer, 'B');
    await b.round();
    for (const r of ['till 1', 'till 2']) await sell(b.server, b.token, r);
    expect(await b.round()).toMatchObject({ pushed: 2 });
    // Restored from before those sales: B's identity, none of what it made. Linked again with its
    // token (docs/SYNC.md, "Restoring a backup"), its first round takes them back.
    const restoredServer = await startTestServer({ accounts: [] });
    running.push(restoredServer);
    await restoredServer.probe.run('UPDATE instance SET id = ?', await instanceOf(b.server));
    const restored = await follow(a, token, 'north', restoredServer, 'B');
    await restored.round();
    expect((await restored.server.store.sync.ownHighest(restored.account)).seq).toBe(2);
    await sell(restored.server, restored.token, 'till 3');
    expect(await restored.round()).toMatchObject({ pushed: 1 });
    expect(await quantity(a, a.tokens.north!)).toBe(2);
    expect(await statusOf(restored)).toMatchObject({ state: 'in_sync', pending: 0 });
  });
});

describe('bounded cost whatever the number of origins', () => {
  it('keeps every follower syncing with 1,000 made-up origins; push answers name the batch’s origins only', async () => {
    const a = await upstreamServer();
    const b = await follower(a, 'B');
    await b.round();
    const rogue = await linkToken(a, 'rogue');
    await register(a, rogue, 'rogue0001', 'Rogue');
    const origins = madeUpOrigins('flood', 1000);
    for (let i = 0; i < origins.length; i += MAX_MOVEMENTS_PER_BATCH) {
      const batch = origins.slice(i, i + MAX_MOVEMENTS_PER_BATCH).map((origin) => madeUp(origin, 1, { value: 0 }));
      const answer = await push<PushAnswer>(a, rogue, batch);
      expect(answer.applied).toBe(batch.length);
      expect(Object.keys(answer.vector).sort()).toEqual(batch.map((m) => m.origin).sort());
    }
    expect(Object.keys((await call<SyncState>(a, 'GET', SYNC_STATE_PATH, rogue)).vector).length).toBeGreaterThan(1000);
    // The follower pulls them, then its own sale goes up and does not come back.
    expect(await b.round()).toMatchObject({ pulled: 1000 });
    expect(await statusOf(b)).toMatchObject({ state: 'in_sync', pending: 0 });
    await sell(b.server, b.token, 'till 1');
    expect(await statusOf(b)).toMatchObject({ pending: 1 });
    expect(await b.round()).toMatchObject({ pushed: 1, pulled: 0 });
    expect(await statusOf(b)).toMatchObject({ state: 'in_sync', pending: 0 });
    expect(await quantity(a, a.tokens.north!)).toBe(4);
    // A pull may say everything it holds (here 300 origins; a request line bounds it in practice).
    const have = origins.slice(0, 300).map((o) => `${o}:1`);
    const page = await call<PullPage>(a, 'GET', `${SYNC_MOVEMENTS_PATH}?after=0&have=${have.join(',')}`, rogue);
    expect(page.movements.map((m) => m.origin)).not.toContain(origins[0]);
  });
});

describe('a link touches only its own account', () => {
  it("refuses an upstream's catalogue that names another account, at the link and at every round, and writes nothing of it", async () => {
    // The follower holds north and kiosk (the example catalogue); north is linked to a hostile upstream.
    let document: unknown = { accounts: [...northDocument().accounts, { name: 'kiosk', warehouses_enabled: false, items: [] }] };
    let version = 1;
    const upstream = await madeUpUpstream({ catalogue: () => ({ version, catalogue: document }) });
    const shop = await startTestServer();
    running.push(shop);
    const pen = () => shop.probe.first('SELECT i.name, u.barcode FROM items i JOIN stock_units u ON u.item_id = i.id WHERE i.id = 200');
    const accounts = async () => (await shop.store.accounts.list()).map((a) => a.name).sort();
    const refusal = syncMessages.catalogueOfOtherAccounts('north', ['north', 'kiosk']);
    await expect(linkStore(shop.store, upstream.url, 'bi_madeup', 'north')).rejects.toThrow(refusal);
    expect(await shop.store.sync.linkOf((await shop.store.accounts.find('north'))!)).toBeUndefined();
    // Linked to a document of north alone, then the upstream hands down one that renames kiosk's pen,
    // changes its barcode and makes an account.
    document = northDocument();
    const linked = await linkedTo(upstream, shop);
    await linked.round();
    const hostile = exampleCatalogue() as { accounts: { name: string; items: { name: string; barcode?: string }[] }[] };
    hostile.accounts[1]!.items[0]!.name = 'Pwned';
    hostile.accounts[1]!.items[0]!.barcode = '666';
    document = { accounts: [...hostile.accounts, { name: 'evil', warehouses_enabled: false, items: [] }] };
    version = 2;
    await expect(linked.round()).rejects.toThrow(syncMessages.catalogueOfOtherAccounts('north', ['north', 'kiosk', 'evil']));
    expect(await pen()).toEqual({ name: 'Pen', barcode: '111' });
    expect(await accounts()).toEqual(['kiosk', 'north']);
    const pens = await call<{ results: { quantity: number }[] }>(shop, 'GET', `${INVENTORY_PATH}?barcodes=111`, shop.tokens.kiosk!);
    expect(pens.results).toMatchObject([{ quantity: 7 }]);
    expect(await statusOf(linked)).toMatchObject({ state: 'error', problem: { code: 'wrong_account' } });
    // A document of no account at all is refused too.
    document = { accounts: [] };
    version = 3;
    await expect(linked.round()).rejects.toThrow(syncMessages.catalogueOfOtherAccounts('north', []));
  });
});

describe('clocks: a push drags the receiver’s clock at most 5 minutes', () => {
  it('applies a set stamped 23.9 h ahead at its stamp; what is recorded next here is stamped near now, and both agree', async () => {
    const a = await upstreamServer();
    const b = await follower(a, 'B');
    await b.round();
    const fast = await linkToken(a, 'fast');
    await register(a, fast, 'fastclock', 'Fast clock');
    const ahead = Date.now() + 23.9 * 3600_000;
    await push(a, fast, [madeUp('fastclock', 1, { kind: 'set', value: 9, hlc: hlcAt(ahead, 'fastclock'), seen: {} })]);
    await push(a, fast, [madeUp('fastclock', 2, { hlc: hlcAt(Date.now() + 25 * 3600_000, 'fastclock') })], 422);
    const before = Date.now();
    await sell(a, a.tokens.north!, 'till 1');
    const until = new Date(Date.now() + 3600_000).toISOString();
    const page = await call<HistoryPage>(a, 'GET', `${STOCK_HISTORY_PATH}?barcode=${MUG}&until=${until}`, a.tokens.north!);
    const sale = page.results.find((h) => h.reference === 'till 1');
    expect(sale).toBeDefined();
    const wall = Number(sale!.hlc.slice(0, 16));
    expect(wall).toBeGreaterThanOrEqual(before);
    expect(wall).toBeLessThanOrEqual(Date.now() + MAX_CLOCK_DRAG_MS);
    // The set sorts by its stamp, after the sale: 9 here and on the follower, which folds the same.
    expect(await quantity(a, a.tokens.north!)).toBe(9);
    await b.round();
    expect(await quantity(b.server, b.token)).toBe(9);
    // A follower's movement too is stamped near its own now, not tomorrow.
    await sell(b.server, b.token, 'shop 1');
    const own = (await call<HistoryPage>(b.server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${MUG}&until=${until}`, b.token)).results;
    expect(own.map((h) => h.reference)).toContain('shop 1');
    await b.round();
    expect(await quantity(a, a.tokens.north!)).toBe(await quantity(b.server, b.token));
  });
});

describe('pushed text is checked as local input is', () => {
  it('refuses bad source, reason, reference and created_at with 400, and passes on text stored before with its effect taken out', async () => {
    const a = await upstreamServer();
    const t = await linkToken(a, 'laptop');
    await register(a, t, 'laptop01', 'Laptop');
    const bad: Record<string, unknown>[] = [
      { source: 'stocktake<script>' },
      { source: 'sync' },
      { reason: 'sale\u0000' },
      { reason: 'a sale' },
      { reason: '<img src=x onerror=alert(1)>' },
      { reference: 'PO\u00001' },
      { reference: '\u001b]0;owned\u0007' },
      { reference: 'PO-\u202e1' },
      { reference: 'line\r\nInjected: 1' },
      { created_at: 'yesterday' },
      { created_at: '2026-11-23T10:00:00.000Z\u001b[2J' },
    ];
    for (const over of bad) {
      const answer = await call(a, 'POST', SYNC_MOVEMENTS_PATH, t, { movements: [{ ...madeUp('laptop01', 1), ...over }] }, 400);
      expect(answer.detail, JSON.stringify(over)).toContain(`movements.0.${Object.keys(over)[0]}`);
    }
    expect(await a.probe.first('SELECT count(*) AS n FROM stock_history WHERE origin = ?', 'laptop01')).toEqual({ n: 0 });
    // The local API refuses the same reference.
    const local = await call(a, 'POST', ADJUST_PATH, a.tokens.north!, [
      { barcode: MUG, delta: 1, warehouse_name: 'Main', reference: 'PO-\u202e1' },
    ]);
    expect(local.errors[0].errors.reference).toContain('U+202E');
    // Text pushed before it was checked (an earlier version stored it) is passed on without its effect.
    await push(a, t, [madeUp('laptop01', 1, { reference: 'PO-1', reason: 'sale' })]);
    await a.probe.run("INSERT INTO movement_sources (id, name) VALUES (99, 'evil')");
    await a.probe.run(
      "UPDATE stock_history SET reference = ?, reason = ?, source_id = 99 WHERE origin = 'laptop01'",
      'PO\u001b[2J-1\u202e',
      'a sale',
    );
    const b = await follower(a, 'B');
    await b.round();
    const copy = (await call<HistoryPage>(b.server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${MUG}`, b.token)).results.find(
      (h) => h.movement === 'laptop01-1',
    )!;
    expect(copy).toMatchObject({ reference: 'PO\uFFFD[2J-1\uFFFD', reason: null, source: 'api' });
    expect(copy.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
