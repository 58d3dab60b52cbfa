// A refused catalogue lists its first MAX_PROBLEMS_LISTED problems in file order and counts all of
// them (server/store/problem-list.ts): a file with a million bad rows must be refused, not crash the
// importer's capped heap with a million strings. Every way in: the whole document, the streamed file,
// the writer's conflicts with the database, and the CSV import (its own lines, and the catalogue's
// problems mapped to lines). On both engines: the writer's conflicts need what a database holds.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { convertCatalogueCsv, dryRunCatalogueImport, formatDryRun, importCatalogueCsv } from '../../server/csv/catalogue-csv.ts';
import { type CatalogueRefusal, isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

const BAD = 2_500;
const BAD_QUANTITY = 'Invalid input: expected int, received number';

const temp = tempDir('bi-problem-cap-');
afterAll(() => temp.remove());
let files = 0;
const fileWith = (text: string, ext = 'json') => {
  const file = path.join(temp.dir, `catalogue-${++files}.${ext}`);
  writeFileSync(file, text);
  return file;
};

async function refused(work: Promise<unknown>): Promise<CatalogueRefusal> {
  const error = await work.then(
    () => expect.unreachable('the catalogue should have been refused'),
    (e: unknown) => e,
  );
  if (!isCatalogueRefusal(error)) throw error;
  return error;
}

const lastLine = (message: string) => message.split('\n').at(-1);
const range = (from: number, count: number) => Array.from({ length: count }, (_, k) => from + k);

/** `count` items of account `name`, ids from 1; `quantity` of each item's one stock entry. */
const account = (name: string, count: number, quantity: (i: number) => number, barcode = (i: number) => `${name}-${i}`) => ({
  name,
  warehouses_enabled: false,
  items: range(0, count).map((i) => ({ id: i + 1, name: `Item ${i + 1}`, barcode: barcode(i), stock: [{ quantity: quantity(i) }] })),
});
/** A catalogue whose every item has a quantity that is not an integer: one structural problem per item. */
const badQuantities = (count: number) => ({ accounts: [account('north', count, () => 1.5)] });
const quantityProblem = (i: number) => `accounts[0].items[${i}].stock[0].quantity: ${BAD_QUANTITY}`;

describe('a refused catalogue with more problems than it lists', () => {
  let location: string;
  let store: Store;
  let probe: DatabaseProbe;
  const rows = async () => {
    const counts: Record<string, number> = {};
    for (const table of ['accounts', 'items', 'stock_units', 'stock', 'stock_history'])
      counts[table] = (await probe.first<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n;
    return counts;
  };
  beforeEach(async () => {
    location = await newDatabase(temp.dir, `inventory-${++files}.db`);
    store = await openStore(location);
    probe = probeDatabase(location);
  });
  afterEach(async () => {
    await probe.close();
    await store.close();
    await dropDatabase(location);
  });

  it('lists the first 1,000 in file order and counts all 2,500: the whole document and the streamed file', async () => {
    const document = badQuantities(BAD);
    const expected = range(0, 1_000).map(quantityProblem);
    const before = await rows();
    for (const error of [
      await refused(parseCatalogue(document)),
      await refused(importCatalogueFile(store, fileWith(JSON.stringify(document)))),
    ]) {
      expect(error.problems).toEqual(expected);
      expect(error.problemCount).toBe(2_500);
      expect(error.message.split('\n')[0]).toBe('The catalogue was refused (2,500 problems); nothing was written:');
      expect(error.message).toContain(`\n  ${quantityProblem(999)}\n`);
      expect(error.message).not.toContain(quantityProblem(1_000));
      expect(lastLine(error.message)).toBe('  … and 1,500 more problems, not listed (the first 1,000 are)');
      expect(error.message.split('\n')).toHaveLength(1 + 1_000 + 1);
    }
    expect(await rows()).toEqual(before);
  });

  it('keeps the order across kinds in a file: structural problems first, then those across fields, up to the cap', async () => {
    // 600 bad quantities, then 2,000 barcodes used twice (each a duplicate of item 0's).
    const document = {
      accounts: [
        account(
          'north',
          2_601,
          (i) => (i >= 1 && i <= 600 ? 1.5 : 1),
          (i) => (i > 600 ? 'north-0' : `north-${i}`),
        ),
      ],
    };
    const error = await refused(importCatalogueFile(store, fileWith(JSON.stringify(document))));
    expect(error.problems).toEqual([
      ...range(1, 600).map(quantityProblem),
      ...range(601, 400).map(
        (i) => `accounts[0].items[${i}].barcode: duplicate barcode "north-0", first used at accounts[0].items[0].barcode`,
      ),
    ]);
    expect(error.problemCount).toBe(2_600);
    expect(lastLine(error.message)).toBe('  … and 1,600 more problems, not listed (the first 1,000 are)');
    expect((await refused(parseCatalogue(document))).problems).toEqual(error.problems);
  });

  it("caps the writer's conflicts with the database too, and writes nothing", async () => {
    await store.catalogue.write(await parseCatalogue({ accounts: [account('north', BAD, () => 1)] }));
    const before = await rows();
    // The same item ids in another account: each belongs to north.
    const document = { accounts: [account('south', BAD, () => 1)] };
    const expected = range(0, 1_000).map((i) => `accounts[0].items[${i}].id: item id ${i + 1} belongs to another account`);
    for (const error of [
      await refused(store.catalogue.write(await parseCatalogue(document))),
      await refused(importCatalogueFile(store, fileWith(JSON.stringify(document)))),
    ]) {
      expect(error.problems).toEqual(expected);
      expect(error.problemCount).toBe(2_500);
      expect(lastLine(error.message)).toBe('  … and 1,500 more problems, not listed (the first 1,000 are)');
    }
    expect(await rows()).toEqual(before);
  });

  it('caps a CSV import: its own bad lines, and the catalogue problems it maps to lines', async () => {
    await store.catalogue.write(await parseCatalogue({ accounts: [account('north', 1, () => 1)] }));
    const before = await rows();
    const header = 'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity,minimum,target';
    // Lines 2-11: a quantity that is no number (the CSV's own check); lines 12-2501: a target below
    // the minimum (the catalogue's rule, found by parseCatalogue and said in lines of the file).
    const csv = [
      header,
      ...range(1, BAD).map((id) => (id <= 10 ? `${id},Item ${id},,,B${id},,x,,` : `${id},Item ${id},,,B${id},,1,5,2`)),
    ].join('\n');
    const conversion = (await convertCatalogueCsv(store, 'north', fileWith(csv, 'csv'))).conversion;
    onTestFinished(() => conversion.close());
    const ownLines = range(2, 10).map((line) => `line ${line}: quantity: A valid integer is required.`);
    const expected = [
      ...ownLines,
      ...range(12, 990).map((line) => `line ${line}: reorder[0].target: The target may not be below the minimum.`),
    ];
    // The rows' own checks; the catalogue's come when it is imported or tried.
    expect(conversion.problems).toEqual(ownLines);
    expect(conversion.problemCount).toBe(10);

    const error = await refused(importCatalogueCsv(store, conversion));
    expect(error.problems).toEqual(expected);
    expect(error.problemCount).toBe(2_500);
    expect(lastLine(error.message)).toBe('  … and 1,500 more problems, not listed (the first 1,000 are)');

    const report = await dryRunCatalogueImport(store, conversion);
    expect(report.problems).toEqual(expected);
    expect(report.problemCount).toBe(2_500);
    const text = formatDryRun('bad.csv', 'north', BAD, report);
    expect(text).toContain('\n  … and 1,500 more problems, not listed (the first 1,000 are)\n');
    expect(text).toMatch(/; 2500 problem\(s\)\.$/);
    expect(await rows()).toEqual(before);
  });

  it("caps a CSV import's conflicts with the database, mapped to lines", async () => {
    await store.catalogue.write(await parseCatalogue({ accounts: [account('north', 0, () => 1), account('south', BAD, () => 1)] }));
    const before = await rows();
    // Item ids 1-2500 are south's, named here in north's file.
    const csv = [
      'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity',
      ...range(1, BAD).map((id) => `${id},Item,,,B${id},,1`),
    ];
    const conversion = (await convertCatalogueCsv(store, 'north', fileWith(csv.join('\n'), 'csv'))).conversion;
    onTestFinished(() => conversion.close());
    expect(conversion.problemCount).toBe(0);
    const error = await refused(importCatalogueCsv(store, conversion));
    expect(error.problems).toEqual(range(0, 1_000).map((i) => `line ${i + 2}: id: item id ${i + 1} belongs to another account`));
    expect(error.problemCount).toBe(2_500);
    expect(lastLine(error.message)).toBe('  … and 1,500 more problems, not listed (the first 1,000 are)');
    expect(await rows()).toEqual(before);
  });
});

describe('a refused catalogue with no more problems than it lists', () => {
  it('lists all of exactly 1,000, with no line about more', async () => {
    const error = await refused(parseCatalogue(badQuantities(1_000)));
    expect(error.problems).toEqual(range(0, 1_000).map(quantityProblem));
    expect(error.problemCount).toBe(1_000);
    expect(error.message.split('\n')[0]).toBe('The catalogue was refused (1,000 problems); nothing was written:');
    expect(lastLine(error.message)).toBe(`  ${quantityProblem(999)}`);
    expect(error.message).not.toContain('more problem');
  });

  it('says one more in the singular', async () => {
    const error = await refused(parseCatalogue(badQuantities(1_001)));
    expect(error.problems).toHaveLength(1_000);
    expect(error.problemCount).toBe(1_001);
    expect(lastLine(error.message)).toBe('  … and 1 more problem, not listed (the first 1,000 are)');
  });
});
