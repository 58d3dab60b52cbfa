// Control characters in barcodes are refused everywhere a barcode comes in, with a message naming
// the character: the read, label, update, adjust and scan endpoints, the JSON catalogue import and
// the CSV import. The rule is shared (shared/control-characters.ts), so the UI checks rows the same way.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  LABELS_PATH,
  STOCKTAKES_PATH,
  checkUpdateRow,
  fieldMessages,
  findControlCharacter,
  parseBarcodeList,
  stocktakePath,
} from '../../shared/index.ts';
import { runCli } from '../support/cli.ts';
import { createDatabase, databaseLocation, dropDatabase } from '../support/test-engine.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';

const NUL_MESSAGE = fieldMessages.controlCharacter('U+0000 (NUL)', 2);

describe('the shared rule', () => {
  it('finds and names the first control character, counting positions in characters', () => {
    expect(findControlCharacter('A\u0000B')).toEqual({ name: 'U+0000 (NUL)', position: 2 });
    expect(findControlCharacter('01\u001d17')).toEqual({ name: 'U+001D (GS)', position: 3 });
    expect(findControlCharacter('x\u007f')).toEqual({ name: 'U+007F (DEL)', position: 2 });
    expect(findControlCharacter('\u{1F600}\u0085')).toEqual({ name: 'U+0085', position: 2 });
    for (const fine of ['8690000000017', '0042/M', 'a b', 'Ünïcödé', '\u00a0nbsp'])
      expect(findControlCharacter(fine), fine).toBeUndefined();
  });

  it('is applied by row validation and by barcode-list parsing', () => {
    expect(checkUpdateRow({ barcode: 'A\u0000B', quantity: 1 }, false)).toEqual({ ok: false, errors: { barcode: NUL_MESSAGE } });
    expect(parseBarcodeList('111,A\u0000B')).toEqual({
      ok: false,
      detail: expect.stringContaining('Barcode 2 of the list contains a control character: U+0000 (NUL) at position 2'),
    });
    // White space around entries is still trimmed as before: only characters inside a barcode count.
    expect(parseBarcodeList(' 111\t,\n222 ')).toEqual({ ok: true, barcodes: ['111', '222'] });
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('refuses a read or label list with a control character, naming it, instead of answering "unknown"', async () => {
    for (const target of [`${INVENTORY_PATH}?barcodes=8690000000017,A%00B`, `${LABELS_PATH}?barcodes=8690000000017,A%00B`]) {
      const response = await server.request('GET', target, { token: server.tokens.north });
      expect(response.status, target).toBe(400);
      expect((await response.json()).detail, target).toContain('U+0000 (NUL) at position 2');
    }
  });

  it('reports the barcode of an update or adjust row with its other errors, and applies the good rows', async () => {
    const update = await server.request('POST', INVENTORY_PATH, {
      token: server.tokens.north,
      body: [
        { barcode: 'A\u0000B', warehouse_name: 'Main', quantity: 'x' },
        { barcode: '8690000000017', warehouse_name: 'Main', quantity: 9 },
      ],
    });
    expect(update.status).toBe(200);
    const answer = await update.json();
    expect(answer.results).toHaveLength(1);
    expect(answer.errors[0].errors).toEqual({ barcode: NUL_MESSAGE, quantity: fieldMessages.notAnInteger });
    const adjust = await server.request('POST', ADJUST_PATH, {
      token: server.tokens.north,
      body: [{ barcode: '01\u001d17', warehouse_name: 'Main', delta: 1 }],
    });
    expect((await adjust.json()).errors[0].errors.barcode).toBe(fieldMessages.controlCharacter('U+001D (GS)', 3));
  });

  it('refuses a stocktake scan of such a barcode instead of queueing it as unknown', async () => {
    const { id } = (await (
      await server.request('POST', STOCKTAKES_PATH, { token: server.tokens.north, body: { warehouse_name: 'Main' } })
    ).json()) as { id: number };
    const scan = await server.request('POST', stocktakePath(id, 'scans'), { token: server.tokens.north, body: { barcode: 'A\u0000B' } });
    expect(scan.status).toBe(400);
    expect((await scan.json()).detail).toContain(NUL_MESSAGE);
  });
});

describe('importers', () => {
  const { dir, remove } = tempDir();
  const db = databaseLocation(dir, 'import.db'); // a SQLite file or a PostgreSQL database of its own
  beforeAll(() => createDatabase(db));
  afterAll(async () => {
    await dropDatabase(db);
    remove();
  });

  it('refuse a JSON catalogue with such a barcode and write nothing', async () => {
    const file = path.join(dir, 'catalogue.json');
    writeFileSync(
      file,
      JSON.stringify({ accounts: [{ name: 'shop', warehouses_enabled: false, items: [{ id: 1, name: 'Mug', barcode: 'A\u0000B' }] }] }),
    );
    const result = await runCli(['import', file, '--db', db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'accounts[0].items[0].barcode: A barcode may not contain control characters: U+0000 (NUL) at position 2.',
    );
    expect((await runCli(['token', 'create', '--account', 'shop', '--db', db])).code).toBe(1); // no account was written
  });

  it('report the line of such a barcode in a CSV import', async () => {
    const json = path.join(dir, 'ok.json');
    writeFileSync(json, JSON.stringify({ accounts: [{ name: 'shop', warehouses_enabled: false, items: [] }] }));
    expect((await runCli(['import', json, '--db', db])).code).toBe(0);
    const csv = path.join(dir, 'stock.csv');
    writeFileSync(csv, 'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity\n1,Mug,,,ok-1,,1\n2,Cup,,,"C\u0001D",,2\n');
    const dry = await runCli(['csv', 'import', csv, '--account', 'shop', '--dry-run', '--db', db]);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('line 3: barcode: A barcode may not contain control characters: U+0001 (SOH) at position 2.');
  });
});
