// SQLite's page cache (server/store/sqlite/pragmas.ts): the store's connection keeps PAGE_CACHE_KIB
// for its everyday work, a bulk write (an import) runs with BULK_PAGE_CACHE_KIB and temporary tables
// on disk, and both settings come back after it, whether it commits or fails.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { SqliteEngine } from '../../server/store/sqlite/sqlite-engine.ts';
import { BULK_PAGE_CACHE_KIB, PAGE_CACHE_KIB, READER_PAGE_CACHE_KIB } from '../../server/store/sqlite/pragmas.ts';
import { createStore } from '../../server/store/store.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { tempDir } from '../support/test-server.ts';

/** The connection's page cache in KiB (SQLite reports a size in KiB as a negative number) and where its temporary tables go. */
function settings(engine: SqliteEngine, sqlite = engine.sqlite): { cacheKib: number; tempStore: number } {
  return {
    cacheKib: -(sqlite.pragma('cache_size', { simple: true }) as number),
    tempStore: sqlite.pragma('temp_store', { simple: true }) as number,
  };
}
const MEMORY = 2;
const FILE = 1;

describe('the page cache of the store', () => {
  const dirs: { remove: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  async function openEngine(): Promise<SqliteEngine> {
    const dir = tempDir();
    dirs.push(dir);
    return SqliteEngine.open(path.join(dir.dir, 'inventory.db'));
  }

  it('is PAGE_CACHE_KIB on a file and in memory, not the 16 MB better-sqlite3 builds in', async () => {
    expect(PAGE_CACHE_KIB).toBeLessThan(BULK_PAGE_CACHE_KIB);
    expect(READER_PAGE_CACHE_KIB).toBeLessThan(PAGE_CACHE_KIB);
    for (const engine of [await openEngine(), await SqliteEngine.open(':memory:')]) {
      try {
        expect(settings(engine)).toEqual({ cacheKib: PAGE_CACHE_KIB, tempStore: MEMORY });
        // On a file, reads during writes have a connection of their own with a smaller cache (in memory: the writer).
        const reading = engine.location === ':memory:' ? PAGE_CACHE_KIB : READER_PAGE_CACHE_KIB;
        expect(settings(engine, engine.readingSqlite)).toEqual({ cacheKib: reading, tempStore: MEMORY });
      } finally {
        await engine.close();
      }
    }
  });

  it('is BULK_PAGE_CACHE_KIB during an import, with temporary tables on disk, and PAGE_CACHE_KIB again after it', async () => {
    const engine = await openEngine();
    const store = createStore(engine);
    try {
      let during: ReturnType<typeof settings> | undefined;
      let readerDuring: ReturnType<typeof settings> | undefined;
      await engine.write(
        async () => {
          during = settings(engine);
          readerDuring = settings(engine, engine.readingSqlite);
        },
        { bulk: true },
      );
      expect(during).toEqual({ cacheKib: BULK_PAGE_CACHE_KIB, tempStore: FILE });
      // Only the writer's: the reading connection kept its everyday cache meanwhile.
      expect(readerDuring).toEqual({ cacheKib: READER_PAGE_CACHE_KIB, tempStore: MEMORY });
      expect(settings(engine)).toEqual({ cacheKib: PAGE_CACHE_KIB, tempStore: MEMORY });

      // A real import goes the same way, and so does an everyday write after it.
      const catalogue = generatedCatalogue([{ name: 'shop', warehouses: ['Main'], barcodes: barcodes('P', 300), quantity: 2 }]);
      await store.catalogue.write(await parseCatalogue(catalogue));
      expect(settings(engine)).toEqual({ cacheKib: PAGE_CACHE_KIB, tempStore: MEMORY });
      const everyday: ReturnType<typeof settings>[] = [];
      await engine.write(async () => void everyday.push(settings(engine)));
      expect(everyday).toEqual([{ cacheKib: PAGE_CACHE_KIB, tempStore: MEMORY }]);
    } finally {
      await store.close();
    }
  });

  it('comes back after a bulk write that fails', async () => {
    const engine = await openEngine();
    try {
      await expect(
        engine.write(
          async () => {
            throw new Error('refused half-way');
          },
          { bulk: true },
        ),
      ).rejects.toThrow('refused half-way');
      expect(settings(engine)).toEqual({ cacheKib: PAGE_CACHE_KIB, tempStore: MEMORY });
    } finally {
      await engine.close();
    }
  });
});
