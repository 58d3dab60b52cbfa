// Catalogue import: validation errors that point at the place, all-or-nothing, idempotent re-import.
// The store part runs on both engines: a SQLite file, or a database of its own on the test cluster.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fieldMessages } from '../../shared/index.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { isApiError } from '../../server/errors.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { type DatabaseProbe, probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { exampleCatalogue, tempDir } from '../support/test-server.ts';

/** The problems of a refused catalogue: a 400 of the error family that lists them, every one also in its text. */
const problemsOf = async (fn: () => Promise<unknown>): Promise<string[]> => {
  try {
    await fn();
  } catch (error) {
    if (!isCatalogueRefusal(error)) throw error;
    expect(isApiError(error) && error.status).toBe(400);
    for (const problem of error.problems) expect(error.message).toContain(problem);
    return error.problems;
  }
  throw new Error('expected a refused catalogue');
};

const counts = async (probe: DatabaseProbe) =>
  Object.fromEntries(
    await Promise.all(
      ['accounts', 'warehouses', 'items', 'variants', 'stock_units', 'stock', 'stock_history'].map(async (table) => [
        table,
        Number((await probe.first<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n),
      ]),
    ),
  );

describe('catalogue validation', () => {
  const withItems = (items: unknown[], account: Record<string, unknown> = {}) => ({
    accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 10, name: 'Main' }], items, ...account }],
  });

  it('accepts the README example', async () => {
    expect((await parseCatalogue(exampleCatalogue())).accounts.map((a) => a.name)).toEqual(['north', 'kiosk']);
  });

  it('points every structural problem at its place', async () => {
    const problems = await problemsOf(() =>
      parseCatalogue(
        withItems([
          { id: 1, name: 'ok', barcode: 'A' },
          { id: 4, name: 'bad barcode', barcode: 12 },
          { id: 5, name: 'bad stock', barcode: 'E', stock: [{ quantity: 1.5, warehouse: 'Main' }] },
          { id: -6, name: '', barcode: 'F' },
        ]),
      ),
    );
    expect(problems).toEqual([
      'accounts[0].items[1].barcode: Not a valid string.',
      'accounts[0].items[2].stock[0].quantity: Invalid input: expected int, received number',
      'accounts[0].items[3].id: Too small: expected number to be >0',
      'accounts[0].items[3].name: This field may not be blank.',
    ]);
  });

  it('refuses names with control characters or characters that reverse the text, naming each', async () => {
    // A NUL cuts a file, ESC retitles a terminal (`account show`), CR/LF break CSV lines, and U+202E
    // makes "Mug" read as another name.
    const problems = await problemsOf(() =>
      parseCatalogue({
        accounts: [
          {
            name: 'nor\u001b]0;owned\u0007th',
            warehouses_enabled: true,
            warehouses: [{ id: 10, name: 'Main\r\nStore' }],
            items: [
              { id: 1, name: 'Mug\u202Egnp.exe', barcode: 'A' },
              { id: 2, name: 'Shirt', variants: [{ id: 7, name: 'S\u0000', barcode: 'C' }] },
              { id: 3, name: 'Çay bardağı \u200D ok', barcode: 'D' },
            ],
          },
        ],
      }),
    );
    expect(problems).toEqual([
      `accounts[0].name: ${fieldMessages.unsafeCharacter('U+001B (ESC)', 4)}`,
      `accounts[0].warehouses[0].name: ${fieldMessages.unsafeCharacter('U+000D (CR)', 5)}`,
      `accounts[0].items[0].name: ${fieldMessages.unsafeCharacter('U+202E', 4)}`,
      `accounts[0].items[1].variants[0].name: ${fieldMessages.unsafeCharacter('U+0000 (NUL)', 2)}`,
    ]);
  });

  it('then points every cross-field problem at its place', async () => {
    const problems = await problemsOf(() =>
      parseCatalogue(
        withItems([
          { id: 1, name: 'ok', barcode: 'A' },
          { id: 2, name: 'both', barcode: 'B', variants: [{ id: 7, name: 'v', barcode: 'C' }] },
          { id: 3, name: 'neither' },
          { id: 1, name: 'dup id', barcode: 'A' },
          { id: 5, name: 'bad stock', barcode: 'E', stock: [{ warehouse: 'Attic', quantity: 1 }] },
          { id: 6, name: 'v', variants: [{ id: 7, name: 'dup variant', barcode: 'C' }], stock: [] },
        ]),
      ),
    );
    expect(problems).toEqual([
      'accounts[0].items[1]: an item has either "barcode" (it holds stock itself) or "variants", not both and not neither',
      'accounts[0].items[2]: an item has either "barcode" (it holds stock itself) or "variants", not both and not neither',
      'accounts[0].items[3].id: duplicate item id 1, first used at accounts[0].items[0].id',
      'accounts[0].items[3].barcode: duplicate barcode "A", first used at accounts[0].items[0].barcode',
      'accounts[0].items[4].stock[0].warehouse: No warehouses found with name: Attic',
      'accounts[0].items[5].stock: an item with variants holds no stock itself; give stock per variant',
      'accounts[0].items[5].variants[0].id: duplicate variant id 7, first used at accounts[0].items[1].variants[0].id',
      'accounts[0].items[5].variants[0].barcode: duplicate barcode "C", first used at accounts[0].items[1].variants[0].barcode',
    ]);
  });

  it('checks the scenario rules of stock entries', async () => {
    const noWarehouse = (stock: unknown[]) => ({
      accounts: [{ name: 'k', warehouses_enabled: false, items: [{ id: 1, name: 'x', barcode: '1', stock }] }],
    });
    expect(await problemsOf(() => parseCatalogue(noWarehouse([{ quantity: 1 }, { quantity: 2 }])))).toEqual([
      'accounts[0].items[0].stock: an account without warehouses has at most one stock entry per barcode',
    ]);
    expect(await problemsOf(() => parseCatalogue(noWarehouse([{ warehouse: 'Main', quantity: 1 }])))).toEqual([
      'accounts[0].items[0].stock[0].warehouse: an account without warehouses has no warehouse in its stock entries',
    ]);
    expect(await problemsOf(() => parseCatalogue(withItems([{ id: 1, name: 'x', barcode: '1', stock: [{ quantity: 1 }] }])))).toEqual([
      'accounts[0].items[0].stock[0].warehouse: This field is required.',
    ]);
    expect(
      await problemsOf(() =>
        parseCatalogue(
          withItems([
            {
              id: 1,
              name: 'x',
              barcode: '1',
              stock: [
                { warehouse: 'Main', quantity: 1 },
                { warehouse: 'Main', quantity: 2 },
              ],
            },
          ]),
        ),
      ),
    ).toEqual([
      'accounts[0].items[0].stock[1].warehouse: duplicate stock entry for warehouse "Main", first used at accounts[0].items[0].stock[0].warehouse',
    ]);
  });

  it('refuses unknown fields and a document that is not a catalogue', async () => {
    expect(await problemsOf(() => parseCatalogue([]))).toEqual(['(catalogue): Invalid input: expected object, received array']);
    expect(await problemsOf(() => parseCatalogue(withItems([{ id: 1, name: 'x', barcode: '1', colour: 'red' }])))).toEqual([
      'accounts[0].items[0]: Unrecognized key: "colour"',
    ]);
  });
});

describe('catalogue import into the store', () => {
  let store: Store;
  let probe: DatabaseProbe;
  let location: string;
  let remove: () => void;
  beforeEach(async () => {
    const temp = tempDir();
    remove = temp.remove;
    location = await newDatabase(temp.dir);
    store = await openStore(location);
    probe = probeDatabase(location);
  });
  afterEach(async () => {
    await probe.close();
    await store.close();
    await dropDatabase(location);
    remove();
  });

  it('imports the example and changes nothing on a second import', async () => {
    const catalogue = await parseCatalogue(exampleCatalogue());
    expect(await store.catalogue.write(catalogue)).toEqual({
      accounts: 2,
      warehouses: 2,
      items: 3,
      variants: 1,
      barcodes: 3,
      quantitiesChanged: 4,
    });
    const first = await counts(probe);
    expect(first).toEqual({ accounts: 2, warehouses: 2, items: 3, variants: 1, stock_units: 3, stock: 4, stock_history: 4 });
    expect((await store.catalogue.write(catalogue)).quantitiesChanged).toBe(0);
    expect(await counts(probe)).toEqual(first);
  });

  it('updates names, barcodes and quantities by id, recording changed quantities in the history', async () => {
    await store.catalogue.write(await parseCatalogue(exampleCatalogue()));
    const changed = exampleCatalogue() as { accounts: { items: Record<string, unknown>[] }[] };
    changed.accounts[1]!.items[0] = { id: 200, name: 'Blue pen', barcode: '0111', stock: [{ quantity: 8 }] };
    expect((await store.catalogue.write(await parseCatalogue(changed))).quantitiesChanged).toBe(1);
    expect(
      await probe.first(
        'SELECT i.name, u.barcode, s.quantity FROM items i JOIN stock_units u ON u.item_id = i.id JOIN stock s ON s.unit_id = u.id WHERE i.id = 200',
      ),
    ).toEqual({ name: 'Blue pen', barcode: '0111', quantity: 8 });
    expect(
      await probe.first(`SELECT old_quantity, new_quantity, ${sourceNameOf('h')} AS source FROM stock_history h ORDER BY id DESC LIMIT 1`),
    ).toEqual({
      old_quantity: 7,
      new_quantity: 8,
      source: 'import',
    });
  });

  it('refuses conflicts with the database as a whole, writing nothing', async () => {
    await store.catalogue.write(await parseCatalogue(exampleCatalogue()));
    const before = await counts(probe);
    const conflicting = {
      accounts: [
        {
          name: 'new',
          warehouses_enabled: true,
          warehouses: [{ id: 10, name: 'Stolen' }],
          items: [{ id: 100, name: 'Stolen mug', barcode: 'Z' }],
        },
        { name: 'kiosk', warehouses_enabled: true, items: [] },
        {
          name: 'north',
          warehouses_enabled: true,
          warehouses: [{ id: 12, name: 'Main' }],
          items: [{ id: 102, name: 'Dup', barcode: '8690000000024' }],
        },
      ],
    };
    const parsed = await parseCatalogue(conflicting);
    expect(await problemsOf(() => store.catalogue.write(parsed))).toEqual([
      'accounts[0].warehouses[0].id: warehouse id 10 belongs to another account',
      'accounts[0].items[0].id: item id 100 belongs to another account',
      'accounts[1].warehouses_enabled: account "kiosk" already exists with warehouses_enabled false; changing the scenario of an account is not supported',
      'accounts[2].warehouses[0].name: warehouse "Main" already exists with id 10',
      'accounts[2].items[0].barcode: barcode "8690000000024" already belongs to another item or variant of account "north"',
    ]);
    expect(await counts(probe)).toEqual(before);
  });
});
