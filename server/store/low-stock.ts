// The low-stock list (docs/REORDER.md): every unit and warehouse at or below its minimum, most urgent
// first — furthest below (minimum − quantity), then what sold most in the last LOW_STOCK_SALES_DAYS
// days, then unit and warehouse id — with what to order. The walk starts at the reorder points, not
// the stock: one range of `reorder_points_account` (the account, or one warehouse of it), the
// quantity of each by the stock's key and its sales by a range of `stock_history_unit_hlc`, so a page
// reads the account's reorder points and never the stock of units that have none. The candidates
// that are low are sorted (their number, not the catalogue's, bounds that sort); a page is keyed on
// the last entry of the one before.
//
// A head office has a reorder point on tens of thousands of units, and SQLite answers one read at a
// time: the reorder points are walked in stretches of LOW_STOCK_STRETCH in key order, each its own
// read with a turn of the event loop between, each giving the page's best candidates among its own
// (with their names); the page is the best of those. So a list never holds the other requests (of
// any account) for longer than a stretch (90,000 reorder points in one read held them 0.27 s). Each
// stretch is consistent; a quantity changed while the list is read counts if its stretch is read after it.
import { sql } from 'kysely';
import { LOW_STOCK_CURSOR, LOW_STOCK_SALES_DAYS, type LowStockEntry, type LowStockQuery } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Engine, Queries } from './engine.ts';
import { hlcFloor, hlcKey } from './movements/hlc.ts';
import { NO_WAREHOUSE } from './schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LowStockPageResult {
  results: LowStockEntry[];
  nextCursor: string | null;
}

/** Reorder points walked by one read at most (see above): 10,000 take about 30 ms at 1M barcodes. */
export const LOW_STOCK_STRETCH = 10_000;

type PointKey = { warehouseId: number; unitId: number };

/** One page of the low-stock list as of `now` (the store's clock, ms), read in stretches (see above). */
export async function readLowStockPage(
  read: Engine['read'],
  account: Account,
  query: LowStockQuery,
  now: number,
  stretch = LOW_STOCK_STRETCH,
): Promise<LowStockPageResult> {
  if (query.warehouse !== undefined) {
    const known = account.warehousesEnabled
      ? await read((q) =>
          q.first(q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('id', '=', query.warehouse!)),
        )
      : undefined;
    if (!known) throw badRequest(`No warehouse with id ${query.warehouse} in this account.`, 'invalid_query');
  }
  const cursor = query.cursor === undefined ? undefined : (LOW_STOCK_CURSOR.exec(query.cursor)!.slice(1).map(Number) as CursorParts);
  let best: PageRow[] = [];
  let after: PointKey | undefined;
  for (;;) {
    const from = after;
    const { rows, last } = await read(async (q) => {
      const until = await stretchEnd(q, account, query.warehouse, from, stretch);
      return { rows: await q.all(candidatesPage(q, account, query, now, cursor, from, until)), last: until };
    });
    best = [...best, ...rows].sort(listOrder).slice(0, query.limit + 1);
    if (last === undefined) break;
    after = last;
    await new Promise<void>((resolve) => setImmediate(resolve)); // the other requests' turn
  }
  const shown = best.slice(0, query.limit);
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
  const lastShown = best.length > query.limit ? shown.at(-1) : undefined;
  return {
    results,
    nextCursor: lastShown
      ? `${Number(lastShown.shortfall)}.${Number(lastShown.sold)}.${lastShown.unit_id}.${lastShown.warehouse_id}`
      : null,
  };
}

type CursorParts = [shortfall: number, sold: number, unit: number, warehouse: number];
type PageRow = Awaited<ReturnType<ReturnType<typeof candidatesPage>['execute']>>[number];

/** The list's order: furthest below first, then most sold, then unit and warehouse. */
function listOrder(a: PageRow, b: PageRow): number {
  return (
    Number(b.shortfall) - Number(a.shortfall) || Number(b.sold) - Number(a.sold) || a.unit_id - b.unit_id || a.warehouse_id - b.warehouse_id
  );
}

/** The account's (or the warehouse's) reorder points after `from`, in the key order of `reorder_points_account`. */
function pointsAfter(q: Queries, account: Account, warehouse: number | undefined, from: PointKey | undefined) {
  let points = q.k.selectFrom('reorder_points as r').where('r.account_id', '=', account.id);
  if (warehouse !== undefined) points = points.where('r.warehouse_id', '=', warehouse);
  if (from !== undefined)
    points = points.where((eb) => eb(eb.refTuple('r.warehouse_id', 'r.unit_id'), '>', eb.tuple(from.warehouseId, from.unitId)));
  return points;
}

/** The key `stretch` reorder points on from `from`: where this stretch ends (undefined: at the last one). */
async function stretchEnd(
  q: Queries,
  account: Account,
  warehouse: number | undefined,
  from: PointKey | undefined,
  stretch: number,
): Promise<PointKey | undefined> {
  const row = await q.first(
    pointsAfter(q, account, warehouse, from)
      .select(['r.warehouse_id', 'r.unit_id'])
      .orderBy('r.warehouse_id')
      .orderBy('r.unit_id')
      .limit(1)
      .offset(stretch - 1),
  );
  return row ? { warehouseId: row.warehouse_id, unitId: row.unit_id } : undefined;
}

/** The page's best candidates among the reorder points after `from` up to `until` (to the end when undefined), with their names. */
function candidatesPage(
  q: Queries,
  account: Account,
  query: LowStockQuery,
  now: number,
  cursor: CursorParts | undefined,
  from: PointKey | undefined,
  until: PointKey | undefined,
) {
  const since = hlcKey(hlcFloor(now - LOW_STOCK_SALES_DAYS * DAY_MS));
  let points = pointsAfter(q, account, query.warehouse, from);
  if (until !== undefined)
    points = points.where((eb) => eb(eb.refTuple('r.warehouse_id', 'r.unit_id'), '<=', eb.tuple(until.warehouseId, until.unitId)));
  const candidates = points
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
        .where('h.hlc_key', '>=', since)
        .where('h.kind', '=', 'adjust')
        .where('h.value', '<', 0)
        .as('sold'),
    ])
    .where(sql<boolean>`coalesce(s.quantity, 0) <= r.minimum`);

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
  if (cursor !== undefined) {
    const [shortfall, sold, unit, warehouse] = cursor;
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
  return page;
}
