// Conflict groups kept step by step (docs/SYNC.md, "Conflicts"): the movement log judges a movement on
// top of its place against what it overrode, walks a place again from the group open where a batch's
// movements land in the past, and resolves a place's open group when a set is made here. Whatever the
// order movements arrive in, what the instance lists must be the groups of the whole history, as the
// convergence simulation's oracle (support/sync-oracle.ts, written from docs/SYNC.md) computes them
// from scratch. Seeded: three made-up instances with clocks apart (so their movements land in one
// another's past), pushed in batches of random sizes, and sets made here between them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Conflict,
  type HistoryPage,
  INVENTORY_PATH,
  STOCK_HISTORY_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_FOLLOWERS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  type SyncMovement,
  type SyncState,
} from '../../shared/index.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { type OracleConflict, type OracleMovement, asOracleConflict, placeOf, predictConflicts } from '../support/sync-oracle.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { testEngine } from '../support/test-engine.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const PLACES = [
  { item: 100, liquid_stock: null, barcode: '8690000000017', warehouse: 10, warehouseName: 'Main' },
  { item: 100, liquid_stock: null, barcode: '8690000000017', warehouse: 11, warehouseName: 'Backroom' },
  { item: 101, liquid_stock: 5001, barcode: '8690000000024', warehouse: 10, warehouseName: 'Main' },
];
/** Made-up instances and how far their clocks are from the server's: the slow one's movements land in the past. */
const INSTANCES = [
  { origin: 'aaaa0001', offsetMs: 0 },
  { origin: 'bbbb0002', offsetMs: -40 * 60_000 },
  { origin: 'cccc0003', offsetMs: -90 * 60_000 },
];

describe(`conflict groups kept step by step (${testEngine()})`, () => {
  let server: TestServer;
  let token: string;
  /** A follower's credential: the upstream side of sync is the sync role's. */
  let syncToken: string;
  beforeEach(async () => {
    server = await startTestServer();
    token = server.tokens.north!;
    syncToken = await server.newToken('north', 'sync');
    // One follower brings the made-up instances' movements (docs/SYNC.md, "Who may speak for an origin").
    await call(server, 'POST', SYNC_FOLLOWERS_PATH, syncToken, { instance: 'relay0001', label: 'Relay' });
  });
  afterEach(async () => {
    await server.stop();
  });

  const listed = async () =>
    (await call<Conflict[]>(server, 'GET', `${SYNC_CONFLICTS_PATH}?state=all&limit=500`, token)).map(asOracleConflict);
  const history = async () => {
    const entries: HistoryPage['results'] = [];
    let cursor: string | null = null;
    do {
      const page: HistoryPage = await call<HistoryPage>(
        server,
        'GET',
        `${STOCK_HISTORY_PATH}?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
        token,
      );
      entries.push(...page.results);
      cursor = page.next_cursor;
    } while (cursor);
    return entries;
  };
  const key = (c: OracleConflict) => JSON.stringify([c.place, c.first, c.last, c.earlier, c.movements, c.racing, c.resolved]);

  it.each([1, 2, 20261124])('lists the groups of the whole history after every batch, seed %i', async (seed) => {
    const random = seededRandom(seed);
    const here = (await call<SyncState>(server, 'GET', SYNC_STATE_PATH, syncToken)).instance;
    /** What every set and count had seen (an adjust, an import: nothing). */
    const seenOf = new Map<string, Record<string, number>>();
    /** Per made-up instance: its next sequence, its clock's counter, and what it knows of the others. */
    const made = new Map(INSTANCES.map((i) => [i.origin, { seq: 0, counter: 0, knows: {} as Record<string, number> }]));
    const held = async () => (await call<SyncState>(server, 'GET', SYNC_STATE_PATH, syncToken)).vector;
    const queued = new Map<string, SyncMovement[]>(INSTANCES.map((i) => [i.origin, []]));
    let batches = 0;
    let checks = 0;
    let groups: OracleConflict[] = [];
    let late = 0;
    for (let step = 0; step < 40; step++) {
      // Each instance makes a few movements, knowing some of what the server held a while ago.
      const vector = await held();
      for (const { origin, offsetMs } of INSTANCES) {
        const me = made.get(origin)!;
        if (random.chance(0.4))
          for (const [other, seq] of Object.entries(vector)) if (other !== origin) me.knows[other] = Math.max(me.knows[other] ?? 0, seq);
        for (let n = random.int(0, 3); n > 0; n--) {
          const place = random.pick(PLACES);
          const kind = random.pick(['set', 'set', 'count', 'adjust'] as const);
          const seq = ++me.seq;
          const seen = kind === 'adjust' ? null : { ...me.knows };
          const id = `${origin}-${seq}`;
          if (seen) seenOf.set(id, seen);
          const wall = Date.now() + offsetMs + step * 1000;
          queued.get(origin)!.push({
            id,
            origin,
            seq,
            kind,
            value: kind === 'adjust' ? random.int(-3, 3) : random.int(0, 30),
            hlc: `${String(wall).padStart(16, '0')}-${String(me.counter++).padStart(5, '0')}-${origin}`,
            item: place.item,
            liquid_stock: place.liquid_stock,
            warehouse: place.warehouse,
            barcode: place.barcode,
            seen: seen && Object.keys(seen).length > 0 ? seen : null,
            source: 'api',
            reason: null,
            reference: id,
            created_at: new Date().toISOString(),
          });
        }
      }
      // Deliver a prefix of some instances' queues in one batch, in a shuffled order of instances.
      const batch: SyncMovement[] = [];
      for (const { origin } of INSTANCES) {
        const queue = queued.get(origin)!;
        if (queue.length > 0 && random.chance(0.6)) batch.push(...queue.splice(0, random.int(1, queue.length)));
      }
      if (batch.length > 0) {
        const latest = new Map<string, string>();
        for (const e of await history()) if ((latest.get(placeOf(e)) ?? '') < e.hlc) latest.set(placeOf(e), e.hlc);
        late += batch.filter((m) => (latest.get(placeOf(m)) ?? '') > m.hlc).length;
        await call(server, 'POST', SYNC_MOVEMENTS_PATH, syncToken, { movements: batch });
        batches++;
      }
      // Now and then someone here records a quantity: it had seen everything the server holds.
      if (random.chance(0.3)) {
        const place = random.pick(PLACES);
        const before = await held();
        seenOf.set(`${here}-${(before[here] ?? 0) + 1}`, Object.fromEntries(Object.entries(before).filter(([o]) => o !== here)));
        await call(server, 'POST', INVENTORY_PATH, token, [
          { barcode: place.barcode, quantity: random.int(0, 30), warehouse_name: place.warehouseName },
        ]);
      }
      const movements: OracleMovement[] = (await history()).map((e) => {
        const origin = e.movement.slice(0, e.movement.lastIndexOf('-'));
        return {
          id: e.movement,
          origin,
          seq: Number(e.movement.slice(e.movement.lastIndexOf('-') + 1)),
          kind: e.kind,
          value: e.value,
          hlc: e.hlc,
          barcode: e.barcode,
          warehouse: e.warehouse,
          seen: seenOf.get(e.movement) ?? {},
        };
      });
      const predicted = predictConflicts(movements);
      expect((await listed()).map(key).sort(), `after step ${step}`).toEqual(predicted.map(key).sort());
      checks++;
      groups = predicted;
    }
    console.log(
      `[conflict groups, ${testEngine()}] seed ${seed}: ${batches} batches, ${checks} checks, ${late} movements pushed into the past; at the end ${groups.length} groups (${groups.filter((g) => g.resolved).length} resolved) of ${groups.reduce((n, g) => n + g.movements, 0)} movements`,
    );
  });
});
