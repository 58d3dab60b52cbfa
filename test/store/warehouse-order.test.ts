// The read's check that a barcode's records are already in warehouse order (server/store/stock-read.ts):
// only records out of order are sorted. test/api/api-read checks the order of whole answers on both engines.
import { describe, expect, it } from 'vitest';
import { inWarehouseOrder } from '../../server/store/stock-read.ts';

const records = (...warehouses: number[]) =>
  warehouses.map((warehouse) => ({ item: 1, liquid_stock: null, barcode: 'b', quantity: 0, warehouse, warehouse_name: `W${warehouse}` }));

describe('inWarehouseOrder', () => {
  it('holds for no record, one record and records by rising warehouse id', () => {
    expect(inWarehouseOrder(records())).toBe(true);
    expect(inWarehouseOrder(records(7))).toBe(true);
    expect(inWarehouseOrder(records(3, 10, 11, 12))).toBe(true);
  });

  it('fails for any pair out of order, wherever it is', () => {
    expect(inWarehouseOrder(records(11, 10))).toBe(false);
    expect(inWarehouseOrder(records(10, 12, 11))).toBe(false);
    expect(inWarehouseOrder(records(12, 10, 11))).toBe(false);
  });
});
