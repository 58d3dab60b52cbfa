// The partial-success logic of both endpoints (spec 4.1 and 4.2): which entries go to `results` and
// which to `errors`, with which message. Pure functions over lookups the caller has already done.
import { fieldMessages } from './messages.ts';
import { checkUpdateRow } from './row-validation.ts';
import type { ReadResponse, StockRecord, UpdateErrorEntry, UpdateRow } from './schemas.ts';

/** Builds a read answer: records of each found barcode in request order, one error per unknown one. */
export function assembleReadResponse(
  barcodes: readonly string[],
  recordsOf: (barcode: string) => readonly StockRecord[] | undefined,
): ReadResponse {
  const response: ReadResponse = { results: [], errors: [] };
  for (const barcode of barcodes) {
    const records = recordsOf(barcode);
    if (records && records.length > 0) response.results.push(...records);
    else response.errors.push({ barcode, errors: { barcode: fieldMessages.barcodeNotFound(barcode) } });
  }
  return response;
}

/** A row that passed validation, with its position in the request. */
export interface ValidRow {
  index: number;
  row: UpdateRow;
}

export interface RowValidation {
  valid: ValidRow[];
  /** Error entries by request index, so they can be merged in request order later. */
  invalid: Map<number, UpdateErrorEntry>;
}

/** Validates every row on its own; an invalid row never affects the others. */
export function validateUpdateRows(rows: readonly unknown[], warehousesEnabled: boolean): RowValidation {
  const result: RowValidation = { valid: [], invalid: new Map() };
  rows.forEach((sent, index) => {
    const check = checkUpdateRow(sent, warehousesEnabled);
    if (check.ok) result.valid.push({ index, row: check.row });
    else result.invalid.set(index, { data: sent, errors: check.errors });
  });
  return result;
}

/** A row ready to apply: the stock unit its barcode names and, in the warehouse scenario, its warehouse. */
export interface ResolvedRow<Unit, Warehouse> extends ValidRow {
  unit: Unit;
  warehouse: Warehouse | null;
}

export interface UpdatePlan<Unit, Warehouse> {
  /** Rows to apply, in request order. */
  apply: ResolvedRow<Unit, Warehouse>[];
  /** Error entries of the whole request, in request order. */
  errors: UpdateErrorEntry[];
}

/**
 * Resolves validated rows against the caller's catalogue. An unknown barcode is reported under
 * `barcode` without looking at the warehouse; then an unknown warehouse under `warehouse_name`.
 */
export function planUpdate<Unit, Warehouse>(
  rows: readonly unknown[],
  validation: RowValidation,
  lookup: {
    warehousesEnabled: boolean;
    unitOf: (barcode: string) => Unit | undefined;
    warehouseOf: (name: string) => Warehouse | undefined;
  },
): UpdatePlan<Unit, Warehouse> {
  const errorsByIndex = new Map(validation.invalid);
  const apply: ResolvedRow<Unit, Warehouse>[] = [];
  for (const { index, row } of validation.valid) {
    const unit = lookup.unitOf(row.barcode);
    if (unit === undefined) {
      errorsByIndex.set(index, { data: rows[index], errors: { barcode: fieldMessages.barcodeNotFound(row.barcode) } });
      continue;
    }
    let warehouse: Warehouse | null = null;
    if (lookup.warehousesEnabled) {
      const name = row.warehouse_name ?? '';
      const found = lookup.warehouseOf(name);
      if (found === undefined) {
        errorsByIndex.set(index, { data: rows[index], errors: { warehouse_name: fieldMessages.warehouseNotFound(name) } });
        continue;
      }
      warehouse = found;
    }
    apply.push({ index, row, unit, warehouse });
  }
  const errors = [...errorsByIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  return { apply, errors };
}
