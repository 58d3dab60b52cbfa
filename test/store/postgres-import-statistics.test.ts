// PostgreSQL only (vitest.config.ts runs it in the `postgres` project): a catalogue import refreshes
// the planner's statistics when it commits. Without them, until autovacuum's own ANALYZE (up to a
// minute later), a 50-barcode read of the freshly imported account scanned all its barcodes
// (bench/NOTES-postgres.md). `last_analyze` is set by an explicit ANALYZE only, never by autovacuum.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, onPostgres } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

describe('a catalogue import on PostgreSQL', () => {
  const { dir, remove } = tempDir('bi-pg-stats-');
  afterAll(remove);

  it('runs on the postgres project', () => {
    expect(onPostgres(), 'this file belongs to the postgres project of vitest.config.ts').toBe(true);
  });

  it('leaves the tables it filled analysed, so the first reads are planned on real numbers', async () => {
    const location = await newDatabase(dir);
    const store = await openStore(location);
    const probe = probeDatabase(location);
    try {
      const items = Array.from({ length: 300 }, (_, i) => ({
        id: 1000 + i,
        name: `Item ${i}`,
        barcode: `B-${i}`,
        stock: [{ warehouse: 'Main', quantity: i }],
      }));
      const file = path.join(dir, 'catalogue.json');
      writeFileSync(
        file,
        JSON.stringify({ accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 10, name: 'Main' }], items }] }),
      );
      const analysed = () =>
        probe.all<{ relname: string }>(
          "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL AND relname IN ('items', 'stock_units', 'stock') ORDER BY relname",
        );
      expect(await analysed()).toEqual([]);
      await importCatalogueFile(store, file);
      expect((await analysed()).map((r) => r.relname)).toEqual(['items', 'stock', 'stock_units']);
    } finally {
      await probe.close();
      await store.close();
      await dropDatabase(location);
    }
  });
});
