// The streaming file import (importCatalogueFile) against the whole-document path (parseCatalogue +
// store.catalogue.write) on the same documents: same problems in the same words, same rows written,
// nothing written on refusal; plus what only a file can get wrong (unreadable, not JSON). On both
// engines: the catalogue is a file either way; the databases are SQLite files or databases of their
// own on the test cluster.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCatalogue } from '../support/catalogue-generator.ts';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { isApiError } from '../../server/errors.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, onPostgres } from '../support/test-engine.ts';
import { exampleCatalogue, exampleCatalogueFile, tempDir } from '../support/test-server.ts';

/** Every table, each in the order of its key. */
const TABLES: [string, string][] = [
  ['accounts', 'id'],
  ['warehouses', 'id'],
  ['items', 'id'],
  ['variants', 'id'],
  ['stock_units', 'id'],
  ['stock', 'unit_id, warehouse_id'],
  ['stock_history', 'id'],
];

/** Every row of every table, without the history's timestamps (they differ between two imports). */
async function dump(probe: DatabaseProbe): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const [table, key] of TABLES) {
    // When a movement was recorded, and by which instance and clock, differ between two databases by nature.
    tables[table] = (await probe.all(`SELECT * FROM ${table} ORDER BY ${key}`)).map(
      ({ created_ms: _, hlc: _h, hlc_key: _k, hlc_counter: _c, origin: _o, ...row }) => row,
    );
  }
  return tables;
}

type Outcome = { problems: string[] } | { summary: unknown; rows: Record<string, unknown[]> };

async function outcome(probe: DatabaseProbe, run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { summary: await run(), rows: await dump(probe) };
  } catch (error) {
    if (!isCatalogueRefusal(error)) throw error;
    return { problems: error.problems };
  }
}

/** A 400 of the error family that is not a refused catalogue: the file itself could not be read as JSON. */
async function fileRefusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => expect.unreachable('the import should have been refused'),
    (e: unknown) => e,
  );
  expect(isApiError(error) && error.status).toBe(400);
  expect(isCatalogueRefusal(error)).toBe(false);
  return (error as Error).message;
}

describe('streaming file import', () => {
  const { dir, remove } = tempDir('bi-stream-');
  afterAll(remove);
  let n = 0;
  const fileWith = (text: string) => {
    const file = path.join(dir, `catalogue-${n++}.json`);
    writeFileSync(file, text);
    return file;
  };

  /** A fresh store in a database of its own, with a probe on that database. */
  async function freshStore(): Promise<{ store: Store; probe: DatabaseProbe; close(): Promise<void> }> {
    const location = await newDatabase(dir, `store-${n++}.db`);
    const store = await openStore(location);
    const probe = probeDatabase(location);
    return { store, probe, close: async () => (await probe.close(), await store.close(), await dropDatabase(location)) };
  }

  /** Imports `document` both ways into fresh databases (after `before`, if given) and returns both outcomes. */
  async function both(document: unknown, text = JSON.stringify(document), before?: unknown) {
    const whole = await freshStore();
    const streamed = await freshStore();
    try {
      if (before !== undefined) {
        await whole.store.catalogue.write(await parseCatalogue(before));
        await streamed.store.catalogue.write(await parseCatalogue(before));
      }
      const rowsBefore = await dump(streamed.probe);
      const expected = await outcome(whole.probe, async () => whole.store.catalogue.write(await parseCatalogue(document)));
      const actual = await outcome(streamed.probe, () => importCatalogueFile(streamed.store, fileWith(text)));
      if ('problems' in actual) expect(await dump(streamed.probe)).toEqual(rowsBefore); // refused: nothing written
      return { expected, actual };
    } finally {
      await whole.close();
      await streamed.close();
    }
  }

  const north = (items: unknown[], account: Record<string, unknown> = {}) => ({
    accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 10, name: 'Main' }], items, ...account }],
  });

  const documents: [string, unknown][] = [
    ['the README example', exampleCatalogue()],
    [
      'structural problems',
      north([
        { id: 1, name: 'ok', barcode: 'A' },
        { id: 4, name: 'x', barcode: 12 },
        { id: 5, name: 'y', barcode: 'E', stock: [{ quantity: 1.5, warehouse: 'Main' }] },
        { id: -6, name: '', barcode: 'F' },
      ]),
    ],
    [
      'cross-field problems',
      north([
        { id: 1, name: 'ok', barcode: 'A' },
        { id: 2, name: 'both', barcode: 'B', variants: [{ id: 7, name: 'v', barcode: 'C' }] },
        { id: 3, name: 'neither' },
        { id: 1, name: 'dup id', barcode: 'A' },
        { id: 5, name: 'bad stock', barcode: 'E', stock: [{ warehouse: 'Attic', quantity: 1 }] },
        { id: 6, name: 'v', variants: [{ id: 7, name: 'dup variant', barcode: 'C' }], stock: [] },
      ]),
    ],
    [
      'duplicates across accounts',
      {
        accounts: [
          { name: 'a', warehouses_enabled: false, items: [{ id: 1, name: 'x', barcode: '1' }] },
          {
            name: 'b',
            warehouses_enabled: false,
            items: [
              { id: 1, name: 'y', barcode: '1' },
              { id: 2, name: 'z', variants: [{ id: 3, name: 'v', barcode: '1' }] },
            ],
          },
          { name: 'a', warehouses_enabled: false },
        ],
      },
    ],
    [
      'no-warehouse stock rules',
      {
        accounts: [
          {
            name: 'k',
            warehouses_enabled: false,
            items: [
              { id: 1, name: 'x', barcode: '1', stock: [{ quantity: 1 }, { quantity: 2 }] },
              { id: 2, name: 'y', barcode: '2', stock: [{ warehouse: 'Main', quantity: 1 }] },
            ],
          },
        ],
      },
    ],
    [
      'duplicate stock entry',
      north([
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
    ],
    [
      'an unknown field only (cross-field rules still run)',
      north([
        { id: 1, name: 'x', barcode: '1', colour: 'red' },
        { id: 1, name: 'y', barcode: '1' },
      ]),
    ],
    ['unknown fields at every level', { accounts: [{ name: 'n', warehouses_enabled: false, items: [], shelf: 1 }], version: 2 }],
    ['not a catalogue', []],
    ['no accounts', {}],
    ['accounts not a list', { accounts: { north: {} } }],
    ['items not a list', { accounts: [{ name: 'n', warehouses_enabled: false, items: { a: { id: 1 } } }] }],
    ['an account that is not an object', { accounts: [5] }],
    ['an account without items', { accounts: [{ name: 'n', warehouses_enabled: true, warehouses: [{ id: 1, name: 'W' }] }] }],
    [
      'warehouses of a no-warehouse account',
      { accounts: [{ name: 'n', warehouses_enabled: false, warehouses: [{ id: 1, name: 'W' }], items: [] }] },
    ],
    ['a bad account header', { accounts: [{ name: '', warehouses_enabled: 'yes', items: [{ id: 1, name: 'x', barcode: '1' }] }] }],
  ];

  it.each(documents)('matches the whole-document import: %s', async (_, document) => {
    const { expected, actual } = await both(document);
    expect(actual).toEqual(expected);
  });

  it('accepts the header after the items (holding those items until the header is read)', async () => {
    const text =
      '{"accounts":[{"items":[{"id":1,"name":"x","barcode":"1","stock":[{"warehouse":"W","quantity":3}]},{"id":2,"name":"y","barcode":"1"}],"warehouses":[{"id":5,"name":"W"}],"name":"n","warehouses_enabled":true}]}';
    const { expected, actual } = await both(JSON.parse(text), text);
    expect(actual).toEqual(expected);
    expect(actual).toEqual({
      problems: ['accounts[0].items[1].barcode: duplicate barcode "1", first used at accounts[0].items[0].barcode'],
    });
    const good = text.replace('"id":2,"name":"y","barcode":"1"', '"id":2,"name":"y","barcode":"2"');
    const accepted = await both(JSON.parse(good), good);
    expect(accepted.actual).toEqual(accepted.expected);
    expect(accepted.actual).toMatchObject({ summary: { barcodes: 2, quantitiesChanged: 1 } });
  });

  it('reports warehouses given after the items of a no-warehouse account', async () => {
    const text =
      '{"accounts":[{"name":"n","warehouses_enabled":false,"items":[{"id":1,"name":"x","barcode":"1"}],"warehouses":[{"id":5,"name":"W"}]}]}';
    const { expected, actual } = await both(JSON.parse(text), text);
    expect(actual).toEqual(expected);
  });

  it('refuses conflicts with the database like the whole-document import', async () => {
    const conflicting = {
      accounts: [
        {
          name: 'new',
          warehouses_enabled: true,
          warehouses: [{ id: 10, name: 'Stolen' }],
          items: [{ id: 100, name: 'Stolen mug', barcode: 'Z' }],
        },
        { name: 'kiosk', warehouses_enabled: true, items: [{ id: 300, name: 'skipped', barcode: 'Q' }] },
        {
          name: 'north',
          warehouses_enabled: true,
          warehouses: [{ id: 12, name: 'Main' }],
          items: [{ id: 102, name: 'Dup', barcode: '8690000000024' }],
        },
      ],
    };
    const { expected, actual } = await both(conflicting, JSON.stringify(conflicting), exampleCatalogue());
    expect(actual).toEqual(expected);
    expect('problems' in actual && actual.problems).toHaveLength(5);
  });

  // Four imports of a generated catalogue: 3,000 barcodes take a few seconds on SQLite; PostgreSQL
  // pays a round trip per statement (about 20 s for 3,000 on a loaded 2-core machine), so it gets
  // 1,200, which cover the same shapes (every run of 6 barcodes holds 2 variants), and more time.
  const generatedSize = onPostgres() ? 1200 : 3000;
  it(
    'writes exactly what the whole-document import writes for a generated catalogue, and nothing more the second time',
    { timeout: 120_000 },
    async () => {
      const file = path.join(dir, 'generated.json');
      generateCatalogue(file, generatedSize, 11);
      const text = readFileSync(file, 'utf8');
      const { expected, actual } = await both(JSON.parse(text), text);
      expect(actual).toEqual(expected);
      expect('summary' in actual && actual.summary).toMatchObject({
        accounts: 2,
        warehouses: 3,
        barcodes: generatedSize,
        variants: generatedSize / 3,
      });

      const again = await freshStore();
      try {
        await importCatalogueFile(again.store, file);
        const rows = await dump(again.probe);
        expect((await importCatalogueFile(again.store, file)).quantitiesChanged).toBe(0);
        expect(await dump(again.probe)).toEqual(rows);
      } finally {
        await again.close();
      }
    },
  );

  it('keeps numbers JSON cannot say twice (1e400 is Infinity, -0) as the file gives them: in the header, the account and the items', async () => {
    // The parse worker hands the importing thread its items as JSON text; an account's own fields
    // must cross as they are, or 1e400 would be refused as null.
    const INFINITY = '"__1e400__"';
    const MINUS_ZERO = '"__-0__"';
    const document = north(
      [
        { id: 1, name: 'x', barcode: '1', stock: [{ warehouse: 'Main', quantity: -0 }] },
        { id: 2, name: 'y', barcode: '2', stock: [{ warehouse: 'Main', quantity: Infinity }] },
      ],
      { warehouses: [{ id: Infinity, name: 'Main' }], shelf: -0 },
    );
    const text = JSON.stringify(document, (_, value: unknown) =>
      value === Infinity ? INFINITY.slice(1, -1) : Object.is(value, -0) ? MINUS_ZERO.slice(1, -1) : value,
    )
      .replaceAll(INFINITY, '1e400')
      .replaceAll(MINUS_ZERO, '-0');
    expect(text).toContain('"id":1e400');
    const { expected, actual } = await both(document, text);
    expect(actual).toEqual(expected);
    expect('problems' in actual && actual.problems.join('\n')).toMatch(/warehouses\[0\]\.id/);
  });

  it('reads a file of many chunks, the worker parsing ahead: the same outcome, a problem at its line, and no thread left behind', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    await both(north([{ id: 1, name: 'warm-up', barcode: '1' }])); // the thread pools the imports use exist from here
    const before = threads();
    // 300 items with 20 KB of blanks after each: 6 MB, read a megabyte at a time.
    const items = Array.from({ length: 300 }, (_, i) => ({
      id: 1 + i,
      name: `Item ${i}`,
      barcode: `B${i}`,
      stock: [{ warehouse: 'Main', quantity: i }],
    }));
    const blanks = `\n${' '.repeat(20_000)}`;
    const spread = (document: { accounts: { items: unknown[] }[] }) => JSON.stringify(document).replace(/},{"id"/g, `}${blanks},{"id"`);
    const good = north(items);
    const accepted = await both(good, spread(good));
    expect(accepted.actual).toEqual(accepted.expected);
    expect(accepted.actual).toMatchObject({ summary: { barcodes: 300 } });

    const duplicate = north([...items, { id: 301, name: 'again', barcode: 'B7' }]);
    const refused = await both(duplicate, spread(duplicate));
    expect(refused.actual).toEqual(refused.expected);
    expect(refused.actual).toEqual({
      problems: ['accounts[0].items[300].barcode: duplicate barcode "B7", first used at accounts[0].items[7].barcode'],
    });

    // A comma missing near the end: named at its line and column, nothing written.
    const text = spread(good);
    const at = text.indexOf('{"id":290');
    const broken = `${text.slice(0, at - 1)}${text.slice(at)}`; // the comma before it dropped
    const { store, probe, close } = await freshStore();
    try {
      const lines = broken.slice(0, at - 1).split('\n');
      const [line, column] = [lines.length, lines.at(-1)!.length + 1];
      expect(column).toBe(20_001);
      const message = await fileRefusal(importCatalogueFile(store, fileWith(broken)));
      expect(message).toContain(`is not valid JSON at line ${line}, column ${column}: unexpected`);
      expect(message).toContain('is a comma missing before it?');
      expect(Number((await probe.first<{ n: number }>('SELECT count(*) AS n FROM items'))!.n)).toBe(0);
    } finally {
      await close();
    }
    expect(threads()).toBe(before);
  });

  it('refuses a file that is not JSON, or not all of it, writing nothing', async () => {
    const { store, probe, close } = await freshStore();
    try {
      const valid = JSON.stringify(exampleCatalogue());
      for (const text of ['', '{"accounts": [', valid.slice(0, valid.length - 3), `${valid} {}`, '{"accounts": [}]}', '\u00ff']) {
        const file = fileWith(text);
        expect(await fileRefusal(importCatalogueFile(store, file)), text).toMatch(
          new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON at line \\d+, column \\d+: `),
        );
      }
      expect(Number((await probe.first<{ n: number }>('SELECT count(*) AS n FROM accounts'))!.n)).toBe(0);
      expect(await fileRefusal(importCatalogueFile(store, path.join(dir, 'missing.json')))).toMatch(/^Cannot read .*missing\.json/);
      // Opened, but not readable as a file: the parse worker's read fails.
      expect(await fileRefusal(importCatalogueFile(store, dir))).toMatch(/^Cannot read .*: EISDIR/);
      expect((await importCatalogueFile(store, exampleCatalogueFile)).barcodes).toBe(3);
    } finally {
      await close();
    }
  });
});

describe('whole-document import still validates with the shared rules', () => {
  it('names the first use of a duplicate in another account item', async () => {
    await expect(
      parseCatalogue({
        accounts: [
          { name: 'a', warehouses_enabled: false, items: [{ id: 9, name: 'x', barcode: '1' }] },
          {
            name: 'b',
            warehouses_enabled: false,
            items: [
              { id: 8, name: 'y', variants: [{ id: 1, name: 'v', barcode: '2' }] },
              { id: 9, name: 'z', barcode: '3' },
            ],
          },
        ],
      }),
    ).rejects.toThrow('accounts[1].items[1].id: duplicate item id 9, first used at accounts[0].items[0].id');
  });
});
