// An attack on a chain of instances through the sync door (docs/SECURITY.md, "Sync: who can do
// what"): head office, a shop PC following it and a laptop following the shop, all honest and
// working, while a till's and a manager's token of head office, a sync token there that registered
// no follower, a rogue follower registered there and a rogue at the shop send forged origins, a
// follower's own origin, replays, far-future stamps, bad text, oversized vectors and floods of
// made-up origins up to and past the account's bound. Every attack is
// refused as docs/SYNC.md says (or, where it is allowed, changes nothing honest); afterwards the
// honest instances still sync: every honest movement once on every instance, the same quantities,
// in sync. Real servers on both engines; seeded. Prints its figures.
import { describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MAX_ORIGINS_PER_ACCOUNT,
  STOCK_HISTORY_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  type HistoryPage,
  type PullPage,
  type PushAnswer,
  type SyncState,
  type SyncStatus,
} from '../../shared/index.ts';
import { MUG, SHIRT, hlcAt, madeUp, madeUpOrigins, push, register } from '../support/made-up-movements.ts';
import { sendRaw } from '../support/raw-http.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const SEED = 28;

describe('an attack on the sync door', () => {
  it(
    'refuses every forged, replayed, future, malformed and flooding push; the honest chain keeps syncing',
    { timeout: 600_000 },
    async () => {
      const random = seededRandom(SEED);
      const figures: Record<string, number> = {};
      const count = (what: string) => (figures[what] = (figures[what] ?? 0) + 1);
      const office = await startTestServer();
      const shopServer = await startTestServer({ accounts: [] });
      const laptopServer = await startTestServer({ accounts: [] });
      const started = performance.now();
      try {
        const shop = await follow(office, await office.newToken('north', 'sync'), 'north', shopServer, 'Shop');
        const laptop = await follow(shop.server, shop.syncToken, 'north', laptopServer, 'Laptop');
        const till = await office.newToken('north', 'till'); // a till's token
        const manager = office.tokens.north!; // a manager's, as the scanner UI's at head office
        const unregistered = await office.newToken('north', 'sync'); // a second link token, say one that leaked
        const rogue = await office.newToken('north', 'sync');
        await register(office, rogue, 'rogue0001', 'Rogue');
        const [officeId, shopId, laptopId] = [
          await office.store.sync.instance(),
          await shop.server.store.sync.instance(),
          await laptop.server.store.sync.instance(),
        ];

        // Honest work, and what each honest instance has made (by reference), to find afterwards.
        const honest: { server: TestServer; token: string; reference: string }[] = [];
        const sale = async (server: TestServer, token: string) => {
          const reference = `honest ${honest.length}`;
          const barcode = random.pick([MUG, SHIRT]);
          await call(server, 'POST', ADJUST_PATH, token, [
            { barcode, delta: -random.int(1, 3), warehouse_name: 'Main', reason: 'sale', reference },
          ]);
          honest.push({ server, token, reference });
        };
        const setOn = async (server: TestServer, token: string) => {
          const reference = `honest ${honest.length}`;
          await call(server, 'POST', INVENTORY_PATH, token, [
            { barcode: random.pick([MUG, SHIRT]), quantity: random.int(20, 40), warehouse_name: 'Main', reference },
          ]);
          honest.push({ server, token, reference });
        };
        const honestRound = async () => {
          await sale(office, till);
          await sale(shop.server, shop.token);
          await setOn(laptop.server, laptop.token);
          await laptop.round();
          await shop.round();
          await laptop.round();
        };
        await honestRound();

        // 1. Forged origins from a till's token and a manager's (not sync tokens), and from a sync
        //    token that registered no follower, whatever they claim.
        const nextOf = async (f: Follower) => (await f.server.store.sync.ownHighest(f.account)).seq + 1;
        for (const origin of [shopId, laptopId, officeId, 'madeup01']) {
          const at = origin === shopId ? await nextOf(shop) : origin === laptopId ? await nextOf(laptop) : 1;
          const forged = [madeUp(origin, at, { value: -random.int(1, 50) })];
          for (const token of [till, manager]) {
            expect(await push(office, token, forged, 403)).toMatchObject({ code: 'role_forbidden' });
            count('till or manager token refused (403 role_forbidden)');
          }
          expect(await push(office, unregistered, forged, 403)).toMatchObject({ code: 'follower_not_registered' });
          count('unregistered sync token refused (403 follower_not_registered)');
        }
        // 2. The rogue follower: another follower's origin, one it relays, head office's own, a
        //    registered follower's own instance it never pushed.
        for (const origin of [shopId, laptopId, officeId]) {
          const at = origin === shopId ? await nextOf(shop) : origin === laptopId ? await nextOf(laptop) : 999;
          expect(await push(office, rogue, [madeUp('rogue0001', 1), madeUp(origin, at)], 403)).toMatchObject({
            code: 'origin_not_owned',
            origin,
          });
          count('rogue follower refused (403)');
        }
        // 3. A follower's own origin pushed by another token at the shop: a token of the shop
        //    registers a made-up follower there and pushes the laptop's next movements.
        const shopRogue = await shop.server.newToken('north', 'sync');
        await register(shop.server, shopRogue, 'evil0001', 'Evil');
        expect(await push(shop.server, shopRogue, [madeUp(laptopId, await nextOf(laptop))], 403)).toMatchObject({ origin: laptopId });
        // … nor head office's origin at the shop (it comes from the shop's upstream).
        const officeHeld = (await call<SyncState>(shop.server, 'GET', SYNC_STATE_PATH, shop.syncToken)).vector[officeId]!;
        expect(await push(shop.server, shopRogue, [madeUp(officeId, officeHeld + 1)], 403)).toMatchObject({ origin: officeId });
        count('rogue at the shop refused (403)');
        // 4. Replays: the shop's movements as head office serves them, sent again by the rogue; the
        //    rogue's own batch sent twice.
        const served = (await call<PullPage>(office, 'GET', `${SYNC_MOVEMENTS_PATH}?after=0`, rogue)).movements.filter(
          (m) => m.origin === shopId,
        );
        expect(served.length).toBeGreaterThan(0);
        expect(await push(office, rogue, served, 403)).toMatchObject({ origin: shopId });
        const own = [madeUp('rogue0001', 1), madeUp('rogue0001', 2, { value: -1 })];
        expect(await push<PushAnswer>(office, rogue, own)).toMatchObject({ applied: 2, duplicates: 0 });
        expect(await push<PushAnswer>(office, rogue, own)).toMatchObject({ applied: 0, duplicates: 2 });
        // Its own sequence numbers with other content: refused, not applied twice.
        expect((await push(office, rogue, [{ ...own[0]!, value: 99 }], 409)).detail).toContain('other content');
        count('replays answered as duplicates or refused');
        // 5. Far-future stamps: 25 h ahead refused; 23.9 h ahead applied, without dragging head office's clock.
        const ahead = Date.now() + 23.9 * 3600_000;
        await push(office, rogue, [madeUp('rogue0001', 3, { hlc: hlcAt(Date.now() + 25 * 3600_000, 'rogue0001') })], 422);
        await push(office, rogue, [madeUp('rogue0001', 3, { kind: 'set', value: 30, seen: {}, hlc: hlcAt(ahead, 'rogue0001') })]);
        count('far-future stamp refused (422)');
        // 6. Bad text.
        for (const over of [
          { reference: 'x\u0000' },
          { reference: '\u202eevil' },
          { reason: '<script>' },
          { source: 'stocktake!' },
          { created_at: 'now' },
        ]) {
          await call(office, 'POST', SYNC_MOVEMENTS_PATH, rogue, { movements: [{ ...madeUp('rogue0001', 4), ...over }] }, 400);
          count('bad text refused (400)');
        }
        // 7. Oversized: a vector naming more instances than an account may have is 422; a body over
        //    1 MiB is 413; a `have` longer than any request line is 431; none is a 5xx.
        const seen = (n: number) => Object.fromEntries(madeUpOrigins('seen', n).map((o) => [o, 1]));
        const vectorPush = (n: number, status: number) =>
          call(
            office,
            'POST',
            SYNC_MOVEMENTS_PATH,
            rogue,
            { movements: [madeUp('rogue0001', 4, { kind: 'set', value: 1, seen: seen(n) })] },
            status,
          );
        expect((await vectorPush(MAX_ORIGINS_PER_ACCOUNT + 1, 422)).detail).toContain(`names ${MAX_ORIGINS_PER_ACCOUNT + 1} instances`);
        await vectorPush(80_000, 413);
        const longHave = madeUpOrigins('have', 2000)
          .map((o) => `${o}:1`)
          .join(',');
        const answer = await sendRaw(office.port, {
          method: 'GET',
          target: `${SYNC_MOVEMENTS_PATH}?have=${longHave}`,
          headers: [['Authorization', `Token ${till}`]],
        });
        expect(answer.status).toBe(431);
        count('oversized refused (413, 431)');
        // 8. A flood of made-up origins from the till token (refused) and from the rogue, up to the
        //    account's bound and past it. In the Backroom: a flood on the place of the set stamped a
        //    day ahead would have each of its movements fold that place again (issue 28, item 2: the
        //    fold's part, not the door's).
        await push(
          office,
          till,
          madeUpOrigins('tillflood', 500).map((o) => madeUp(o, 1, { value: 0, warehouse: 11 })),
          403,
        );
        const held = Object.keys((await call<SyncState>(office, 'GET', SYNC_STATE_PATH, rogue)).vector).length;
        const room = MAX_ORIGINS_PER_ACCOUNT - held - 20; // honest instances keep a few to come (the shop and laptop have not all pushed)
        const flood = madeUpOrigins(`f${random.int(100, 999)}x`, room);
        const floodStarted = performance.now();
        for (let i = 0; i < flood.length; i += 500)
          await push(
            office,
            rogue,
            flood.slice(i, i + 500).map((o) => madeUp(o, 1, { value: 0, warehouse: 11 })),
          );
        figures['flood: made-up origins applied'] = flood.length;
        figures['flood: seconds'] = Math.round((performance.now() - floodStarted) / 100) / 10;
        const past = madeUpOrigins('past', 500).map((o) => madeUp(o, 1, { value: 0, warehouse: 11 }));
        const refused = await push(office, rogue, past, 422);
        expect(refused).toMatchObject({ code: 'origin_limit' });
        expect(past.map((m) => m.origin)).toContain(refused.origin);
        count('flood past the bound refused (422)');

        // Afterwards the honest chain still syncs, each honest instance's movements once everywhere.
        const healStarted = performance.now();
        for (let i = 0; i < 3; i++) await honestRound();
        await shop.round();
        await laptop.round();
        figures['honest rounds after the attack: seconds'] = Math.round((performance.now() - healStarted) / 100) / 10;
        const instances = [
          { name: 'office', server: office, token: manager },
          { name: 'shop', server: shop.server, token: shop.token },
          { name: 'laptop', server: laptop.server, token: laptop.token },
        ];
        const quantities = async (server: TestServer, token: string) =>
          (
            await call<{ results: { barcode: string; warehouse: number; quantity: number }[] }>(
              server,
              'GET',
              `${INVENTORY_PATH}?barcodes=${MUG},${SHIRT}`,
              token,
            )
          ).results
            .filter((r) => r.warehouse === 10)
            .map((r) => [r.barcode, r.quantity]);
        const expected = await quantities(office, manager);
        for (const { name, server, token } of instances) {
          expect(await quantities(server, token), name).toEqual(expected);
          const references: string[] = [];
          for (let cursor: string | null = ''; cursor !== null;) {
            const page: HistoryPage = await call<HistoryPage>(
              server,
              'GET',
              `${STOCK_HISTORY_PATH}?limit=500&source=api${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
              token,
            );
            references.push(...page.results.map((h) => h.reference ?? ''));
            cursor = page.next_cursor;
          }
          for (const { reference } of honest)
            expect(
              references.filter((r) => r === reference),
              `${name}: ${reference}`,
            ).toHaveLength(1);
        }
        for (const f of [shop, laptop])
          expect(await call<SyncStatus>(f.server, 'GET', SYNC_STATUS_PATH, f.token)).toMatchObject({ state: 'in_sync', pending: 0 });
        // Nothing honest took the rogue's origins as its own, and head office's clock was not dragged a day.
        const sales = (await call<HistoryPage>(office, 'GET', `${STOCK_HISTORY_PATH}?limit=5&source=api`, manager)).results.filter((h) =>
          h.reference?.startsWith('honest'),
        );
        for (const h of sales) expect(Number(h.hlc.slice(0, 16))).toBeLessThan(Date.now() + 10 * 60_000);
        figures['honest movements, each once on every instance'] = honest.length;
        figures['seconds in all'] = Math.round((performance.now() - started) / 100) / 10;
        console.log(`[sync adversarial] seed ${SEED}: ${JSON.stringify(figures)}`);
      } finally {
        await laptopServer.stop();
        await shopServer.stop();
        await office.stop();
      }
    },
  );
});
