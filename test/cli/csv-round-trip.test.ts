// The CSV round trip through the real CLI and the real server: export stock, edit the file, dry-run
// (reports every change and every bad line, writes nothing), import (all or nothing), export again.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVENTORY_PATH,
  STOCKTAKES_PATH,
  STOCK_EXPORT_PATH,
  STOCK_HISTORY_PATH,
  fieldMessages,
  stocktakePath,
} from '../../shared/index.ts';
import type { HistoryPage, Stocktake } from '../../shared/index.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';
import { inRepo } from '../support/paths.ts';

const cli = inRepo('bin', 'barcode-inventory.js');
const run = promisify(execFile);

/** Runs the CLI; never throws, answers the exit code and both outputs. */
async function barcodeInventory(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Row = Record<string, string>;
const rowsOf = (text: string): Row[] => parse(text, { columns: true, bom: true });
const csvOf = (rows: Row[]) =>
  [
    'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity',
    ...rows.map((r) =>
      [r.item_id, r.item_name, r.variant_id, r.variant_name, r.barcode, r.warehouse, r.quantity]
        .map((v) => (/[",\n]/.test(v ?? '') ? `"${v!.replace(/"/g, '""')}"` : v))
        .join(','),
    ),
  ].join('\n') + '\n';

describe('CSV export, dry-run and import', () => {
  let server: TestServer;
  let token: string;
  const temp = tempDir('bi-csv-');
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(3));
    token = server.tokens.shop!;
  });
  afterAll(async () => {
    await server.stop();
    temp.remove();
  });

  const historyCount = async () => (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?limit=500`, token)).results.length;

  it('exports the same stock through the API and the CLI, per warehouse or all', async () => {
    const res = await server.request('GET', STOCK_EXPORT_PATH, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const apiText = await res.text();
    const cliAll = await barcodeInventory('csv', 'export', '--account', 'shop', '--db', server.dbFile);
    expect(cliAll.code).toBe(0);
    expect(cliAll.stdout).toBe(apiText);
    expect(rowsOf(apiText)).toEqual([
      { item_id: '900', item_name: 'Shirt', variant_id: '9001', variant_name: 'M', barcode: '0042/M', warehouse: 'Main', quantity: '4' },
      ...[0, 1, 2].map((i) => ({
        item_id: String(1000 + i),
        item_name: `Item ${i}`,
        variant_id: '',
        variant_name: '',
        barcode: `B000${i}`,
        warehouse: 'Main',
        quantity: '10',
      })),
    ]);
    const back = await server.request('GET', `${STOCK_EXPORT_PATH}?warehouse_name=Back`, { token });
    expect(rowsOf(await back.text())).toEqual([]);
    const unknown = await server.request('GET', `${STOCK_EXPORT_PATH}?warehouse_name=Attic`, { token });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).detail).toBe('No warehouses found with name: Attic');
    const other = await server.request('GET', STOCK_EXPORT_PATH, { token: server.tokens.other! });
    expect(rowsOf(await other.text())).toEqual([
      { item_id: '950', item_name: 'Pen', variant_id: '', variant_name: '', barcode: '111', warehouse: '', quantity: '7' },
    ]);
  });

  it('round-trips an edited export: dry-run reports and writes nothing, the import writes it all', async () => {
    const exported = rowsOf((await barcodeInventory('csv', 'export', '--account', 'shop', '--db', server.dbFile)).stdout);
    const edited = exported.map((r) =>
      r.barcode === 'B0001' ? { ...r, quantity: '25' } : r.barcode === '0042/M' ? { ...r, item_name: 'T-shirt' } : r,
    );
    edited.push({
      item_id: '1000',
      item_name: 'Item 0',
      variant_id: '',
      variant_name: '',
      barcode: 'B0000',
      warehouse: 'Back',
      quantity: '3',
    });
    edited.push({
      item_id: '2000',
      item_name: 'Cup, "large"',
      variant_id: '',
      variant_name: '',
      barcode: 'C-1',
      warehouse: 'Main',
      quantity: '6',
    });
    const file = path.join(temp.dir, 'edited.csv');
    writeFileSync(file, csvOf(edited));
    const before = await historyCount();

    const dry = await barcodeInventory('csv', 'import', file, '--account', 'shop', '--dry-run', '--db', server.dbFile);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('nothing was written');
    expect(dry.stdout).toContain('line 4: B0001 in Main: 10 -> 25');
    expect(dry.stdout).toContain('line 6: B0000 in Back: (none) -> 3');
    expect(dry.stdout).toContain('line 7: C-1 in Main: (none) -> 6');
    expect(dry.stdout).toContain('new item 2000 "Cup, "large""');
    expect(dry.stdout).toContain('rename item 900 "Shirt" -> "T-shirt"');
    expect(dry.stdout).toContain('3 quantities would change');
    expect(await historyCount()).toBe(before);
    const unchanged = await call(server, 'GET', `${INVENTORY_PATH}?barcodes=B0001,C-1`, token);
    expect(unchanged.errors.map((e: { barcode: string }) => e.barcode)).toEqual(['C-1']);

    const real = await barcodeInventory('csv', 'import', file, '--account', 'shop', '--db', server.dbFile);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain('3 quantities changed');
    expect(await historyCount()).toBe(before + 3);
    const again = rowsOf((await barcodeInventory('csv', 'export', '--account', 'shop', '--db', server.dbFile)).stdout);
    const key = (r: Row) => `${r.barcode}@${r.warehouse}`;
    expect(Object.fromEntries(again.map((r) => [key(r), [r.item_name, r.quantity]]))).toEqual(
      Object.fromEntries(edited.map((r) => [key(r), [r.item_name, r.quantity]])),
    );
    const history = await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=B0001&limit=1`, token);
    expect(history.results[0]).toMatchObject({ source: 'import', old_quantity: 10, new_quantity: 25 });
  });

  it('reports every bad line in a dry run and refuses the whole file in a real run', async () => {
    const file = path.join(temp.dir, 'bad.csv');
    writeFileSync(
      file,
      [
        'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity',
        '1001,Item 1,,,B0001,Main,77', // good, but must not be written
        'x,Item,,,Z1,Main,1',
        '1002,Item 2,,,B0002,Attic,1',
        '1002,Item 2,,,B0002,Main,1.5',
        '3000,,,,Z2,Main,1',
        '1001,Other name,,,B0001,Back,1',
        '1001,Item 1,,,B0001,Main,78', // line 8
        '3001,"New\u202Eeman",,,Z3,Main,1', // line 9: a name that reads backwards
        '3002,Shirt,7,"S\u001b[2J",Z4,Main,1', // line 10: ESC clears the terminal that prints it
      ].join('\n'),
    );
    const dry = await barcodeInventory('csv', 'import', file, '--account', 'shop', '--dry-run', '--db', server.dbFile);
    expect(dry.code).toBe(1);
    for (const expected of [
      'line 3: item_id: A valid integer is required.',
      'line 4: warehouse: No warehouses found with name: Attic',
      'line 5: quantity: A valid integer is required.',
      'line 6: item_name: This field may not be blank.',
      'line 7: item_name: item 1001 is named "Item 1" on line 2',
      'line 8: warehouse: barcode "B0001" already has a quantity in Main on line 2',
      `line 9: item_name: ${fieldMessages.unsafeCharacter('U+202E', 4)}`,
      `line 10: variant_name: ${fieldMessages.unsafeCharacter('U+001B (ESC)', 2)}`,
    ]) {
      expect(dry.stdout).toContain(expected);
    }
    // What the good rows would change is reported beside the problems.
    expect(dry.stdout).toContain('line 2: B0001 in Main: 25 -> 77');
    expect(dry.stdout).toContain('good rows only');
    const before = await historyCount();
    const real = await barcodeInventory('csv', 'import', file, '--account', 'shop', '--db', server.dbFile);
    expect(real.code).toBe(1);
    expect(real.stderr).toContain('nothing was written');
    expect(real.stderr).toContain('line 3: item_id');
    expect(await historyCount()).toBe(before);

    // A conflict only the database can see (a barcode of another item) is reported too, and refused whole.
    const conflict = path.join(temp.dir, 'conflict.csv');
    writeFileSync(
      conflict,
      'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity\n1001,Item 1,,,B0001,Main,55\n3001,New,,,B0000,Main,1\n',
    );
    const conflictDry = await barcodeInventory('csv', 'import', conflict, '--account', 'shop', '--dry-run', '--db', server.dbFile);
    expect(conflictDry.code).toBe(1);
    expect(conflictDry.stdout).toContain('line 3: barcode: barcode "B0000" already belongs to another item or variant');
    expect((await barcodeInventory('csv', 'import', conflict, '--account', 'shop', '--db', server.dbFile)).code).toBe(1);
    expect(await historyCount()).toBe(before);

    const header = path.join(temp.dir, 'header.csv');
    writeFileSync(header, 'barcode,quantity\nB0001,3\n');
    const wrongHeader = await barcodeInventory('csv', 'import', header, '--account', 'shop', '--db', server.dbFile);
    expect(wrongHeader.code).toBe(1);
    expect(wrongHeader.stderr).toContain('missing column(s) item_id, item_name, variant_id, variant_name, warehouse');
    const noAccount = await barcodeInventory('csv', 'import', file, '--account', 'nobody', '--db', server.dbFile);
    expect(noAccount.stderr).toContain('no account named "nobody"');
  });

  it('shows progress on stderr for a large file', async () => {
    const file = path.join(temp.dir, 'large.csv');
    const lines = ['item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity'];
    // Long names make the file pass the 1 MiB progress threshold with few rows, keeping the test quick.
    const padding = 'x'.repeat(600);
    for (let i = 0; i < 2_000; i++)
      lines.push(`${50_000 + i},Generated item ${i} ${padding},,,G${String(i).padStart(8, '0')},Main,${i % 97}`);
    writeFileSync(file, lines.join('\n'));
    const dry = await barcodeInventory('csv', 'import', file, '--account', 'shop', '--dry-run', '--db', server.dbFile);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/read \d+ rows \(\d+%\)/);
    expect(dry.stderr).toContain('checking 2000 rows');
    expect(dry.stdout).toContain('2000 row(s); 2000 quantities would change; 2000 new item(s)');
    expect(dry.stdout).not.toContain('problem:');
  });

  it("exports a session's counts as CSV", async () => {
    const session = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await call(server, 'POST', stocktakePath(session.id, 'scans'), token, { barcode: 'B0002', amount: 8 }, 201);
    await call(server, 'POST', stocktakePath(session.id, 'scans'), token, { barcode: 'who?' }, 201);
    const res = await server.request('GET', `${stocktakePath(session.id)}counts.csv`, { token });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(rowsOf(text)).toEqual([
      {
        barcode: 'B0002',
        item_id: '1002',
        variant_id: '',
        name: 'Item 2',
        known: 'yes',
        resolution: '',
        counted: '8',
        book_quantity: '10',
        difference: '-2',
        commit: '',
      },
      {
        barcode: 'who?',
        item_id: '',
        variant_id: '',
        name: '',
        known: 'no',
        resolution: 'pending',
        counted: '1',
        book_quantity: '',
        difference: '',
        commit: '',
      },
    ]);
    const cliCounts = await barcodeInventory('csv', 'counts', String(session.id), '--account', 'shop', '--db', server.dbFile);
    expect(cliCounts.stdout).toBe(text);
  });
});
