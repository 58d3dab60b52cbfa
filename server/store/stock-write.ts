// Writing stock: every quantity change made here goes through setQuantity (absolute), adjustQuantity
// (a delta) or countRows (a stocktake line), which record the movement in the same
// transaction (movements/movement-log.ts). writeRows is the partial-success write of the update and adjust
// endpoints and the stocktake commit: rows are checked (shared rules), looked up, decided (shared
// rules), applied in request order, answered.
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
import type { Applied, MovementLog, StoredStock } from './movements/movement-log.ts';
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

/** Who or what changes a quantity, recorded with the movement. */
export type { MovementSource as ChangeSource } from './movements/movement-log.ts';
import type { MovementSource as ChangeSource } from './movements/movement-log.ts';

const unitsByBarcode = statement('stock.units', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units')
    .select(['id', 'barcode', 'item_id', 'variant_id'])
    .where('account_id', '=', p('accountId'))
    .where('barcode', 'in', p.list('barcodes')),
);

export async function findUnits(
  q: Queries,
  accountId: number,
  barcodes: readonly string[],
  gtinEquivalence = false,
): Promise<Map<string, StockUnit>> {
  if (gtinEquivalence) return findUnitsByGtin(q, accountId, barcodes);
  const units = new Map<string, StockUnit>();
  if (barcodes.length === 0) return units;
  for (const row of await q.all(unitsByBarcode, { accountId, barcodes: [...new Set(barcodes)] })) {
    units.set(row.barcode, { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id });
  }
  return units;
}

// The units of a request's barcodes with every quantity they hold, in one statement: the quantities
// are what its rows change next (MovementLog.readQuantities takes them as read), and on PostgreSQL
// each statement is a round trip on the writer's connection, which every write waits for.
const unitsWithStock = statement('stock.unitsWithStock', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units as u')
    .leftJoin('stock as s', 's.unit_id', 'u.id')
    .select(['u.id', 'u.barcode', 'u.item_id', 'u.variant_id', 's.warehouse_id', 's.quantity'])
    .where('u.account_id', '=', p('accountId'))
    .where('u.barcode', 'in', p.list('barcodes')),
);

/** The units of `barcodes` (as findUnits), and what they hold, as MovementLog.readQuantities takes it. */
async function findUnitsWithStock(
  q: Queries,
  accountId: number,
  barcodes: readonly string[],
): Promise<{ units: Map<string, StockUnit>; stock: StoredStock }> {
  const units = new Map<string, StockUnit>();
  const stock = { units: new Set<number>(), quantities: new Map<string, number>() };
  if (barcodes.length === 0) return { units, stock };
  for (const row of await q.all(unitsWithStock, { accountId, barcodes: [...new Set(barcodes)] })) {
    if (!units.has(row.barcode))
      units.set(row.barcode, { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id });
    stock.units.add(row.id);
    if (row.warehouse_id !== null && row.quantity !== null) stock.quantities.set(`${row.id}/${row.warehouse_id}`, row.quantity);
  }
  return { units, stock };
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

/** The stored quantity of a unit in a warehouse; null when it has no stock definition there. */
export function storedQuantity(log: MovementLog, unitId: number, warehouseId: number): Promise<number | null> {
  return log.quantity(unitId, warehouseId);
}

/**
 * Sets one quantity: a `set` movement, recorded even when the quantity does not change here (it is a
 * fact other instances must learn). `onlyIfChanged` records nothing when it would not change the
 * quantity (a catalogue import run twice writes nothing the second time); `current` is the stored
 * quantity when the caller knows it (a unit created just now has none). Runs in the caller's
 * transaction; returns the quantity before (null without a stock definition).
 */
export async function setQuantity(
  log: MovementLog,
  accountId: number,
  unit: StockUnit,
  warehouseId: number,
  quantity: number,
  change: ChangeSource,
  options: { onlyIfChanged?: boolean; current?: number | null } = {},
): Promise<number | null> {
  let current = options.current;
  if (options.onlyIfChanged) {
    // `null` is a known answer (no stock definition), not a missing one: read only when undefined.
    if (current === undefined) current = await log.quantity(unit.id, warehouseId);
    if (current === quantity) return current;
  }
  return (await log.record(accountId, unit, warehouseId, 'set', quantity, change, current !== undefined ? { current } : {})).oldQuantity;
}

export type AdjustOutcome =
  | { ok: true; oldQuantity: number | null; newQuantity: number }
  /** The result would leave [MIN_QUANTITY, MAX_QUANTITY]: nothing was changed. */
  | { ok: false; currentQuantity: number };

/**
 * Adds `delta` to one quantity, creating the stock definition when there was none, and records the
 * `adjust` movement. A result outside the allowed range changes nothing. Runs in the caller's write
 * transaction, the only writer of the database while it runs (engine.ts), so the quantity checked
 * here is the one the movement adds to: no other write can come between them. The quantity is the
 * one earlier rows of the same request left (movement-log.ts keeps it), and the movement is written
 * with the request's other rows.
 */
export async function adjustQuantity(
  log: MovementLog,
  accountId: number,
  unit: StockUnit,
  warehouseId: number,
  delta: number,
  change: ChangeSource,
): Promise<AdjustOutcome> {
  const oldQuantity = await log.quantity(unit.id, warehouseId);
  const newQuantity = (oldQuantity ?? 0) + delta;
  if (newQuantity < MIN_QUANTITY || newQuantity > MAX_QUANTITY) return { ok: false, currentQuantity: oldQuantity ?? 0 };
  await log.record(accountId, unit, warehouseId, 'adjust', delta, change, { current: oldQuantity });
  return { ok: true, oldQuantity, newQuantity };
}

/** A row's own reason/reference win over the request's. */
function changeOf(change: ChangeSource, row: { reason?: string | undefined; reference?: string | undefined }): ChangeSource {
  return { ...change, reason: row.reason ?? change.reason ?? null, reference: row.reference ?? change.reference ?? null };
}

function recordOf(unit: StockUnit, warehouse: NamedWarehouse | null, quantity: number): StockRecord {
  const record: StockRecord = {
    item: unit.itemId,
    liquid_stock: unit.variantId,
    barcode: unit.barcode,
    quantity,
    ...(unit.matchedBarcode ? { matched_barcode: unit.matchedBarcode } : {}),
  };
  return warehouse ? { ...record, warehouse: warehouse.id, warehouse_name: warehouse.name } : record;
}

/** Checks every row on its own (no database needed): done before the transaction opens. */
export function checkRows<Row extends RowTarget>(
  rows: readonly unknown[],
  account: Account,
  check: (row: unknown, warehousesEnabled: boolean) => RowCheckOf<Row>,
): RowCheckOf<Row>[] {
  return rows.map((row) => check(row, account.warehousesEnabled));
}

/**
 * Looks up the checked rows' barcodes and warehouses and applies the rows that may be applied in
 * request order, in the caller's transaction (so a concurrent import cannot change what a row
 * resolved to); `applyRow` does one row's write. Answers one record or error entry per row.
 */
async function writeRows<Row extends RowTarget>(
  log: MovementLog,
  account: Account,
  rows: readonly unknown[],
  checks: readonly RowCheckOf<Row>[],
  applyRow: (row: Row, unit: StockUnit, warehouse: NamedWarehouse | null, index: number) => Promise<AppliedRow>,
): Promise<UpdateResponse> {
  const keys = lookupKeys(checks);
  const { units, stock } = account.gtinEquivalence
    ? { units: await findUnits(log.q, account.id, keys.barcodes, true), stock: undefined }
    : await findUnitsWithStock(log.q, account.id, keys.barcodes);
  const warehouses = account.warehousesEnabled
    ? await findWarehouses(log.q, account.id, keys.warehouseNames)
    : new Map<string, NamedWarehouse>();
  const lookups = {
    warehousesEnabled: account.warehousesEnabled,
    unitOf: (b: string) => units.get(b),
    warehouseOf: (n: string) => warehouses.get(n),
  };
  const decisions = checks.map((check) => decideRow(check, lookups));
  // The stored quantities of every row to apply (read with the units, or in one query): the rows then
  // go on in memory, each seeing what the rows before it left, and their movements are written
  // together (movement-log.ts).
  await log.readQuantities(
    decisions.flatMap((d) => (d.apply ? [{ unitId: d.unit.id, warehouseId: d.warehouse ? d.warehouse.id : NO_WAREHOUSE }] : [])),
    stock,
  );
  const outcomes: AppliedRow[] = [];
  for (const [index, decision] of decisions.entries()) {
    outcomes.push(
      decision.apply ? await applyRow(decision.row, decision.unit, decision.warehouse, index) : { ok: false, errors: decision.errors },
    );
  }
  return writeResponse(rows, outcomes);
}

/**
 * The update endpoint's write, in the caller's transaction. A row with `compare_quantity` is a
 * guarded set: when the stored quantity (0 without a stock definition, as reads show it) differs at
 * the moment the row is applied, it is rejected under `quantity` and changes nothing. The check and
 * the write share the transaction, so nothing can slip between them.
 */
export function updateRows(log: MovementLog, account: Account, rows: readonly unknown[], change: ChangeSource): Promise<UpdateResponse> {
  return writeRows(log, account, rows, checkRows(rows, account, checkUpdateRow), async (row, unit, warehouse) => {
    const warehouseId = warehouse ? warehouse.id : NO_WAREHOUSE;
    if (row.compare_quantity !== undefined) {
      const current = (await log.quantity(unit.id, warehouseId)) ?? 0;
      if (current !== row.compare_quantity)
        return { ok: false, errors: { quantity: posFieldMessages.staleQuantity(current, row.compare_quantity) } };
    }
    await setQuantity(log, account.id, unit, warehouseId, row.quantity, changeOf(change, row));
    return { ok: true, record: recordOf(unit, warehouse, row.quantity) };
  });
}

/**
 * The stocktake commit's write: each row is a `count` of its line, folded in at the time the line
 * was last scanned or edited (`countedAt(index)`), so what was recorded after that time (a sale at
 * the till while the count went on) stays applied on top; undefined for a count of now (a zero
 * line), which lands on top of everything without a look at the history. Records carry the
 * quantity after the fold.
 */
export function countRows(
  log: MovementLog,
  account: Account,
  rows: readonly unknown[],
  change: ChangeSource,
  countedAt: (index: number) => string | undefined,
  onCounted?: (index: number, applied: Applied) => void,
): Promise<UpdateResponse> {
  return writeRows(log, account, rows, checkRows(rows, account, checkUpdateRow), async (row, unit, warehouse, index) => {
    const warehouseId = warehouse ? warehouse.id : NO_WAREHOUSE;
    onCounted?.(
      index,
      await log.record(account.id, unit, warehouseId, 'count', row.quantity, changeOf(change, row), { hlc: countedAt(index) }),
    );
    return { ok: true, record: recordOf(unit, warehouse, (await log.quantity(unit.id, warehouseId)) ?? row.quantity) };
  });
}

/**
 * The adjust endpoint's write (docs/POS.md), in the caller's transaction: the update's checks,
 * partial success and texts, but each row adds its `delta` to the quantity the rows before it left
 * (adjustQuantity). A row whose result would leave the allowed range is rejected under `delta` and
 * changes nothing.
 */
export function adjustRows(log: MovementLog, account: Account, rows: readonly unknown[], change: ChangeSource): Promise<UpdateResponse> {
  return writeRows(log, account, rows, checkRows(rows, account, checkAdjustRow), async (row, unit, warehouse) => {
    const outcome = await adjustQuantity(log, account.id, unit, warehouse ? warehouse.id : NO_WAREHOUSE, row.delta, changeOf(change, row));
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
