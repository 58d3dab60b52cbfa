// Migrations 0026_conflict_groups and 0027_vector_hashes on a database that synced before them: the
// conflict pairs of the old rule (a set or count against every earlier movement of another instance
// it had not seen) become the groups of docs/SYNC.md, recomputed from each place's history and equal
// to the convergence simulation's oracle; the pair table is gone; vectors keep their ids, gain their
// hash, lose the unique index on their text, and new ones number on after the old.
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations/registry.ts';
import { vectorHash } from '../../server/store/movements/vector-text.ts';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { migrateBefore } from '../support/previous-release.ts';
import { seededHistory } from '../support/seeded-history.ts';
import { type OracleConflict, type OracleMovement, asOracleConflict, placeOf, predictConflicts } from '../support/sync-oracle.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const BEFORE = '0026_conflict_groups';

/** The pairs of the old rule: a later set with any earlier movement, a later count with an earlier set or count, of another instance it had not seen. */
function oldPairs(list: readonly OracleMovement[]): { later: OracleMovement; earlier: OracleMovement }[] {
  const saw = (by: OracleMovement, m: OracleMovement) => (by.origin === m.origin ? by.seq > m.seq : (by.seen[m.origin] ?? 0) >= m.seq);
  const pairs = [];
  for (let j = 0; j < list.length; j++)
    for (let i = 0; i < j; i++) {
      const [later, earlier] = [list[j]!, list[i]!];
      if (later.kind === 'adjust' || earlier.origin === later.origin || saw(later, earlier)) continue;
      if (later.kind === 'count' && earlier.kind === 'adjust') continue;
      pairs.push({ later, earlier });
    }
  return pairs;
}

describe(`migrating conflict pairs to groups (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-groups-migration-');
  afterAll(() => remove());

  it('recomputes the groups of every place that had pairs, keeps vectors by id, and drops the pairs', async () => {
    const file = await newDatabase(dir, 'synced-before.db', { empty: true });
    await migrateBefore(file, BEFORE);
    const probe = probeDatabase(file);
    const places = [
      { unit: 1, barcode: 'M1', warehouse: 10 },
      { unit: 1, barcode: 'M1', warehouse: 11 },
      { unit: 2, barcode: 'M2', warehouse: 10 },
    ];
    const movements = seededHistory({
      seed: 20261125,
      length: 90,
      origins: ['aaaa1111', 'bbbb2222', 'cccc3333'],
      places,
      kinds: ['set', 'set', 'count', 'adjust'],
      hlcOf: (step, origin) => `${String(1_790_000_000_000 + step * 1000).padStart(16, '0')}-00000-${origin}`,
    });
    // As the previous release stored it: the catalogue, the history with interned vectors, the pairs.
    for (const statement of [
      "INSERT INTO accounts (id, name, warehouses_enabled) VALUES (1, 'north', 1)",
      "INSERT INTO warehouses (id, account_id, name) VALUES (10, 1, 'Main'), (11, 1, 'Backroom')",
      "INSERT INTO items (id, account_id, name) VALUES (100, 1, 'Mug'), (101, 1, 'Jug')",
      "INSERT INTO stock_units (id, account_id, barcode, item_id, variant_id) VALUES (1, 1, 'M1', 100, NULL), (2, 1, 'M2', 101, NULL)",
    ])
      await probe.run(statement);
    const vectorIds = new Map<string, number>();
    const quantities = new Map<string, number>();
    for (const m of movements) {
      let vector: number | null = null;
      if (Object.keys(m.seen).length > 0) {
        const body = JSON.stringify(Object.fromEntries(Object.entries(m.seen).sort(([a], [b]) => (a < b ? -1 : 1))));
        if (!vectorIds.has(body)) {
          await probe.run('INSERT INTO sync_vectors (id, account_id, body) VALUES (?, 1, ?)', vectorIds.size + 1, body);
          vectorIds.set(body, vectorIds.size + 1);
        }
        vector = vectorIds.get(body)!;
      }
      const before = quantities.get(placeOf(m)) ?? null;
      const after = m.kind === 'adjust' ? (before ?? 0) + m.value : m.value;
      quantities.set(placeOf(m), after);
      await probe.run(
        `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc, seen_vector, old_quantity, new_quantity, source, created_at)
         VALUES (1, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'api', '2026-11-20T00:00:00.000Z')`,
        m.place.unit,
        m.place.unit === 1 ? 100 : 101,
        m.warehouse,
        m.origin,
        m.seq,
        m.kind,
        m.value,
        m.hlc,
        vector,
        before,
        after,
      );
    }
    for (const place of places)
      await probe.run(
        'INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (?, ?, ?)',
        place.unit,
        place.warehouse,
        quantities.get(placeOf(place)) ?? 0,
      );
    // Pairs of the first two places only: the third place's groups are not recomputed (it had none
    // listed), which shows the migration reads the pairs to find its places.
    const pairs = places
      .slice(0, 2)
      .flatMap((place) => oldPairs(movements.filter((m) => placeOf(m) === placeOf(place)).sort((a, b) => (a.hlc < b.hlc ? -1 : 1))));
    for (const { later, earlier } of pairs)
      await probe.run(
        `INSERT INTO stock_conflicts (account_id, unit_id, warehouse_id, later_origin, later_seq, earlier_origin, earlier_seq, detected_at)
         VALUES (1, ?, ?, ?, ?, ?, ?, '2026-11-21T00:00:00.000Z')`,
        (later as (typeof movements)[number]).place.unit,
        later.warehouse,
        later.origin,
        later.seq,
        earlier.origin,
        earlier.seq,
      );
    await probe.close();
    expect(pairs.length).toBeGreaterThan(20);

    const store = await openStore(file);
    const after = probeDatabase(file);
    try {
      const applied = (await after.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name);
      expect(applied).toEqual(Object.keys(migrations));
      const north = (await store.accounts.find('north'))!;
      const listed = (await store.sync.conflicts(north, 'all', 500)).map(asOracleConflict);
      const predicted = predictConflicts(movements.filter((m) => m.barcode === 'M1'));
      const key = (c: OracleConflict) => JSON.stringify(c);
      expect(listed.map(key).sort()).toEqual(predicted.map(key).sort());
      expect(predicted.length).toBeGreaterThan(2);
      expect(predicted.some((g) => g.resolved) && predicted.some((g) => !g.resolved)).toBe(true);
      expect(new Set(listed.map((c) => c.place)).size).toBe(2);
      const detected = await after.all<{ detected_at: string }>('SELECT detected_at FROM stock_conflict_groups');
      expect(detected.every((d) => d.detected_at === '2026-11-21T00:00:00.000Z')).toBe(true);
      const tables = await after.all<{ name: string }>(
        testEngine() === 'postgres'
          ? "SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'stock_conflicts'"
          : "SELECT name FROM sqlite_master WHERE name = 'stock_conflicts'",
      );
      expect(tables).toEqual([]);

      // Vectors: the same ids and texts, each with its hash; the next one numbers on after them.
      const vectors = await after.all<{ id: number; hash: string; body: string }>('SELECT id, hash, body FROM sync_vectors ORDER BY id');
      expect(vectors.map((v) => [v.id, v.body])).toEqual([...vectorIds].map(([body, id]) => [id, body]));
      expect(vectors.every((v) => v.hash === vectorHash(v.body))).toBe(true);
      const old = [...vectorIds.keys()][0]!;
      // Pushed by a follower registered as the instance of its movements (docs/SYNC.md, "Who may speak for an origin").
      const follower = (await store.tokens.authenticate((await store.tokens.create('north', 'follower dddd4444', 'sync')).key))!;
      await store.sync.register(follower, 'dddd4444', 'D');
      const push = (seq: number, seen: Record<string, number>) =>
        store.sync.push(follower, [
          {
            id: `dddd4444-${seq}`,
            origin: 'dddd4444',
            seq,
            kind: 'set',
            value: 3,
            hlc: `${String(1_790_000_200_000 + seq).padStart(16, '0')}-00000-dddd4444`,
            item: 101,
            liquid_stock: null,
            warehouse: 10,
            barcode: 'M2',
            seen,
            source: 'api',
            reason: null,
            reference: null,
            created_at: '2026-11-22T00:00:00.000Z',
          },
        ]);
      await push(1, JSON.parse(old) as Record<string, number>);
      await push(2, { aaaa1111: 999 });
      const now = await after.all<{ id: number; body: string }>('SELECT id, body FROM sync_vectors ORDER BY id');
      expect(now).toHaveLength(vectorIds.size + 1);
      expect(now.at(-1)).toEqual({ id: vectorIds.size + 1, body: '{"aaaa1111":999}' });
    } finally {
      await after.close();
      await store.close();
      await dropDatabase(file);
    }
  });
});
