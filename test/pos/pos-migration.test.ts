// A database created before migration 0002_pos existed, but after later-numbered migrations ran
// (0003_stocktakes, 0005_ui_signin were merged first), still opens and gains 0002_pos. On both
// engines: a SQLite file, or a migrated database of its own on the test cluster.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

describe('migration 0002_pos', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('is applied to a database that already ran later migrations', async () => {
    const location = await newDatabase(dir.dir);
    await (await openStore(location)).close();
    const probe = probeDatabase(location);
    try {
      // Make it a database from a build without 0002_pos.
      expect(await probe.run("DELETE FROM kysely_migration WHERE name = '0002_pos'")).toBe(1);
      await probe.run('DROP TABLE idempotency_keys');
      const before = await probe.all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
      expect(before.map((m) => m.name)).not.toContain('0002_pos');
      expect(before.some((m) => m.name > '0002_pos')).toBe(true);
      await expect(probe.all('SELECT key FROM idempotency_keys')).rejects.toThrow(/idempotency_keys/);
      await probe.close();

      const reopened = await openStore(location);
      await reopened.close();
      const names = (await probe.all<{ name: string }>('SELECT name FROM kysely_migration')).map((m) => m.name);
      expect(names).toContain('0002_pos');
      expect(names).toHaveLength(before.length + 1);
      // The table is back, with the columns the store writes.
      expect(await probe.all('SELECT account_id, key, request_hash, status, response_body, created_at FROM idempotency_keys')).toEqual([]);
    } finally {
      await probe.close();
      await dropDatabase(location);
    }
  });
});
