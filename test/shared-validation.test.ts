// The pure rules of shared/: quantity parsing, row validation, barcode lists and partial results.
import { describe, expect, it } from 'vitest';
import {
  MAX_BARCODES_PER_READ,
  assembleReadResponse,
  checkUpdateRow,
  fieldMessages,
  parseBarcodeList,
  parseQuantity,
  planUpdate,
  requestMessages,
  validateUpdateRows,
} from '../shared/index.ts';

describe('parseQuantity', () => {
  it.each([
    [5, 5],
    [0, 0],
    [-0, 0],
    [-3, -3],
    ['42', 42],
    ['-7', -7],
    [' 8 ', 8],
    [5.0, 5],
    [1_000_000_000, 1_000_000_000],
    [-1_000_000_000, -1_000_000_000],
  ])('accepts %j as %j', (input, expected) => expect(parseQuantity(input)).toBe(expected));

  it.each([
    [undefined, fieldMessages.required],
    [null, fieldMessages.notNull],
    [1.5, fieldMessages.notAnInteger],
    ['1.5', fieldMessages.notAnInteger],
    ['abc', fieldMessages.notAnInteger],
    ['', fieldMessages.notAnInteger],
    ['1e3', fieldMessages.notAnInteger],
    [true, fieldMessages.notAnInteger],
    [[1], fieldMessages.notAnInteger],
    [{}, fieldMessages.notAnInteger],
    [Number.NaN, fieldMessages.notAnInteger],
    [1_000_000_001, fieldMessages.maxValue(1_000_000_000)],
    ['-1000000001', fieldMessages.minValue(-1_000_000_000)],
    ['99999999999999999999999', fieldMessages.maxValue(1_000_000_000)],
  ])('refuses %j with %j', (input, message) => expect(parseQuantity(input)).toBe(message));
});

describe('checkUpdateRow', () => {
  it('accepts a warehouse row and normalises the quantity', () => {
    expect(checkUpdateRow({ barcode: '007', quantity: '3', warehouse_name: 'Main' }, true)).toEqual({
      ok: true,
      row: { barcode: '007', quantity: 3, warehouse_name: 'Main' },
    });
  });

  it('ignores warehouse_name without warehouses', () => {
    expect(checkUpdateRow({ barcode: 'a', quantity: 1, warehouse_name: 42 }, false)).toEqual({ ok: true, row: { barcode: 'a', quantity: 1 } });
  });

  it('reports every bad field with its message', () => {
    expect(checkUpdateRow({ barcode: 12, quantity: 'x' }, true)).toEqual({
      ok: false,
      errors: { barcode: fieldMessages.notAString, quantity: fieldMessages.notAnInteger, warehouse_name: fieldMessages.required },
    });
    expect(checkUpdateRow({ barcode: '', quantity: null, warehouse_name: '' }, true)).toEqual({
      ok: false,
      errors: { barcode: fieldMessages.blank, quantity: fieldMessages.notNull, warehouse_name: fieldMessages.blank },
    });
    expect(checkUpdateRow({ barcode: 'x'.repeat(129), quantity: 1 }, false)).toEqual({
      ok: false,
      errors: { barcode: fieldMessages.maxLength(128) },
    });
    expect(checkUpdateRow({}, false)).toEqual({ ok: false, errors: { barcode: fieldMessages.required, quantity: fieldMessages.required } });
  });

  it.each([
    [[], 'list'],
    ['row', 'str'],
    [3, 'int'],
    [null, 'null'],
    [true, 'bool'],
  ])('refuses a row that is not an object (%j) under non_field_errors', (row, type) => {
    expect(checkUpdateRow(row, true)).toEqual({ ok: false, errors: { non_field_errors: fieldMessages.notAnObject(type) } });
  });

  it('keeps barcodes exactly as sent', () => {
    for (const barcode of ['0001', ' a b ', 'A/B-1', 'Ünïcødé', '١٢٣']) {
      expect(checkUpdateRow({ barcode, quantity: 1 }, false)).toEqual({ ok: true, row: { barcode, quantity: 1 } });
    }
  });
});

describe('parseBarcodeList', () => {
  it('splits, trims, drops empties and repeats, keeping first order', () => {
    expect(parseBarcodeList(' b , a,,b, c ,')).toEqual({ ok: true, barcodes: ['b', 'a', 'c'] });
  });
  it('joins a repeated parameter', () => {
    expect(parseBarcodeList(['a,b', 'c'])).toEqual({ ok: true, barcodes: ['a', 'b', 'c'] });
  });
  it('refuses a missing or empty list', () => {
    for (const value of [undefined, null, '', ' , ,']) {
      expect(parseBarcodeList(value)).toEqual({ ok: false, detail: requestMessages.barcodesRequired });
    }
  });
  it(`accepts ${MAX_BARCODES_PER_READ} distinct barcodes and refuses one more`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `b${i}`).join(',');
    expect(parseBarcodeList(list(50))).toMatchObject({ ok: true });
    expect(parseBarcodeList(`${list(50)},b0,b1`)).toMatchObject({ ok: true });
    expect(parseBarcodeList(list(51))).toEqual({ ok: false, detail: requestMessages.tooManyBarcodes(51) });
  });
});

describe('assembleReadResponse', () => {
  it('puts every barcode in results or errors, in request order', () => {
    const record = (barcode: string) => ({ item: 1, liquid_stock: null, barcode, quantity: 2 });
    const known = new Map([['k1', [record('k1')]], ['k2', [record('k2')]]]);
    expect(assembleReadResponse(['u1', 'k2', 'u2', 'k1'], (b) => known.get(b))).toEqual({
      results: [record('k2'), record('k1')],
      errors: [
        { barcode: 'u1', errors: { barcode: fieldMessages.barcodeNotFound('u1') } },
        { barcode: 'u2', errors: { barcode: fieldMessages.barcodeNotFound('u2') } },
      ],
    });
  });
});

describe('planUpdate', () => {
  const rows = [
    { barcode: 'known', quantity: 1, warehouse_name: 'Main' },
    { barcode: 'unknown', quantity: 2, warehouse_name: 'Nowhere' },
    'not a row',
    { barcode: 'known', quantity: 3, warehouse_name: 'Nowhere' },
    { barcode: 'known', quantity: 4, warehouse_name: 'Main' },
  ];
  const plan = planUpdate(rows, validateUpdateRows(rows, true), {
    warehousesEnabled: true,
    unitOf: (b) => (b === 'known' ? 'unit' : undefined),
    warehouseOf: (n) => (n === 'Main' ? 'wh' : undefined),
  });

  it('applies valid rows in request order', () => {
    expect(plan.apply.map((r) => [r.index, r.row.quantity, r.unit, r.warehouse])).toEqual([
      [0, 1, 'unit', 'wh'],
      [4, 4, 'unit', 'wh'],
    ]);
  });

  it('reports unknown barcode before unknown warehouse, errors in request order, rows echoed as sent', () => {
    expect(plan.errors).toEqual([
      { data: rows[1], errors: { barcode: fieldMessages.barcodeNotFound('unknown') } },
      { data: 'not a row', errors: { non_field_errors: fieldMessages.notAnObject('str') } },
      { data: rows[3], errors: { warehouse_name: fieldMessages.warehouseNotFound('Nowhere') } },
    ]);
  });
});
