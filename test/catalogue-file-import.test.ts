// The streaming file import (importCatalogueFile) against the whole-document path (parseCatalogue +
// importCatalogue) on the same documents: same problems in the same words, same rows written,
// nothing written on refusal; plus what only a file can get wrong (unreadable, not JSON).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogue } from '../bench/catalogue-generator.ts';
import { CatalogueFileError, importCatalogueFile } from '../server/catalogue/import-catalogue-file.ts';
import { CatalogueError, importCatalogue, parseCatalogue } from '../server/catalogue/import-catalogue.ts';
import { Database } from '../server/store/database.ts';
import { exampleCatalogue, exampleCatalogueFile, tempDir } from './support/test-server.ts';

const TABLES = ['accounts', 'warehouses', 'items', 'variants', 'stock_units', 'stock', 'stock_history'];

/** Every row of every table, without the history's timestamps (they differ between two imports). */
function dump(db: Database): Record<string, unknown[]> {
  return Object.fromEntries(
    TABLES.map((table) => [
      table,
      (db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[]).map(({ created_at: _, ...row }) => row),
    ]),
  );
}

type Outcome = { problems: string[] } | { summary: unknown; rows: Record<string, unknown[]> };

function outcome(db: Database, run: () => unknown): Outcome {
  try {
    return { summary: run(), rows: dump(db) };
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    return { problems: error.problems };
  }
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

  /** Imports `document` both ways into fresh databases (after `before`, if given) and returns both outcomes. */
  async function both(document: unknown, text = JSON.stringify(document), before?: unknown) {
    const inMemory = await Database.open(':memory:');
    const streamed = await Database.open(':memory:');
    try {
      if (before !== undefined) {
        importCatalogue(inMemory, parseCatalogue(before));
        importCatalogue(streamed, parseCatalogue(before));
      }
      const rowsBefore = dump(streamed);
      const expected = outcome(inMemory, () => importCatalogue(inMemory, parseCatalogue(document)));
      const actual = outcome(streamed, () => importCatalogueFile(streamed, fileWith(text)));
      if ('problems' in actual) expect(dump(streamed)).toEqual(rowsBefore); // refused: nothing written
      return { expected, actual };
    } finally {
      inMemory.close();
      streamed.close();
    }
  }

  const north = (items: unknown[], account: Record<string, unknown> = {}) => ({
    accounts: [{ name: 'north', warehouses_enabled: true, warehouses: [{ id: 10, name: 'Main' }], items, ...account }],
  });

  const documents: [string, unknown][] = [
    ['the README example', exampleCatalogue()],
    ['structural problems', north([{ id: 1, name: 'ok', barcode: 'A' }, { id: 4, name: 'x', barcode: 12 }, { id: 5, name: 'y', barcode: 'E', stock: [{ quantity: 1.5, warehouse: 'Main' }] }, { id: -6, name: '', barcode: 'F' }])],
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
    ['duplicates across accounts', { accounts: [{ name: 'a', warehouses_enabled: false, items: [{ id: 1, name: 'x', barcode: '1' }] }, { name: 'b', warehouses_enabled: false, items: [{ id: 1, name: 'y', barcode: '1' }, { id: 2, name: 'z', variants: [{ id: 3, name: 'v', barcode: '1' }] }] }, { name: 'a', warehouses_enabled: false }] }],
    ['no-warehouse stock rules', { accounts: [{ name: 'k', warehouses_enabled: false, items: [{ id: 1, name: 'x', barcode: '1', stock: [{ quantity: 1 }, { quantity: 2 }] }, { id: 2, name: 'y', barcode: '2', stock: [{ warehouse: 'Main', quantity: 1 }] }] }] }],
    ['duplicate stock entry', north([{ id: 1, name: 'x', barcode: '1', stock: [{ warehouse: 'Main', quantity: 1 }, { warehouse: 'Main', quantity: 2 }] }])],
    ['an unknown field only (cross-field rules still run)', north([{ id: 1, name: 'x', barcode: '1', colour: 'red' }, { id: 1, name: 'y', barcode: '1' }])],
    ['unknown fields at every level', { accounts: [{ name: 'n', warehouses_enabled: false, items: [], shelf: 1 }], version: 2 }],
    ['not a catalogue', []],
    ['no accounts', {}],
    ['accounts not a list', { accounts: { north: {} } }],
    ['items not a list', { accounts: [{ name: 'n', warehouses_enabled: false, items: { a: { id: 1 } } }] }],
    ['an account that is not an object', { accounts: [5] }],
    ['an account without items', { accounts: [{ name: 'n', warehouses_enabled: true, warehouses: [{ id: 1, name: 'W' }] }] }],
    ['warehouses of a no-warehouse account', { accounts: [{ name: 'n', warehouses_enabled: false, warehouses: [{ id: 1, name: 'W' }], items: [] }] }],
    ['a bad account header', { accounts: [{ name: '', warehouses_enabled: 'yes', items: [{ id: 1, name: 'x', barcode: '1' }] }] }],
  ];

  it.each(documents)('matches the whole-document import: %s', async (_, document) => {
    const { expected, actual } = await both(document);
    expect(actual).toEqual(expected);
  });

  it('accepts the header after the items (holding those items until the header is read)', async () => {
    const text = '{"accounts":[{"items":[{"id":1,"name":"x","barcode":"1","stock":[{"warehouse":"W","quantity":3}]},{"id":2,"name":"y","barcode":"1"}],"warehouses":[{"id":5,"name":"W"}],"name":"n","warehouses_enabled":true}]}';
    const { expected, actual } = await both(JSON.parse(text), text);
    expect(actual).toEqual(expected);
    expect(actual).toEqual({ problems: ['accounts[0].items[1].barcode: duplicate barcode "1", first used at accounts[0].items[0].barcode'] });
    const good = text.replace('"id":2,"name":"y","barcode":"1"', '"id":2,"name":"y","barcode":"2"');
    const accepted = await both(JSON.parse(good), good);
    expect(accepted.actual).toEqual(accepted.expected);
    expect(accepted.actual).toMatchObject({ summary: { barcodes: 2, quantitiesChanged: 1 } });
  });

  it('reports warehouses given after the items of a no-warehouse account', async () => {
    const text = '{"accounts":[{"name":"n","warehouses_enabled":false,"items":[{"id":1,"name":"x","barcode":"1"}],"warehouses":[{"id":5,"name":"W"}]}]}';
    const { expected, actual } = await both(JSON.parse(text), text);
    expect(actual).toEqual(expected);
  });

  it('refuses conflicts with the database like the whole-document import', async () => {
    const conflicting = {
      accounts: [
        { name: 'new', warehouses_enabled: true, warehouses: [{ id: 10, name: 'Stolen' }], items: [{ id: 100, name: 'Stolen mug', barcode: 'Z' }] },
        { name: 'kiosk', warehouses_enabled: true, items: [{ id: 300, name: 'skipped', barcode: 'Q' }] },
        { name: 'north', warehouses_enabled: true, warehouses: [{ id: 12, name: 'Main' }], items: [{ id: 102, name: 'Dup', barcode: '8690000000024' }] },
      ],
    };
    const { expected, actual } = await both(conflicting, JSON.stringify(conflicting), exampleCatalogue());
    expect(actual).toEqual(expected);
    expect('problems' in actual && actual.problems).toHaveLength(5);
  });

  it('writes exactly what the whole-document import writes for a generated catalogue, and nothing more the second time', async () => {
    const file = path.join(dir, 'generated.json');
    generateCatalogue(file, 3000, 11);
    const text = readFileSync(file, 'utf8');
    const { expected, actual } = await both(JSON.parse(text), text);
    expect(actual).toEqual(expected);
    expect('summary' in actual && actual.summary).toMatchObject({ accounts: 2, warehouses: 3, barcodes: 3000, variants: 1000 });

    const db = await Database.open(':memory:');
    importCatalogueFile(db, file);
    const rows = dump(db);
    expect(importCatalogueFile(db, file).quantitiesChanged).toBe(0);
    expect(dump(db)).toEqual(rows);
    db.close();
  });

  it('refuses a file that is not JSON, or not all of it, writing nothing', async () => {
    const db = await Database.open(':memory:');
    const valid = JSON.stringify(exampleCatalogue());
    for (const text of ['', '{"accounts": [', valid.slice(0, valid.length - 3), `${valid} {}`, '{"accounts": [}]}', '\u00ff']) {
      expect(() => importCatalogueFile(db, fileWith(text))).toThrow(CatalogueFileError);
      try {
        importCatalogueFile(db, fileWith(text));
      } catch (error) {
        expect((error as Error).message).toMatch(/ is not valid JSON: /);
      }
    }
    expect((db.sqlite.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n).toBe(0);
    expect(() => importCatalogueFile(db, path.join(dir, 'missing.json'))).toThrow(/^Cannot read .*missing\.json/);
    expect(importCatalogueFile(db, exampleCatalogueFile).barcodes).toBe(3);
    db.close();
  });
});

describe('whole-document import still validates with the shared rules', () => {
  let db: Database;
  beforeAll(async () => {
    db = await Database.open(':memory:');
  });
  afterAll(() => db.close());

  it('names the first use of a duplicate in another account item', () => {
    expect(() => parseCatalogue({ accounts: [{ name: 'a', warehouses_enabled: false, items: [{ id: 9, name: 'x', barcode: '1' }] }, { name: 'b', warehouses_enabled: false, items: [{ id: 8, name: 'y', variants: [{ id: 1, name: 'v', barcode: '2' }] }, { id: 9, name: 'z', barcode: '3' }] }] })).toThrow(
      'accounts[1].items[1].id: duplicate item id 9, first used at accounts[0].items[0].id',
    );
  });
});
