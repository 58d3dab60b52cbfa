// The pure POS pieces in shared/: adjust row validation, and the partial-success rules the update and
// adjust endpoints share (every error of a row at once; errors found while applying land in request
// order among those found when checking and looking up).
import { describe, expect, it } from 'vitest';
import {
  type AppliedRow,
  MAX_DELTA,
  type RowLookups,
  checkAdjustRow,
  checkUpdateRow,
  decideRow,
  fieldMessages,
  lookupKeys,
  posFieldMessages,
  writeResponse,
} from '../../shared/index.ts';

describe('adjust rows', () => {
  it('normalises delta like quantity and accepts the whole range of change', () => {
    expect(checkAdjustRow({ barcode: '1', delta: ' -7 ' }, false)).toEqual({ ok: true, row: { barcode: '1', delta: -7 } });
    expect(checkAdjustRow({ barcode: '1', delta: MAX_DELTA }, false)).toEqual({ ok: true, row: { barcode: '1', delta: MAX_DELTA } });
    expect(checkAdjustRow({ barcode: '1', delta: -MAX_DELTA }, false)).toEqual({ ok: true, row: { barcode: '1', delta: -MAX_DELTA } });
    expect(checkAdjustRow({ barcode: '1', delta: -MAX_DELTA - 1 }, false)).toEqual({
      ok: false,
      errors: { delta: fieldMessages.minValue(-MAX_DELTA) },
      barcode: '1',
    });
    expect(checkAdjustRow({ barcode: '1', delta: MAX_DELTA + 1 }, false)).toEqual({
      ok: false,
      errors: { delta: fieldMessages.maxValue(MAX_DELTA) },
      barcode: '1',
    });
    expect(checkAdjustRow({ barcode: '1', delta: -0 }, false)).toEqual({ ok: true, row: { barcode: '1', delta: 0 } });
    expect(checkAdjustRow({ barcode: '1', delta: 2, warehouse_name: 'Main', reason: 'sale', reference: 'R-1' }, true)).toEqual({
      ok: true,
      row: { barcode: '1', delta: 2, warehouse_name: 'Main', reason: 'sale', reference: 'R-1' },
    });
  });

  it('treats null reason/reference/compare_quantity as not given and validates them otherwise', () => {
    expect(checkUpdateRow({ barcode: '1', quantity: 1, reason: null, reference: null, compare_quantity: null }, false)).toEqual({
      ok: true,
      row: { barcode: '1', quantity: 1 },
    });
    expect(checkAdjustRow({ barcode: '1', delta: 1, reason: 'x'.repeat(33), reference: 7 }, false)).toEqual({
      ok: false,
      errors: { reason: posFieldMessages.reasonFormat(32), reference: fieldMessages.notAString },
      barcode: '1',
    });
    expect(checkAdjustRow({ barcode: '1', delta: 1, reason: 'stock.count-2_b' }, false)).toEqual({
      ok: true,
      row: { barcode: '1', delta: 1, reason: 'stock.count-2_b' },
    });
  });

  it('reports every bad field of an adjust row, and still names its valid barcode and warehouse', () => {
    expect(checkAdjustRow({ barcode: 'nope', delta: 'x', warehouse_name: 'Main', reason: 'two words' }, true)).toEqual({
      ok: false,
      errors: { delta: fieldMessages.notAnInteger, reason: posFieldMessages.reasonFormat(32) },
      barcode: 'nope',
      warehouseName: 'Main',
    });
    expect(checkAdjustRow({ barcode: '', delta: null }, true)).toEqual({
      ok: false,
      errors: { barcode: fieldMessages.blank, delta: fieldMessages.notNull, warehouse_name: fieldMessages.required },
    });
    expect(checkAdjustRow({ barcode: 'b' }, false)).toEqual({ ok: false, errors: { delta: fieldMessages.required }, barcode: 'b' });
    expect(checkAdjustRow(['b', 1], true)).toEqual({ ok: false, errors: { non_field_errors: fieldMessages.notAnObject('list') } });
  });
});

describe('the partial-success rules shared by both write endpoints', () => {
  const lookups: RowLookups<{ barcode: string }, string> = {
    warehousesEnabled: true,
    unitOf: (barcode) => (barcode === 'gone' ? undefined : { barcode }),
    warehouseOf: (name) => (name === 'Main' ? 'wh' : undefined),
  };

  it('decides adjust rows with every error at once: bad delta beside an unknown barcode or warehouse', () => {
    const decide = (row: unknown) => decideRow(checkAdjustRow(row, true), lookups);
    expect(decide({ barcode: 'a', delta: '-2', warehouse_name: 'Main' })).toEqual({
      apply: true,
      row: { barcode: 'a', delta: -2, warehouse_name: 'Main' },
      unit: { barcode: 'a' },
      warehouse: 'wh',
    });
    expect(decide({ barcode: 'gone', delta: 1.5, warehouse_name: 'Attic' })).toEqual({
      apply: false,
      errors: { barcode: fieldMessages.barcodeNotFound('gone'), delta: fieldMessages.notAnInteger },
    });
    expect(decide({ barcode: 'a', delta: null, warehouse_name: 'Attic' })).toEqual({
      apply: false,
      errors: { warehouse_name: fieldMessages.warehouseNotFound('Attic'), delta: fieldMessages.notNull },
    });
    expect(decide({ barcode: 'gone', warehouse_name: 'Main' })).toEqual({
      apply: false,
      errors: { barcode: fieldMessages.barcodeNotFound('gone'), delta: fieldMessages.required },
    });
    expect(decide({ barcode: 'gone', delta: 1 })).toEqual({
      apply: false,
      errors: { barcode: fieldMessages.barcodeNotFound('gone'), warehouse_name: fieldMessages.required },
    });
  });

  it('merges checking, lookup and apply-time errors in request order, results in request order', () => {
    const rows = [
      { barcode: 'a', delta: 1, warehouse_name: 'Main' },
      { barcode: 'gone', delta: 1, warehouse_name: 'Main' },
      { barcode: 'b', delta: 'x', warehouse_name: 'Main' },
      { barcode: 'a', delta: 99, warehouse_name: 'Main' },
      { barcode: 'gone', delta: 'x', warehouse_name: 'Attic', note: 'not echoed' },
      { barcode: 'b', delta: 2, warehouse_name: 'Main' },
    ];
    const checks = rows.map((row) => checkAdjustRow(row, true));
    expect(lookupKeys(checks)).toEqual({ barcodes: ['a', 'gone', 'b'], warehouseNames: ['Main', 'Attic'] });
    let quantity = 0;
    const applied: string[] = [];
    const outcomes: AppliedRow[] = checks.map((check) => {
      const decision = decideRow(check, lookups);
      if (!decision.apply) return { ok: false, errors: decision.errors };
      applied.push(decision.row.barcode);
      // An error found while applying (the result would leave the range).
      if (decision.row.delta > 50) return { ok: false, errors: { delta: 'too much' } };
      return {
        ok: true,
        record: { item: 1, liquid_stock: null, barcode: decision.row.barcode, quantity: (quantity += decision.row.delta) },
      };
    });
    expect(applied).toEqual(['a', 'a', 'b']);
    const response = writeResponse(rows, outcomes);
    expect(response.results.map((r) => [r.barcode, r.quantity])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    expect(response.errors).toEqual([
      { data: rows[1], errors: { barcode: fieldMessages.barcodeNotFound('gone') } },
      { data: rows[2], errors: { delta: fieldMessages.notAnInteger } },
      { data: rows[3], errors: { delta: 'too much' } },
      {
        data: { barcode: 'gone', delta: 'x', warehouse_name: 'Attic' },
        errors: { barcode: fieldMessages.barcodeNotFound('gone'), delta: fieldMessages.notAnInteger },
      },
    ]);
  });
});
