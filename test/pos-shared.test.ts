// The pure POS pieces in shared/: adjust row validation and the partial-success merge used by both
// write endpoints (errors found while applying land in request order among the planning errors).
import { describe, expect, it } from 'vitest';
import {
  MAX_DELTA,
  applyPlan,
  checkAdjustRow,
  checkUpdateRow,
  fieldMessages,
  planUpdate,
  posFieldMessages,
  validateAdjustRows,
} from '../shared/index.ts';

describe('adjust rows', () => {
  it('normalises delta like quantity and accepts the whole range of change', () => {
    expect(checkAdjustRow({ barcode: '1', delta: ' -7 ' }, false)).toEqual({ ok: true, row: { barcode: '1', delta: -7 } });
    expect(checkAdjustRow({ barcode: '1', delta: MAX_DELTA }, false).ok).toBe(true);
    expect(checkAdjustRow({ barcode: '1', delta: -MAX_DELTA - 1 }, false)).toEqual({
      ok: false,
      errors: { delta: fieldMessages.minValue(-MAX_DELTA) },
    });
    expect(checkAdjustRow({ barcode: '1', delta: -0 }, false)).toEqual({ ok: true, row: { barcode: '1', delta: 0 } });
  });

  it('treats null reason/reference/compare_quantity as not given and validates them otherwise', () => {
    expect(checkUpdateRow({ barcode: '1', quantity: 1, reason: null, reference: null, compare_quantity: null }, false)).toEqual({
      ok: true,
      row: { barcode: '1', quantity: 1 },
    });
    expect(checkAdjustRow({ barcode: '1', delta: 1, reason: 'x'.repeat(33), reference: 7 }, false)).toEqual({
      ok: false,
      errors: { reason: posFieldMessages.reasonFormat(32), reference: fieldMessages.notAString },
    });
    expect(checkAdjustRow({ barcode: '1', delta: 1, reason: 'stock.count-2_b' }, false).ok).toBe(true);
  });
});

describe('applyPlan', () => {
  it('merges validation, lookup and apply-time errors in request order, results in request order', () => {
    const rows = [
      { barcode: 'a', delta: 1 },
      { barcode: 'gone', delta: 1 },
      { barcode: 'b', delta: 'x' },
      { barcode: 'a', delta: 99 },
      { barcode: 'b', delta: 2 },
    ];
    const validation = validateAdjustRows(rows, false);
    const plan = planUpdate(rows, validation, {
      warehousesEnabled: false,
      unitOf: (barcode) => (barcode === 'gone' ? undefined : { barcode }),
      warehouseOf: () => undefined,
    });
    let quantity = 0;
    const response = applyPlan(rows, plan, ({ row }) =>
      row.delta > 50
        ? { ok: false, errors: { delta: 'too much' } }
        : { ok: true, record: { item: 1, liquid_stock: null, barcode: row.barcode, quantity: (quantity += row.delta) } },
    );
    expect(response.results.map((r) => [r.barcode, r.quantity])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    expect(response.errors).toEqual([
      { data: rows[1], errors: { barcode: fieldMessages.barcodeNotFound('gone') } },
      { data: rows[2], errors: { delta: fieldMessages.notAnInteger } },
      { data: rows[3], errors: { delta: 'too much' } },
    ]);
  });
});
