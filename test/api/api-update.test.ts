// POST /api/v1/core/item/inventory_by_barcode/ against the real server (spec 4.2, decisions "Update"):
// partial success, every error of a row at once (as DRF reports them), bounded echoes of refused rows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { SqliteEngine } from '../../server/store/sqlite/sqlite-engine.ts';
import { createStore } from '../../server/store/store.ts';
import {
  INVENTORY_PATH,
  MAX_ECHOED_CHARS,
  fieldMessages,
  posFieldMessages,
  requestMessages,
  updateResponseSchema,
} from '../../shared/index.ts';
import { probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, onPostgres } from '../support/test-engine.ts';
import { type TestServer, exampleCatalogue, seedStore, startTestServer, tempDir } from '../support/test-server.ts';

describe('update stock by barcode', () => {
  let server: TestServer;
  const post = async (body: unknown, account = 'north', headers: Record<string, string> = {}) => {
    const res = await server.request('POST', INVENTORY_PATH, { token: server.tokens[account], body, headers });
    return { status: res.status, body: await res.json() };
  };
  const read = async (barcodes: string, account = 'north') => {
    const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(barcodes)}`, {
      token: server.tokens[account],
    });
    return (await res.json()).results;
  };
  /** The database as another process would see it: a separate connection to the same file. */
  const inspect = <T>(sql: string, ...params: unknown[]): Promise<T[]> => server.probe.all<T>(sql, ...params);
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  it('sets quantities, answers the records after the update, and persists them', async () => {
    const { status, body } = await post([
      { barcode: '8690000000017', quantity: 12, warehouse_name: 'Main' },
      { barcode: '8690000000024', quantity: '4', warehouse_name: 'Main' },
    ]);
    expect(status).toBe(200);
    expect(updateResponseSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      results: [
        { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 12, warehouse: 10, warehouse_name: 'Main' },
        { item: 101, liquid_stock: 5001, barcode: '8690000000024', quantity: 4, warehouse: 10, warehouse_name: 'Main' },
      ],
      errors: [],
    });
    expect(await read('8690000000017')).toContainEqual({
      item: 100,
      liquid_stock: null,
      barcode: '8690000000017',
      quantity: 12,
      warehouse: 10,
      warehouse_name: 'Main',
    });
    expect(
      await inspect<{ quantity: number }>(
        'SELECT quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id WHERE u.barcode = ? AND s.warehouse_id = 10',
        '8690000000024',
      ),
    ).toEqual([{ quantity: 4 }]);
  });

  it('applies valid rows and reports each rejected row with its reason (partial success)', async () => {
    const rows = [
      { barcode: 'nope', quantity: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 7, warehouse_name: 'Attic' },
      { barcode: '8690000000017', quantity: 8, warehouse_name: 'Backroom' },
      { barcode: 'nope', quantity: 1, warehouse_name: 'Attic' },
    ];
    const { body } = await post(rows);
    expect(body.results).toEqual([
      { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 8, warehouse: 11, warehouse_name: 'Backroom' },
    ]);
    expect(body.errors).toEqual([
      { data: rows[0], errors: { barcode: fieldMessages.barcodeNotFound('nope') } },
      { data: rows[1], errors: { warehouse_name: fieldMessages.warehouseNotFound('Attic') } },
      { data: rows[3], errors: { barcode: fieldMessages.barcodeNotFound('nope') } },
    ]);
    const main = (await read('8690000000017')).find((r: { warehouse: number }) => r.warehouse === 10);
    expect(main.quantity).toBe(5);
  });

  it('reports every validation rule with its exact message, echoing the row as sent', async () => {
    const rows = [
      { quantity: 1, warehouse_name: 'Main' },
      { barcode: 8690000000017, quantity: 1, warehouse_name: 'Main' },
      { barcode: '', quantity: 1, warehouse_name: 'Main' },
      { barcode: 'x'.repeat(129), quantity: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 1.5, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: '12a', warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 1_000_000_001, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: -1_000_000_001, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 1 },
      { barcode: '8690000000017', quantity: 1, warehouse_name: null },
      ['8690000000017', 1],
      null,
      { barcode: '8690000000017', quantity: -1_000_000_000, warehouse_name: 'Main', extra: 'ignored' },
    ];
    const { status, body } = await post(rows);
    expect(status).toBe(200);
    expect(body.errors).toEqual([
      { data: rows[0], errors: { barcode: fieldMessages.required } },
      { data: rows[1], errors: { barcode: fieldMessages.notAString } },
      { data: rows[2], errors: { barcode: fieldMessages.blank } },
      { data: rows[3], errors: { barcode: 'Ensure this field has no more than 128 characters.' } },
      { data: rows[4], errors: { quantity: fieldMessages.required } },
      { data: rows[5], errors: { quantity: 'A valid integer is required.' } },
      { data: rows[6], errors: { quantity: 'A valid integer is required.' } },
      { data: rows[7], errors: { quantity: 'Ensure this value is less than or equal to 1000000000.' } },
      { data: rows[8], errors: { quantity: 'Ensure this value is greater than or equal to -1000000000.' } },
      { data: rows[9], errors: { warehouse_name: 'This field is required.' } },
      { data: rows[10], errors: { warehouse_name: 'This field may not be null.' } },
      { data: rows[11], errors: { non_field_errors: 'Invalid data. Expected a dictionary, but got list.' } },
      { data: null, errors: { non_field_errors: 'Invalid data. Expected a dictionary, but got null.' } },
    ]);
    // Negative stock is allowed: the last row applied.
    expect(body.results).toEqual([
      { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: -1_000_000_000, warehouse: 10, warehouse_name: 'Main' },
    ]);
  });

  it('reports every error of a row at once: an unknown barcode or warehouse beside the bad fields', async () => {
    const rows = [
      { barcode: 'nope', quantity: 1 },
      { barcode: 'nope', quantity: 'x', warehouse_name: 'Main' },
      { barcode: 'nope', quantity: 1.5, warehouse_name: 'Attic' },
      { barcode: 'nope', quantity: 1_000_000_001, warehouse_name: 'Main' },
      { barcode: 'nope', quantity: -1_000_000_001, warehouse_name: 'Main' },
      { barcode: 'nope', warehouse_name: 'Main' },
      { barcode: 'nope', quantity: null, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 'x', warehouse_name: 'Attic' },
      { barcode: '8690000000017', warehouse_name: 'Attic' },
      { barcode: '8690000000017', quantity: null, warehouse_name: 'Attic', reason: 'two words' },
      { barcode: 'nope', quantity: 2, warehouse_name: 'Main', compare_quantity: 'x' },
      { barcode: '8690000000017', quantity: 3, warehouse_name: '' },
    ];
    const { status, body } = await post(rows);
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    const notFound = fieldMessages.barcodeNotFound('nope');
    expect(body.errors).toEqual([
      // The example of the docs: both errors, as DRF answers them.
      { data: rows[0], errors: { barcode: 'No items or variants found with barcode: nope', warehouse_name: 'This field is required.' } },
      { data: rows[1], errors: { barcode: notFound, quantity: fieldMessages.notAnInteger } },
      // The warehouse of an unknown barcode is not looked at: no "not found" for Attic.
      { data: rows[2], errors: { barcode: notFound, quantity: fieldMessages.notAnInteger } },
      { data: rows[3], errors: { barcode: notFound, quantity: fieldMessages.maxValue(1_000_000_000) } },
      { data: rows[4], errors: { barcode: notFound, quantity: fieldMessages.minValue(-1_000_000_000) } },
      { data: rows[5], errors: { barcode: notFound, quantity: fieldMessages.required } },
      { data: rows[6], errors: { barcode: notFound, quantity: fieldMessages.notNull } },
      // A known barcode in an unknown warehouse, beside a bad quantity: both.
      { data: rows[7], errors: { warehouse_name: fieldMessages.warehouseNotFound('Attic'), quantity: fieldMessages.notAnInteger } },
      { data: rows[8], errors: { warehouse_name: fieldMessages.warehouseNotFound('Attic'), quantity: fieldMessages.required } },
      {
        data: rows[9],
        errors: {
          warehouse_name: fieldMessages.warehouseNotFound('Attic'),
          quantity: fieldMessages.notNull,
          reason: posFieldMessages.reasonFormat(32),
        },
      },
      { data: rows[10], errors: { barcode: notFound, compare_quantity: fieldMessages.notAnInteger } },
      { data: rows[11], errors: { warehouse_name: fieldMessages.blank } },
    ]);
    expect(updateResponseSchema.parse(body)).toEqual(body);
    // Nothing was written.
    expect((await read('8690000000017')).map((r: { warehouse: number; quantity: number }) => [r.warehouse, r.quantity])).toEqual([
      [10, 5],
      [11, 0],
    ]);
    expect(await inspect(`SELECT id FROM stock_history h WHERE ${sourceNameOf('h')} = 'api'`)).toEqual([]);
  });

  it('reports every error of a row at once in the no-warehouse scenario too', async () => {
    const rows = [
      { barcode: 'nope', quantity: 'x' },
      { barcode: 'nope', quantity: 1.5, warehouse_name: 'Attic' },
      { barcode: 'nope' },
      { barcode: '111', quantity: null },
    ];
    const { body } = await post(rows, 'kiosk');
    expect(body).toEqual({
      results: [],
      errors: [
        { data: rows[0], errors: { barcode: fieldMessages.barcodeNotFound('nope'), quantity: fieldMessages.notAnInteger } },
        { data: rows[1], errors: { barcode: fieldMessages.barcodeNotFound('nope'), quantity: fieldMessages.notAnInteger } },
        { data: rows[2], errors: { barcode: fieldMessages.barcodeNotFound('nope'), quantity: fieldMessages.required } },
        { data: rows[3], errors: { quantity: fieldMessages.notNull } },
      ],
    });
  });

  it('echoes only the known fields of a refused row, each bounded in size', async () => {
    const huge = 'x'.repeat(200_000);
    const longBarcode = 'b'.repeat(300);
    const bigList = Array.from({ length: 200 }, (_, i) => i);
    const rows = [
      { barcode: 'nope', quantity: 1, warehouse_name: 'Main', pad: huge, nested: { deep: [huge] } },
      { barcode: longBarcode, quantity: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: bigList, warehouse_name: 'Main', reference: huge },
      { barcode: '8690000000017', quantity: { n: 1 }, warehouse_name: 'Main', reason: 'sale' },
      'r'.repeat(1000),
      bigList,
      [huge],
      42,
    ];
    const res = await server.request('POST', INVENTORY_PATH, { token: server.tokens.north, body: rows });
    const text = await res.text();
    expect(res.status).toBe(200);
    // The unknown field never comes back: the answer stays small whatever the client padded its rows with.
    expect(text).not.toContain('x'.repeat(MAX_ECHOED_CHARS + 1));
    expect(text.length).toBeLessThan(8000);
    const cut = (value: string) => `${value.slice(0, MAX_ECHOED_CHARS)}…`;
    expect(JSON.parse(text).errors).toEqual([
      { data: { barcode: 'nope', quantity: 1, warehouse_name: 'Main' }, errors: { barcode: fieldMessages.barcodeNotFound('nope') } },
      { data: { barcode: cut(longBarcode), quantity: 1, warehouse_name: 'Main' }, errors: { barcode: fieldMessages.maxLength(128) } },
      {
        data: { barcode: '8690000000017', quantity: null, warehouse_name: 'Main', reference: cut(huge) },
        errors: { quantity: fieldMessages.notAnInteger, reference: fieldMessages.maxLength(128) },
      },
      {
        data: { barcode: '8690000000017', quantity: { n: 1 }, warehouse_name: 'Main', reason: 'sale' },
        errors: { quantity: fieldMessages.notAnInteger },
      },
      { data: cut('r'.repeat(1000)), errors: { non_field_errors: fieldMessages.notAnObject('str') } },
      { data: null, errors: { non_field_errors: fieldMessages.notAnObject('list') } },
      { data: null, errors: { non_field_errors: fieldMessages.notAnObject('list') } },
      { data: 42, errors: { non_field_errors: fieldMessages.notAnObject('int') } },
    ]);
  });

  it('applies rows in request order: a later row for the same barcode and warehouse wins', async () => {
    const { body } = await post([
      { barcode: '8690000000017', quantity: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 2, warehouse_name: 'Main' },
    ]);
    expect(body.results.map((r: { quantity: number }) => r.quantity)).toEqual([1, 2]);
    expect((await read('8690000000017'))[0].quantity).toBe(2);
  });

  it('creates the stock definition when a barcode had none in that warehouse', async () => {
    const before = await read('8690000000024');
    expect(before.map((r: { warehouse: number }) => r.warehouse)).toEqual([10]);
    await post([{ barcode: '8690000000024', quantity: 6, warehouse_name: 'Backroom' }]);
    const after = await read('8690000000024');
    expect(after.map((r: { warehouse: number; quantity: number }) => [r.warehouse, r.quantity])).toEqual([
      [10, 3],
      [11, 6],
    ]);
  });

  it('writes the stock history in the same transaction: old and new quantity, source, token', async () => {
    await post([
      { barcode: '8690000000017', quantity: 9, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 9, warehouse_name: 'Main' },
      { barcode: '8690000000024', quantity: 1, warehouse_name: 'Backroom' },
    ]);
    const history = await inspect<Record<string, unknown>>(
      `SELECT unit_id, warehouse_id, kind, value, seq, old_quantity, new_quantity, ${sourceNameOf('h')} AS source, token_id FROM stock_history h WHERE ${sourceNameOf('h')} = 'api' ORDER BY id`,
    );
    const tokenId = (
      await inspect<{ id: number }>("SELECT t.id FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE a.name = 'north'")
    )[0]!.id;
    const before = (await inspect<{ seq: number }>(`SELECT max(seq) AS seq FROM stock_history h WHERE ${sourceNameOf('h')} = 'import'`))[0]!
      .seq;
    // Every row is a set movement, numbered on from the import's: the repeated row too, which leaves
    // the quantity at 9 (a set is a fact other instances must learn even when it changes nothing here).
    expect(history).toEqual([
      {
        unit_id: expect.any(Number),
        warehouse_id: 10,
        kind: 'set',
        value: 9,
        seq: before + 1,
        old_quantity: 5,
        new_quantity: 9,
        source: 'api',
        token_id: tokenId,
      },
      {
        unit_id: expect.any(Number),
        warehouse_id: 10,
        kind: 'set',
        value: 9,
        seq: before + 2,
        old_quantity: 9,
        new_quantity: 9,
        source: 'api',
        token_id: tokenId,
      },
      {
        unit_id: expect.any(Number),
        warehouse_id: 11,
        kind: 'set',
        value: 1,
        seq: before + 3,
        old_quantity: null,
        new_quantity: 1,
        source: 'api',
        token_id: tokenId,
      },
    ]);
  });

  it('in the no-warehouse scenario ignores warehouse_name and answers records without warehouse keys', async () => {
    const { body } = await post(
      [
        { barcode: '111', quantity: 3, warehouse_name: 'Main' },
        { barcode: '111', quantity: 4 },
        { barcode: '8690000000017', quantity: 4 },
      ],
      'kiosk',
    );
    expect(body).toEqual({
      results: [
        { item: 200, liquid_stock: null, barcode: '111', quantity: 3 },
        { item: 200, liquid_stock: null, barcode: '111', quantity: 4 },
      ],
      errors: [{ data: { barcode: '8690000000017', quantity: 4 }, errors: { barcode: fieldMessages.barcodeNotFound('8690000000017') } }],
    });
    expect(await read('111', 'kiosk')).toEqual([{ item: 200, liquid_stock: null, barcode: '111', quantity: 4 }]);
  });

  it('accepts 50 rows and refuses 51 as a whole, applying nothing', async () => {
    const rows = (n: number, quantity: number) => Array.from({ length: n }, () => ({ barcode: '111', quantity }));
    const ok = await post(rows(50, 1), 'kiosk');
    expect(ok.status).toBe(200);
    expect(ok.body.results).toHaveLength(50);
    const refused = await post(rows(51, 2), 'kiosk');
    expect(refused).toEqual({ status: 400, body: { detail: requestMessages.tooManyRows(51), code: 'invalid_body' } });
    expect(requestMessages.tooManyRows(51)).toContain('50');
    expect(await read('111', 'kiosk')).toEqual([{ item: 200, liquid_stock: null, barcode: '111', quantity: 1 }]);
  });

  it('answers an empty list with empty results', async () => {
    expect(await post([])).toEqual({ status: 200, body: { results: [], errors: [] } });
  });

  it('refuses bodies that are not JSON arrays, changing nothing', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['[{"barcode":"111","quantity":1}]', { 'content-type': 'text/plain' }, 415, requestMessages.unsupportedMediaType('text/plain')],
      [
        '[{"barcode":"111","quantity":1}]',
        { 'content-type': 'application/json; charset=latin1' },
        415,
        requestMessages.unsupportedMediaType('application/json; charset=latin1'),
      ],
      ['[{"barcode":"111",', {}, 400, 'JSON parse error - '],
      ['', {}, 400, 'JSON parse error - '],
      ['{"barcode":"111","quantity":1}', {}, 400, requestMessages.expectedList('dict')],
      ['"111"', {}, 400, requestMessages.expectedList('str')],
      ['null', {}, 400, requestMessages.expectedList('null')],
      [`[${'['.repeat(100)}${']'.repeat(100)}]`, {}, 400, requestMessages.jsonTooDeep(64)],
    ];
    for (const [body, headers, status, detail] of cases) {
      const res = await server.request('POST', INVENTORY_PATH, {
        token: server.tokens.kiosk,
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
      expect(res.status, body).toBe(status);
      const json = await res.json();
      expect(json.detail.startsWith(detail), `${json.detail} should start with ${detail}`).toBe(true);
    }
    const invalidUtf8 = await fetch(server.url + INVENTORY_PATH, {
      method: 'POST',
      headers: { authorization: `Token ${server.tokens.kiosk}`, 'content-type': 'application/json' },
      body: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]),
    });
    expect([invalidUtf8.status, await invalidUtf8.json()]).toEqual([400, { detail: requestMessages.invalidUtf8, code: 'invalid_json' }]);
    expect(await read('111', 'kiosk')).toEqual([{ item: 200, liquid_stock: null, barcode: '111', quantity: 7 }]);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = JSON.stringify([{ barcode: '111', quantity: 1, pad: 'x'.repeat(1024 * 1024) }]);
    const res = await server.request('POST', INVENTORY_PATH, { token: server.tokens.kiosk, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: requestMessages.bodyTooLarge(1024 * 1024), code: 'body_too_large' });
  });

  it('acknowledges a write only once it is durable: a fresh connection sees it right after the answer', async () => {
    // A server on an engine this test holds, to look at the settings of the very connection it writes with.
    const { dir, remove } = tempDir();
    const location = await newDatabase(dir, 'durable.db');
    const sqlite = onPostgres() ? undefined : await SqliteEngine.open(location);
    const store = sqlite ? createStore(sqlite) : await openStore(location);
    const tokens = await seedStore(store, exampleCatalogue());
    const own = await startServer({ store, port: 0 });
    const probe = probeDatabase(location);
    try {
      const res = await fetch(`${own.url}${INVENTORY_PATH}`, {
        method: 'POST',
        headers: { authorization: `Token ${tokens.kiosk}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ barcode: '111', quantity: 55 }]),
      });
      expect(res.status).toBe(200);
      expect(await probe.all("SELECT s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id WHERE u.barcode = '111'")).toEqual([
        { quantity: 55 },
      ]);
      if (sqlite) {
        const db = sqlite.sqlite;
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
        expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      } else {
        // PostgreSQL: a commit returns once its WAL is flushed to disk.
        expect(await probe.first('SHOW synchronous_commit')).toEqual({ synchronous_commit: 'on' });
        expect(await probe.first('SHOW fsync')).toEqual({ fsync: 'on' });
      }
    } finally {
      await probe.close();
      await own.close();
      await dropDatabase(location);
      remove();
    }
  });
});
