// The low-stock list (docs/REORDER.md): every unit and warehouse at or below its minimum, most urgent
// first — furthest below (minimum − quantity), then what sold most in the last LOW_STOCK_SALES_DAYS
// days, then unit and warehouse id — with what to order. The walk starts at the reorder points, not
// the stock: one range of `reorder_points_account` (the account, or one warehouse of it), the
// quantity of each by the stock's key and its sales by a range of `stock_history_unit_hlc`, so a page
// reads the account's reorder points and never the stock of units that have none. The candidates
// that are low are sorted (their number, not the catalogue's, bounds that sort); a page is keyed on
// the last entry of the one before.
import { sql } from 'kysely';
import { LOW_STOCK_CURSOR, LOW_STOCK_SALES_DAYS, type LowStockEntry, type LowStockQuery } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { hlcFloor } from './movements/hlc.ts';
import { NO_WAREHOUSE } from './schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LowStockPageResult {
  results: LowStockEntry[];
  nextCursor: string | null;
}

/** One page of the low-stock list as of `now` (the store's clock, ms). */
export async function readLowStockPage(q: Queries, account: Account, query: LowStockQuery, now: number): Promise<LowStockPageResult> {
  if (query.warehouse !== undefined) {
    const known = account.warehousesEnabled
      ? await q.first(q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('id', '=', query.warehouse))
      : undefined;
    if (!known) throw badRequest(`No warehouse with id ${query.warehouse} in this account.`, 'invalid_query');
  }
  const since = hlcFloor(now - LOW_STOCK_SALES_DAYS * DAY_MS);
  let candidates = q.k
    .selectFrom('reorder_points as r')
    .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'r.unit_id').onRef('s.warehouse_id', '=', 'r.warehouse_id'))
    .select((eb) => [
      'r.unit_id',
      'r.warehouse_id',
      'r.minimum',
      'r.target',
      eb.fn.coalesce('s.quantity', eb.lit(0)).as('quantity'),
      sql<number>`r.minimum - coalesce(s.quantity, 0)`.as('shortfall'),
      eb
        .selectFrom('stock_history as h')
        .select(sql<number>`coalesce(sum(-h.value), 0)`.as('sold'))
        .whereRef('h.unit_id', '=', 'r.unit_id')
        .whereRef('h.warehouse_id', '=', 'r.warehouse_id')
        .where('h.hlc', '>=', since)
        .where('h.kind', '=', 'adjust')
        .where('h.value', '<', 0)
        .as('sold'),
    ])
    .where('r.account_id', '=', account.id)
    .where(sql<boolean>`coalesce(s.quantity, 0) <= r.minimum`);
  if (query.warehouse !== undefined) candidates = candidates.where('r.warehouse_id', '=', query.warehouse);

  let page = q.k
    .selectFrom(candidates.as('l'))
    .innerJoin('stock_units as u', 'u.id', 'l.unit_id')
    .innerJoin('items as i', 'i.id', 'u.item_id')
    .leftJoin('variants as v', 'v.id', 'u.variant_id')
    .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 'l.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
    .select([
      'l.unit_id',
      'l.warehouse_id',
      'l.minimum',
      'l.target',
      'l.quantity',
      'l.shortfall',
      'l.sold',
      'u.item_id',
      'u.variant_id',
      'u.barcode',
      'i.name as item_name',
      'v.name as variant_name',
      'w.name as warehouse_name',
    ])
    .orderBy('l.shortfall', 'desc')
    .orderBy('l.sold', 'desc')
    .orderBy('l.unit_id')
    .orderBy('l.warehouse_id')
    .limit(query.limit + 1);
  if (query.cursor !== undefined) {
    const [, shortfall, sold, unit, warehouse] = LOW_STOCK_CURSOR.exec(query.cursor)!.map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    // After the cursor in the list's order: a lower shortfall, or the same and fewer sold, or both the same and a later unit and warehouse.
    page = page.where((eb) =>
      eb.or([
        eb('l.shortfall', '<', shortfall),
        eb.and([eb('l.shortfall', '=', shortfall), eb('l.sold', '<', sold)]),
        eb.and([eb('l.shortfall', '=', shortfall), eb('l.sold', '=', sold), eb('l.unit_id', '>', unit)]),
        eb.and([
          eb('l.shortfall', '=', shortfall),
          eb('l.sold', '=', sold),
          eb('l.unit_id', '=', unit),
          eb('l.warehouse_id', '>', warehouse),
        ]),
      ]),
    );
  }
  const rows = await q.all(page);
  const shown = rows.slice(0, query.limit);
  const results = shown.map((row): LowStockEntry => {
    const quantity = Number(row.quantity);
    const noWarehouse = row.warehouse_id === NO_WAREHOUSE;
    return {
      item: row.item_id,
      liquid_stock: row.variant_id,
      barcode: row.barcode,
      item_name: row.item_name,
      variant_name: row.variant_name,
      warehouse: noWarehouse ? null : row.warehouse_id,
      warehouse_name: noWarehouse ? null : row.warehouse_name,
      quantity,
      minimum: row.minimum,
      target: row.target,
      shortfall: Number(row.shortfall),
      sold: Number(row.sold),
      suggested_order: (row.target ?? row.minimum) - quantity,
    };
  });
  const last = rows.length > query.limit ? shown.at(-1) : undefined;
  return {
    results,
    nextCursor: last ? `${Number(last.shortfall)}.${Number(last.sold)}.${last.unit_id}.${last.warehouse_id}` : null,
  };
}
