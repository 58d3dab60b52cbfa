// The history's order key (`hlc_key`, migration 0035_hlc_keys, movements/hlc.ts): the indexes hold
// it instead of the timestamp's text, and every query orders by `hlc_key, hlc` and ranges on both.
// Proven where the key alone would be wrong: counters past 1023 (which the key caps) and two
// instances at the same millisecond and counter (which the key cannot tell apart):
//   - the key never decreases in text order, and a floor's key bounds exactly the timestamps after it;
//   - movements pushed in a shuffled order, so late ones fold again, leave the oracle's quantities
//     and steps (text order), the history pages through them newest first, each once, and the
//     movements per day, read in stretches smaller than a tied key, count each once;
//   - a database of the previous release gets every key from its text and the indexes on the key;
//   - the consistency check counts a row whose key is not its text's.
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations/registry.ts';
import { HLC_KEY_COUNTERS, hlcFloor, hlcKey } from '../../server/store/movements/hlc.ts';
import { openStore } from '../../server/store/open-store.ts';
import { type HistoryEntry, historyQuerySchema, movementsPerDayQuerySchema, type SyncMovement } from '../../shared/index.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { migrateBefore } from '../support/previous-release.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { type OracleMovement, fold, placeOf } from '../support/sync-oracle.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { exampleCatalogue, seedStore, tempDir } from '../support/test-server.ts';

// A second ahead of the test's start: after the catalogue's own movements, within what a push may be ahead.
const WALL = Date.now() + 1000;
const stamp = (wall: number, counter: number, origin: string) =>
  `${String(wall).padStart(16, '0')}-${String(counter).padStart(5, '0')}-${origin}`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Timestamps that crowd the key's ties: three milliseconds, counters around and far past 1023, three instances. */
function crowdedStamps(first = WALL): string[] {
  const stamps: string[] = [];
  for (const wall of [first, first + 1, first + 2])
    for (const counter of [0, 1, 1022, 1023, 1024, 1025, 5000, 99_999])
      for (const origin of ['aaaa1111', 'bbbb2222', 'cccc3333']) stamps.push(stamp(wall, counter, origin));
  return stamps;
}

describe(`the timestamp's order key (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-hlc-keys-');
  afterAll(() => remove());

  it('never decreases in text order, and a floor bounds by its key exactly the timestamps at or after it', () => {
    const random = seededRandom(20261126);
    const texts = [...crowdedStamps(), '', '9', hlcFloor(WALL + 1), hlcFloor(0)];
    for (let i = 0; i < 2000; i++)
      texts.push(stamp(random.int(0, 4_000_000_000_000), random.int(0, 99_999), random.pick(['k3f9x2ab', 'aaaa', 'zz99zz99zz'])));
    const sorted = [...texts].sort(byText);
    for (let i = 1; i < sorted.length; i++)
      expect(hlcKey(sorted[i]!), `${sorted[i - 1]} then ${sorted[i]}`).toBeGreaterThanOrEqual(hlcKey(sorted[i - 1]!));
    for (const text of texts.filter((t) => t.length > 20)) {
      const wall = Number(text.slice(0, 16));
      expect(hlcKey(text) >= hlcKey(hlcFloor(wall))).toBe(true);
      expect(hlcKey(text) < hlcKey(hlcFloor(wall + 1))).toBe(true);
      expect(Number.isSafeInteger(hlcKey(text))).toBe(true);
    }
    expect(hlcKey(hlcFloor(WALL))).toBe(WALL * HLC_KEY_COUNTERS);
    // The cap: counters past 1023 share a key, which the text then orders.
    expect(hlcKey(stamp(WALL, 1023, 'aaaa1111'))).toBe(hlcKey(stamp(WALL, 99_999, 'aaaa1111')));
  });

  it('folds, pages and checks movements whose keys tie, pushed in a shuffled order', async () => {
    const file = await newDatabase(dir, 'ties.db');
    const store = await openStore(file);
    const probe = probeDatabase(file);
    try {
      await seedStore(store, exampleCatalogue());
      const follower = (await store.tokens.authenticate((await store.tokens.create('north', 'relay', 'sync')).key))!;
      await store.sync.register(follower, 'relay0001', 'Relay');
      const random = seededRandom(7);
      // Each origin's movements in its own timestamp order (its sequence follows its clock). Stamped a
      // second after the catalogue's own movements, whatever the seeding took: WALL, taken when the
      // file loaded, fell before them on a loaded host and the fold began elsewhere (a run beside a CI).
      const stamps = crowdedStamps(Math.max(WALL, Date.now() + 1000));
      const seqs = new Map<string, number>();
      const movements: SyncMovement[] = stamps.map((hlc) => {
        const origin = hlc.slice(23);
        const seq = (seqs.get(origin) ?? 0) + 1;
        seqs.set(origin, seq);
        // The earliest a set, so what the catalogue left before does not count.
        const kind = hlc === stamps[0] ? 'set' : random.pick(['set', 'adjust', 'adjust'] as const);
        return {
          id: `${origin}-${seq}`,
          origin,
          seq,
          kind,
          value: kind === 'set' ? random.int(0, 50) : random.int(-3, 5),
          hlc,
          item: 100,
          liquid_stock: null,
          warehouse: 10,
          barcode: '8690000000017',
          seen: null,
          source: 'api',
          reason: null,
          reference: null,
          created_at: '2026-11-26T00:00:00.000Z',
        };
      });
      // Pushed origin by origin (each in its sequence, as sync sends them): the second and third land
      // in the past of what is stored, interleaved with it at tied keys, and fold the place again.
      for (const origin of ['cccc3333', 'aaaa1111', 'bbbb2222'])
        await store.sync.push(
          follower,
          movements.filter((m) => m.origin === origin),
        );
      const oracle: OracleMovement[] = movements.map((m) => ({ ...m, seen: {} }));
      const quantity = await probe.first<{ quantity: number }>(
        "SELECT quantity FROM stock WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = '8690000000017') AND warehouse_id = 10",
      );
      expect(quantity!.quantity).toBe(fold(oracle).get(placeOf({ barcode: '8690000000017', warehouse: 10 })));
      const steps = await probe.all<{ origin: string; seq: number; new_quantity: number }>(
        "SELECT origin, seq, new_quantity FROM stock_history WHERE unit_id = (SELECT id FROM stock_units WHERE barcode = '8690000000017') AND warehouse_id = 10 AND origin <> (SELECT id FROM instance) ORDER BY hlc",
      );
      let running = 0;
      const expected = [...oracle]
        .sort((a, b) => byText(a.hlc, b.hlc))
        .map((m) => {
          running = m.kind === 'adjust' ? running + m.value : m.value;
          return `${m.id}:${running}`;
        });
      expect(steps.map((s) => `${s.origin}-${s.seq}:${s.new_quantity}`)).toEqual(expected);

      // The history, newest first, 7 to a page: every movement once, in text order.
      const north = (await store.accounts.find('north'))!;
      const seen: HistoryEntry[] = [];
      for (let cursor: string | undefined, pages = 0; pages < 100; pages++) {
        const page = await store.history.page(north, historyQuerySchema.parse({ barcode: '8690000000017', limit: 7, cursor }));
        seen.push(...page.results);
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      const made = seen.filter((e) => seqs.has(e.origin));
      // The rest are the catalogue's own, older than all of them, and last.
      expect(seen.slice(made.length).every((e) => !seqs.has(e.origin) && e.hlc < stamps[0]!)).toBe(true);
      expect(made.map((e) => e.hlc)).toEqual([...stamps].sort(byText).reverse());

      // Movements per day, read in stretches of 4 movements: each tied key (15 movements) is read
      // whole and the walk moves on past it; every movement of the period counted once.
      const perDay = await store.history.perDay(north, movementsPerDayQuerySchema.parse({ days: 2 }), 4);
      const counted = (['sales', 'receipts', 'counts', 'sets'] as const).reduce((n, kind) => n + perDay.totals[kind].movements, 0);
      const [fromMs, untilMs] = [Date.parse(`${perDay.from}T00:00:00Z`), Date.parse(`${perDay.to}T00:00:00Z`) + 24 * 3600_000];
      const inPeriod = await probe.first<{ n: number }>(
        "SELECT count(*) AS n FROM stock_history h JOIN accounts a ON a.id = h.account_id WHERE a.name = 'north' AND h.hlc_key >= ? AND h.hlc_key < ?",
        fromMs * HLC_KEY_COUNTERS,
        untilMs * HLC_KEY_COUNTERS,
      );
      expect(counted).toBe(Number(inPeriod!.n));
      expect(counted).toBeGreaterThanOrEqual(stamps.length);

      // Every stored key is its text's; a wrong one is counted.
      expect(await store.check()).toMatchObject({ ok: true, keyMismatches: 0 });
      await probe.run("UPDATE stock_history SET hlc_key = 0 WHERE origin = 'bbbb2222' AND seq = 3");
      expect(await store.check()).toMatchObject({ ok: false, keyMismatches: 1 });
    } finally {
      await probe.close();
      await store.close();
      await dropDatabase(file);
    }
  });

  it('gives the movements of a previous release their keys from their text, and builds the five indexes on the key', async () => {
    const file = await newDatabase(dir, 'before-keys.db', { empty: true });
    await migrateBefore(file, '0035_hlc_keys');
    const probe = probeDatabase(file);
    const stamps = crowdedStamps();
    for (const statement of [
      "INSERT INTO accounts (id, name, warehouses_enabled) VALUES (1, 'north', 1)",
      "INSERT INTO warehouses (id, account_id, name) VALUES (10, 1, 'Main')",
      "INSERT INTO items (id, account_id, name) VALUES (100, 1, 'Mug')",
      "INSERT INTO stock_units (id, account_id, barcode, item_id, variant_id) VALUES (1, 1, 'M1', 100, NULL)",
    ])
      await probe.run(statement);
    // Stored out of text order (by origin), as arrival order is.
    const stored = [...stamps].sort((a, b) => byText(a.slice(23), b.slice(23)) || byText(a, b));
    const seqs = new Map<string, number>();
    for (const [i, hlc] of stored.entries()) {
      const origin = hlc.slice(23);
      seqs.set(origin, (seqs.get(origin) ?? 0) + 1);
      await probe.run(
        `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc, old_quantity, new_quantity, source, created_at)
         VALUES (1, 1, 100, NULL, 10, ?, ?, 'set', ?, ?, NULL, ?, 'api', '2026-11-20T00:00:00.000Z')`,
        origin,
        seqs.get(origin),
        i,
        hlc,
        i,
      );
    }
    const last = [...stamps].sort(byText).at(-1)!;
    await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (1, 10, ?)', stored.indexOf(last));
    await probe.close();

    const store = await openStore(file);
    const after = probeDatabase(file);
    try {
      expect((await after.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name)).toEqual(
        Object.keys(migrations),
      );
      const rows = await after.all<{ hlc: string; hlc_key: number }>('SELECT hlc, hlc_key FROM stock_history');
      expect(rows).toHaveLength(stamps.length);
      for (const row of rows) expect(Number(row.hlc_key), row.hlc).toBe(hlcKey(row.hlc));
      expect(await store.check()).toMatchObject({ ok: true, keyMismatches: 0, historyMismatches: 0 });
      for (const [index, columns] of Object.entries(INDEXES)) expect(await indexColumns(after, index), index).toEqual(columns);
      const north = (await store.accounts.find('north'))!;
      const page = await store.history.page(north, historyQuerySchema.parse({ limit: 100 }));
      expect(page.results.map((e) => e.hlc)).toEqual([...stamps].sort(byText).reverse());
    } finally {
      await after.close();
      await store.close();
      await dropDatabase(file);
    }
  });
});

/** The history's indexes that hold the timestamp, with their columns after 0035_hlc_keys. */
const INDEXES: Record<string, string[]> = {
  stock_history_unit_hlc: ['unit_id', 'warehouse_id', 'hlc_key'],
  stock_history_account_hlc: ['account_id', 'hlc_key'],
  stock_history_warehouse_hlc: ['warehouse_id', 'hlc_key'],
  stock_history_source_hlc: ['account_id', 'source_id', 'hlc_key'],
  stock_history_actor: ['account_id', 'actor_id', 'hlc_key'],
};

async function indexColumns(probe: ReturnType<typeof probeDatabase>, index: string): Promise<string[]> {
  if (testEngine() === 'sqlite')
    return (await probe.all<{ name: string }>(`SELECT name FROM pragma_index_info('${index}') ORDER BY seqno`)).map((r) => r.name);
  const definition = await probe.first<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE indexname = ?', index);
  return /\((.*)\)$/
    .exec(definition!.indexdef)![1]!
    .split(',')
    .map((c) => c.trim().replaceAll('"', ''));
}
