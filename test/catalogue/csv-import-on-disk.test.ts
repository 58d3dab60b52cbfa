// `csv import` keeps what its checks across rows need in a scratch file on disk, not in memory
// (server/store/sqlite/catalogue-csv-scratch.ts): an item's rows may be anywhere in the file and
// still make the item the JSON catalogue would; the scratch folder is the user's alone and is gone
// after every way the command can end (imported, refused, dry run, a file that is not CSV), or at
// the next import when its process was stopped before it could remove it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import {
  convertCatalogueCsv,
  dryRunCatalogueImport,
  formatDryRun,
  importCatalogueCsv,
  printDryRun,
} from '../../server/csv/catalogue-csv.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const HEADER = 'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity,minimum,target';
const account = (items: unknown[]) => ({
  accounts: [
    {
      name: 'north',
      warehouses_enabled: true,
      warehouses: [
        { id: 10, name: 'Main' },
        { id: 11, name: 'Backroom' },
      ],
      items,
    },
  ],
});

// What the database holds of north's catalogue, in the order it was written.
const CONTENT = {
  items: 'SELECT id, name FROM items ORDER BY id',
  variants: 'SELECT id, item_id, name FROM variants ORDER BY id',
  units: 'SELECT barcode, item_id, variant_id FROM stock_units ORDER BY barcode',
  stock:
    'SELECT u.barcode, s.warehouse_id, s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id ORDER BY u.barcode, s.warehouse_id',
  reorder:
    'SELECT u.barcode, r.warehouse_id, r.minimum, r.target FROM reorder_points r JOIN stock_units u ON u.id = r.unit_id ORDER BY u.barcode, r.warehouse_id',
  history:
    'SELECT u.barcode, h.warehouse_id, h.old_quantity, h.new_quantity FROM stock_history h JOIN stock_units u ON u.id = h.unit_id ORDER BY h.id',
};

describe('csv import with its rows on disk', () => {
  const temp = tempDir('bi-csv-on-disk-');
  const scratchParent = tempDir('bi-csv-scratch-parent-');
  let databases = 0;
  let location: string;
  let store: Store;
  const previousTmpdir = process.env.TMPDIR;
  const scratchFolders = () => readdirSync(scratchParent.dir).filter((name) => name.startsWith('barcode-inventory-csv-'));

  const open = async () => {
    const where = await newDatabase(temp.dir, `csv-${++databases}.db`);
    const opened = await openStore(where);
    onTestFinished(async () => {
      await opened.close();
      await dropDatabase(where);
    });
    return { where, store: opened };
  };
  const contentOf = async (where: string) => {
    const probe = probeDatabase(where);
    try {
      const content: Record<string, unknown[]> = {};
      for (const [name, sql] of Object.entries(CONTENT)) content[name] = await probe.all(sql);
      return content;
    } finally {
      await probe.close();
    }
  };
  const csvFile = (lines: string[]) => {
    const file = path.join(temp.dir, `rows-${++databases}.csv`);
    writeFileSync(file, `${[HEADER, ...lines].join('\n')}\n`);
    return file;
  };

  beforeEach(async () => {
    // The scratch files go to the system's temp folder (TMPDIR): here, one this test owns.
    process.env.TMPDIR = scratchParent.dir;
    ({ where: location, store } = await open());
    await store.catalogue.write(await parseCatalogue(account([])));
  });
  afterEach(() => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  });
  afterAll(() => {
    temp.remove();
    scratchParent.remove();
  });

  it("gathers an item's rows from anywhere in the file into the item the JSON catalogue makes", async () => {
    // Item 7's variants on lines 2 and 5 (502 first), the first one's Backroom stock on line 7; items 2
    // and 3 between them. Items and variants are written in the order the file first names them.
    const file = csvFile([
      '7,T-shirt,502,M,SHIRT-M,Main,6,1,',
      '2,Mug,,,MUG,Main,5,2,10',
      '3,Pen,,,PEN,,,,',
      '7,T-shirt,501,S,SHIRT-S,Main,4,,',
      '2,Mug,,,MUG,Backroom,0,,',
      '7,T-shirt,502,M,SHIRT-M,Backroom,3,,',
    ]);
    const { conversion } = await convertCatalogueCsv(store, 'north', file);
    onTestFinished(() => conversion.close());
    expect(conversion.problems).toEqual([]);
    // While it is open, its folder is there and private.
    const [folder] = scratchFolders();
    expect(folder).toBeDefined();
    expect(statSync(path.join(scratchParent.dir, folder!)).mode & 0o777).toBe(0o700);
    await importCatalogueCsv(store, conversion);

    const reference = await open();
    await reference.store.catalogue.write(
      await parseCatalogue(
        account([
          {
            id: 7,
            name: 'T-shirt',
            variants: [
              {
                id: 502,
                name: 'M',
                barcode: 'SHIRT-M',
                stock: [
                  { warehouse: 'Main', quantity: 6 },
                  { warehouse: 'Backroom', quantity: 3 },
                ],
                reorder: [{ warehouse: 'Main', minimum: 1 }],
              },
              { id: 501, name: 'S', barcode: 'SHIRT-S', stock: [{ warehouse: 'Main', quantity: 4 }] },
            ],
          },
          {
            id: 2,
            name: 'Mug',
            barcode: 'MUG',
            stock: [
              { warehouse: 'Main', quantity: 5 },
              { warehouse: 'Backroom', quantity: 0 },
            ],
            reorder: [{ warehouse: 'Main', minimum: 2, target: 10 }],
          },
          { id: 3, name: 'Pen', barcode: 'PEN' },
        ]),
      ),
    );
    const imported = await contentOf(location);
    expect(imported).toEqual(await contentOf(reference.where));
    expect(imported.history).toHaveLength(5);
  });

  it('reads the items back as often as asked, and points problems found late at their lines', async () => {
    // Line 4 names item 1's variant 502 again, with another barcode: refused by the rows' own checks.
    // Line 3's target below its minimum is the catalogue's rule, found once the item is read back.
    const file = csvFile(['1,T-shirt,501,S,SHIRT-S,Main,4,,', '1,T-shirt,502,M,SHIRT-M,Main,6,5,2', '1,T-shirt,502,M,OTHER,Main,1,,']);
    const { conversion } = await convertCatalogueCsv(store, 'north', file);
    onTestFinished(() => conversion.close());
    const own = 'line 4: barcode: variant 502 has barcode "SHIRT-M" on line 3';
    expect(conversion.problems).toEqual([own]);
    // The catalogue names the place items[0].variants[1]: its line is the second variant's.
    const everything = [own, 'line 3: reorder[0].target: The target may not be below the minimum.'];
    const report = await dryRunCatalogueImport(store, conversion);
    expect(report.problems).toEqual(everything);
    const refusal = await importCatalogueCsv(store, conversion).catch((error: unknown) => error);
    expect(isCatalogueRefusal(refusal) && refusal.problems).toEqual(everything);
    expect((await contentOf(location)).units).toEqual([]);
  });

  it('prints the dry run as it goes, the same report as the one kept whole', async () => {
    // 2,500 quantity changes (more than a page of 1,000), a new item, a renamed one, and a bad line.
    await store.catalogue.write(await parseCatalogue(account([{ id: 1, name: 'Old name', barcode: 'B1' }])));
    const lines = Array.from({ length: 2_500 }, (_, i) => `${i + 1},${i === 0 ? 'New name' : `Item ${i + 1}`},,,B${i + 1},Main,${i},,`);
    const file = csvFile([...lines, '9999,Broken,,,BROKEN,Main,x,,']);
    const { conversion, rows } = await convertCatalogueCsv(store, 'north', file);
    onTestFinished(() => conversion.close());
    const printed: string[] = [];
    const streamed = await printDryRun(store, conversion, 'f.csv', 'north', rows, (line) => printed.push(line));
    expect(streamed.quantityChanges).toEqual([]);
    expect(streamed.quantityChangeCount).toBe(2_500);
    const whole = await dryRunCatalogueImport(store, conversion);
    expect(whole.quantityChanges).toHaveLength(2_500);
    expect(printed.join('\n')).toBe(formatDryRun('f.csv', 'north', rows, whole));
    expect(printed).toContain('  rename item 1 "Old name" -> "New name"');
    expect(printed).toContain('  line 2501: B2500 in Main: (none) -> 2499');
    expect(printed.at(-2)).toBe('  problem: line 2502: quantity: A valid integer is required.');
  });

  it('removes the scratch folder a stopped import left behind, and only that one', async () => {
    // A process that has ended (Ctrl-C, killed, out of memory: `close` never ran), and one that runs.
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    const left = path.join(scratchParent.dir, `barcode-inventory-csv-${ended}-abc123`);
    const running = path.join(scratchParent.dir, `barcode-inventory-csv-${process.ppid}-def456`);
    for (const folder of [left, running]) {
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(path.join(folder, 'rows.db'), 'x');
    }
    onTestFinished(() => rmSync(running, { recursive: true, force: true }));
    const { conversion } = await convertCatalogueCsv(store, 'north', csvFile(['1,Mug,,,MUG,Main,5,,']));
    conversion.close();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });

  it('leaves no scratch file behind: imported, refused, tried, or not CSV at all', async () => {
    const good = csvFile(['1,Mug,,,MUG,Main,5,,']);
    const bad = csvFile(['1,Mug,,,MUG,Main,x,,']);
    const notCsv = csvFile(['1,"Mug,,,MUG,Main,5,,']);
    const run = async (file: string, work: (c: Awaited<ReturnType<typeof convertCatalogueCsv>>['conversion']) => Promise<unknown>) => {
      const { conversion } = await convertCatalogueCsv(store, 'north', file);
      try {
        await work(conversion).catch(() => undefined);
      } finally {
        conversion.close();
      }
    };
    await run(bad, (c) => importCatalogueCsv(store, c));
    await run(good, (c) => dryRunCatalogueImport(store, c));
    await run(good, (c) => importCatalogueCsv(store, c));
    await expect(convertCatalogueCsv(store, 'north', notCsv)).rejects.toThrow(/quote/);
    await run(good, async () => {
      throw new Error('the caller failed');
    });
    expect(scratchFolders()).toEqual([]);
    expect((await contentOf(location)).stock).toEqual([{ barcode: 'MUG', warehouse_id: 10, quantity: 5 }]);
  });
});
