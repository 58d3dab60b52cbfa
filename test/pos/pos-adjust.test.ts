// The POS adjust endpoint (docs/POS.md) against the real server: atomic deltas under concurrency,
// the update endpoint's validation and texts, range limits, and the history it writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MAX_ECHOED_CHARS,
  MAX_QUANTITY,
  MIN_QUANTITY,
  fieldMessages,
  posFieldMessages,
  updateResponseSchema,
} from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';
import { sourceNameOf } from '../support/database-probe.ts';

interface HistoryRow {
  old_quantity: number | null;
  new_quantity: number;
  reason: string | null;
  reference: string | null;
  source: string;
  warehouse_id: number;
}

describe('POST adjust', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const adjust = (token: string, body: unknown, path = ADJUST_PATH) => server.request('POST', path, { token, body });
  const history = (barcode: string): Promise<HistoryRow[]> =>
    server.probe.all<HistoryRow>(
      `SELECT h.old_quantity, h.new_quantity, h.reason, h.reference, ${sourceNameOf('h')} AS source, h.warehouse_id
         FROM stock_history h JOIN stock_units u ON u.id = h.unit_id WHERE u.barcode = ? ORDER BY h.id`,
      barcode,
    );
  const quantityOf = async (token: string, barcode: string) => {
    const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(barcode)}`, { token });
    return ((await res.json()) as { results: { quantity: number; warehouse_name?: string }[] }).results;
  };

  it('16 concurrent tills selling one unit 100 times each end at exactly start - 1600', async () => {
    const token = server.tokens.kiosk!;
    const [start] = await quantityOf(token, '111');
    const tills = Array.from({ length: 16 }, async (_, till) => {
      for (let sale = 0; sale < 100; sale++) {
        const res = await adjust(token, [{ barcode: '111', delta: -1, reason: 'sale', reference: `till${till}-${sale}` }]);
        expect(res.status).toBe(200);
        const body = updateResponseSchema.parse(await res.json());
        expect(body.errors).toEqual([]);
        expect(body.results).toHaveLength(1);
      }
    });
    await Promise.all(tills);
    const [end] = await quantityOf(token, '111');
    expect(end!.quantity).toBe(start!.quantity - 1600);
    // Every sale left one history entry whose old/new quantities chain without a gap.
    const sales = (await history('111')).filter((h) => h.reason === 'sale');
    expect(sales).toHaveLength(1600);
    sales.forEach((h, i) => {
      expect(h.old_quantity).toBe(start!.quantity - i);
      expect(h.new_quantity).toBe(start!.quantity - i - 1);
    });
    expect(new Set(sales.map((h) => h.reference)).size).toBe(1600);
    // 1,600 durable writes: 9–14 s on a quiet 2-core machine, up to 30 s when it is busy; the answer, not the time, is checked.
  }, 120_000);

  it('answers the quantity after each row, applying rows in request order, with the partial-success shape', async () => {
    const token = server.tokens.north!;
    const res = await adjust(token, [
      { barcode: '8690000000017', delta: 4, warehouse_name: 'Main', reason: 'receipt', reference: 'DN-1' },
      { barcode: 'nope', delta: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: '-2', warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: 1, warehouse_name: 'Attic' },
      { barcode: '8690000000024', delta: 2, warehouse_name: 'Backroom' },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      results: [
        { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 9, warehouse: 10, warehouse_name: 'Main' },
        { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 7, warehouse: 10, warehouse_name: 'Main' },
        // No stock definition in Backroom yet: the adjustment creates it at the delta.
        { item: 101, liquid_stock: 5001, barcode: '8690000000024', quantity: 2, warehouse: 11, warehouse_name: 'Backroom' },
      ],
      errors: [
        { data: { barcode: 'nope', delta: 1, warehouse_name: 'Main' }, errors: { barcode: fieldMessages.barcodeNotFound('nope') } },
        {
          data: { barcode: '8690000000017', delta: 1, warehouse_name: 'Attic' },
          errors: { warehouse_name: fieldMessages.warehouseNotFound('Attic') },
        },
      ],
    });
    expect((await history('8690000000017')).slice(-2)).toEqual([
      { old_quantity: 5, new_quantity: 9, reason: 'receipt', reference: 'DN-1', source: 'api', warehouse_id: 10 },
      { old_quantity: 9, new_quantity: 7, reason: null, reference: null, source: 'api', warehouse_id: 10 },
    ]);
    expect((await history('8690000000024')).at(-1)).toEqual({
      old_quantity: null,
      new_quantity: 2,
      reason: null,
      reference: null,
      source: 'api',
      warehouse_id: 11,
    });
  });

  it('validates rows with the update endpoint rules and texts, each row on its own', async () => {
    const token = server.tokens.north!;
    const rows = [
      { barcode: 8690000000017, delta: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: 1.5 },
      { barcode: '', delta: null, warehouse_name: '' },
      'not a row',
      { barcode: '8690000000017', delta: 1, warehouse_name: 'Main', reason: 'two words', reference: 'x'.repeat(129) },
      { barcode: '8690000000017', delta: 2_000_000_001, warehouse_name: 'Main' },
    ];
    const res = await adjust(token, rows);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: unknown[]; errors: { data: unknown; errors: Record<string, string> }[] };
    expect(body.results).toEqual([]);
    expect(body.errors.map((e) => e.data)).toEqual(rows);
    expect(body.errors.map((e) => e.errors)).toEqual([
      { barcode: fieldMessages.notAString },
      { delta: fieldMessages.required },
      { delta: fieldMessages.notAnInteger, warehouse_name: fieldMessages.required },
      { barcode: fieldMessages.blank, delta: fieldMessages.notNull, warehouse_name: fieldMessages.blank },
      { non_field_errors: fieldMessages.notAnObject('str') },
      { reason: posFieldMessages.reasonFormat(32), reference: fieldMessages.maxLength(128) },
      { delta: fieldMessages.maxValue(2_000_000_000) },
    ]);
  });

  it('reports every error of a row at once: an unknown barcode or warehouse beside a bad delta', async () => {
    const token = server.tokens.north!;
    const before = await history('8690000000017');
    const rows = [
      { barcode: 'nope', delta: 1 },
      { barcode: 'nope', delta: 'x', warehouse_name: 'Main' },
      { barcode: 'nope', delta: 1.5, warehouse_name: 'Attic' },
      { barcode: 'nope', delta: 2_000_000_001, warehouse_name: 'Main' },
      { barcode: 'nope', delta: -2_000_000_001, warehouse_name: 'Main' },
      { barcode: 'nope', warehouse_name: 'Main' },
      { barcode: 'nope', delta: null, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: 'x', warehouse_name: 'Attic' },
      { barcode: '8690000000017', warehouse_name: 'Attic', reference: 'x'.repeat(129) },
      { barcode: '8690000000017', delta: 1, warehouse_name: 'Attic', reason: 'two words' },
      { barcode: '8690000000017', delta: null, warehouse_name: 'Main' },
    ];
    const res = await adjust(token, rows);
    expect(res.status).toBe(200);
    const notFound = fieldMessages.barcodeNotFound('nope');
    const attic = fieldMessages.warehouseNotFound('Attic');
    expect(await res.json()).toEqual({
      results: [],
      errors: [
        { data: rows[0], errors: { barcode: notFound, warehouse_name: fieldMessages.required } },
        { data: rows[1], errors: { barcode: notFound, delta: fieldMessages.notAnInteger } },
        // The warehouse of an unknown barcode is not looked at.
        { data: rows[2], errors: { barcode: notFound, delta: fieldMessages.notAnInteger } },
        { data: rows[3], errors: { barcode: notFound, delta: fieldMessages.maxValue(2_000_000_000) } },
        { data: rows[4], errors: { barcode: notFound, delta: fieldMessages.minValue(-2_000_000_000) } },
        { data: rows[5], errors: { barcode: notFound, delta: fieldMessages.required } },
        { data: rows[6], errors: { barcode: notFound, delta: fieldMessages.notNull } },
        { data: rows[7], errors: { warehouse_name: attic, delta: fieldMessages.notAnInteger } },
        { data: rows[8], errors: { warehouse_name: attic, delta: fieldMessages.required, reference: fieldMessages.maxLength(128) } },
        { data: rows[9], errors: { warehouse_name: attic, reason: posFieldMessages.reasonFormat(32) } },
        { data: rows[10], errors: { delta: fieldMessages.notNull } },
      ],
    });
    const plain = [{ barcode: 'nope', delta: 'x', warehouse_name: 'ignored' }, { barcode: 'nope' }];
    const kiosk = await adjust(server.tokens.kiosk!, plain);
    expect(await kiosk.json()).toEqual({
      results: [],
      errors: [
        { data: plain[0], errors: { barcode: notFound, delta: fieldMessages.notAnInteger } },
        { data: plain[1], errors: { barcode: notFound, delta: fieldMessages.required } },
      ],
    });
    expect(await history('8690000000017')).toEqual(before);
  });

  it('echoes only the known fields of a refused row, each bounded in size', async () => {
    const huge = 'y'.repeat(300_000);
    const rows = [
      { barcode: 'nope', delta: -1, warehouse_name: 'Main', reason: 'sale', padding: huge },
      { barcode: '8690000000017', delta: Array.from({ length: 300 }, () => 1), warehouse_name: 'Main', reference: huge },
    ];
    const res = await adjust(server.tokens.north!, rows);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain('y'.repeat(MAX_ECHOED_CHARS + 1));
    expect(text.length).toBeLessThan(4000);
    expect(JSON.parse(text)).toEqual({
      results: [],
      errors: [
        {
          data: { barcode: 'nope', delta: -1, warehouse_name: 'Main', reason: 'sale' },
          errors: { barcode: fieldMessages.barcodeNotFound('nope') },
        },
        {
          data: { barcode: '8690000000017', delta: null, warehouse_name: 'Main', reference: `${'y'.repeat(MAX_ECHOED_CHARS)}…` },
          errors: { delta: fieldMessages.notAnInteger, reference: fieldMessages.maxLength(128) },
        },
      ],
    });
  });

  it('refuses a row whose result would leave the quantity range, and applies the others', async () => {
    const token = server.tokens.north!;
    await server.request('POST', INVENTORY_PATH, {
      token,
      body: [{ barcode: '8690000000017', quantity: MAX_QUANTITY - 1, warehouse_name: 'Main' }],
    });
    const res = await adjust(token, [
      { barcode: '8690000000017', delta: 2, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: -2_000_000_000, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: -1, warehouse_name: 'Main' },
      { barcode: '8690000000017', delta: -1_500_000_000, warehouse_name: 'Backroom' },
    ]);
    const main = { item: 100, liquid_stock: null, barcode: '8690000000017', warehouse: 10, warehouse_name: 'Main' };
    expect(await res.json()).toEqual({
      results: [
        { ...main, quantity: MAX_QUANTITY },
        { ...main, quantity: MIN_QUANTITY },
      ],
      errors: [
        {
          data: { barcode: '8690000000017', delta: 2, warehouse_name: 'Main' },
          errors: { delta: posFieldMessages.resultAboveMax(MAX_QUANTITY, MAX_QUANTITY - 1) },
        },
        {
          data: { barcode: '8690000000017', delta: -1, warehouse_name: 'Main' },
          errors: { delta: posFieldMessages.resultBelowMin(MIN_QUANTITY, MIN_QUANTITY) },
        },
        {
          data: { barcode: '8690000000017', delta: -1_500_000_000, warehouse_name: 'Backroom' },
          errors: { delta: posFieldMessages.resultBelowMin(MIN_QUANTITY, 0) },
        },
      ],
    });
    const records = await quantityOf(token, '8690000000017');
    expect(records.map((r) => [r.warehouse_name, r.quantity])).toEqual([
      ['Main', MIN_QUANTITY],
      ['Backroom', 0],
    ]);
  });

  it("keeps accounts apart: another account's barcode is not found and is not changed", async () => {
    const res = await adjust(server.tokens.kiosk!, [{ barcode: '8690000000017', delta: -1 }]);
    expect(await res.json()).toEqual({
      results: [],
      errors: [{ data: { barcode: '8690000000017', delta: -1 }, errors: { barcode: fieldMessages.barcodeNotFound('8690000000017') } }],
    });
  });

  it('refuses bodies as a whole like the update endpoint and serves the path with and without slash', async () => {
    const token = server.tokens.kiosk!;
    const notList = await adjust(token, { barcode: '111', delta: 1 });
    expect(notList.status).toBe(400);
    expect(await notList.json()).toEqual({ detail: 'Expected a list of rows but got type "dict".', code: 'invalid_body' });
    const tooMany = await adjust(
      token,
      Array.from({ length: 51 }, () => ({ barcode: '111', delta: 1 })),
    );
    expect(tooMany.status).toBe(400);
    const noSlash = await adjust(token, [{ barcode: '111', delta: 0 }], ADJUST_PATH.replace(/\/$/, ''));
    expect(noSlash.status).toBe(200);
    const unauthenticated = await server.request('POST', ADJUST_PATH, { body: [] });
    expect(unauthenticated.status).toBe(401);
    const get = await server.request('GET', ADJUST_PATH, { token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, HEAD, OPTIONS');
  });
});
