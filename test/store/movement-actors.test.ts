// Who made a movement, stored once per name (`movement_actors`, migration 0036_movement_actor_ids;
// movements/movement-log.ts resolves each name to its id when it writes the history). What must hold
// on both engines:
//   - a name is stored once, whoever uses it and however often; a write whose name is known looks it
//     up in the query it makes of its account anyway (no statement of its own);
//   - a write that fails takes the name it brought with it: the next one stores it again, and no
//     movement names an id that is not there (the consistency check counts such movements);
//   - the history, the sync pages and the filter by actor show and find the name as it was given;
//   - a database of the previous release keeps every movement's actor, each name once, and its
//     actor index on the id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/store/engine.ts';
import { migrations } from '../../server/store/migrations/registry.ts';
import { MovementLog, systemClock } from '../../server/store/movements/movement-log.ts';
import { openEngine, openStore } from '../../server/store/open-store.ts';
import { type Store, createStore } from '../../server/store/store.ts';
import { historyQuerySchema } from '../../shared/index.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { migrateBefore } from '../support/previous-release.ts';
import { barcodes } from '../support/generated-catalogue.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';
import { writtenAccount } from '../support/written-account.ts';

/** Names a shop gives: a person, another that differs only in case, a till, the command line, the longest allowed, none. */
const NAMES = ['Ayşe Yılmaz', 'ayşe yılmaz', 'Till 1', 'command line (root@vm)', `L${'o'.repeat(197)}ng`, null] as const;

describe(`who made a movement, stored once per name (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-actors-');
  let engine: Engine;
  let store: Store;
  let location: string;
  let accountId: number;
  let units: { id: number; itemId: number; variantId: number | null }[];

  beforeAll(async () => {
    location = await newDatabase(dir);
    engine = await openEngine(location);
    store = createStore(engine);
    ({ accountId, units } = await writtenAccount(engine, { name: 'north', warehouses: [], barcodes: barcodes('A', 6), quantity: 5 }));
  }, 60_000);

  afterAll(async () => {
    await engine.close();
    await dropDatabase(location);
    remove();
  });

  /** One write of an adjust of each unit, by `actor`, as the store makes it; `fail` throws after the movements are written. */
  const adjustAll = (on: Engine, actor: string | null, fail = false) =>
    on.write(async (q) => {
      const log = await MovementLog.open(q, systemClock);
      for (const unit of units) await log.record(accountId, unit, 0, 'adjust', 1, { source: 'api', actor });
      await log.close();
      if (fail) throw new Error('this write fails after its movements');
    });
  const actorRows = () => engine.read((q) => q.all(q.k.selectFrom('movement_actors').select(['id', 'name']).orderBy('id')));
  const north = async () => (await store.accounts.find('north'))!;

  it('stores each name once, and a write whose name is known looks it up with its account', async () => {
    // The catalogue's import already named its own actor (the command line).
    const before = (await actorRows()).map((a) => a.name);
    for (const name of NAMES) await adjustAll(engine, name);
    for (const name of NAMES) await adjustAll(engine, name);
    const names = (await actorRows()).map((a) => a.name);
    expect(new Set(names)).toEqual(new Set([...before, ...NAMES.filter((n) => n !== null)]));
    expect(new Set(names).size).toBe(names.length);
    // A known name costs a write no statement (its account's state finds it); a new one two: looked
    // up with the rest of the batch's names, then stored.
    const statementsOf = async (actor: string | null) => {
      const counting = countingEngine(engine);
      await adjustAll(counting.engine, actor);
      return counting.tally.statements;
    };
    const withoutActor = await statementsOf(null);
    expect(await statementsOf('Till 1')).toBe(withoutActor);
    expect(await statementsOf('Till 2')).toBe(withoutActor + 2);
    expect(await statementsOf('Till 2')).toBe(withoutActor);
    // The history shows each name as given, newest first, and finds it by name (case counts).
    for (const name of NAMES.filter((n) => n !== null)) {
      const page = await store.history.page(await north(), historyQuerySchema.parse({ actor: name, limit: 100 }));
      const imported = before.includes(name) ? units.length : 0; // the catalogue's own sets
      expect(page.results.length, name).toBe((name === 'Till 1' ? 3 : 2) * units.length + imported);
      expect(page.results.every((e) => e.actor === name)).toBe(true);
    }
    expect((await store.history.page(await north(), historyQuerySchema.parse({ actor: 'nobody', limit: 10 }))).results).toEqual([]);
  });

  it('a failed write takes its new name with it; the next write stores it again, and every id names something', async () => {
    const before = await actorRows();
    await expect(adjustAll(engine, 'Temp worker', true)).rejects.toThrow('fails after its movements');
    expect(await actorRows()).toEqual(before);
    // In one group: the failing write inserted the name first, the others still find (or store) it.
    const outcomes = await Promise.allSettled([
      adjustAll(engine, 'Temp worker 2', true),
      adjustAll(engine, 'Temp worker 2'),
      adjustAll(engine, 'Temp worker 2'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    await adjustAll(engine, 'Temp worker');
    const after = (await actorRows()).map((a) => a.name);
    expect(after.filter((n) => n.startsWith('Temp worker'))).toEqual(['Temp worker 2', 'Temp worker']);
    const page = await store.history.page(await north(), historyQuerySchema.parse({ actor: 'Temp worker 2', limit: 100 }));
    expect(page.results).toHaveLength(2 * units.length);
    expect(await store.check()).toMatchObject({ ok: true, unknownActors: 0 });
    // The check counts a movement whose actor id names nothing.
    const probe = probeDatabase(location);
    try {
      await probe.run('UPDATE stock_history SET actor_id = 999999 WHERE id = (SELECT max(id) FROM stock_history)');
      expect(await store.check()).toMatchObject({ ok: false, unknownActors: 1 });
      await probe.run(
        "UPDATE stock_history SET actor_id = (SELECT id FROM movement_actors WHERE name = 'Temp worker') WHERE id = (SELECT max(id) FROM stock_history)",
      );
    } finally {
      await probe.close();
    }
  });

  it('sends the name with each movement a follower pulls', async () => {
    const page = await store.sync.pull(await north(), 0, 1000);
    const actors = new Set(page.movements.map((m) => m.actor ?? null));
    for (const name of NAMES) expect(actors.has(name)).toBe(true);
  });
});

describe(`who made a movement, from a database of the previous release (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-actors-migration-');
  afterAll(() => remove());

  it('keeps every movement its actor, stores each name once, and indexes the history by the id', async () => {
    const file = await newDatabase(dir, 'before-actor-ids.db', { empty: true });
    await migrateBefore(file, '0036_movement_actor_ids');
    const probe = probeDatabase(file);
    for (const statement of [
      "INSERT INTO accounts (id, name, warehouses_enabled) VALUES (1, 'north', 0)",
      "INSERT INTO items (id, account_id, name) VALUES (100, 1, 'Mug')",
      "INSERT INTO stock_units (id, account_id, barcode, item_id, variant_id) VALUES (1, 1, 'M1', 100, NULL)",
    ])
      await probe.run(statement);
    const wall = 1_790_000_000_000;
    const made = Array.from({ length: 30 }, (_, i) => ({ actor: NAMES[i % NAMES.length]!, hlc: `000${wall + i}-00000-aaaa1111` }));
    for (const [i, m] of made.entries())
      await probe.run(
        `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc, hlc_key, old_quantity, new_quantity, source, created_at, actor)
         VALUES (1, 1, 100, NULL, 0, 'aaaa1111', ?, 'set', ?, ?, ?, NULL, ?, 'api', '2026-11-20T00:00:00.000Z', ?)`,
        i + 1,
        i,
        m.hlc,
        (wall + i) * 1024,
        i,
        m.actor,
      );
    await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (1, 0, ?)', made.length - 1);
    await probe.close();

    const migrated = await openStore(file);
    const after = probeDatabase(file);
    try {
      expect((await after.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name)).toEqual(
        Object.keys(migrations),
      );
      const account = (await migrated.accounts.find('north'))!;
      const page = await migrated.history.page(account, historyQuerySchema.parse({ limit: 100 }));
      expect(page.results.map((e) => [e.hlc, e.actor])).toEqual([...made].reverse().map((m) => [m.hlc, m.actor]));
      const names = await after.all<{ name: string }>('SELECT name FROM movement_actors ORDER BY name');
      expect(names.map((n) => n.name)).toEqual(NAMES.filter((n) => n !== null).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(await migrated.check()).toMatchObject({ ok: true, unknownActors: 0 });
      const columns =
        testEngine() === 'sqlite'
          ? (await after.all<{ name: string }>("SELECT name FROM pragma_table_info('stock_history')")).map((c) => c.name)
          : (
              await after.all<{ name: string }>(
                "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'stock_history' AND table_schema = current_schema()",
              )
            ).map((c) => c.name);
      expect(columns).toContain('actor_id');
      expect(columns).not.toContain('actor');
      const byKaan = await migrated.history.page(account, historyQuerySchema.parse({ actor: 'ayşe yılmaz', limit: 100 }));
      expect(byKaan.results.map((e) => e.hlc)).toEqual(
        made
          .filter((m) => m.actor === 'ayşe yılmaz')
          .map((m) => m.hlc)
          .reverse(),
      );
    } finally {
      await after.close();
      await migrated.close();
      await dropDatabase(file);
    }
  });
});
