// Writing stock: every quantity change goes through setQuantity (absolute) or adjustQuantity (delta,
// applied in SQL), which also append the history entry in the same transaction. updateStock is the
// POST endpoint's partial-success update, adjustStock the POS adjust endpoint's (docs/POS.md).
import {
  type AdjustResponse,
  type AppliedRow,
  MAX_QUANTITY,
  MIN_QUANTITY,
  type RowTarget,
  type RowValidation,
  type StockRecord,
  type UpdateResponse,
  applyPlan,
  planUpdate,
  posFieldMessages,
  validateAdjustRows,
  validateUpdateRows,
} from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Database } from './database.ts';
import { NO_WAREHOUSE } from './schema.ts';

/** What a barcode names in an account. */
export interface StockUnit {
  id: number;
  barcode: string;
  itemId: number;
  variantId: number | null;
}

/** Who or what changes a quantity, recorded in the history. */
export interface ChangeSource {
  source: string;
  tokenId?: number | null;
  reason?: string | null;
  reference?: string | null;
}

/** `n` placeholder values: the POST's lookups are compiled once per list length (db.prepared), like reads. */
const placeholders = (n: number): string[] => Array.from({ length: n }, () => '');

export function findUnits(db: Database, accountId: number, barcodes: readonly string[]): Map<string, StockUnit> {
  const units = new Map<string, StockUnit>();
  if (barcodes.length === 0) return units;
  const distinct = [...new Set(barcodes)];
  const rows = db
    .prepared(`stock.units.${distinct.length}`, () =>
      db.kysely
        .selectFrom('stock_units')
        .select(['id', 'barcode', 'item_id', 'variant_id'])
        .where('account_id', '=', 0)
        .where('barcode', 'in', placeholders(distinct.length)),
    )
    .all(accountId, ...distinct);
  for (const row of rows) units.set(row.barcode, { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id });
  return units;
}

function findWarehouses(db: Database, accountId: number, names: readonly string[]): Map<string, { id: number; name: string }> {
  const warehouses = new Map<string, { id: number; name: string }>();
  if (names.length === 0) return warehouses;
  const distinct = [...new Set(names)];
  const rows = db
    .prepared(`stock.warehousesNamed.${distinct.length}`, () =>
      db.kysely
        .selectFrom('warehouses')
        .select(['id', 'name'])
        .where('account_id', '=', 0)
        .where('name', 'in', placeholders(distinct.length)),
    )
    .all(accountId, ...distinct);
  for (const row of rows) warehouses.set(row.name, row);
  return warehouses;
}

/** The stored quantity of a unit in a warehouse; null when it has no stock definition there. */
export function storedQuantity(db: Database, unitId: number, warehouseId: number): number | null {
  // Prepared once (db.prepared): compiling the kysely builders on every row cost more than SQLite's own work.
  const row = db
    .prepared('stock.quantity', () => db.kysely.selectFrom('stock').select('quantity').where('unit_id', '=', 0).where('warehouse_id', '=', 0))
    .get(unitId, warehouseId);
  return row ? row.quantity : null;
}

/**
 * Sets one quantity and, when it changed, appends the history entry. Must run inside a transaction.
 * Returns the quantity before (null when the unit had no stock definition in that warehouse).
 */
export function setQuantity(
  db: Database,
  accountId: number,
  unit: StockUnit,
  warehouseId: number,
  quantity: number,
  change: ChangeSource,
  at: string,
): number | null {
  const oldQuantity = storedQuantity(db, unit.id, warehouseId);
  if (oldQuantity === quantity) return oldQuantity;
  db.prepared('stock.upsert', () =>
    db.kysely
      .insertInto('stock')
      .values({ unit_id: 0, warehouse_id: 0, quantity: 0 })
      .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doUpdateSet({ quantity: 0 })),
  ).run(unit.id, warehouseId, quantity, quantity);
  appendHistory(db, accountId, unit, warehouseId, oldQuantity, quantity, change, at);
  return oldQuantity;
}

export type AdjustOutcome =
  | { ok: true; oldQuantity: number | null; newQuantity: number }
  /** The result would leave [MIN_QUANTITY, MAX_QUANTITY]: nothing was changed. */
  | { ok: false; currentQuantity: number };

/**
 * Adds `delta` to one quantity in SQL (`quantity = quantity + ?`, never read-modify-write in
 * JavaScript), creating the stock definition when there was none, and appends the history entry.
 * A result outside the allowed range changes nothing. Must run inside a transaction.
 */
export function adjustQuantity(
  db: Database,
  accountId: number,
  unit: StockUnit,
  warehouseId: number,
  delta: number,
  change: ChangeSource,
  at: string,
): AdjustOutcome {
  // UPDATE stock SET quantity = quantity + ? WHERE unit_id = ? AND warehouse_id = ?
  //   AND quantity + ? BETWEEN ? AND ? RETURNING quantity
  const updated = db
    .prepared('stock.add', () =>
      db.kysely
        .updateTable('stock')
        .set((eb) => ({ quantity: eb('quantity', '+', 0) }))
        .where('unit_id', '=', 0)
        .where('warehouse_id', '=', 0)
        .where((eb) => eb.between(eb('quantity', '+', 0), 0, 0))
        .returning('quantity'),
    )
    .get(delta, unit.id, warehouseId, delta, MIN_QUANTITY, MAX_QUANTITY);
  let oldQuantity: number | null;
  let newQuantity: number;
  if (updated) {
    newQuantity = updated.quantity;
    oldQuantity = newQuantity - delta;
  } else {
    // No row matched: either there is no stock definition yet (create it at `delta`), or the result
    // is out of range. ON CONFLICT DO NOTHING keeps an existing row untouched in the second case.
    const inserted =
      delta >= MIN_QUANTITY && delta <= MAX_QUANTITY
        ? db
            .prepared('stock.create', () =>
              db.kysely
                .insertInto('stock')
                .values({ unit_id: 0, warehouse_id: 0, quantity: 0 })
                .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doNothing())
                .returning('quantity'),
            )
            .get(unit.id, warehouseId, delta)
        : undefined;
    if (!inserted) return { ok: false, currentQuantity: storedQuantity(db, unit.id, warehouseId) ?? 0 };
    oldQuantity = null;
    newQuantity = inserted.quantity;
  }
  if (oldQuantity !== newQuantity) appendHistory(db, accountId, unit, warehouseId, oldQuantity, newQuantity, change, at);
  return { ok: true, oldQuantity, newQuantity };
}

/** Appends one entry to the append-only stock history. */
function appendHistory(
  db: Database,
  accountId: number,
  unit: StockUnit,
  warehouseId: number,
  oldQuantity: number | null,
  newQuantity: number,
  change: ChangeSource,
  at: string,
): void {
  db.prepared('stock.history', () =>
    db.kysely.insertInto('stock_history').values({
      account_id: 0,
      unit_id: 0,
      item_id: 0,
      variant_id: 0,
      warehouse_id: 0,
      old_quantity: 0,
      new_quantity: 0,
      source: '',
      token_id: 0,
      reason: '',
      reference: '',
      created_at: '',
    }),
  ).run(accountId, unit.id, unit.itemId, unit.variantId, warehouseId, oldQuantity, newQuantity, change.source, change.tokenId ?? null, change.reason ?? null, change.reference ?? null, at);
}

/** A row's own reason/reference win over the request's. */
function changeOf(change: ChangeSource, row: { reason?: string | undefined; reference?: string | undefined }): ChangeSource {
  return { ...change, reason: row.reason ?? change.reason ?? null, reference: row.reference ?? change.reference ?? null };
}

function recordOf(unit: StockUnit, warehouse: { id: number; name: string } | null, quantity: number): StockRecord {
  const record: StockRecord = { item: unit.itemId, liquid_stock: unit.variantId, barcode: unit.barcode, quantity };
  return warehouse ? { ...record, warehouse: warehouse.id, warehouse_name: warehouse.name } : record;
}

/**
 * Resolves valid rows and applies them in request order in one durable transaction (the lookups too,
 * so a concurrent import cannot change what a row resolved to); `applyRow` does one row's write.
 */
function writeRows<Row extends RowTarget>(
  db: Database,
  account: Account,
  rows: readonly unknown[],
  validation: RowValidation<Row>,
  applyRow: (row: Row, unit: StockUnit, warehouse: { id: number; name: string } | null, at: string) => AppliedRow,
): UpdateResponse {
  if (validation.valid.length === 0) return { results: [], errors: [...validation.invalid.values()] };
  return db.transaction(() => {
    const units = findUnits(db, account.id, validation.valid.map((v) => v.row.barcode));
    const warehouses = account.warehousesEnabled
      ? findWarehouses(db, account.id, validation.valid.map((v) => v.row.warehouse_name ?? ''))
      : new Map<string, { id: number; name: string }>();
    const plan = planUpdate(rows, validation, {
      warehousesEnabled: account.warehousesEnabled,
      unitOf: (barcode) => units.get(barcode),
      warehouseOf: (name) => warehouses.get(name),
    });
    const at = new Date().toISOString();
    return applyPlan(rows, plan, ({ row, unit, warehouse }) => applyRow(row, unit, warehouse, at));
  });
}

/**
 * The update endpoint: validates every row on its own, applies the valid ones in request order in
 * one durable transaction, and answers one record per applied row and one error entry per rejected row.
 * A row with `compare_quantity` is a guarded set: when the stored quantity (0 without a stock
 * definition, as reads show it) differs at the moment the row is applied, it is rejected under
 * `quantity` and changes nothing. The check and the write share the transaction, which holds
 * SQLite's write lock, so nothing can slip between them.
 */
export function updateStock(db: Database, account: Account, rows: readonly unknown[], change: ChangeSource): UpdateResponse {
  const validation = validateUpdateRows(rows, account.warehousesEnabled);
  return writeRows(db, account, rows, validation, (row, unit, warehouse, at) => {
    const warehouseId = warehouse ? warehouse.id : NO_WAREHOUSE;
    if (row.compare_quantity !== undefined) {
      const current = storedQuantity(db, unit.id, warehouseId) ?? 0;
      if (current !== row.compare_quantity) {
        return { ok: false, errors: { quantity: posFieldMessages.staleQuantity(current, row.compare_quantity) } };
      }
    }
    setQuantity(db, account.id, unit, warehouseId, row.quantity, changeOf(change, row), at);
    return { ok: true, record: recordOf(unit, warehouse, row.quantity) };
  });
}

/**
 * The adjust endpoint (docs/POS.md): the update endpoint's validation, partial success and texts,
 * but each row adds its `delta` atomically in SQL. A row whose result would leave the allowed range
 * is rejected under `delta` and changes nothing. Records carry the quantity after their row.
 */
export function adjustStock(db: Database, account: Account, rows: readonly unknown[], change: ChangeSource): AdjustResponse {
  const validation = validateAdjustRows(rows, account.warehousesEnabled);
  return writeRows(db, account, rows, validation, (row, unit, warehouse, at) => {
    const outcome = adjustQuantity(db, account.id, unit, warehouse ? warehouse.id : NO_WAREHOUSE, row.delta, changeOf(change, row), at);
    if (!outcome.ok) {
      const message =
        row.delta > 0
          ? posFieldMessages.resultAboveMax(MAX_QUANTITY, outcome.currentQuantity)
          : posFieldMessages.resultBelowMin(MIN_QUANTITY, outcome.currentQuantity);
      return { ok: false, errors: { delta: message } };
    }
    return { ok: true, record: recordOf(unit, warehouse, outcome.newQuantity) };
  });
}
