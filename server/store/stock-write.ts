// Writing stock: every quantity change goes through setQuantity, which also appends the history
// entry in the same transaction. updateStock is the POST endpoint's partial-success update.
import {
  type StockRecord,
  type UpdateResponse,
  planUpdate,
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

export function findUnits(db: Database, accountId: number, barcodes: readonly string[]): Map<string, StockUnit> {
  const units = new Map<string, StockUnit>();
  if (barcodes.length === 0) return units;
  const rows = db.all(
    db.kysely
      .selectFrom('stock_units')
      .select(['id', 'barcode', 'item_id', 'variant_id'])
      .where('account_id', '=', accountId)
      .where('barcode', 'in', [...new Set(barcodes)]),
  );
  for (const row of rows) units.set(row.barcode, { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id });
  return units;
}

function findWarehouses(db: Database, accountId: number, names: readonly string[]): Map<string, { id: number; name: string }> {
  const warehouses = new Map<string, { id: number; name: string }>();
  if (names.length === 0) return warehouses;
  const rows = db.all(
    db.kysely
      .selectFrom('warehouses')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('name', 'in', [...new Set(names)]),
  );
  for (const row of rows) warehouses.set(row.name, row);
  return warehouses;
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
  const before = db.first(
    db.kysely
      .selectFrom('stock')
      .select('quantity')
      .where('unit_id', '=', unit.id)
      .where('warehouse_id', '=', warehouseId),
  );
  const oldQuantity = before ? before.quantity : null;
  if (oldQuantity === quantity) return oldQuantity;
  db.run(
    db.kysely
      .insertInto('stock')
      .values({ unit_id: unit.id, warehouse_id: warehouseId, quantity })
      .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doUpdateSet({ quantity })),
  );
  db.run(
    db.kysely.insertInto('stock_history').values({
      account_id: accountId,
      unit_id: unit.id,
      item_id: unit.itemId,
      variant_id: unit.variantId,
      warehouse_id: warehouseId,
      old_quantity: oldQuantity,
      new_quantity: quantity,
      source: change.source,
      token_id: change.tokenId ?? null,
      reason: change.reason ?? null,
      reference: change.reference ?? null,
      created_at: at,
    }),
  );
  return oldQuantity;
}

/**
 * The update endpoint: validates every row on its own, applies the valid ones in request order in
 * one durable transaction, and answers one record per applied row and one error entry per rejected row.
 */
export function updateStock(db: Database, account: Account, rows: readonly unknown[], change: ChangeSource): UpdateResponse {
  const validation = validateUpdateRows(rows, account.warehousesEnabled);
  if (validation.valid.length === 0) return { results: [], errors: [...validation.invalid.values()] };
  // Lookups run inside the transaction too, so a concurrent import cannot change what a row resolved to.
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
    const results: StockRecord[] = [];
    for (const { unit, warehouse, row } of plan.apply) {
      setQuantity(db, account.id, unit, warehouse ? warehouse.id : NO_WAREHOUSE, row.quantity, change, at);
      const record: StockRecord = { item: unit.itemId, liquid_stock: unit.variantId, barcode: unit.barcode, quantity: row.quantity };
      results.push(warehouse ? { ...record, warehouse: warehouse.id, warehouse_name: warehouse.name } : record);
    }
    return { results, errors: plan.errors };
  });
}
