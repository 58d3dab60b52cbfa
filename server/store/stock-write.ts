// Writing stock: every quantity change goes through setQuantity (absolute) or adjustQuantity (a
// delta added in SQL), which also append the history entry in the same transaction. writeRows is the
// partial-success write of the update and adjust endpoints (and of the stocktake commit): rows are
// checked (shared rules), looked up, decided (shared rules), applied in request order, answered.
import {
  type AppliedRow,
  MAX_QUANTITY,
  MIN_QUANTITY,
  type RowCheckOf,
  type RowTarget,
  type StockRecord,
  type UpdateResponse,
  checkAdjustRow,
  checkUpdateRow,
  decideRow,
  lookupKeys,
  posFieldMessages,
  writeResponse,
} from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import { type Param, type Queries, statement } from './engine.ts';
import { findUnitsByGtin } from './gtin-lookup.ts';
import { NO_WAREHOUSE } from './schema.ts';

/** What a barcode names in an account. */
export interface StockUnit {
  id: number;
  barcode: string;
  itemId: number;
  variantId: number | null;
  /** The catalogue's barcode when another form of the same GTIN was asked for (GTIN equivalence). */
  matchedBarcode?: string;
}

export interface NamedWarehouse {
  id: number;
  name: string;
}

/** Who or what changes a quantity, recorded in the history. */
export interface ChangeSource {
  source: string;
  tokenId?: number | null;
  reason?: string | null;
  reference?: string | null;
}

const unitsByBarcode = statement('stock.units', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k.selectFrom('stock_units').select(['id', 'barcode', 'item_id', 'variant_id']).where('account_id', '=', p('accountId')).where('barcode', 'in', p.list('barcodes')),
);

export async function findUnits(q: Queries, accountId: number, barcodes: readonly string[], gtinEquivalence = false): Promise<Map<string, StockUnit>> {
  if (gtinEquivalence) return findUnitsByGtin(q, accountId, barcodes);
  const units = new Map<string, StockUnit>();
  if (barcodes.length === 0) return units;
  for (const row of await q.all(unitsByBarcode, { accountId, barcodes: [...new Set(barcodes)] })) {
    units.set(row.barcode, { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id });
  }
  return units;
}

const warehousesByName = statement('stock.warehousesNamed', (k, p: Param<{ accountId: number; names: string[] }>) =>
  k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', p('accountId')).where('name', 'in', p.list('names')),
);

async function findWarehouses(q: Queries, accountId: number, names: readonly string[]): Promise<Map<string, NamedWarehouse>> {
  const warehouses = new Map<string, NamedWarehouse>();
  if (names.length === 0) return warehouses;
  for (const row of await q.all(warehousesByName, { accountId, names: [...new Set(names)] })) warehouses.set(row.name, row);
  return warehouses;
}

const quantityOf = statement('stock.quantity', (k, p: Param<{ unitId: number; warehouseId: number }>) =>
  k.selectFrom('stock').select('quantity').where('unit_id', '=', p('unitId')).where('warehouse_id', '=', p('warehouseId')),
);

/** The stored quantity of a unit in a warehouse; null when it has no stock definition there. */
export async function storedQuantity(q: Queries, unitId: number, warehouseId: number): Promise<number | null> {
  const row = await q.first(quantityOf, { unitId, warehouseId });
  return row ? row.quantity : null;
}

const upsertQuantity = statement('stock.upsert', (k, p: Param<{ unitId: number; warehouseId: number; quantity: number }>) =>
  k
    .insertInto('stock')
    .values({ unit_id: p('unitId'), warehouse_id: p('warehouseId'), quantity: p('quantity') })
    .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doUpdateSet({ quantity: p('quantity') })),
);

/**
 * Sets one quantity and, when it changed, appends the history entry. Runs in the caller's transaction.
 * Returns the quantity before (null when the unit had no stock definition in that warehouse).
 */
export async function setQuantity(q: Queries, accountId: number, unit: StockUnit, warehouseId: number, quantity: number, change: ChangeSource, at: string): Promise<number | null> {
  const oldQuantity = await storedQuantity(q, unit.id, warehouseId);
  if (oldQuantity === quantity) return oldQuantity;
  await q.run(upsertQuantity, { unitId: unit.id, warehouseId, quantity });
  await appendHistory(q, accountId, unit, warehouseId, oldQuantity, quantity, change, at);
  return oldQuantity;
}

export type AdjustOutcome =
  | { ok: true; oldQuantity: number | null; newQuantity: number }
  /** The result would leave [MIN_QUANTITY, MAX_QUANTITY]: nothing was changed. */
  | { ok: false; currentQuantity: number };

const addToQuantity = statement('stock.add', (k, p: Param<{ unitId: number; warehouseId: number; delta: number; min: number; max: number }>) =>
  k
    .updateTable('stock')
    .set((eb) => ({ quantity: eb('quantity', '+', p('delta')) }))
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .where((eb) => eb.between(eb('quantity', '+', p('delta')), p('min'), p('max')))
    .returning('quantity'),
);

const createQuantity = statement('stock.create', (k, p: Param<{ unitId: number; warehouseId: number; quantity: number }>) =>
  k
    .insertInto('stock')
    .values({ unit_id: p('unitId'), warehouse_id: p('warehouseId'), quantity: p('quantity') })
    .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doNothing())
    .returning('quantity'),
);

/**
 * Adds `delta` to one quantity in SQL (`quantity = quantity + :delta`, never read-modify-write in
 * JavaScript), creating the stock definition when there was none, and appends the history entry.
 * A result outside the allowed range changes nothing. Runs in the caller's transaction.
 */
export async function adjustQuantity(q: Queries, accountId: number, unit: StockUnit, warehouseId: number, delta: number, change: ChangeSource, at: string): Promise<AdjustOutcome> {
  const updated = await q.first(addToQuantity, { unitId: unit.id, warehouseId, delta, min: MIN_QUANTITY, max: MAX_QUANTITY });
  let oldQuantity: number | null;
  let newQuantity: number;
  if (updated) {
    newQuantity = updated.quantity;
    oldQuantity = newQuantity - delta;
  } else {
    // No row matched: either there is no stock definition yet (create it at `delta`), or the result
    // is out of range. ON CONFLICT DO NOTHING keeps an existing row untouched in the second case.
    const inserted = delta >= MIN_QUANTITY && delta <= MAX_QUANTITY ? await q.first(createQuantity, { unitId: unit.id, warehouseId, quantity: delta }) : undefined;
    if (!inserted) return { ok: false, currentQuantity: (await storedQuantity(q, unit.id, warehouseId)) ?? 0 };
    oldQuantity = null;
    newQuantity = inserted.quantity;
  }
  if (oldQuantity !== newQuantity) await appendHistory(q, accountId, unit, warehouseId, oldQuantity, newQuantity, change, at);
  return { ok: true, oldQuantity, newQuantity };
}

type HistoryParams = {
  accountId: number;
  unitId: number;
  itemId: number;
  variantId: number | null;
  warehouseId: number;
  oldQuantity: number | null;
  newQuantity: number;
  source: string;
  tokenId: number | null;
  reason: string | null;
  reference: string | null;
  at: string;
};

const insertHistory = statement('stock.history', (k, p: Param<HistoryParams>) =>
  k.insertInto('stock_history').values({
    account_id: p('accountId'),
    unit_id: p('unitId'),
    item_id: p('itemId'),
    variant_id: p('variantId'),
    warehouse_id: p('warehouseId'),
    old_quantity: p('oldQuantity'),
    new_quantity: p('newQuantity'),
    source: p('source'),
    token_id: p('tokenId'),
    reason: p('reason'),
    reference: p('reference'),
    created_at: p('at'),
  }),
);

/** Appends one entry to the append-only stock history. */
async function appendHistory(q: Queries, accountId: number, unit: StockUnit, warehouseId: number, oldQuantity: number | null, newQuantity: number, change: ChangeSource, at: string): Promise<void> {
  await q.run(insertHistory, {
    accountId,
    unitId: unit.id,
    itemId: unit.itemId,
    variantId: unit.variantId,
    warehouseId,
    oldQuantity,
    newQuantity,
    source: change.source,
    tokenId: change.tokenId ?? null,
    reason: change.reason ?? null,
    reference: change.reference ?? null,
    at,
  });
}

/** A row's own reason/reference win over the request's. */
function changeOf(change: ChangeSource, row: { reason?: string | undefined; reference?: string | undefined }): ChangeSource {
  return { ...change, reason: row.reason ?? change.reason ?? null, reference: row.reference ?? change.reference ?? null };
}

function recordOf(unit: StockUnit, warehouse: NamedWarehouse | null, quantity: number): StockRecord {
  const record: StockRecord = { item: unit.itemId, liquid_stock: unit.variantId, barcode: unit.barcode, quantity, ...(unit.matchedBarcode ? { matched_barcode: unit.matchedBarcode } : {}) };
  return warehouse ? { ...record, warehouse: warehouse.id, warehouse_name: warehouse.name } : record;
}

/** Checks every row on its own (no database needed): done before the transaction opens. */
export function checkRows<Row extends RowTarget>(rows: readonly unknown[], account: Account, check: (row: unknown, warehousesEnabled: boolean) => RowCheckOf<Row>): RowCheckOf<Row>[] {
  return rows.map((row) => check(row, account.warehousesEnabled));
}

/**
 * Looks up the checked rows' barcodes and warehouses and applies the rows that may be applied in
 * request order, in the caller's transaction (so a concurrent import cannot change what a row
 * resolved to); `applyRow` does one row's write. Answers one record or error entry per row.
 */
async function writeRows<Row extends RowTarget>(
  q: Queries,
  account: Account,
  rows: readonly unknown[],
  checks: readonly RowCheckOf<Row>[],
  applyRow: (row: Row, unit: StockUnit, warehouse: NamedWarehouse | null, at: string) => Promise<AppliedRow>,
): Promise<UpdateResponse> {
  const keys = lookupKeys(checks);
  const units = await findUnits(q, account.id, keys.barcodes, account.gtinEquivalence);
  const warehouses = account.warehousesEnabled ? await findWarehouses(q, account.id, keys.warehouseNames) : new Map<string, NamedWarehouse>();
  const lookups = { warehousesEnabled: account.warehousesEnabled, unitOf: (b: string) => units.get(b), warehouseOf: (n: string) => warehouses.get(n) };
  const at = new Date().toISOString();
  const outcomes: AppliedRow[] = [];
  for (const check of checks) {
    const decision = decideRow(check, lookups);
    outcomes.push(decision.apply ? await applyRow(decision.row, decision.unit, decision.warehouse, at) : { ok: false, errors: decision.errors });
  }
  return writeResponse(rows, outcomes);
}

/**
 * The update endpoint's write, in the caller's transaction. A row with `compare_quantity` is a
 * guarded set: when the stored quantity (0 without a stock definition, as reads show it) differs at
 * the moment the row is applied, it is rejected under `quantity` and changes nothing. The check and
 * the write share the transaction, so nothing can slip between them.
 */
export function updateRows(q: Queries, account: Account, rows: readonly unknown[], change: ChangeSource): Promise<UpdateResponse> {
  return writeRows(q, account, rows, checkRows(rows, account, checkUpdateRow), async (row, unit, warehouse, at) => {
    const warehouseId = warehouse ? warehouse.id : NO_WAREHOUSE;
    if (row.compare_quantity !== undefined) {
      const current = (await storedQuantity(q, unit.id, warehouseId)) ?? 0;
      if (current !== row.compare_quantity) return { ok: false, errors: { quantity: posFieldMessages.staleQuantity(current, row.compare_quantity) } };
    }
    await setQuantity(q, account.id, unit, warehouseId, row.quantity, changeOf(change, row), at);
    return { ok: true, record: recordOf(unit, warehouse, row.quantity) };
  });
}

/**
 * The adjust endpoint's write (docs/POS.md), in the caller's transaction: the update's checks,
 * partial success and texts, but each row adds its `delta` atomically in SQL. A row whose result
 * would leave the allowed range is rejected under `delta` and changes nothing.
 */
export function adjustRows(q: Queries, account: Account, rows: readonly unknown[], change: ChangeSource): Promise<UpdateResponse> {
  return writeRows(q, account, rows, checkRows(rows, account, checkAdjustRow), async (row, unit, warehouse, at) => {
    const outcome = await adjustQuantity(q, account.id, unit, warehouse ? warehouse.id : NO_WAREHOUSE, row.delta, changeOf(change, row), at);
    if (!outcome.ok) {
      const message = row.delta > 0 ? posFieldMessages.resultAboveMax(MAX_QUANTITY, outcome.currentQuantity) : posFieldMessages.resultBelowMin(MIN_QUANTITY, outcome.currentQuantity);
      return { ok: false, errors: { delta: message } };
    }
    return { ok: true, record: recordOf(unit, warehouse, outcome.newQuantity) };
  });
}
