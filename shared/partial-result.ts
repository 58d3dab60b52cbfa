// The partial-success rules of the read and write endpoints: which entries go to `results`, which to
// `errors`, with which message. Pure functions: the server does the lookups and the writes, and asks
// these what to make of each row.
import { fieldMessages } from './messages.ts';
import { BADGE_PREFIX, isBadgeCode } from './people.ts';
import type { RowCheckOf } from './row-validation.ts';
import type { FieldErrors, ReadResponse, StockRecord, UpdateErrorEntry, UpdateResponse } from './schemas.ts';

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

/** The barcodes and warehouse names the checked rows need looked up (valid fields only, each once). */
export function lookupKeys(checks: readonly RowCheckOf<RowTarget>[]): { barcodes: string[]; warehouseNames: string[] } {
  const barcodes = new Set<string>();
  const warehouseNames = new Set<string>();
  for (const check of checks) {
    const barcode = check.ok ? check.row.barcode : check.barcode;
    const name = check.ok ? check.row.warehouse_name : check.warehouseName;
    if (barcode !== undefined) barcodes.add(barcode);
    if (name !== undefined) warehouseNames.add(name);
  }
  return { barcodes: [...barcodes], warehouseNames: [...warehouseNames] };
}

export interface RowLookups<Unit, Warehouse> {
  warehousesEnabled: boolean;
  unitOf(barcode: string): Unit | undefined;
  warehouseOf(name: string): Warehouse | undefined;
}

/** A row's fate once its barcode and warehouse were looked up: apply it, or answer its errors. */
export type RowDecision<Row, Unit, Warehouse> =
  { apply: true; row: Row; unit: Unit; warehouse: Warehouse | null } | { apply: false; errors: FieldErrors };

/**
 * Every error of a row at once, as DRF reports them: its field errors, an unknown barcode under
 * `barcode`, and, for a known barcode only, an unknown warehouse under `warehouse_name` (the
 * warehouse of an unknown barcode is not looked at).
 */
export function decideRow<Row extends RowTarget, Unit, Warehouse>(
  check: RowCheckOf<Row>,
  lookups: RowLookups<Unit, Warehouse>,
): RowDecision<Row, Unit, Warehouse> {
  const errors: FieldErrors = check.ok ? {} : { ...check.errors };
  const barcode = check.ok ? check.row.barcode : check.barcode;
  const unit = barcode === undefined ? undefined : lookups.unitOf(barcode);
  if (barcode !== undefined && unit === undefined) errors.barcode = fieldMessages.barcodeNotFound(barcode);
  let warehouse: Warehouse | null = null;
  if (lookups.warehousesEnabled && unit !== undefined) {
    const name = check.ok ? check.row.warehouse_name : check.warehouseName;
    const found = name === undefined ? undefined : lookups.warehouseOf(name);
    if (name !== undefined && found === undefined) errors.warehouse_name = fieldMessages.warehouseNotFound(name);
    warehouse = found ?? null;
  }
  if (!check.ok || unit === undefined || Object.keys(errors).length > 0) return { apply: false, errors };
  return { apply: true, row: check.row, unit, warehouse };
}

/** What applying one row gave: its record, or its errors (found when checking, looking up or applying). */
export type AppliedRow = { ok: true; record: StockRecord } | { ok: false; errors: FieldErrors };

/** Longest value echoed back in an error entry, as JSON text; longer strings are cut, longer lists and objects left out. */
export const MAX_ECHOED_CHARS = 256;
/** The fields of a row that an error entry echoes; anything else a client sent is not repeated back. */
const ECHOED_FIELDS = ['barcode', 'quantity', 'delta', 'warehouse_name', 'compare_quantity', 'reason', 'reference'];

/** The first `max` UTF-16 units of `text`, without splitting a character in two. */
function cut(text: string, max: number): string {
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

function boundedEcho(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHOED_CHARS ? `${cut(value, MAX_ECHOED_CHARS)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  return JSON.stringify(value).length > MAX_ECHOED_CHARS ? null : value;
}

/** The row as it is echoed in an error entry: its known fields as sent, each bounded in size. */
export function echoRow(sent: unknown): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return boundedEcho(sent);
  const echoed: Record<string, unknown> = {};
  for (const field of ECHOED_FIELDS) {
    if (Object.hasOwn(sent, field)) echoed[field] = boundedEcho((sent as Record<string, unknown>)[field]);
  }
  // A badge sent as a barcode is refused, and never repeated: the answer may be stored (an Idempotency-Key).
  if (typeof echoed.barcode === 'string' && isBadgeCode(echoed.barcode)) echoed.barcode = BADGE_PREFIX + '…';
  return echoed;
}

/** The write answer: one record per applied row and one error entry per refused row, both in request order. */
export function writeResponse(rows: readonly unknown[], outcomes: readonly AppliedRow[]): UpdateResponse {
  const results: StockRecord[] = [];
  const errors: UpdateErrorEntry[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.ok) results.push(outcome.record);
    else errors.push({ data: echoRow(rows[index]), errors: outcome.errors });
  });
  return { results, errors };
}
