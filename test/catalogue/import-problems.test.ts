// What a catalogue import says when a file is wrong, as a person fixing the file needs it (issue 29,
// items 1 and 7): where broken JSON breaks (line and column), every problem at once rather than a
// second round after the first is fixed, a European spreadsheet's semicolons read as the separator
// they are, an unclosed quote at the line it opens on, and a barcode with spaces around it refused
// (it would be kept as it is, and no scan or lookup would ever find it).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { readCatalogueCsv } from '../../server/csv/catalogue-csv.ts';
import { isCatalogueRefusal } from '../../server/store/catalogue-writer.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { scanBodySchema } from '../../shared/index.ts';
import { tempDir } from '../support/test-server.ts';

const { dir, remove } = tempDir('bi-import-problems-');
let store: Store;
let n = 0;
const fileWith = (text: string, ext = 'json') => {
  const file = path.join(dir, `file-${n++}.${ext}`);
  writeFileSync(file, text);
  return file;
};

beforeAll(async () => {
  store = await openStore(path.join(dir, 'inventory.db'));
});
afterAll(async () => {
  await store?.close();
  remove();
});

/** The refusal's message (a refused catalogue lists its problems). */
async function refusal(work: Promise<unknown>): Promise<{ message: string; problems: string[] }> {
  const error = await work.then(
    () => expect.unreachable('the import should have been refused'),
    (e: unknown) => e as Error,
  );
  return { message: error.message, problems: isCatalogueRefusal(error) ? error.problems : [] };
}

const north = (items: unknown[]) => ({ accounts: [{ name: 'north', warehouses_enabled: false, items }] });

describe('a catalogue file that is wrong', () => {
  it('says at which line and column broken JSON breaks', async () => {
    const text = [
      '{ "accounts": [',
      '  { "name": "north", "warehouses_enabled": false, "items": [',
      '    { "id": 1, "name": "Mug" "barcode": "1" }',
      '  ] }',
      '] }',
    ].join('\n');
    const { message } = await refusal(importCatalogueFile(store, fileWith(text)));
    expect(message).toMatch(/is not valid JSON at line 3, column 30: unexpected "barcode": is a comma missing before it\?/);
  });

  it('says where a file that ends early ends', async () => {
    const { message } = await refusal(importCatalogueFile(store, fileWith('{ "accounts": [\n  { "name": "north"')));
    expect(message).toMatch(/is not valid JSON at line 2, column 20: the file ends before/);
  });

  it('lists every problem at once: structure and the rules across fields together', async () => {
    const document = north([
      { id: 1, name: 'Mug', barcode: 'A' },
      { id: 2, name: '', barcode: 'B' }, // structure: blank name
      { id: 3, name: 'Tea', barcode: 7 }, // structure: a number
      { id: 1, name: 'Cup', barcode: 'C' }, // across fields: id used twice
      { id: 4, name: 'Pot', barcode: 'A' }, // across fields: barcode used twice
    ]);
    const streamed = await refusal(importCatalogueFile(store, fileWith(JSON.stringify(document))));
    expect(streamed.problems).toHaveLength(4);
    expect(streamed.problems.join('\n')).toMatch(/items\[1\]\.name/);
    expect(streamed.problems.join('\n')).toMatch(/items\[2\]\.barcode/);
    expect(streamed.problems.join('\n')).toMatch(/items\[3\]\.id: duplicate/);
    expect(streamed.problems.join('\n')).toMatch(/items\[4\]\.barcode: duplicate/);
    // The whole-document path (sync, the demo, CSV) says the same.
    expect((await refusal(parseCatalogue(document))).problems).toEqual(streamed.problems);
  });

  it('refuses a barcode with spaces around it, which no scan would ever find', async () => {
    const { problems } = await refusal(
      importCatalogueFile(store, fileWith(JSON.stringify(north([{ id: 1, name: 'Mug', barcode: ' 8690000000055 ' }])))),
    );
    expect(problems).toEqual([
      'accounts[0].items[0].barcode: A barcode may not begin or end with a space: no scan carries one, so it would never be found.',
    ]);
  });
});

describe('a stocktake scan', () => {
  it('refuses a barcode with spaces around it rather than counting an unknown line that looks like a known item', () => {
    expect(scanBodySchema.safeParse({ barcode: ' 8690000000017 ' }).success).toBe(false);
    expect(scanBodySchema.safeParse({ barcode: '8690000000017' }).success).toBe(true);
  });
});

describe('a catalogue CSV', () => {
  const header = 'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity';

  it('reads a European spreadsheet’s semicolons as the separator', async () => {
    const file = fileWith(
      [header.replaceAll(',', ';'), '1;Mug;;;8690000000017;Main;5', '2;"Tea; green";;;8690000000024;Main;3'].join('\n'),
      'csv',
    );
    const rows = await readCatalogueCsv(file);
    expect(rows.map((r) => [r.line, r.cells.item_name, r.cells.barcode, r.cells.quantity])).toEqual([
      [2, 'Mug', '8690000000017', '5'],
      [3, 'Tea; green', '8690000000024', '3'],
    ]);
  });

  it('still reads commas, with semicolons inside names', async () => {
    const rows = await readCatalogueCsv(fileWith([header, '1,Mug; large,,,8690000000017,Main,5'].join('\n'), 'csv'));
    expect(rows[0]!.cells.item_name).toBe('Mug; large');
  });

  it('says on which line an unclosed quote opens, not past the end of the file', async () => {
    const lines = [header, '1,Mug,,,1,Main,5', '2,Cup,,,2,Main,5', '3,"Tea,,,3,Main,5', '4,Pot,,,4,Main,5', '5,Pan,,,5,Main,5'];
    const { problems } = await refusal(readCatalogueCsv(fileWith(`${lines.join('\n')}\n`, 'csv')));
    expect(problems).toEqual(['line 4: a quote (") opened on this line is never closed; nothing after it could be read']);
  });
});
