// Migration 0037_lean_history_rows on a database of the previous release: the history row gives up
// the text it can make again (the timestamp, from its order key, counter and origin; `created_at`,
// as milliseconds; the source, as the id of its name), and every reader sees what it saw before.
// Seeded movements cover counters past the key's cap, the longest instance id, this version's
// sources and older ones, times at the ends of the calendar and text the server never wrote.
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations/registry.ts';
import { hlcKey } from '../../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../../server/store/movements/movement-names.ts';
import { openStore } from '../../server/store/open-store.ts';
import { CREATED_AT_PATTERN, MOVEMENT_SOURCES, historyQuerySchema } from '../../shared/index.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { migrateBefore } from '../support/previous-release.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const MIGRATION = '0037_lean_history_rows';
const ORIGINS = ['aaaa1111', 'bbbb2222', 'z'.repeat(32)];
const SOURCES = [...MOVEMENT_SOURCES, 'ui', 'csv'];
/** Text the server never wrote, each of which becomes its timestamp's time. */
const NOT_WRITTEN_BY_THE_SERVER = [
  '2026-11-20 10:00:00',
  'garbage',
  '',
  '2026-13-01T00:00:00.000Z',
  '2026-11-00T00:00:00.000Z',
  '2026-11-20T24:00:00.000Z',
  '2026-11-20T10:60:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '2026-11-20T10:00:00Z',
  '2026-11-20T10:00:00.000+01:00',
];
/** Written as the server writes times, at the calendar's edges: a day past its month's end counts on into the next (Date.parse). */
const EDGES = [
  '2026-02-31T10:00:00.000Z',
  '2100-02-29T23:59:59.999Z',
  '2000-02-29T00:00:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
];

interface OldRow {
  origin: string;
  seq: number;
  hlc: string;
  source: string;
  created_at: string;
}

/** Movements of the previous release, seeded: random times and counters, then every special case. */
function oldRows(): OldRow[] {
  const random = seededRandom(37);
  const seqs = new Map<string, number>();
  const row = (created_at: string, counter = random.chance(0.7) ? 0 : random.pick([1, 1023, 1024, 54_321, 99_999])) => {
    const origin = random.pick(ORIGINS);
    const seq = (seqs.get(origin) ?? 0) + 1;
    seqs.set(origin, seq);
    const wall = random.int(1_000_000_000_000, 4_000_000_000_000);
    return {
      origin,
      seq,
      hlc: `${String(wall).padStart(16, '0')}-${String(counter).padStart(5, '0')}-${origin}`,
      source: random.pick(SOURCES),
      created_at,
    };
  };
  const times = Array.from({ length: 200 }, () =>
    new Date(random.int(Date.UTC(1, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999))).toISOString(),
  );
  return [...times, ...EDGES, ...NOT_WRITTEN_BY_THE_SERVER].map((at) => row(at));
}

/** A database at the previous release with `rows` in its history (one unit, its stock their fold's last). */
async function previousRelease(file: string, rows: OldRow[], wrongKeyOf?: number): Promise<void> {
  await migrateBefore(file, MIGRATION);
  const probe = probeDatabase(file);
  try {
    for (const statement of [
      "INSERT INTO accounts (id, name, warehouses_enabled) VALUES (1, 'north', 0)",
      "INSERT INTO items (id, account_id, name) VALUES (100, 1, 'Mug')",
      "INSERT INTO stock_units (id, account_id, barcode, item_id, variant_id) VALUES (1, 1, 'M1', 100, NULL)",
    ])
      await probe.run(statement);
    for (const [i, m] of rows.entries())
      await probe.run(
        `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc, hlc_key, old_quantity, new_quantity, source, created_at)
         VALUES (1, 1, 100, NULL, 0, ?, ?, 'set', ?, ?, ?, NULL, ?, ?, ?)`,
        m.origin,
        m.seq,
        i,
        m.hlc,
        i === wrongKeyOf ? 0 : hlcKey(m.hlc),
        i,
        m.source,
        m.created_at,
      );
    const last = rows.reduce((latest, m, i) => (m.hlc > rows[latest]!.hlc ? i : latest), 0);
    await probe.run('INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (1, 0, ?)', last);
  } finally {
    await probe.close();
  }
}

/** What the row's `created_ms` must be: the text's time when the server wrote it so, else its timestamp's. */
function expectedMs(row: OldRow): number {
  const written = CREATED_AT_PATTERN.test(row.created_at) && !row.created_at.startsWith('0000');
  return written ? Date.parse(row.created_at) : Number(row.hlc.slice(0, 16));
}

describe(`the history row without the text it can make again, from the previous release (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-lean-rows-');
  afterAll(() => remove());

  it('keeps every timestamp, time and source, mends a wrong order key, and readers see what they saw', async () => {
    const rows = oldRows();
    const file = await newDatabase(dir, 'before-lean-rows.db', { empty: true });
    await previousRelease(file, rows, 3);

    const store = await openStore(file);
    const probe = probeDatabase(file);
    try {
      expect((await probe.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name)).toEqual(
        Object.keys(migrations),
      );
      const stored = await probe.all<{ hlc: string; hlc_key: number; hlc_counter: number; created_ms: number; source: string }>(
        'SELECT h.hlc, h.hlc_key, h.hlc_counter, h.created_ms, s.name AS source FROM stock_history h JOIN movement_sources s ON s.id = h.source_id ORDER BY h.id',
      );
      expect(stored.map((r) => r.hlc)).toEqual(rows.map((r) => r.hlc));
      expect(stored.map((r) => Number(r.hlc_key))).toEqual(rows.map((r) => hlcKey(r.hlc)));
      expect(stored.map((r) => Number(r.created_ms))).toEqual(rows.map(expectedMs));
      expect(stored.map((r) => r.source)).toEqual(rows.map((r) => r.source));
      // This version's sources have the ids its writes use; older names follow them.
      const sources = await probe.all<{ id: number; name: string }>('SELECT id, name FROM movement_sources ORDER BY id');
      expect(sources).toEqual([
        ...MOVEMENT_SOURCES.map((name) => ({ id: SOURCE_IDS[name], name })),
        { id: 4, name: 'csv' },
        { id: 5, name: 'ui' },
      ]);
      expect(await store.check()).toMatchObject({ ok: true, keyMismatches: 0, unknownSources: 0 });

      // The history shows the names and times it showed; a filter by an older source still finds its movements.
      const account = (await store.accounts.find('north'))!;
      const page = await store.history.page(account, historyQuerySchema.parse({ limit: 500 }));
      const newestFirst = [...rows].sort((a, b) => (a.hlc < b.hlc ? 1 : -1));
      expect(page.results.map((e) => [e.hlc, e.source, e.created_at])).toEqual(
        newestFirst.map((r) => [r.hlc, r.source, new Date(expectedMs(r)).toISOString()]),
      );
      const byUi = await store.history.page(account, historyQuerySchema.parse({ source: 'ui', limit: 500 }));
      expect(byUi.results.map((e) => e.hlc)).toEqual(newestFirst.filter((r) => r.source === 'ui').map((r) => r.hlc));
      const byUnknown = await store.history.page(account, historyQuerySchema.parse({ source: 'nothing', limit: 500 }));
      expect(byUnknown.results).toEqual([]);

      // A follower gets every movement in a shape it accepts: an older source as `api`, every time as the server writes them.
      const pulled = await store.sync.pull(account, 0, 500);
      expect(pulled.movements.map((m) => [m.hlc, m.source, m.created_at])).toEqual(
        rows.map((r) => [
          r.hlc,
          (MOVEMENT_SOURCES as readonly string[]).includes(r.source) ? r.source : 'api',
          new Date(expectedMs(r)).toISOString(),
        ]),
      );
      for (const m of pulled.movements) expect(m.created_at).toMatch(CREATED_AT_PATTERN);
    } finally {
      await probe.close();
      await store.close();
      await dropDatabase(file);
    }
  });

  it('stops the upgrade, changing nothing, when a timestamp names another instance than its movement', async () => {
    const rows = oldRows().slice(0, 20);
    rows[7] = { ...rows[7]!, hlc: `${rows[7]!.hlc.slice(0, 23)}${ORIGINS.find((o) => o !== rows[7]!.origin)}` };
    const file = await newDatabase(dir, 'foreign-timestamp.db', { empty: true });
    await previousRelease(file, rows);
    await expect(openStore(file)).rejects.toThrow(/1 movement\(s\) carry a timestamp of another instance than their origin/);
    const probe = probeDatabase(file);
    try {
      expect((await probe.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name)).not.toContain(
        MIGRATION,
      );
      const kept = await probe.all<{ hlc: string; source: string; created_at: string }>(
        'SELECT hlc, source, created_at FROM stock_history ORDER BY id',
      );
      expect(kept).toEqual(rows.map((r) => ({ hlc: r.hlc, source: r.source, created_at: r.created_at })));
    } finally {
      await probe.close();
      await dropDatabase(file);
    }
  });
});
