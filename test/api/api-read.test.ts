// GET /api/v1/core/item/inventory_by_barcode/ against the real server (spec 4.1, decisions "Read").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, fieldMessages, readResponseSchema, requestMessages } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const catalogue = {
  accounts: [
    {
      name: 'north',
      warehouses_enabled: true,
      warehouses: [
        { id: 11, name: 'Backroom' },
        { id: 10, name: 'Main' },
        { id: 12, name: 'Van' },
      ],
      items: [
        {
          id: 100,
          name: 'Mug',
          barcode: '8690000000017',
          stock: [
            { warehouse: 'Main', quantity: 5 },
            { warehouse: 'Backroom', quantity: 0 },
          ],
        },
        {
          id: 101,
          name: 'T-shirt',
          variants: [{ id: 5001, name: 'S', barcode: '8690000000024', stock: [{ warehouse: 'Main', quantity: 3 }] }],
        },
        { id: 102, name: 'Unstocked', barcode: '0042' },
        {
          id: 103,
          name: 'Odd codes',
          variants: [
            { id: 5002, name: 'space', barcode: 'A B/7-x', stock: [{ warehouse: 'Van', quantity: -2 }] },
            { id: 5003, name: 'unicode', barcode: 'Ünï-コード', stock: [{ warehouse: 'Van', quantity: 1 }] },
            { id: 5004, name: 'case', barcode: 'abc', stock: [{ warehouse: 'Van', quantity: 9 }] },
          ],
        },
      ],
    },
    {
      name: 'kiosk',
      warehouses_enabled: false,
      items: [
        { id: 200, name: 'Pen', barcode: '111', stock: [{ quantity: 7 }] },
        { id: 201, name: 'Ink', variants: [{ id: 6001, name: 'Blue', barcode: '222' }] },
      ],
    },
  ],
};

describe('read stock by barcode', () => {
  let server: TestServer;
  const get = async (query: string, account = 'north') => {
    const res = await server.request('GET', `${INVENTORY_PATH}?${query}`, { token: server.tokens[account] });
    return { status: res.status, body: await res.json() };
  };
  beforeAll(async () => {
    server = await startTestServer(catalogue);
  });
  afterAll(() => server.stop());

  it('answers one record per warehouse with stock, zero quantities included, ordered by warehouse id', async () => {
    const { status, body } = await get('barcodes=8690000000017');
    expect(status).toBe(200);
    expect(readResponseSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      results: [
        { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 5, warehouse: 10, warehouse_name: 'Main' },
        { item: 100, liquid_stock: null, barcode: '8690000000017', quantity: 0, warehouse: 11, warehouse_name: 'Backroom' },
      ],
      errors: [],
    });
  });

  it('marks variant records with liquid_stock = the variant id and item = the parent', async () => {
    const { body } = await get('barcodes=8690000000024');
    expect(body.results).toEqual([
      { item: 101, liquid_stock: 5001, barcode: '8690000000024', quantity: 3, warehouse: 10, warehouse_name: 'Main' },
    ]);
  });

  it('answers a known barcode without stock definitions with a zero record per warehouse', async () => {
    const { body } = await get('barcodes=0042');
    expect(body.results.map((r: { warehouse: number; quantity: number }) => [r.warehouse, r.quantity])).toEqual([
      [10, 0],
      [11, 0],
      [12, 0],
    ]);
    expect(body.errors).toEqual([]);
  });

  it('orders results by request order then warehouse, errors by request order, each barcode once', async () => {
    const { body } = await get(`barcodes=${encodeURIComponent(' nope1 ,8690000000024,,8690000000017, nope2,8690000000024')}`);
    expect(body.results.map((r: { barcode: string; warehouse: number }) => `${r.barcode}@${r.warehouse}`)).toEqual([
      '8690000000024@10',
      '8690000000017@10',
      '8690000000017@11',
    ]);
    expect(body.errors).toEqual([
      { barcode: 'nope1', errors: { barcode: fieldMessages.barcodeNotFound('nope1') } },
      { barcode: 'nope2', errors: { barcode: fieldMessages.barcodeNotFound('nope2') } },
    ]);
  });

  it('keeps barcodes exactly: leading zeros, spaces inside, slashes, non-ASCII, case', async () => {
    const { body } = await get(`barcodes=${encodeURIComponent('042,A B/7-x,Ünï-コード,ABC,abc')}`);
    expect(body.results.map((r: { barcode: string; quantity: number }) => [r.barcode, r.quantity])).toEqual([
      ['A B/7-x', -2],
      ['Ünï-コード', 1],
      ['abc', 9],
    ]);
    expect(body.errors.map((e: { barcode: string }) => e.barcode)).toEqual(['042', 'ABC']);
  });

  it('answers the no-warehouse scenario without warehouse keys, zero for a barcode without stock', async () => {
    const { body } = await get('barcodes=111,222,8690000000017', 'kiosk');
    expect(body).toEqual({
      results: [
        { item: 200, liquid_stock: null, barcode: '111', quantity: 7 },
        { item: 201, liquid_stock: 6001, barcode: '222', quantity: 0 },
      ],
      errors: [{ barcode: '8690000000017', errors: { barcode: fieldMessages.barcodeNotFound('8690000000017') } }],
    });
  });

  it('accepts 50 distinct barcodes (repeats not counted) and refuses 51 with a message naming the limit', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `x${i}`);
    const ok = await get(`barcodes=${[...fifty, 'x0', 'x1'].join(',')}`);
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toHaveLength(50);
    const refused = await get(`barcodes=${[...fifty, '8690000000017'].join(',')}`);
    expect(refused).toEqual({ status: 400, body: { detail: requestMessages.tooManyBarcodes(51), code: 'invalid_barcodes' } });
    expect(requestMessages.tooManyBarcodes(51)).toContain('50');
  });

  it('refuses a missing or empty barcodes parameter with 400', async () => {
    for (const query of ['', 'barcodes=', 'barcodes=%20,%20', 'other=1']) {
      expect(await get(query)).toEqual({ status: 400, body: { detail: requestMessages.barcodesRequired, code: 'invalid_barcodes' } });
    }
  });

  it('treats a repeated barcodes parameter as one list', async () => {
    const { body } = await get('barcodes=8690000000024&barcodes=nope');
    expect(body.results).toHaveLength(1);
    expect(body.errors.map((e: { barcode: string }) => e.barcode)).toEqual(['nope']);
  });
});
