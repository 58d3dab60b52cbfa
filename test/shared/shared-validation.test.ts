// The pure rules of shared/: quantity parsing, row validation, barcode lists and partial results.
import { describe, expect, it } from 'vitest';
import {
  MAX_BARCODES_PER_READ,
  MAX_ECHOED_CHARS,
  type RowLookups,
  assembleReadResponse,
  checkUpdateRow,
  decideRow,
  echoRow,
  fieldMessages,
  lookupKeys,
  parseBarcodeList,
  parseQuantity,
  posFieldMessages,
  requestMessages,
  writeResponse,
} from '../../shared/index.ts';

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
    expect(checkUpdateRow({ barcode: 'a', quantity: 1, warehouse_name: 42 }, false)).toEqual({
      ok: true,
      row: { barcode: 'a', quantity: 1 },
    });
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

  it('still names the valid barcode and warehouse of a refused row, so they can be looked up', () => {
    expect(checkUpdateRow({ barcode: 'nope', quantity: 'x', warehouse_name: 'Main' }, true)).toEqual({
      ok: false,
      errors: { quantity: fieldMessages.notAnInteger },
      barcode: 'nope',
      warehouseName: 'Main',
    });
    expect(checkUpdateRow({ barcode: 'nope', quantity: 1 }, true)).toEqual({
      ok: false,
      errors: { warehouse_name: fieldMessages.required },
      barcode: 'nope',
    });
    expect(checkUpdateRow({ barcode: 7, quantity: null, warehouse_name: 'Main' }, true)).toEqual({
      ok: false,
      errors: { barcode: fieldMessages.notAString, quantity: fieldMessages.notNull },
      warehouseName: 'Main',
    });
    // Without warehouses the name is not part of the row, valid or not.
    expect(checkUpdateRow({ barcode: 'b', quantity: 1.5, warehouse_name: 'Main' }, false)).toEqual({
      ok: false,
      errors: { quantity: fieldMessages.notAnInteger },
      barcode: 'b',
    });
    // Every field is checked, the optional POS fields too, each with its own message.
    expect(
      checkUpdateRow(
        { barcode: '', quantity: '1e3', warehouse_name: null, compare_quantity: 'x', reason: 'two words', reference: '' },
        true,
      ),
    ).toEqual({
      ok: false,
      errors: {
        barcode: fieldMessages.blank,
        quantity: fieldMessages.notAnInteger,
        warehouse_name: fieldMessages.notNull,
        compare_quantity: fieldMessages.notAnInteger,
        reason: posFieldMessages.reasonFormat(32),
        reference: fieldMessages.blank,
      },
    });
  });

  it('refuses a reference with control or text-direction characters, as it refuses them in names', () => {
    for (const [reference, name, position] of [
      ['R-1\u202E', 'U+202E', 4],
      ['\u001b[2JR', 'U+001B (ESC)', 1],
      ['R\r\n2', 'U+000D (CR)', 2],
    ] as const) {
      expect(checkUpdateRow({ barcode: 'b', quantity: 1, reference }, false)).toEqual({
        ok: false,
        errors: { reference: fieldMessages.unsafeCharacter(name, position) },
        barcode: 'b',
      });
    }
    // Letters of every script, and the joiners some of them need, are text.
    expect(checkUpdateRow({ barcode: 'b', quantity: 1, reference: 'Fiş-١٢ क्‍ष <b>' }, false)).toMatchObject({ ok: true });
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
    const known = new Map([
      ['k1', [record('k1')]],
      ['k2', [record('k2')]],
    ]);
    expect(assembleReadResponse(['u1', 'k2', 'u2', 'k1'], (b) => known.get(b))).toEqual({
      results: [record('k2'), record('k1')],
      errors: [
        { barcode: 'u1', errors: { barcode: fieldMessages.barcodeNotFound('u1') } },
        { barcode: 'u2', errors: { barcode: fieldMessages.barcodeNotFound('u2') } },
      ],
    });
  });
});

describe('lookupKeys', () => {
  it('asks for every valid barcode and warehouse name once, of accepted and refused rows alike, in first-seen order', () => {
    const checks = [
      checkUpdateRow({ barcode: 'b2', quantity: 1, warehouse_name: 'Main' }, true),
      checkUpdateRow({ barcode: 'b1', quantity: 'x', warehouse_name: 'Back' }, true),
      checkUpdateRow({ barcode: 'b2', quantity: 2, warehouse_name: 'Back' }, true),
      checkUpdateRow({ barcode: 3, quantity: 1, warehouse_name: 'Attic' }, true),
      checkUpdateRow({ barcode: 'b3', quantity: 1, warehouse_name: '' }, true),
      checkUpdateRow('not a row', true),
    ];
    expect(lookupKeys(checks)).toEqual({ barcodes: ['b2', 'b1', 'b3'], warehouseNames: ['Main', 'Back', 'Attic'] });
  });

  it('asks for no warehouse without warehouses, and for nothing when no field is valid', () => {
    expect(lookupKeys([checkUpdateRow({ barcode: 'a', quantity: 1, warehouse_name: 'Main' }, false)])).toEqual({
      barcodes: ['a'],
      warehouseNames: [],
    });
    expect(lookupKeys([checkUpdateRow({}, true), checkUpdateRow(null, true)])).toEqual({ barcodes: [], warehouseNames: [] });
  });
});

describe('decideRow', () => {
  /** Lookups over a tiny catalogue that count what they were asked. */
  const lookups = (warehousesEnabled = true) => {
    const asked = { units: [] as string[], warehouses: [] as string[] };
    const l: RowLookups<string, string> = {
      warehousesEnabled,
      unitOf: (barcode) => (asked.units.push(barcode), barcode === 'known' ? 'unit' : undefined),
      warehouseOf: (name) => (asked.warehouses.push(name), name === 'Main' ? 'wh' : undefined),
    };
    return { l, asked };
  };
  const decide = (row: unknown, warehousesEnabled = true) => {
    const { l, asked } = lookups(warehousesEnabled);
    return { decision: decideRow(checkUpdateRow(row, warehousesEnabled), l), asked };
  };

  it('applies a valid row of a known barcode and warehouse, with what they resolved to', () => {
    expect(decide({ barcode: 'known', quantity: '4', warehouse_name: 'Main' })).toEqual({
      decision: { apply: true, row: { barcode: 'known', quantity: 4, warehouse_name: 'Main' }, unit: 'unit', warehouse: 'wh' },
      asked: { units: ['known'], warehouses: ['Main'] },
    });
    expect(decide({ barcode: 'known', quantity: 4, warehouse_name: 'Nowhere' }, false)).toEqual({
      decision: { apply: true, row: { barcode: 'known', quantity: 4 }, unit: 'unit', warehouse: null },
      asked: { units: ['known'], warehouses: [] },
    });
  });

  it('reports an unknown barcode without looking at its warehouse', () => {
    expect(decide({ barcode: 'nope', quantity: 1, warehouse_name: 'Nowhere' })).toEqual({
      decision: { apply: false, errors: { barcode: fieldMessages.barcodeNotFound('nope') } },
      asked: { units: ['nope'], warehouses: [] },
    });
  });

  it('reports an unknown warehouse of a known barcode', () => {
    expect(decide({ barcode: 'known', quantity: 1, warehouse_name: 'Nowhere' }).decision).toEqual({
      apply: false,
      errors: { warehouse_name: fieldMessages.warehouseNotFound('Nowhere') },
    });
  });

  it('reports every error of a row at once: its field errors beside an unknown barcode or warehouse', () => {
    const badQuantities: [unknown, string][] = [
      ['x', fieldMessages.notAnInteger],
      [1.5, fieldMessages.notAnInteger],
      [1_000_000_001, fieldMessages.maxValue(1_000_000_000)],
      [-1_000_000_001, fieldMessages.minValue(-1_000_000_000)],
      [undefined, fieldMessages.required],
      [null, fieldMessages.notNull],
    ];
    for (const [quantity, message] of badQuantities) {
      // Unknown barcode and a bad quantity: both, and the warehouse still not looked at.
      expect(decide({ barcode: 'nope', quantity, warehouse_name: 'Nowhere' }), String(quantity)).toEqual({
        decision: { apply: false, errors: { barcode: fieldMessages.barcodeNotFound('nope'), quantity: message } },
        asked: { units: ['nope'], warehouses: [] },
      });
      // Known barcode, unknown warehouse and a bad quantity: both.
      expect(decide({ barcode: 'known', quantity, warehouse_name: 'Nowhere' }).decision, String(quantity)).toEqual({
        apply: false,
        errors: { warehouse_name: fieldMessages.warehouseNotFound('Nowhere'), quantity: message },
      });
      // Known barcode and warehouse: the bad quantity alone.
      expect(decide({ barcode: 'known', quantity, warehouse_name: 'Main' }).decision, String(quantity)).toEqual({
        apply: false,
        errors: { quantity: message },
      });
      // No warehouses: an unknown barcode beside the bad quantity.
      expect(decide({ barcode: 'nope', quantity }, false).decision, String(quantity)).toEqual({
        apply: false,
        errors: { barcode: fieldMessages.barcodeNotFound('nope'), quantity: message },
      });
    }
    // A missing or invalid warehouse_name beside an unknown barcode (the DRF example of the docs).
    expect(decide({ barcode: 'nope', quantity: 1 }).decision).toEqual({
      apply: false,
      errors: { barcode: fieldMessages.barcodeNotFound('nope'), warehouse_name: fieldMessages.required },
    });
    expect(decide({ barcode: 'known', quantity: 1, warehouse_name: '' })).toEqual({
      decision: { apply: false, errors: { warehouse_name: fieldMessages.blank } },
      asked: { units: ['known'], warehouses: [] },
    });
  });

  it('looks nothing up for a row without a valid barcode', () => {
    expect(decide({ barcode: 12, quantity: 'x', warehouse_name: 'Nowhere' })).toEqual({
      decision: { apply: false, errors: { barcode: fieldMessages.notAString, quantity: fieldMessages.notAnInteger } },
      asked: { units: [], warehouses: [] },
    });
    expect(decide(['known', 1])).toEqual({
      decision: { apply: false, errors: { non_field_errors: fieldMessages.notAnObject('list') } },
      asked: { units: [], warehouses: [] },
    });
  });
});

describe('echoRow', () => {
  const long = 'x'.repeat(MAX_ECHOED_CHARS + 1);
  const cut = `${'x'.repeat(MAX_ECHOED_CHARS)}…`;

  it('echoes the known fields of a row as sent, and nothing else', () => {
    const row = {
      barcode: '007',
      quantity: '3',
      delta: -1,
      warehouse_name: null,
      compare_quantity: 2,
      reason: 'sale',
      reference: 'R-1',
      extra: 'x',
      pad: 'y'.repeat(10_000),
    };
    expect(echoRow(row)).toEqual({
      barcode: '007',
      quantity: '3',
      delta: -1,
      warehouse_name: null,
      compare_quantity: 2,
      reason: 'sale',
      reference: 'R-1',
    });
    expect(echoRow({ colour: 'red' })).toEqual({});
    expect(echoRow(JSON.parse('{"__proto__": {"barcode": "x"}, "quantity": 1}'))).toEqual({ quantity: 1 });
  });

  it(`cuts a string longer than ${MAX_ECHOED_CHARS} characters and leaves out a longer list or object`, () => {
    expect(echoRow({ barcode: 'x'.repeat(MAX_ECHOED_CHARS), reference: long })).toEqual({
      barcode: 'x'.repeat(MAX_ECHOED_CHARS),
      reference: cut,
    });
    const small = [1, 2, { a: 'b' }];
    const big = Array.from({ length: 100 }, (_, i) => i);
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_ECHOED_CHARS);
    expect(echoRow({ barcode: small, quantity: { n: 'y'.repeat(MAX_ECHOED_CHARS) }, warehouse_name: big })).toEqual({
      barcode: small,
      quantity: null,
      warehouse_name: null,
    });
    // Exactly at the bound is kept.
    const atBound = ['z'.repeat(MAX_ECHOED_CHARS - 4)];
    expect(JSON.stringify(atBound)).toHaveLength(MAX_ECHOED_CHARS);
    expect(echoRow({ barcode: atBound })).toEqual({ barcode: atBound });
  });

  it('echoes a row that is not an object as sent, under the same bound', () => {
    for (const row of [null, 3, true, 'short', ['a', 1]]) expect(echoRow(row)).toEqual(row);
    expect(echoRow(long)).toBe(cut);
    expect(echoRow(Array.from({ length: 100 }, () => 'row'))).toBeNull();
  });
});

describe('writeResponse', () => {
  it('answers one record per applied row and one error entry per refused row, in request order, rows echoed', () => {
    const record = (barcode: string, quantity: number) => ({ item: 1, liquid_stock: null, barcode, quantity });
    const rows = [
      { barcode: 'a', quantity: 1 },
      { barcode: 'gone', quantity: 1, extra: 'not echoed' },
      'not a row',
      { barcode: 'b', quantity: 2 },
      { barcode: 'a', quantity: 'x'.repeat(1000) },
    ];
    const response = writeResponse(rows, [
      { ok: true, record: record('a', 1) },
      { ok: false, errors: { barcode: fieldMessages.barcodeNotFound('gone') } },
      { ok: false, errors: { non_field_errors: fieldMessages.notAnObject('str') } },
      { ok: true, record: record('b', 2) },
      { ok: false, errors: { quantity: fieldMessages.notAnInteger } },
    ]);
    expect(response).toEqual({
      results: [record('a', 1), record('b', 2)],
      errors: [
        { data: { barcode: 'gone', quantity: 1 }, errors: { barcode: fieldMessages.barcodeNotFound('gone') } },
        { data: 'not a row', errors: { non_field_errors: fieldMessages.notAnObject('str') } },
        { data: { barcode: 'a', quantity: `${'x'.repeat(MAX_ECHOED_CHARS)}…` }, errors: { quantity: fieldMessages.notAnInteger } },
      ],
    });
    expect(writeResponse([], [])).toEqual({ results: [], errors: [] });
  });
});
