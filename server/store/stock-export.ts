// The rows of a stock export, one page at a time: one row per stock definition of an account (or of
// one of its warehouses), with names, in item order (item id, then variant id, then warehouse id); a
// barcode with none gets one row without warehouse and quantity (only when the whole account is
// exported). Each page is its own short read, keyed on the last unit of the page before (index
// stock_units_export_order), so an export of any size holds at most one page in memory and never
// keeps other requests waiting for long. CSV formatting is server/csv/stock-csv.ts.
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';

/** Stock units per page; a page has this many rows times the warehouses a unit has stock in. */
export const EXPORT_PAGE_UNITS = 1000;

export interface ExportRow {
  item_id: number;
  item_name: string;
  variant_id: number | null;
  variant_name: string | null;
  barcode: string;
  /** null for the single figure of an account without warehouses, and for a barcode without stock. */
  warehouse: string | null;
  quantity: number | null;
}

/** Where the next page starts: after this unit, in export order. */
export interface ExportCursor {
  itemId: number;
  variantId: number | null;
}

export interface ExportPage {
  rows: ExportRow[];
  /** null on the last page. */
  next: ExportCursor | null;
}

/** The id of the warehouse an export is limited to; refuses an account without warehouses or an unknown name. */
export async function exportWarehouseId(q: Queries, account: Account, warehouseName: string): Promise<number> {
  if (!account.warehousesEnabled) throw badRequest(`Account "${account.name}" has no warehouses.`);
  const warehouse = await q.first(
    q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('name', '=', warehouseName),
  );
  if (!warehouse) throw badRequest(`No warehouses found with name: ${warehouseName}`);
  return warehouse.id;
}

export async function readStockExportPage(
  q: Queries,
  account: Account,
  warehouseId: number | undefined,
  after: ExportCursor | null,
  units = EXPORT_PAGE_UNITS,
): Promise<ExportPage> {
  let unitPage = q.k
    .selectFrom('stock_units as u')
    .select(['u.id', 'u.account_id', 'u.item_id', 'u.variant_id', 'u.barcode'])
    .where('u.account_id', '=', account.id)
    .orderBy('u.item_id')
    .orderBy('u.variant_id')
    .limit(units + 1);
  if (after !== null) {
    const { itemId, variantId } = after;
    // An item holds stock itself (variant null) or through variants, never both. A row value keeps the
    // page one range of the index (an OR of two ranges would be read whole and sorted).
    unitPage =
      variantId === null
        ? unitPage.where('u.item_id', '>', itemId)
        : unitPage.where((eb) => eb(eb.refTuple('u.item_id', 'u.variant_id'), '>', eb.tuple(itemId, variantId)));
  }
  if (warehouseId !== undefined) {
    unitPage = unitPage.where((eb) =>
      eb.exists(
        eb.selectFrom('stock as f').select('f.unit_id').whereRef('f.unit_id', '=', 'u.id').where('f.warehouse_id', '=', warehouseId),
      ),
    );
  }
  const pageUnits = await q.all(unitPage);
  const more = pageUnits.length > units;
  const shown = pageUnits.slice(0, units);
  if (shown.length === 0) return { rows: [], next: null };
  let query = q.k
    .selectFrom('stock_units as u')
    .innerJoin('items as i', 'i.id', 'u.item_id')
    .leftJoin('variants as v', 'v.id', 'u.variant_id')
    .leftJoin('stock as s', 's.unit_id', 'u.id')
    .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
    .select([
      'u.item_id',
      'i.name as item_name',
      'u.variant_id',
      'v.name as variant_name',
      'u.barcode',
      's.warehouse_id',
      'w.name as warehouse_name',
      's.quantity',
    ])
    .where(
      'u.id',
      'in',
      shown.map((unit) => unit.id),
    )
    .orderBy('u.item_id')
    .orderBy('u.variant_id')
    .orderBy('s.warehouse_id');
  if (warehouseId !== undefined) query = query.where('s.warehouse_id', '=', warehouseId);
  const rows = (await q.all(query)).map((row) => ({
    item_id: row.item_id,
    item_name: row.item_name,
    variant_id: row.variant_id,
    variant_name: row.variant_name,
    barcode: row.barcode,
    warehouse: row.warehouse_id === null || row.warehouse_id === NO_WAREHOUSE ? null : (row.warehouse_name ?? null),
    quantity: row.quantity ?? null,
  }));
  const last = shown.at(-1)!;
  return { rows, next: more ? { itemId: last.item_id, variantId: last.variant_id } : null };
}
