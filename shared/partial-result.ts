// The partial-success logic of both endpoints (spec 4.1 and 4.2): which entries go to `results` and
// which to `errors`, with which message. Pure functions over lookups the caller has already done.
import { fieldMessages } from './messages.ts';
import type { AdjustRow } from './pos-schemas.ts';
import { type RowCheckOf, checkAdjustRow, checkUpdateRow } from './row-validation.ts';
import type { FieldErrors, ReadResponse, StockRecord, UpdateErrorEntry, UpdateResponse, UpdateRow } from './schemas.ts';

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

/** What every kind of write row has: a barcode and, in the warehouse scenario, a warehouse name. */
export interface RowTarget {
  barcode: string;
  warehouse_name?: string | undefined;
}

/** A row that passed validation, with its position in the request. */
export interface ValidRow<Row = UpdateRow> {
  index: number;
  row: Row;
}

export interface RowValidation<Row = UpdateRow> {
  valid: ValidRow<Row>[];
  /** Error entries by request index, so they can be merged in request order later. */
  invalid: Map<number, UpdateErrorEntry>;
}

/** Validates every row on its own with `check`; an invalid row never affects the others. */
export function validateRows<Row>(rows: readonly unknown[], check: (sent: unknown) => RowCheckOf<Row>): RowValidation<Row> {
  const result: RowValidation<Row> = { valid: [], invalid: new Map() };
  rows.forEach((sent, index) => {
    const outcome = check(sent);
    if (outcome.ok) result.valid.push({ index, row: outcome.row });
    else result.invalid.set(index, { data: sent, errors: outcome.errors });
  });
  return result;
}

/** Validates every update row on its own; an invalid row never affects the others. */
export function validateUpdateRows(rows: readonly unknown[], warehousesEnabled: boolean): RowValidation {
  return validateRows(rows, (sent) => checkUpdateRow(sent, warehousesEnabled));
}

/** Validates every adjust row on its own, with the update rows' rules and texts. */
export function validateAdjustRows(rows: readonly unknown[], warehousesEnabled: boolean): RowValidation<AdjustRow> {
  return validateRows(rows, (sent) => checkAdjustRow(sent, warehousesEnabled));
}

/** A row ready to apply: the stock unit its barcode names and, in the warehouse scenario, its warehouse. */
export interface ResolvedRow<Unit, Warehouse, Row = UpdateRow> extends ValidRow<Row> {
  unit: Unit;
  warehouse: Warehouse | null;
}

export interface UpdatePlan<Unit, Warehouse, Row = UpdateRow> {
  /** Rows to apply, in request order. */
  apply: ResolvedRow<Unit, Warehouse, Row>[];
  /** Error entries of the whole request, in request order. */
  errors: UpdateErrorEntry[];
  /** The same error entries by request index, for merging with errors found while applying. */
  rejected: Map<number, UpdateErrorEntry>;
}

/**
 * Resolves validated rows against the caller's catalogue. An unknown barcode is reported under
 * `barcode` without looking at the warehouse; then an unknown warehouse under `warehouse_name`.
 */
export function planUpdate<Unit, Warehouse, Row extends RowTarget = UpdateRow>(
  rows: readonly unknown[],
  validation: RowValidation<Row>,
  lookup: {
    warehousesEnabled: boolean;
    unitOf: (barcode: string) => Unit | undefined;
    warehouseOf: (name: string) => Warehouse | undefined;
  },
): UpdatePlan<Unit, Warehouse, Row> {
  const errorsByIndex = new Map(validation.invalid);
  const apply: ResolvedRow<Unit, Warehouse, Row>[] = [];
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
  return { apply, errors: inRequestOrder(errorsByIndex), rejected: errorsByIndex };
}

function inRequestOrder(errorsByIndex: ReadonlyMap<number, UpdateErrorEntry>): UpdateErrorEntry[] {
  return [...errorsByIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
}

/** What applying one resolved row gave: its record, or its errors (e.g. a stale guarded set). */
export type AppliedRow = { ok: true; record: StockRecord } | { ok: false; errors: FieldErrors };

/**
 * Applies a plan's rows in request order through `applyRow` and assembles the partial-success answer:
 * a record per applied row, and the plan's errors merged with the rows refused while applying, in
 * request order. Used by the update and the adjust endpoints alike.
 */
export function applyPlan<Unit, Warehouse, Row>(
  rows: readonly unknown[],
  plan: UpdatePlan<Unit, Warehouse, Row>,
  applyRow: (resolved: ResolvedRow<Unit, Warehouse, Row>) => AppliedRow,
): UpdateResponse {
  const errorsByIndex = new Map(plan.rejected);
  const results: StockRecord[] = [];
  for (const resolved of plan.apply) {
    const outcome = applyRow(resolved);
    if (outcome.ok) results.push(outcome.record);
    else errorsByIndex.set(resolved.index, { data: rows[resolved.index], errors: outcome.errors });
  }
  return { results, errors: inRequestOrder(errorsByIndex) };
}
