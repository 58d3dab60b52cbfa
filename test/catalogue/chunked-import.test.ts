// A catalogue import writes its items a chunk at a time (server/store/catalogue-writer.ts, issue 30):
// a few statements per chunk whatever its length, counted through the engine
// (test/support/counting-engine.ts; on PostgreSQL every statement is a round trip), and the same
// outcome as writing one item after the other: a barcode one item of a chunk gives up is free for
// a later one, problems keep their place and order across chunks, and nothing is written when any
// item is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import type { Catalogue } from '../../server/catalogue/catalogue-schema.ts';
import { CHUNK_BARCODES, isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { MAX_CHUNK_LENGTH } from '../../server/store/engine.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { type Store, createStore } from '../../server/store/store.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

/**
 * `barcodes` barcodes: every fourth item has two variants, the others a barcode; stock in one or both
 * warehouses, and a reorder point for every fifth barcode.
 */
function catalogueOf(barcodes: number, { name = 'north', quantity = 0 } = {}): Catalogue {
  const items: Record<string, unknown>[] = [];
  let b = 0;
  let variantId = 1;
  const stock = (n: number) => [
    { warehouse: 'Main', quantity: (n + quantity) % 50 },
    ...(n % 3 === 0 ? [{ warehouse: 'Back', quantity: (n + quantity + 1) % 50 }] : []),
  ];
  const reorder = (n: number) => (n % 5 === 0 ? { reorder: [{ warehouse: 'Main', minimum: 5, target: 20 }] } : {});
  for (let id = 1; b < barcodes; id++) {
    if (id % 4 === 0 && b + 2 <= barcodes) {
      const variants = [0, 1].map(() => ({ id: variantId++, name: `Size ${b}`, barcode: `V${b}`, ...reorder(b), stock: stock(b++) }));
      items.push({ id, name: `Shirt ${id}`, variants });
    } else items.push({ id, name: `Article ${id}`, barcode: `P${b}`, ...reorder(b), stock: stock(b++) });
  }
  return {
    accounts: [
      {
        name,
        warehouses_enabled: true,
        warehouses: [
          { id: 1, name: 'Main' },
          { id: 2, name: 'Back' },
        ],
        items,
      },
    ],
  } as unknown as Catalogue;
}

const problemsOf = async (fn: () => Promise<unknown>): Promise<string[]> => {
  try {
    await fn();
  } catch (error) {
    if (!isCatalogueRefusal(error)) throw error;
    return error.problems;
  }
  throw new Error('expected a refused catalogue');
};

describe('a catalogue import in chunks', () => {
  let store: Store;
  let counting: ReturnType<typeof countingEngine>;
  let probe: DatabaseProbe;
  let location: string;
  let remove: () => void;
  beforeEach(async () => {
    const temp = tempDir();
    remove = temp.remove;
    location = await newDatabase(temp.dir);
    counting = countingEngine(await openEngine(location));
    store = createStore(counting.engine);
    probe = probeDatabase(location);
  });
  afterEach(async () => {
    await probe.close();
    await store.close();
    await dropDatabase(location);
    remove();
  });

  const count = async (sql: string) => Number((await probe.first<{ n: number }>(sql))!.n);

  it('sends a few statements per chunk, not per row, the first time and the second', async () => {
    const barcodes = 6 * CHUNK_BARCODES;
    const catalogue = await parseCatalogue(catalogueOf(barcodes));
    const chunks = Math.ceil(barcodes / CHUNK_BARCODES);
    // Per chunk, each kind of statement takes at most one per MAX_CHUNK_LENGTH values: looking up
    // items, variants, the units of items and of variants, barcodes; inserting items, variants,
    // units (their ids returned); the stock (at most two entries per barcode here) read, its
    // history rows and its quantities written; the reorder points read and inserted. About 75 for a
    // chunk of new items here.
    const perKind = Math.ceil(CHUNK_BARCODES / MAX_CHUNK_LENGTH);
    const mostPerChunk = 11 * perKind + 3 * 2 * perKind;
    /** The account, its warehouses, the log's state, the audit entry, the versions, the clock. */
    const fixed = 30;

    counting.reset();
    const first = await store.catalogue.write(catalogue);
    const written = counting.reset();
    expect(first).toMatchObject({ items: catalogue.accounts[0]!.items.length, barcodes });
    expect(written.writes).toBe(1);
    expect(written.writeStatements).toBeLessThanOrEqual(mostPerChunk * chunks + fixed);
    // One statement per row would be at least one per barcode (it was six and more): here about one per seven.
    expect(written.writeStatements).toBeLessThan(barcodes / 4);

    const again = await store.catalogue.write(catalogue);
    const rewritten = counting.reset();
    expect(again.quantitiesChanged).toBe(0);
    expect(rewritten.writeStatements).toBeLessThanOrEqual(mostPerChunk * chunks + fixed);
    expect(await count('SELECT count(*) AS n FROM stock_units')).toBe(barcodes);
    expect(await count('SELECT count(*) AS n FROM stock_history')).toBe(first.quantitiesChanged);
    expect(await count('SELECT count(*) AS n FROM reorder_points')).toBe(Math.ceil(barcodes / 5));

    // Every quantity moved: the stock read per chunk, its history rows and quantities written.
    const moved = await store.catalogue.write(await parseCatalogue(catalogueOf(barcodes, { quantity: 7 })));
    const movedTally = counting.reset();
    expect(moved.quantitiesChanged).toBe(first.quantitiesChanged);
    expect(movedTally.writeStatements).toBeLessThanOrEqual(mostPerChunk * chunks + fixed);
  });

  it('lets a later item of a chunk take the barcode an earlier one gave up, and refuses it the other way round', async () => {
    const account = (items: unknown[]) =>
      parseCatalogue({ accounts: [{ name: 'north', warehouses_enabled: false, items }] }).then((c) => store.catalogue.write(c));
    await account([
      { id: 1, name: 'One', barcode: 'A', stock: [{ quantity: 1 }] },
      { id: 2, name: 'Two', barcode: 'B' },
    ]);
    // Item 3 names A before item 1 gives it up: refused, as when items were written one at a time.
    expect(
      await problemsOf(() =>
        account([
          { id: 3, name: 'Three', barcode: 'A' },
          { id: 1, name: 'One', barcode: 'C' },
        ]),
      ),
    ).toEqual(['accounts[0].items[0].barcode: barcode "A" already belongs to another item or variant of account "north"']);
    expect(await count('SELECT count(*) AS n FROM items')).toBe(2);
    // Item 1 gives A up first: item 3 takes it, in the same chunk.
    const summary = await account([
      { id: 1, name: 'One', barcode: 'C' },
      { id: 3, name: 'Three', barcode: 'A', stock: [{ quantity: 5 }] },
      { id: 2, name: 'Two', barcode: 'B' },
    ]);
    expect(summary).toMatchObject({ items: 3, barcodes: 3, quantitiesChanged: 1 });
    expect(
      await probe.all(
        'SELECT u.barcode, u.item_id, s.quantity FROM stock_units u LEFT JOIN stock s ON s.unit_id = u.id ORDER BY u.barcode',
      ),
    ).toEqual([
      { barcode: 'A', item_id: 3, quantity: 5 },
      { barcode: 'B', item_id: 2, quantity: null },
      { barcode: 'C', item_id: 1, quantity: 1 },
    ]);
  });

  it('names every refused item and variant in file order across chunks, and writes nothing', async () => {
    await store.catalogue.write(await parseCatalogue(catalogueOf(8)));
    await store.catalogue.write(
      await parseCatalogue({
        accounts: [
          {
            name: 'south',
            warehouses_enabled: false,
            items: [
              { id: 5000, name: 'Theirs', barcode: 'S1' },
              { id: 5001, name: 'Theirs too', variants: [{ id: 9000, name: 'Red', barcode: 'S2' }] },
            ],
          },
        ],
      }),
    );
    const before = {
      items: await count('SELECT count(*) AS n FROM items'),
      history: await count('SELECT count(*) AS n FROM stock_history'),
    };
    const catalogue = catalogueOf(3 * CHUNK_BARCODES) as unknown as {
      accounts: { items: { id: number; barcode?: string; variants?: { id: number; barcode: string }[] }[] }[];
    };
    const items = catalogue.accounts[0]!.items;
    // Item ids and barcodes are unique in the file: the conflicts are with what the database holds.
    // Item 4 (the first import's shirt, variants V3 and V4) becomes another account's item, between
    // fine ones in the first chunk: its variants now carry barcodes the database does not hold.
    items[3]!.id = 5000;
    for (const variant of items[3]!.variants!) variant.barcode = variant.barcode.replace('V', 'X');
    items[700]!.barcode = 'P2'; // taken by an item of the first import, in the second chunk…
    items[2]!.barcode = 'P2-new'; // …and given up in the first: free again by the time item 700 comes
    const shirt = items.findIndex((item, i) => i > 1000 && item.variants);
    items[shirt]!.variants![1]!.id = 9000; // another item's variant, in the third chunk
    const taken = items.findIndex((item, i) => i > shirt && item.barcode !== undefined);
    items[taken]!.barcode = 'V4'; // the first import's variant still holds it
    const problems = await problemsOf(async () => store.catalogue.write(await parseCatalogue(catalogue)));
    expect(problems).toEqual([
      'accounts[0].items[3].id: item id 5000 belongs to another account',
      `accounts[0].items[${shirt}].variants[1].id: variant id 9000 belongs to another item`,
      `accounts[0].items[${taken}].barcode: barcode "V4" already belongs to another item or variant of account "north"`,
    ]);
    expect({
      items: await count('SELECT count(*) AS n FROM items'),
      history: await count('SELECT count(*) AS n FROM stock_history'),
    }).toEqual(before);
  });
});
