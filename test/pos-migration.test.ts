// A database created before migration 0002_pos existed, but after later-numbered migrations ran
// (0003_stocktakes, 0005_ui_signin were merged first), still opens and gains 0002_pos.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../server/store/database.ts';
import { tempDir } from './support/test-server.ts';

describe('migration 0002_pos', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('is applied to a database that already ran later migrations', async () => {
    const file = path.join(dir.dir, 'inventory.db');
    const first = await Database.open(file);
    // Make it a database from a build without 0002_pos.
    first.sqlite.exec("DELETE FROM kysely_migration WHERE name = '0002_pos'; DROP TABLE idempotency_keys;");
    const before = first.sqlite.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[];
    expect(before.map((m) => m.name)).not.toContain('0002_pos');
    expect(before.some((m) => m.name > '0002_pos')).toBe(true);
    first.close();

    const reopened = await Database.open(file);
    try {
      const names = (reopened.sqlite.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((m) => m.name);
      expect(names).toContain('0002_pos');
      expect(reopened.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys'").get()).toEqual({
        name: 'idempotency_keys',
      });
    } finally {
      reopened.close();
    }
  });
});
