// GTIN equivalence, an opt-in setting per account (docs/API.md): off by default (exact matching, as
// the service spec says), turned on with the CLI against a running server, then honoured by the
// read, update, adjust, labels and stocktake lookups; another account with the same barcodes keeps
// exact matching throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_PATH,
  ADJUST_PATH,
  INVENTORY_PATH,
  LABELS_PATH,
  STOCKTAKES_PATH,
  readResponseSchema,
  stocktakePath,
  updateResponseSchema,
} from '../../shared/index.ts';
import { runCli } from '../support/cli.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const items = (base: number) => [
  { id: base + 1, name: 'Notebook', barcode: '012345678905', stock: [{ warehouse: 'Main', quantity: 5 }] }, // UPC-A
  { id: base + 2, name: 'Gum', barcode: '96385074', stock: [{ warehouse: 'Main', quantity: 2 }] }, // EAN-8
  { id: base + 3, name: 'Mug', barcode: '8690000000017', stock: [{ warehouse: 'Main', quantity: 4 }] }, // not a GTIN: wrong check digit
  // One GTIN imported twice in two forms, as two items: the exact form must still find its own.
  { id: base + 4, name: 'Soap A', barcode: '0036000291452', stock: [{ warehouse: 'Main', quantity: 1 }] },
  { id: base + 5, name: 'Soap B', barcode: '036000291452', stock: [{ warehouse: 'Main', quantity: 8 }] },
];
const account = (name: string, warehouseId: number, base: number) => ({
  name,
  warehouses_enabled: true,
  warehouses: [{ id: warehouseId, name: 'Main' }],
  items: items(base),
});
const catalogue = { accounts: [account('shop', 61, 6100), account('exact', 62, 6200)] };

describe('GTIN equivalence', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(catalogue);
  });
  afterAll(() => server.stop());

  const read = async (account: string, barcodes: string[]) =>
    readResponseSchema.parse(
      await call(server, 'GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(barcodes.join(','))}`, server.tokens[account]!),
    );
  const gtinSetting = async (account: string) => (await call(server, 'GET', ACCOUNT_PATH, server.tokens[account]!)).gtin_equivalence;

  it('is off by default: barcodes match exactly, and the account endpoint says so', async () => {
    expect(await gtinSetting('shop')).toBe(false);
    const answer = await read('shop', ['0012345678905', '012345678905']);
    expect(answer.results.map((r) => r.barcode)).toEqual(['012345678905']);
    expect(answer.errors).toEqual([
      { barcode: '0012345678905', errors: { barcode: 'No items or variants found with barcode: 0012345678905' } },
    ]);
  });

  it('is turned on with the CLI while the server runs, which names the GTINs stored twice', async () => {
    const set = await runCli(['account', 'set', '--account', 'shop', '--gtin-equivalence', 'on', '--db', server.dbFile]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('GTIN equivalence is on for account "shop"');
    expect(set.stdout).toContain('00036000291452: 0036000291452, 036000291452');
    const show = await runCli(['account', 'show', '--db', server.dbFile]);
    expect(show.stdout.split('\n')).toEqual(expect.arrayContaining(['shop\tyes\ton\t10', 'exact\tyes\toff\t10']));
    expect((await runCli(['account', 'set', '--account', 'nobody', '--gtin-equivalence', 'on', '--db', server.dbFile])).stderr).toContain(
      'No account named "nobody"',
    );
    expect((await runCli(['account', 'set', '--account', 'shop', '--gtin-equivalence', 'yes', '--db', server.dbFile])).code).toBe(1);
    expect(await gtinSetting('shop')).toBe(true);
    expect(await gtinSetting('exact')).toBe(false);
  });

  it('reads: UPC-A, EAN-13 and GTIN-14 of one product find it; the answer keeps the barcode asked for and names the stored one', async () => {
    const answer = await read('shop', ['0012345678905', '00012345678905', '012345678906', '8690000000017', '00000096385074']);
    expect(answer.results).toEqual([
      {
        item: 6101,
        liquid_stock: null,
        barcode: '0012345678905',
        matched_barcode: '012345678905',
        quantity: 5,
        warehouse: 61,
        warehouse_name: 'Main',
      },
      {
        item: 6101,
        liquid_stock: null,
        barcode: '00012345678905',
        matched_barcode: '012345678905',
        quantity: 5,
        warehouse: 61,
        warehouse_name: 'Main',
      },
      { item: 6103, liquid_stock: null, barcode: '8690000000017', quantity: 4, warehouse: 61, warehouse_name: 'Main' },
      {
        item: 6102,
        liquid_stock: null,
        barcode: '00000096385074',
        matched_barcode: '96385074',
        quantity: 2,
        warehouse: 61,
        warehouse_name: 'Main',
      },
    ]);
    // A wrong check digit is not a GTIN: matched exactly, so not found.
    expect(answer.errors.map((e) => e.barcode)).toEqual(['012345678906']);
    // The exact barcode wins; another form finds the longest stored form first.
    const clash = await read('shop', ['036000291452', '0036000291452', '00036000291452']);
    expect(clash.results.map((r) => [r.barcode, r.item])).toEqual([
      ['036000291452', 6105],
      ['0036000291452', 6104],
      ['00036000291452', 6104],
    ]);
    // The other account, same barcodes, setting off: exact.
    expect((await read('exact', ['0012345678905'])).errors).toHaveLength(1);
  });

  it('names the product behind another form (the scanner UI cards)', async () => {
    const { labels } = await call(server, 'GET', `${LABELS_PATH}?barcodes=00012345678905,96385074`, server.tokens.shop!);
    expect(labels).toEqual({
      '00012345678905': { item_name: 'Notebook', variant_name: null },
      '96385074': { item_name: 'Gum', variant_name: null },
    });
  });

  it('writes: an update and an adjustment by another form change the catalogue item', async () => {
    const updated = updateResponseSchema.parse(
      await call(server, 'POST', INVENTORY_PATH, server.tokens.shop!, [{ barcode: '00012345678905', quantity: 9, warehouse_name: 'Main' }]),
    );
    expect(updated).toEqual({
      results: [
        {
          item: 6101,
          liquid_stock: null,
          barcode: '00012345678905',
          matched_barcode: '012345678905',
          quantity: 9,
          warehouse: 61,
          warehouse_name: 'Main',
        },
      ],
      errors: [],
    });
    const adjusted = await call(server, 'POST', ADJUST_PATH, server.tokens.shop!, [
      { barcode: '0012345678905', delta: -2, warehouse_name: 'Main' },
    ]);
    expect(adjusted.results).toEqual([expect.objectContaining({ barcode: '0012345678905', matched_barcode: '012345678905', quantity: 7 })]);
    expect((await read('shop', ['012345678905'])).results).toEqual([expect.objectContaining({ quantity: 7 })]);
    // The other account refuses the same rows as unknown, and its own item is untouched.
    const refused = await call(server, 'POST', INVENTORY_PATH, server.tokens.exact!, [
      { barcode: '00012345678905', quantity: 9, warehouse_name: 'Main' },
    ]);
    expect(refused.errors[0].errors).toEqual({ barcode: 'No items or variants found with barcode: 00012345678905' });
    expect((await read('exact', ['012345678905'])).results).toEqual([expect.objectContaining({ quantity: 5 })]);
  });

  it('stocktakes: every form of one GTIN counts on one line, which the commit applies once', async () => {
    const token = server.tokens.shop!;
    const { id } = await call(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    for (const barcode of ['0012345678905', '012345678905', '00012345678905'])
      await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode, scan_id: `s-${barcode}` }, 201);
    // A resent scan by its scan_id is recognised although its line is under the catalogue's barcode.
    const again = await call(
      server,
      'POST',
      stocktakePath(id, 'scans'),
      token,
      { barcode: '0012345678905', scan_id: 's-0012345678905' },
      200,
    );
    expect(again.scan.duplicate).toBe(true);
    const lines = await call(server, 'GET', stocktakePath(id, 'lines'), token);
    expect(lines).toEqual([expect.objectContaining({ barcode: '012345678905', known: true, name: 'Notebook', counted: 3 })]);
    const result = await call(server, 'POST', stocktakePath(id, 'commit'), token, { zero_uncounted: false });
    expect(result).toMatchObject({ applied: 1, failed: 0 });
    expect((await read('shop', ['012345678905'])).results).toEqual([expect.objectContaining({ quantity: 3 })]);
  });

  it('is turned off again: exact matching at once', async () => {
    expect((await runCli(['account', 'set', '--account', 'shop', '--gtin-equivalence', 'off', '--db', server.dbFile])).stdout).toContain(
      'off for account "shop"',
    );
    expect(await gtinSetting('shop')).toBe(false);
    expect((await read('shop', ['0012345678905'])).errors).toHaveLength(1);
  });
});
