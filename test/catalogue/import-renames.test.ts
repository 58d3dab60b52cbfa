// A re-import that renames items and variants, on both engines: every new name lands, whatever it
// holds, and the renames of a chunk are a statement per many rows, not one per item (on PostgreSQL
// each statement is a round trip: 100,000 renames one by one took 10.7 s; bench/NOTES.md).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { createStore } from '../../server/store/store.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const PLAIN = 700;
const WITH_VARIANTS = 300;

/** Plain items, then items of two variants each, named by `name`. */
function catalogueNamed(name: (kind: 'item' | 'variant', id: number) => string) {
  const plain = Array.from({ length: PLAIN }, (_, i) => ({
    id: 1 + i,
    name: name('item', 1 + i),
    barcode: `P-${i}`,
    stock: [{ warehouse: 'Main', quantity: i }],
  }));
  const withVariants = Array.from({ length: WITH_VARIANTS }, (_, i) => ({
    id: 10_001 + i,
    name: name('item', 10_001 + i),
    variants: [0, 1].map((v) => ({ id: 20_001 + 2 * i + v, name: name('variant', 20_001 + 2 * i + v), barcode: `V-${i}-${v}` })),
  }));
  return {
    accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 1, name: 'Main' }], items: [...plain, ...withVariants] }],
  };
}

const before = (kind: string, id: number) => `${kind} ${id}`;
// Quotes, a semicolon, non-ASCII: values of the statement, never part of its text.
const after = (kind: string, id: number) => `Ärtikel «${kind}» 'n' "q"; ${id} ✓`;

describe('a re-import that renames', () => {
  const { dir, remove } = tempDir('bi-renames-');
  afterAll(remove);

  for (const how of ['streamed from a file', 'written whole'] as const) {
    it(`gives every item and variant its new name, a statement per many of them (${how})`, async () => {
      const location = await newDatabase(dir, `${how === 'written whole' ? 'whole' : 'streamed'}.db`);
      const counting = countingEngine(await openEngine(location));
      const store = createStore(counting.engine);
      const probe = probeDatabase(location);
      try {
        const write = async (catalogue: unknown) => {
          if (how === 'written whole') return store.catalogue.write(await parseCatalogue(catalogue));
          const file = path.join(dir, `${how}-${counting.tally.statements}.json`);
          writeFileSync(file, JSON.stringify(catalogue));
          return importCatalogueFile(store, file);
        };
        await write(catalogueNamed(before));
        counting.reset();
        await write(catalogueNamed(after));

        const items = await probe.all<{ id: number; name: string }>('SELECT id, name FROM items ORDER BY id');
        const variants = await probe.all<{ id: number; name: string }>('SELECT id, name FROM variants ORDER BY id');
        expect(items).toHaveLength(PLAIN + WITH_VARIANTS);
        expect(variants).toHaveLength(2 * WITH_VARIANTS);
        for (const { id, name } of items) expect(name).toBe(after('item', id));
        for (const { id, name } of variants) expect(name).toBe(after('variant', id));

        const updates = (table: string) => counting.tally.queries.filter(({ sql }) => sql.startsWith(`update "${table}"`)).length;
        // 1,000 item renames and 600 variant renames: a handful of statements each (one per chunk of
        // the writer and of the engine's rows per statement), where one per row made 1,000 and 600.
        expect(updates('items')).toBeGreaterThan(0);
        expect(updates('items')).toBeLessThanOrEqual(20);
        expect(updates('variants')).toBeGreaterThan(0);
        expect(updates('variants')).toBeLessThanOrEqual(20);
      } finally {
        await probe.close();
        await store.close();
        await dropDatabase(location);
      }
    });
  }
});
