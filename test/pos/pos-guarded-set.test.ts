// Guarded sets (`compare_quantity` on update rows, docs/POS.md) against the real server: stale rows
// are rejected under `quantity` with the current value, and only those; reasons reach the history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, fieldMessages, posFieldMessages, updateResponseSchema } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('guarded sets on POST update', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const update = (token: string, body: unknown) => server.request('POST', INVENTORY_PATH, { token, body });
  const read = async (token: string, barcodes: string) => {
    const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${barcodes}`, { token });
    return ((await res.json()) as { results: { barcode: string; quantity: number; warehouse_name?: string }[] }).results;
  };
  const historyCount = async () => Number((await server.probe.first<{ n: number }>('SELECT count(*) AS n FROM stock_history'))!.n);

  it('applies a row whose compare_quantity matches, and rejects a stale one without changing anything', async () => {
    const token = server.tokens.kiosk!;
    const fresh = await update(token, [{ barcode: '111', quantity: 6, compare_quantity: 7 }]);
    expect(await fresh.json()).toEqual({ results: [{ item: 200, liquid_stock: null, barcode: '111', quantity: 6 }], errors: [] });
    const before = await historyCount();
    const stale = await update(token, [{ barcode: '111', quantity: 5, compare_quantity: 7 }]);
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual({
      results: [],
      errors: [{ data: { barcode: '111', quantity: 5, compare_quantity: 7 }, errors: { quantity: posFieldMessages.staleQuantity(6, 7) } }],
    });
    expect((await read(token, '111'))[0]!.quantity).toBe(6);
    expect(await historyCount()).toBe(before);
  });

  it('rejects only the stale rows of a mixed request, errors in request order', async () => {
    const token = server.tokens.north!;
    const rows = [
      { barcode: '8690000000017', quantity: 50, warehouse_name: 'Main', compare_quantity: 4 }, // stale: Main holds 5
      { barcode: 'unknown', quantity: 1, warehouse_name: 'Main' },
      { barcode: '8690000000017', quantity: 1, warehouse_name: 'Backroom', compare_quantity: '0' },
      { barcode: '8690000000024', quantity: 8, warehouse_name: 'Main' }, // no guard
      { barcode: '8690000000024', quantity: 9, warehouse_name: 'Backroom', compare_quantity: 0 }, // no definition counts as 0
      { barcode: '8690000000024', quantity: 1, warehouse_name: 'Main', compare_quantity: 'three' },
    ];
    const res = await update(token, rows);
    const body = updateResponseSchema.parse(await res.json());
    expect(body.results.map((r) => [r.barcode, 'warehouse_name' in r ? r.warehouse_name : null, r.quantity])).toEqual([
      ['8690000000017', 'Backroom', 1],
      ['8690000000024', 'Main', 8],
      ['8690000000024', 'Backroom', 9],
    ]);
    expect(body.errors).toEqual([
      { data: rows[0], errors: { quantity: posFieldMessages.staleQuantity(5, 4) } },
      { data: rows[1], errors: { barcode: fieldMessages.barcodeNotFound('unknown') } },
      { data: rows[5], errors: { compare_quantity: fieldMessages.notAnInteger } },
    ]);
    const stored = await read(token, '8690000000017,8690000000024');
    expect(stored.map((r) => [r.barcode, r.warehouse_name, r.quantity])).toEqual([
      ['8690000000017', 'Main', 5],
      ['8690000000017', 'Backroom', 1],
      ['8690000000024', 'Main', 8],
      ['8690000000024', 'Backroom', 9],
    ]);
  });

  it('compares each row with the quantity left by the rows before it in the same request', async () => {
    const token = server.tokens.kiosk!;
    const [current] = await read(token, '111');
    const q = current!.quantity;
    const res = await update(token, [
      { barcode: '111', quantity: q + 10, compare_quantity: q },
      { barcode: '111', quantity: q + 20, compare_quantity: q },
    ]);
    const body = updateResponseSchema.parse(await res.json());
    expect(body.results.map((r) => r.quantity)).toEqual([q + 10]);
    expect(body.errors[0]!.errors).toEqual({ quantity: posFieldMessages.staleQuantity(q + 10, q) });
  });

  it('loses no increment when 8 clients read-then-set under a guard and retry when stale', async () => {
    const token = server.tokens.kiosk!;
    const start = (await read(token, '111'))[0]!.quantity;
    let staleAnswers = 0;
    const client = async () => {
      for (let done = 0; done < 10;) {
        const current = (await read(token, '111'))[0]!.quantity;
        const res = await update(token, [{ barcode: '111', quantity: current + 1, compare_quantity: current }]);
        const body = updateResponseSchema.parse(await res.json());
        if (body.results.length === 1) done++;
        else {
          expect(body.errors[0]!.errors).toHaveProperty('quantity');
          if (++staleAnswers > 10_000) throw new Error('guarded sets never succeeded');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect((await read(token, '111'))[0]!.quantity).toBe(start + 80);
  });

  it("records a row's reason and reference in the stock history", async () => {
    const token = server.tokens.kiosk!;
    const q = (await read(token, '111'))[0]!.quantity;
    await update(token, [{ barcode: '111', quantity: q + 3, reason: 'count', reference: 'stocktake 2026-11', compare_quantity: null }]);
    const last = await server.probe.first(
      'SELECT old_quantity, new_quantity, reason, reference FROM stock_history ORDER BY id DESC LIMIT 1',
    );
    expect(last).toEqual({ old_quantity: q, new_quantity: q + 3, reason: 'count', reference: 'stocktake 2026-11' });
  });
});
