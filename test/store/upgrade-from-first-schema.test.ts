// Upgrades (issue 4): migrations are forward-only and a database made by the first released schema
// (0001_initial, exactly as released) opens with the current code with its data intact. The first
// schema is built by running only that migration; the data goes in with plain SQL, as the first
// release wrote it, so later changes to the store code cannot make this test pass by accident.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type Dialect, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.ts';
import { migrations, migrationsFor } from '../../server/store/migrations/registry.ts';
import { type EngineKind, providerFor } from '../../server/store/engines.ts';
import { openStore } from '../../server/store/open-store.ts';
import { INVENTORY_PATH, WAREHOUSES_PATH } from '../../shared/index.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';
import { inRepo } from '../support/paths.ts';

const FIRST = '0001_initial';
const released0001Schema = readFileSync(inRepo('test', 'fixtures', 'schema-0001_initial.sql'), 'utf8');

/** A connection of kysely's own to a database of each engine, for running migrations one by one. */
const dialects: Record<EngineKind, (location: string) => Dialect> = {
  sqlite(location) {
    const sqlite = new BetterSqlite3(location);
    sqlite.pragma('journal_mode = WAL');
    return new SqliteDialect({ database: sqlite });
  },
  postgres: (location) => new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) }),
};

/** Runs only 0001_initial on a SQLite file or a PostgreSQL database, as the first release did. */
async function createFirstSchema(location: string): Promise<void> {
  const engine = providerFor(location);
  const kysely = new Kysely<unknown>({ dialect: dialects[engine.kind](location) });
  const { error } = await new Migrator({
    db: kysely,
    provider: { getMigrations: async () => ({ [FIRST]: migrationsFor(engine.schema)[FIRST]! }) },
  }).migrateToLatest();
  await kysely.destroy();
  if (error) throw error;
}

function schemaOf(sqlite: BetterSqlite3.Database): string {
  const rows = sqlite
    .prepare(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'sqlite_%' ORDER BY type, name",
    )
    .all() as { sql: string }[];
  return `${rows.map((r) => `${r.sql};`).join('\n')}\n`;
}

// A token key and its stored hash, as the first release stored tokens (SHA-256 hex).
const KEY = 'bi_upgrade-test-key-0001';
const KEY_HASH = createHash('sha256').update(KEY, 'utf8').digest('hex');

async function fillAsFirstRelease(probe: DatabaseProbe): Promise<void> {
  const statements = `
    INSERT INTO accounts (id, name, warehouses_enabled) VALUES (1, 'north', 1), (2, 'kiosk', 0);
    INSERT INTO warehouses (id, account_id, name) VALUES (10, 1, 'Main'), (11, 1, 'Backroom');
    INSERT INTO items (id, account_id, name) VALUES (100, 1, 'Mug'), (101, 1, 'T-shirt'), (200, 2, 'Pen');
    INSERT INTO variants (id, item_id, account_id, name) VALUES (5001, 101, 1, 'S');
    INSERT INTO stock_units (id, account_id, barcode, item_id, variant_id) VALUES
      (1, 1, '0008690000017', 100, NULL), (2, 1, '8690000000024', 101, 5001), (3, 2, '111', 200, NULL);
    INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (1, 10, 5), (1, 11, -2), (2, 10, 3), (3, 0, 7);
    INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, old_quantity, new_quantity, source, token_id, reason, reference, created_at) VALUES
      (1, 1, 100, NULL, 10, NULL, 4, 'import', NULL, NULL, NULL, '2026-01-01T00:00:00.000Z'),
      (1, 1, 100, NULL, 10, 4, 5, 'api', 1, NULL, NULL, '2026-01-02T00:00:00.000Z'),
      (1, 1, 100, NULL, 11, NULL, -2, 'api', 1, NULL, NULL, '2026-01-02T00:00:01.000Z'),
      (1, 2, 101, 5001, 10, NULL, 3, 'import', NULL, NULL, NULL, '2026-01-01T00:00:00.000Z'),
      (2, 3, 200, NULL, 0, NULL, 7, 'import', NULL, NULL, NULL, '2026-01-01T00:00:00.000Z')`;
  for (const statement of statements.split(';')) await probe.run(statement);
  await probe.run(
    "INSERT INTO api_tokens (id, account_id, label, key_hash, key_prefix, created_at) VALUES (1, 1, 'till 1', ?, 'bi_upgr', '2026-01-01T00:00:00.000Z')",
    KEY_HASH,
  );
}

describe('upgrade from the first released schema', () => {
  const { dir, remove } = tempDir('bi-upgrade-');
  afterAll(() => remove());

  it('0001_initial is unchanged since release (migrations are forward-only)', async () => {
    const file = path.join(dir, 'schema-only.db');
    await createFirstSchema(file);
    const sqlite = new BetterSqlite3(file, { readonly: true });
    try {
      expect(schemaOf(sqlite)).toBe(released0001Schema);
    } finally {
      sqlite.close();
    }
    // Names sort in the order they run, and the first one stays first.
    const names = Object.keys(migrations);
    expect(names[0]).toBe(FIRST);
    expect([...names].sort()).toEqual(names);
  });

  it(`opens a filled 0001 database with the current code, data intact (${testEngine()})`, async () => {
    const file = await newDatabase(dir, 'first-release.db', { empty: true });
    await createFirstSchema(file);
    const raw = probeDatabase(file);
    await fillAsFirstRelease(raw);
    const before = {
      stock: await raw.all('SELECT * FROM stock ORDER BY unit_id, warehouse_id'),
      history: await raw.all('SELECT * FROM stock_history ORDER BY id'),
      units: await raw.all('SELECT * FROM stock_units ORDER BY id'),
    };
    await raw.close();

    // The current code migrates it to the latest schema on open.
    const store = await openStore(file);
    const probe = probeDatabase(file);
    try {
      const applied = (await probe.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).map((r) => r.name);
      expect(applied).toEqual(Object.keys(migrations));
      // Every row keeps every column it had (later migrations may add columns, never lose or change one).
      const asBefore = async (sql: string, rowsBefore: unknown[]) =>
        (await probe.all(sql)).map((row, i) => Object.fromEntries(Object.keys((rowsBefore[i] ?? row) as object).map((k) => [k, row[k]])));
      expect(await asBefore('SELECT * FROM stock ORDER BY unit_id, warehouse_id', before.stock)).toEqual(before.stock);
      expect(await asBefore('SELECT * FROM stock_units ORDER BY id', before.units)).toEqual(before.units);
      // Except the history's text that 0037_lean_history_rows stores as ids and integers: shown as before.
      const sources = new Map(
        (await probe.all<{ id: number; name: string }>('SELECT id, name FROM movement_sources')).map((s) => [s.id, s.name]),
      );
      const history = (await probe.all<{ source_id: number; created_ms: number }>('SELECT * FROM stock_history ORDER BY id')).map(
        (row) => ({
          ...row,
          source: sources.get(row.source_id),
          created_at: new Date(Number(row.created_ms)).toISOString(),
        }),
      );
      expect(
        history.map((row, i) => Object.fromEntries(Object.keys(before.history[i] as object).map((k) => [k, row[k as keyof typeof row]]))),
      ).toEqual(before.history);
      expect(await store.tokens.authenticate(KEY)).toMatchObject({ name: 'north', warehousesEnabled: true, tokenId: 1 });
    } finally {
      await probe.close();
      await store.close();
    }

    // And it serves: the old token works, the old figures read back, a new write lands in the history.
    const server = await startServer({ store: await openStore(file), port: 0 });
    try {
      const auth = { authorization: `Token ${KEY}` };
      const read = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=0008690000017,8690000000024`, { headers: auth });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({
        results: [
          { item: 100, liquid_stock: null, barcode: '0008690000017', quantity: 5, warehouse: 10, warehouse_name: 'Main' },
          { item: 100, liquid_stock: null, barcode: '0008690000017', quantity: -2, warehouse: 11, warehouse_name: 'Backroom' },
          { item: 101, liquid_stock: 5001, barcode: '8690000000024', quantity: 3, warehouse: 10, warehouse_name: 'Main' },
        ],
        errors: [],
      });
      expect(await (await fetch(`${server.url}${WAREHOUSES_PATH}`, { headers: auth })).json()).toEqual([
        { id: 10, name: 'Main' },
        { id: 11, name: 'Backroom' },
      ]);
      const write = await fetch(`${server.url}${INVENTORY_PATH}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify([{ barcode: '8690000000024', warehouse_name: 'Backroom', quantity: 9 }]),
      });
      expect(write.status).toBe(200);
    } finally {
      await server.close();
    }
    const after = await openStore(file);
    try {
      expect((await after.check()).ok).toBe(true);
    } finally {
      await after.close();
    }
    const probeAfter = probeDatabase(file);
    try {
      expect(Number((await probeAfter.first<{ n: number }>('SELECT count(*) AS n FROM stock_history'))!.n)).toBe(before.history.length + 1);
    } finally {
      await probeAfter.close();
      await dropDatabase(file);
    }
  });
});
