// Reorder points from the catalogue import (docs/REORDER.md, "Catalogue import"): the JSON document
// (whole, and streamed from a file) and the CSV columns minimum and target; refused files point at
// the place and write nothing; an import sets the points it names and leaves the others.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { convertCatalogueCsv, importCatalogueCsv } from '../../server/csv/catalogue-csv.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const catalogue = (items: unknown[], kioskItems: unknown[] = []) => ({
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
    { name: 'kiosk', warehouses_enabled: false, items: kioskItems },
  ],
});
const mug = (reorder?: unknown) => ({
  id: 100,
  name: 'Mug',
  barcode: 'MUG',
  stock: [{ warehouse: 'Main', quantity: 5 }],
  ...(reorder === undefined ? {} : { reorder }),
});
const shirt = (reorder?: unknown) => ({
  id: 101,
  name: 'T-shirt',
  variants: [{ id: 5001, name: 'S', barcode: 'SHIRT-S', ...(reorder === undefined ? {} : { reorder }) }],
});

const problemsOf = async (work: () => Promise<unknown>): Promise<string[]> => {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isCatalogueRefusal(error)) throw new Error(`expected a refused catalogue, got ${String(error)}`);
  return error.problems;
};

describe('reorder points from the catalogue import', () => {
  const temp = tempDir('bi-reorder-import-');
  let location: string;
  let store: Store;
  let probe: DatabaseProbe;
  const points = () =>
    probe.all<{ barcode: string; warehouse_id: number; minimum: number; target: number | null }>(
      'SELECT u.barcode, r.warehouse_id, r.minimum, r.target FROM reorder_points r JOIN stock_units u ON u.id = r.unit_id ORDER BY u.barcode, r.warehouse_id',
    );
  const version = async () => (await probe.first<{ v: number }>("SELECT catalogue_version AS v FROM accounts WHERE name = 'north'"))!.v;
  let databases = 0;
  beforeEach(async () => {
    location = await newDatabase(temp.dir, `reorder-${++databases}.db`);
    store = await openStore(location);
    probe = probeDatabase(location);
  });
  afterEach(async () => {
    await probe.close();
    await store.close();
    await dropDatabase(location);
  });
  afterAll(() => temp.remove());

  it('sets them from a JSON catalogue, for items, variants and an account without warehouses', async () => {
    await store.catalogue.write(
      await parseCatalogue(
        catalogue(
          [
            mug([
              { warehouse: 'Main', minimum: 4, target: 24 },
              { warehouse: 'Backroom', minimum: 0 },
            ]),
            shirt([{ warehouse: 'Main', minimum: 2 }]),
          ],
          [{ id: 200, name: 'Pen', barcode: 'PEN', reorder: [{ minimum: 10, target: 50 }] }],
        ),
      ),
    );
    expect(await points()).toEqual([
      { barcode: 'MUG', warehouse_id: 10, minimum: 4, target: 24 },
      { barcode: 'MUG', warehouse_id: 11, minimum: 0, target: null },
      { barcode: 'PEN', warehouse_id: 0, minimum: 10, target: 50 },
      { barcode: 'SHIRT-S', warehouse_id: 10, minimum: 2, target: null },
    ]);
    // The same file again changes nothing; one that changes a point moves the catalogue version and leaves the ones it does not name.
    const before = await version();
    await store.catalogue.write(await parseCatalogue(catalogue([mug([{ warehouse: 'Main', minimum: 4, target: 24 }])])));
    expect(await version()).toBe(before);
    await store.catalogue.write(await parseCatalogue(catalogue([mug([{ warehouse: 'Main', minimum: 6 }])])));
    expect(await version()).toBe(before + 1);
    expect((await points()).filter((p) => p.barcode === 'MUG')).toEqual([
      { barcode: 'MUG', warehouse_id: 10, minimum: 6, target: null },
      { barcode: 'MUG', warehouse_id: 11, minimum: 0, target: null },
    ]);
  });

  it('streams them from a JSON file the same way', async () => {
    const file = path.join(temp.dir, 'catalogue.json');
    writeFileSync(file, JSON.stringify(catalogue([mug([{ warehouse: 'Backroom', minimum: 3, target: 7 }])])));
    await importCatalogueFile(store, file);
    expect(await points()).toEqual([{ barcode: 'MUG', warehouse_id: 11, minimum: 3, target: 7 }]);
  });

  it('refuses a bad reorder point, pointing at its place, and writes nothing', async () => {
    const problems = await problemsOf(async () =>
      store.catalogue.write(
        await parseCatalogue(
          catalogue(
            [
              mug([
                { warehouse: 'Main', minimum: 5, target: 4 },
                { warehouse: 'Attic', minimum: 1 },
                { minimum: 1 },
                { warehouse: 'Main', minimum: 2 },
              ]),
              {
                id: 101,
                name: 'T-shirt',
                reorder: [{ warehouse: 'Main', minimum: 1 }],
                variants: [{ id: 5001, name: 'S', barcode: 'SHIRT-S' }],
              },
            ],
            [{ id: 200, name: 'Pen', barcode: 'PEN', reorder: [{ warehouse: 'Main', minimum: 1 }] }],
          ),
        ),
      ),
    );
    expect(problems).toEqual([
      'accounts[0].items[0].reorder[1].warehouse: No warehouses found with name: Attic',
      'accounts[0].items[0].reorder[2].warehouse: This field is required.',
      'accounts[0].items[0].reorder[3].warehouse: duplicate reorder point for warehouse "Main", first used at accounts[0].items[0].reorder[0].warehouse',
      'accounts[0].items[0].reorder[0].target: The target may not be below the minimum.',
      'accounts[0].items[1].reorder: an item with variants holds no stock itself; give reorder points per variant',
      'accounts[1].items[0].reorder[0].warehouse: an account without warehouses has no warehouse in its reorder points',
    ]);
    expect(await problemsOf(() => parseCatalogue(catalogue([mug([{ warehouse: 'Main', minimum: -1 }])])))).toEqual([
      'accounts[0].items[0].reorder[0].minimum: Too small: expected number to be >=0',
    ]);
    expect(await points()).toEqual([]);
  });

  it('reads the optional CSV columns minimum and target, with or without a quantity on the row', async () => {
    await store.catalogue.write(await parseCatalogue(catalogue([mug(), shirt()])));
    const file = path.join(temp.dir, 'stock.csv');
    writeFileSync(
      file,
      [
        'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity,minimum,target',
        '100,Mug,,,MUG,Main,5,4,24',
        '100,Mug,,,MUG,Backroom,,2,',
        '101,T-shirt,5001,S,SHIRT-S,Main,1,,',
      ].join('\n'),
    );
    const conversion = (await convertCatalogueCsv(store, 'north', file)).conversion;
    onTestFinished(() => conversion.close());
    expect(conversion.problems).toEqual([]);
    await importCatalogueCsv(store, conversion);
    expect(await points()).toEqual([
      { barcode: 'MUG', warehouse_id: 10, minimum: 4, target: 24 },
      { barcode: 'MUG', warehouse_id: 11, minimum: 2, target: null },
    ]);
    // The Backroom row set no stock (it had no quantity).
    expect(
      await probe.all(
        'SELECT warehouse_id FROM stock s JOIN stock_units u ON u.id = s.unit_id WHERE u.barcode = ? ORDER BY warehouse_id',
        'MUG',
      ),
    ).toEqual([{ warehouse_id: 10 }]);
  });

  it('refuses bad CSV reorder cells, each with its line, and writes nothing', async () => {
    await store.catalogue.write(await parseCatalogue(catalogue([mug(), shirt()])));
    const file = path.join(temp.dir, 'bad.csv');
    writeFileSync(
      file,
      [
        'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity,minimum,target',
        '100,Mug,,,MUG,Main,5,-1,',
        '100,Mug,,,MUG,Backroom,,x,',
        '101,T-shirt,5001,S,SHIRT-S,Main,1,,9',
        '101,T-shirt,5001,S,SHIRT-S,,,3,',
        '100,Mug,,,MUG,Main,,8,2',
      ].join('\n'),
    );
    const conversion = (await convertCatalogueCsv(store, 'north', file)).conversion;
    onTestFinished(() => conversion.close());
    const ownLines = [
      'line 2: minimum: Ensure this value is greater than or equal to 0.',
      'line 3: minimum: A valid integer is required.',
      'line 4: minimum: a target needs a minimum',
      'line 5: warehouse: This field is required.',
    ];
    expect(conversion.problems).toEqual(ownLines);
    // The import tells the catalogue's problem with the good rows too, in one run.
    expect(await problemsOf(() => importCatalogueCsv(store, conversion))).toEqual([
      ...ownLines,
      'line 6: reorder[0].target: The target may not be below the minimum.',
    ]);
    expect(await points()).toEqual([]);
  });
});
