// SQLite only: the planner's statistics of stock_units (sqlite_stat1). Without them SQLite guessed
// that `account_id = ?` leaves a handful of units and, for every 64 items a re-import looked up, read
// the whole account's units through stock_units_read: 66 s for a re-import of 300,000 barcodes
// instead of 9 (docs/DEPLOY.md, "Planner statistics"). The store takes them again when it opens and
// after every catalogue write, whenever the units have doubled since (pragmas.ts,
// analyseStockUnitsIfGrown); these tests hold the re-import's look-ups to their own keys by their plans.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { STATISTICS_FROM_UNITS } from '../../server/store/sqlite/pragmas.ts';
import { createStore } from '../../server/store/store.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { onPostgres } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

/** Items of a catalogue with as many units as statistics need: catalogueOf gives 4 units per 3 items. */
const ITEMS = (STATISTICS_FROM_UNITS * 3) / 4;

function writeCatalogue(file: string, quantityOffset: number): void {
  writeFileSync(file, JSON.stringify(catalogueOf(ITEMS, quantityOffset)));
}

/** A catalogue of one warehouse account: plain items, and every third item of two variants. */
function catalogueOf(length: number, quantityOffset: number) {
  const items = Array.from({ length }, (_, i) =>
    i % 3 === 2
      ? {
          id: 1 + i,
          name: `Item ${i}`,
          variants: [0, 1].map((v) => ({
            id: 100_000 + 2 * i + v,
            name: `Size ${v}`,
            barcode: `V-${i}-${v}`,
            stock: [{ warehouse: 'Main', quantity: i + v + quantityOffset }],
          })),
        }
      : { id: 1 + i, name: `Item ${i}`, barcode: `B-${i}`, stock: [{ warehouse: 'Main', quantity: i + quantityOffset }] },
  );
  return { accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 1, name: 'Main' }], items }] };
}

/** The row count of stock_units' statistics, or undefined without any. */
function analysedUnits(dbFile: string): number | undefined {
  const check = new BetterSqlite3(dbFile, { readonly: true });
  try {
    if (!check.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) return undefined;
    const stat = check.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'stock_units' LIMIT 1").pluck().get() as string | undefined;
    return stat === undefined ? undefined : Number(stat.split(' ')[0]);
  } finally {
    check.close();
  }
}

/** The plan lines of the reads of stock_units among `queries`. */
function unitReadPlans(dbFile: string, queries: readonly { sql: string; parameters: readonly unknown[] }[]): string[] {
  const reads = queries.filter(({ sql }) => /^select .* from "stock_units"/i.test(sql));
  expect(reads.length).toBeGreaterThan(0);
  const explain = new BetterSqlite3(dbFile, { readonly: true });
  try {
    return reads.flatMap(({ sql, parameters }) =>
      (explain.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((row) => row.detail),
    );
  } finally {
    explain.close();
  }
}

/** A search of stock_units by the account alone: all of its units for every chunk. */
const byAccountAlone = (line: string) => /stock_units .*\(account_id=\?\)$/.test(line) || /^SCAN stock_units/.test(line);

describe('the planner statistics of a SQLite store', () => {
  const { dir, remove } = tempDir('bi-planner-stats-');
  afterAll(remove);

  it('runs on the sqlite project', () => {
    expect(onPostgres(), 'this file belongs to the sqlite project of vitest.config.ts').toBe(false);
  });

  /**
   * Imports a catalogue into a new database, then a second one changing every quantity, both through
   * one counting engine (as a running server holds one store): the queries of the second import, and
   * the store still open.
   */
  async function importedTwice(name: string) {
    const dbFile = path.join(dir, `${name}.db`);
    const counting = countingEngine(await openEngine(dbFile));
    const store = createStore(counting.engine);
    for (const offset of [0, 7]) {
      const file = path.join(dir, `${name}-${offset}.json`);
      writeCatalogue(file, offset);
      counting.reset();
      await importCatalogueFile(store, file);
    }
    return { dbFile, store, queries: counting.tally.queries };
  }

  it('after an import, the next one looks its units up by their items, variants and barcodes, never by reading the whole account', async () => {
    const { dbFile, store, queries } = await importedTwice('reimport');
    try {
      // Planned as the store that imported still has them: each import takes the statistics at its end.
      const plans = unitReadPlans(dbFile, queries);
      expect(plans.filter(byAccountAlone)).toEqual([]);
      // Each kind of look-up by its own index.
      expect(plans.some((line) => /INDEX stock_units_(export_order|plain_item) \(.*item_id=\?/.test(line))).toBe(true);
      expect(plans.some((line) => /INDEX stock_units_variant \(variant_id=\?\)/.test(line))).toBe(true);
      expect(
        plans.some((line) => /INDEX (stock_units_read|sqlite_autoindex_stock_units_1) \(account_id=\? AND barcode=\?\)/.test(line)),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a database that never had statistics gets them when the store opens', async () => {
    const { dbFile, store, queries } = await importedTwice('older');
    await store.close();
    // As a database of an earlier version left it: no statistics at all.
    const older = new BetterSqlite3(dbFile);
    older.exec('DROP TABLE sqlite_stat1');
    older.close();

    const reopened = createStore(await openEngine(dbFile));
    try {
      expect(unitReadPlans(dbFile, queries).filter(byAccountAlone)).toEqual([]);
      const check = new BetterSqlite3(dbFile, { readonly: true });
      try {
        // stock_units alone, in full: the variants' index counts 2 units per value (a sample read 1,000).
        const analysed = check.prepare('SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY idx').all() as {
          tbl: string;
          idx: string;
          stat: string;
        }[];
        expect(analysed).toContainEqual({ tbl: 'stock_units', idx: 'stock_units_variant', stat: `${STATISTICS_FROM_UNITS} 2` });
        expect(new Set(analysed.map((row) => row.tbl))).toEqual(new Set(['stock_units']));
      } finally {
        check.close();
      }
    } finally {
      await reopened.close();
    }
  });

  it('a catalogue written in a shared transaction (a csv import, a catalogue from upstream) takes them again once the units have doubled', async () => {
    const dbFile = path.join(dir, 'growing.db');
    const store = createStore(await openEngine(dbFile));
    try {
      // Fewer units than statistics need: none taken.
      await store.catalogue.write(await parseCatalogue(catalogueOf(300, 0)));
      expect(analysedUnits(dbFile)).toBeUndefined();
      await store.catalogue.write(await parseCatalogue(catalogueOf(ITEMS, 0)));
      expect(analysedUnits(dbFile)).toBe(STATISTICS_FROM_UNITS);
      await store.catalogue.write(await parseCatalogue(catalogueOf(2 * ITEMS, 0)));
      expect(analysedUnits(dbFile), 'doubled').toBe(2 * STATISTICS_FROM_UNITS);
      await store.catalogue.write(await parseCatalogue(catalogueOf(3 * ITEMS, 0)));
      expect(analysedUnits(dbFile), 'grown by half since: not taken again').toBe(2 * STATISTICS_FROM_UNITS);
    } finally {
      await store.close();
    }
  });
});
