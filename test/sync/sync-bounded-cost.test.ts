// What a push can cost the instance that receives it (docs/SYNC.md, "Bounded cost"), counted on the
// real engine (support/counting-engine.ts: statements, rows) and in the database, never timed:
//   - conflicts are groups per place: 500 sets racing on one unit store one row, and the status and
//     the conflicts list read a bounded number of rows whatever was pushed;
//   - a batch of movements in the past folds each place again once, not once per movement;
//   - vectors: a push stores what it sent (each distinct `seen` once), not a copy of the account's
//     whole vector, so the database grows with what is sent;
//   - quantities stay within ±1,000,000,000: a movement that would leave the range is refused with
//     422 naming it, the batch unapplied, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openEngine, openStore } from '../../server/store/open-store.ts';
import { FOLD_PAGE_ROWS } from '../../server/store/movements/movement-log.ts';
import { createStore } from '../../server/store/store.ts';
import {
  type Conflict,
  MAX_QUANTITY,
  MIN_QUANTITY,
  SYNC_CONFLICTS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  type SyncMovement,
  type SyncStatus,
} from '../../shared/index.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { type OracleMovement, fold, placeOf } from '../support/sync-oracle.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { exampleCatalogue, seedStore, tempDir } from '../support/test-server.ts';

/** The table that holds the conflicts (one row per group). */
const CONFLICT_TABLE = 'stock_conflict_groups';

const MUG = { item: 100, liquid_stock: null, barcode: '8690000000017' };
/** The T-shirt in the Backroom: no stock there, so no movement, before a test writes one. */
const SHIRT = { item: 101, liquid_stock: 5001, barcode: '8690000000024' };
const MAIN = 10;
const BACKROOM = 11;

interface Harness {
  server: RunningServer;
  counting: ReturnType<typeof countingEngine>;
  probe: DatabaseProbe;
  dbFile: string;
  tokens: Record<string, string>;
  /** A token of role sync per account: what a follower pushes with. */
  syncTokens: Record<string, string>;
  request: (method: string, path: string, options?: { token?: string; body?: unknown }) => Promise<Response>;
}

/** The real server over a fresh database, its engine counting what each request asks of it. */
function useCountingServer(): Harness {
  const { dir, remove } = tempDir('bi-bounded-');
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.dbFile = await newDatabase(dir);
    const seeding = await openStore(harness.dbFile);
    harness.tokens = await seedStore(seeding, exampleCatalogue());
    harness.syncTokens = {};
    for (const account of Object.keys(harness.tokens)) {
      harness.syncTokens[account] = (await seeding.tokens.create(account, 'push', 'sync')).key;
      // A follower that brings the made-up instances' movements (docs/SYNC.md, "Who may speak for an origin").
      await seeding.sync.register((await seeding.tokens.authenticate(harness.syncTokens[account]))!, 'relay0001', 'Relay');
    }
    await seeding.close();
    harness.counting = countingEngine(await openEngine(harness.dbFile));
    harness.server = await startServer({ store: createStore(harness.counting.engine), port: 0 });
    harness.probe = probeDatabase(harness.dbFile);
    harness.request = (method, path, options = {}) =>
      fetch(harness.server.url + path, {
        method,
        headers: {
          ...(options.token ? { authorization: `Token ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
  }, 60_000);
  afterAll(async () => {
    await harness.probe?.close();
    await harness.server?.close();
    await dropDatabase(harness.dbFile);
    remove();
  });
  return harness;
}

const hlcOf = (wall: number, counter: number, origin: string) =>
  `${String(wall).padStart(16, '0')}-${String(counter).padStart(5, '0')}-${origin}`;

/** Movements of made-up instances, as a token of the account can push them; stamped now unless `wall` says when. */
class MadeUp {
  private readonly seqs = new Map<string, number>();
  private counter = 0;
  movement(
    origin: string,
    kind: 'set' | 'count' | 'adjust',
    value: number,
    unit: { item: number; liquid_stock: number | null; barcode: string },
    warehouse: number,
    options: { wall?: number; seen?: Record<string, number> | null } = {},
  ): SyncMovement {
    const seq = (this.seqs.get(origin) ?? 0) + 1;
    this.seqs.set(origin, seq);
    return {
      id: `${origin}-${seq}`,
      origin,
      seq,
      kind,
      value,
      hlc: hlcOf(options.wall ?? Date.now(), this.counter++ % 100_000, origin),
      ...unit,
      warehouse,
      seen: kind === 'adjust' ? null : (options.seen ?? null),
      source: 'api',
      reason: null,
      reference: `${origin}-${seq}`,
      created_at: new Date().toISOString(),
    };
  }
}

const asOracle = (m: SyncMovement): OracleMovement => ({
  id: m.id,
  origin: m.origin,
  seq: m.seq,
  kind: m.kind,
  value: m.value,
  hlc: m.hlc,
  barcode: m.barcode,
  warehouse: m.warehouse,
  seen: m.seen ?? {},
});

describe(`bounded cost of a push (${testEngine()})`, () => {
  const h = useCountingServer();
  const push = (movements: SyncMovement[], status = 200) =>
    call(h, 'POST', SYNC_MOVEMENTS_PATH, h.syncTokens.north!, { movements }, status);
  const rows = async (table: string) => Number((await h.probe.first<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n);

  it('stores 500 sets racing on one unit as one group, and status and the list read a bounded number of rows', async () => {
    const made = new MadeUp();
    const origins = ['aaaa1111', 'bbbb2222'];
    const before = await rows(CONFLICT_TABLE);
    const figures: string[] = [];
    for (let round = 1; round <= 4; round++) {
      const batch = Array.from({ length: 500 }, (_, i) => made.movement(origins[i % 2]!, 'set', i, MUG, MAIN));
      h.counting.reset();
      expect(await push(batch)).toMatchObject({ applied: 500 });
      const pushed = h.counting.reset();
      const stored = (await rows(CONFLICT_TABLE)) - before;
      // One group: every set raced the one before it, and none saw the whole group.
      expect(stored).toBe(1);
      expect(pushed.statements).toBeLessThan(100);
      expect(pushed.rows).toBeLessThan(1_000);

      const status = await call<SyncStatus>(h, 'GET', SYNC_STATUS_PATH, h.tokens.north!);
      const statusTally = h.counting.reset();
      expect(status.conflicts).toBe(1);
      const listed = await call<Conflict[]>(h, 'GET', `${SYNC_CONFLICTS_PATH}?state=all&limit=500`, h.tokens.north!);
      const listTally = h.counting.reset();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        barcode: MUG.barcode,
        movements: 500 * round,
        racing: true,
        resolved: false,
        first: { movement: 'aaaa1111-1' },
        later: { movement: batch.at(-1)!.id, value: 499 },
        earlier: { movement: batch.at(-2)!.id, value: 498 },
      });
      for (const tally of [statusTally, listTally]) {
        expect(tally.statements).toBeLessThanOrEqual(6);
        expect(tally.rows).toBeLessThanOrEqual(10);
      }
      figures.push(
        `push ${round}: ${stored} row(s) stored, push ${pushed.statements} statements / ${pushed.rows} rows read; status ${statusTally.statements}/${statusTally.rows}; conflicts ${listTally.statements}/${listTally.rows}`,
      );
    }
    console.log(`[bounded cost, ${testEngine()}] 4 pushes of 500 racing sets on one unit:\n  ${figures.join('\n  ')}`);
  });

  it('folds a place again once per batch: 500 adjusts stamped in 1970 on a unit with 5,000 movements', async () => {
    // 5,000 movements of now on the T-shirt in the Backroom (nothing there before): adjusts, so every
    // step after the movements in the past changes.
    const now = new MadeUp();
    const history: SyncMovement[] = [];
    for (let i = 0; i < 10; i++) {
      const batch = Array.from({ length: 500 }, (_, j) =>
        now.movement('cccc3333', 'adjust', (i * 500 + j) % 7 === 0 ? -2 : 1, SHIRT, BACKROOM),
      );
      await push(batch);
      history.push(...batch);
    }
    const late = Array.from({ length: 500 }, (_, i) =>
      now.movement('dddd4444', 'adjust', i % 3 === 0 ? 5 : -1, SHIRT, BACKROOM, { wall: 1_000 + i }),
    );
    h.counting.reset();
    // Another account's read sent during the push: it waits for the push's transaction at most.
    const started = performance.now();
    const pushing = push(late);
    const other = await h.request('GET', `${SYNC_STATE_PATH}`, { token: h.syncTokens.kiosk! });
    const otherMs = performance.now() - started;
    expect(other.status).toBe(200);
    expect(await pushing).toMatchObject({ applied: 500 });
    const pushMs = performance.now() - started;
    const tally = h.counting.reset();
    // Linear: the place's 5,500 rows read once and rewritten once (64 to a statement), not 500 times.
    expect(tally.rows).toBeLessThan(2 * 5_500);
    expect(tally.statements).toBeLessThan(5_500 / 64 + 200);
    // And a page at a time: no statement returned more than a refold's page, so none held the event
    // loop (every account's requests) for the place's whole history.
    expect(tally.maxRows).toBeLessThanOrEqual(FOLD_PAGE_ROWS);

    // The quantities are the oracle's fold, and so is every step of the history.
    const all = [...history, ...late].map(asOracle);
    const expected = fold(all).get(placeOf({ barcode: SHIRT.barcode, warehouse: BACKROOM }));
    const stored = await h.probe.first<{ quantity: number }>(
      'SELECT quantity FROM stock WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = ?) AND warehouse_id = ?',
      SHIRT.barcode,
      BACKROOM,
    );
    expect(stored!.quantity).toBe(expected);
    const steps = await h.probe.all<{ origin: string; seq: number; new_quantity: number }>(
      'SELECT origin, seq, new_quantity FROM stock_history WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = ?) AND warehouse_id = ? ORDER BY hlc',
      SHIRT.barcode,
      BACKROOM,
    );
    const byHlc = [...all].sort((a, b) => (a.hlc < b.hlc ? -1 : 1));
    let quantity = 0;
    const expectedSteps = byHlc.map((m) => {
      quantity = m.kind === 'adjust' ? quantity + m.value : m.value;
      return `${m.id}:${quantity}`;
    });
    expect(steps.map((s) => `${s.origin}-${s.seq}:${s.new_quantity}`)).toEqual(expectedSteps);
    console.log(
      `[bounded cost, ${testEngine()}] 500 adjusts of 1970 on 5,000 movements: ${tally.statements} statements, ${tally.rows} rows read; push ${pushMs.toFixed(0)} ms, another account's read ${otherMs.toFixed(0)} ms`,
    );
  });

  it('reads what a set may have missed a page at a time: a set on top of the 5,500 adjusts it had not seen', async () => {
    // The T-shirt in the Backroom holds the last test's 5,500 adjusts and no set or count: a set of an
    // instance that saw none of them conflicts with all of them, and the walk reads them all.
    const open = async () =>
      Number(
        (await h.probe.first<{ n: number }>(
          `SELECT count(*) AS n FROM ${CONFLICT_TABLE} WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = ?) AND warehouse_id = ? AND open = 1`,
          SHIRT.barcode,
          BACKROOM,
        ))!.n,
      );
    expect(await open()).toBe(0);
    h.counting.reset();
    expect(await push([new MadeUp().movement('setter01', 'set', 42, SHIRT, BACKROOM, { seen: {} })])).toMatchObject({ applied: 1 });
    const tally = h.counting.reset();
    expect(tally.rows).toBeGreaterThan(5_500);
    expect(tally.maxRows).toBeLessThanOrEqual(FOLD_PAGE_ROWS);
    const stored = await h.probe.first<{ quantity: number }>(
      'SELECT quantity FROM stock WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = ?) AND warehouse_id = ?',
      SHIRT.barcode,
      BACKROOM,
    );
    expect(stored!.quantity).toBe(42);
    expect(await open()).toBe(1);
  });

  it('grows the database with what is pushed, not with a copy of the whole vector per push', async () => {
    // 50 pushes of 100 movements, each of an instance not seen before (5,000 origins: half the cap
    // of origins per account that the upstream keeps, so the test holds with it): 99 adjusts and a
    // set that carries what its instance had seen.
    const made = new MadeUp();
    const bytes = async () =>
      testEngine() === 'postgres'
        ? Number((await h.probe.first<{ n: number }>('SELECT pg_database_size(current_database()) AS n'))!.n)
        : Number((await h.probe.first<{ page_count: number }>('PRAGMA page_count'))!.page_count) *
          Number((await h.probe.first<{ page_size: number }>('PRAGMA page_size'))!.page_size);
    const vectorsBefore = await rows('sync_vectors');
    const start = await bytes();
    const growth: number[] = [];
    let sent = 0;
    for (let p = 0; p < 50; p++) {
      const before = await bytes();
      const origin = (i: number) => `vp${String(p).padStart(3, '0')}n${String(i).padStart(3, '0')}`;
      const batch = Array.from({ length: 100 }, (_, i) =>
        i < 99
          ? made.movement(origin(i), 'adjust', 1, MUG, MAIN)
          : made.movement(origin(i), 'set', p, SHIRT, MAIN, { seen: { [origin(0)]: 1 } }),
      );
      const body = JSON.stringify({ movements: batch });
      sent += Buffer.byteLength(body);
      expect(await push(batch)).toMatchObject({ applied: 100 });
      growth.push((await bytes()) - before);
    }
    const total = (await bytes()) - start;
    const first = growth.slice(0, 10).reduce((a, b) => a + b, 0);
    const last = growth.slice(-10).reduce((a, b) => a + b, 0);
    console.log(
      `[bounded cost, ${testEngine()}] 50 pushes of 100 new origins: ${sent} bytes sent, database grew ${total} bytes (${(total / sent).toFixed(2)}× what was sent); first 10 pushes ${first}, last 10 ${last}; ${(await rows('sync_vectors')) - vectorsBefore} vectors stored`,
    );
    // About linear in what was sent: the last pushes add no more than the first ones.
    expect(last).toBeLessThan(1.5 * first + 64 * 1024);
    expect(total).toBeLessThan(4 * sent);
    // Each push's one distinct `seen` once (and none of the instance's own vector: no set was made here).
    expect((await rows('sync_vectors')) - vectorsBefore).toBe(50);
  });

  it('refuses a set beyond the range, and movements that would carry a quantity past it, with 422 naming the movement; nothing of the batch applied', async () => {
    const made = new MadeUp();
    const quantity = async (unit: { barcode: string }, warehouse: number) =>
      (await h.probe.first<{ quantity: number }>(
        'SELECT quantity FROM stock WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = ?) AND warehouse_id = ?',
        unit.barcode,
        warehouse,
      ))!.quantity;
    const state = async () => ({
      mug: await quantity(MUG, BACKROOM),
      shirt: await quantity(SHIRT, MAIN),
      history: await rows('stock_history'),
    });
    const refuse = async (batch: SyncMovement[], named: SyncMovement) => {
      const before = await state();
      expect((await push(batch, 422)).detail).toContain(named.id);
      expect(await state()).toEqual(before);
    };

    // A set beyond the range (the schema takes values up to MAX_DELTA, 2e9, for adjusts).
    const tooLarge = made.movement('fafa6666', 'set', 2_000_000_000, MUG, BACKROOM);
    await refuse([tooLarge], tooLarge);
    // A set at the maximum is fine; ten adjusts of 2e9 after it in the same batch are not.
    const atMax = made.movement('ffff6666', 'set', MAX_QUANTITY, MUG, BACKROOM);
    const adjusts = Array.from({ length: 10 }, () => made.movement('ffff6666', 'adjust', 2_000_000_000, MUG, BACKROOM));
    await refuse([atMax, ...adjusts], adjusts[0]!);
    expect(await push([atMax])).toMatchObject({ applied: 1 });
    expect(await quantity(MUG, BACKROOM)).toBe(MAX_QUANTITY);

    // Through a fold in the past: a movement stamped between a set and a later adjust, which would
    // carry the adjust's step past the range (below it, then above it).
    const t = Date.now();
    const low = made.movement('abab7777', 'set', MIN_QUANTITY + 10, MUG, BACKROOM, { wall: t });
    await push([low, made.movement('abab7777', 'adjust', -5, MUG, BACKROOM, { wall: t + 10 })]);
    expect(await quantity(MUG, BACKROOM)).toBe(MIN_QUANTITY + 5);
    const lowLate = made.movement('cdcd8888', 'adjust', -6, MUG, BACKROOM, { wall: t + 5 });
    await refuse([lowLate], lowLate);
    const high = made.movement('efef9999', 'set', MAX_QUANTITY - 10, SHIRT, MAIN, { wall: t });
    await push([high, made.movement('efef9999', 'adjust', 8, SHIRT, MAIN, { wall: t + 10 })]);
    // With a harmless movement of another place before it in the batch: the whole batch is refused.
    const harmless = made.movement('a1b2c3d4', 'adjust', 1, MUG, MAIN);
    const highLate = made.movement('a1b2c3d4', 'adjust', 5, SHIRT, MAIN, { wall: t + 5 });
    await refuse([harmless, highLate], highLate);
    // A set in the past that the later adjust would carry past the range, named though the step
    // that leaves it is an adjust already held.
    const pastSet = made.movement('b2c3d4e5', 'set', MAX_QUANTITY, SHIRT, MAIN, { wall: t + 5 });
    await refuse([pastSet], pastSet);
  });
});
