// The SQLite layout of `stock` (migration 0023_stock_keyed, docs/DEPLOY.md): one b-tree keyed by
// (unit, warehouse), WITHOUT ROWID, with no index beside it, so writing a quantity changes one
// b-tree and reading one searches that key. SQLite-only: sqlite_master and EXPLAIN QUERY PLAN; the
// data carried through the migration is checked on both engines by upgrade-from-first-schema.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';

describe('the stock table on SQLite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bi-stock-layout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is one b-tree keyed by unit and warehouse, and a quantity is read by that key', async () => {
    const file = path.join(dir, 'layout.db');
    await (await openStore(file)).close();
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'stock'").get() as { sql: string };
      expect(table.sql).toMatch(/PRIMARY KEY \(unit_id, warehouse_id\)\s*\)\s*WITHOUT ROWID$/);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stock'").all()).toEqual([]);
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT quantity FROM stock WHERE unit_id = ? AND warehouse_id = ?').all(1, 1) as {
        detail: string;
      }[];
      expect(plan.map((p) => p.detail)).toEqual(['SEARCH stock USING PRIMARY KEY (unit_id=? AND warehouse_id=?)']);
    } finally {
      db.close();
    }
  });
});
