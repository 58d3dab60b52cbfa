// Rows of one request that touch the same unit and warehouse more than once (docs/POS.md): each row
// sees the quantity the rows before it left, as it did when every row was written on its own — a
// guarded set compares against the set before it, an adjustment's range check adds to the one before
// it — and the history records one movement per applied row, in request order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, MAX_QUANTITY, MIN_QUANTITY, posFieldMessages } from '../../shared/index.ts';
import { shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';
import { sourceNameOf } from '../support/database-probe.ts';

interface Movement {
  warehouse_id: number;
  kind: string;
  value: number;
  old_quantity: number | null;
  new_quantity: number;
  seq: number;
  hlc: string;
}

const MAIN = 70;
const BACK = 71;

describe('a request touching the same unit twice', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(5)); // B0000 … B0004, 10 each in Main, none in Back
  });
  afterAll(() => server.stop());

  const post = async (path: string, rows: unknown[]) => {
    const res = await server.request('POST', path, { token: server.tokens.shop, body: rows });
    expect(res.status).toBe(200);
    return res.json();
  };
  /** The movements the API recorded for a barcode, in the order they were recorded. */
  const movements = (barcode: string) =>
    server.probe.all<Movement>(
      `SELECT h.warehouse_id, h.kind, h.value, h.old_quantity, h.new_quantity, h.seq, h.hlc
         FROM stock_history h JOIN stock_units u ON u.id = h.unit_id
        WHERE u.barcode = ? AND ${sourceNameOf('h')} = 'api' ORDER BY h.id`,
      barcode,
    );
  const stored = async (barcode: string) =>
    server.probe.all<{ warehouse_id: number; quantity: number }>(
      `SELECT s.warehouse_id, s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id WHERE u.barcode = ? ORDER BY s.warehouse_id`,
      barcode,
    );
  const record = (barcode: string, warehouse: number, quantity: number) => ({
    item: 1000 + Number(barcode.slice(1)),
    liquid_stock: null,
    barcode,
    quantity,
    warehouse,
    warehouse_name: warehouse === MAIN ? 'Main' : 'Back',
  });
  const inOrder = (rows: Movement[]) => {
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.seq).toBe(rows[i - 1]!.seq + 1);
      expect(rows[i]!.hlc > rows[i - 1]!.hlc).toBe(true);
    }
  };

  it('compares a guarded set with the set before it in the same request', async () => {
    const rows = [
      { barcode: 'B0001', quantity: 5, warehouse_name: 'Main' },
      { barcode: 'B0001', quantity: 7, compare_quantity: 5, warehouse_name: 'Main' },
      { barcode: 'B0001', quantity: 9, compare_quantity: 5, warehouse_name: 'Main' }, // stale: the row before left 7
      { barcode: 'B0001', quantity: 3, compare_quantity: 0, warehouse_name: 'Back' }, // no definition counts as 0
      { barcode: 'B0001', quantity: 4, compare_quantity: 0, warehouse_name: 'Back' }, // stale: the row before left 3
    ];
    expect(await post(INVENTORY_PATH, rows)).toEqual({
      results: [record('B0001', MAIN, 5), record('B0001', MAIN, 7), record('B0001', BACK, 3)],
      errors: [
        { data: rows[2], errors: { quantity: posFieldMessages.staleQuantity(7, 5) } },
        { data: rows[4], errors: { quantity: posFieldMessages.staleQuantity(3, 0) } },
      ],
    });
    const recorded = await movements('B0001');
    expect(recorded.map(({ seq: _, hlc: __, ...m }) => m)).toEqual([
      { warehouse_id: MAIN, kind: 'set', value: 5, old_quantity: 10, new_quantity: 5 },
      { warehouse_id: MAIN, kind: 'set', value: 7, old_quantity: 5, new_quantity: 7 },
      { warehouse_id: BACK, kind: 'set', value: 3, old_quantity: null, new_quantity: 3 },
    ]);
    inOrder(recorded);
    expect(await stored('B0001')).toEqual([
      { warehouse_id: MAIN, quantity: 7 },
      { warehouse_id: BACK, quantity: 3 },
    ]);
  });

  it('checks each adjustment against what the adjustments before it left, past either limit', async () => {
    const rows = [
      { barcode: 'B0002', delta: MAX_QUANTITY - 15, warehouse_name: 'Main' },
      { barcode: 'B0002', delta: 10, warehouse_name: 'Main' }, // would reach MAX_QUANTITY + 5
      { barcode: 'B0002', delta: -3, warehouse_name: 'Main' },
      { barcode: 'B0002', delta: MIN_QUANTITY - 1, warehouse_name: 'Back' }, // below the minimum from no definition (0)
      { barcode: 'B0002', delta: -4, warehouse_name: 'Back' }, // creates the definition
      { barcode: 'B0002', delta: 2, warehouse_name: 'Back' },
      { barcode: 'B0002', delta: MIN_QUANTITY + 1, warehouse_name: 'Back' }, // would reach MIN_QUANTITY - 1
    ];
    expect(await post(ADJUST_PATH, rows)).toEqual({
      results: [
        record('B0002', MAIN, MAX_QUANTITY - 5),
        record('B0002', MAIN, MAX_QUANTITY - 8),
        record('B0002', BACK, -4),
        record('B0002', BACK, -2),
      ],
      errors: [
        { data: rows[1], errors: { delta: posFieldMessages.resultAboveMax(MAX_QUANTITY, MAX_QUANTITY - 5) } },
        { data: rows[3], errors: { delta: posFieldMessages.resultBelowMin(MIN_QUANTITY, 0) } },
        { data: rows[6], errors: { delta: posFieldMessages.resultBelowMin(MIN_QUANTITY, -2) } },
      ],
    });
    const recorded = await movements('B0002');
    expect(recorded.map(({ seq: _, hlc: __, ...m }) => m)).toEqual([
      { warehouse_id: MAIN, kind: 'adjust', value: MAX_QUANTITY - 15, old_quantity: 10, new_quantity: MAX_QUANTITY - 5 },
      { warehouse_id: MAIN, kind: 'adjust', value: -3, old_quantity: MAX_QUANTITY - 5, new_quantity: MAX_QUANTITY - 8 },
      { warehouse_id: BACK, kind: 'adjust', value: -4, old_quantity: null, new_quantity: -4 },
      { warehouse_id: BACK, kind: 'adjust', value: 2, old_quantity: -4, new_quantity: -2 },
    ]);
    inOrder(recorded);
    expect(await stored('B0002')).toEqual([
      { warehouse_id: MAIN, quantity: MAX_QUANTITY - 8 },
      { warehouse_id: BACK, quantity: -2 },
    ]);
  });
});
