// An item's stock over time (docs/REORDER.md, "Stock over time"): per warehouse, the quantity after
// each movement of a period, read by one range of `stock_history_unit_hlc` per warehouse, and the
// quantity the period began with. A period of more than MAX_CHART_POINTS movements is downsampled
// in the database: its movements are cut into equal runs and each run keeps its lowest and highest
// point (the first and the last movement always stay), so the line keeps its peaks and troughs, and
// neither the server nor the client ever holds 100,000 points.
import { sql } from 'kysely';
import {
  CHART_RANGE_DAYS,
  type ChartPoint,
  MAX_CHART_POINTS,
  MIN_QUANTITY,
  type StockChart,
  type StockChartQuery,
} from '../../shared/index.ts';
import { notFound } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { hlcFloor, hlcKey, parseHlc } from './movements/hlc.ts';
import { sourceNameOf } from './movements/movement-names.ts';
import { NO_WAREHOUSE } from './schema.ts';
import { newestFirst, oldestFirst } from './movements/time-order.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

type ChartRow = {
  hlc: string;
  new_quantity: number;
  kind: string;
  value: number;
  source: string;
  reason: string | null;
  reference: string | null;
};

/** How many runs a period of more than `max` movements is cut into: two points each, and the first and the last. */
export const runsFor = (max: number) => Math.floor((max - 2) / 2);

// A movement's place in its run's order, packed into one integer so that min() and max() find the
// lowest and the highest point of a run in one aggregating pass: (quantity − MIN_QUANTITY) × PACK +
// its number (the first of equal quantities wins), exact in 64 bits for every quantity the API takes
// and up to PACK movements in a period.
const PACK = 1_000_000_000;

/**
 * The points of a period of `total` movements (more than MAX_CHART_POINTS), picked in the database:
 * the movements are numbered in time order (`i`), cut into `runs` equal runs (movement i is in run
 * ⌊i × runs / total⌋), and each run keeps its lowest and its highest (the first of each when several
 * tie), with the first and the last movement of the period. One statement: the period's movements
 * numbered once (their id and quantity only), one aggregating pass over them for each run's two
 * numbers, and the picked ones joined back to the history by id; the server receives at most
 * MAX_CHART_POINTS rows.
 */
function pickedPoints(q: Queries, place: { unitId: number; warehouseId: number }, since: number | null, total: number) {
  const runs = runsFor(MAX_CHART_POINTS);
  const key = sql`(cast(n.new_quantity as bigint) + ${sql.lit(-MIN_QUANTITY)}) * ${sql.lit(PACK)}`;
  return q.k
    .with(
      (cte) => cte('n').materialized(),
      (k) => {
        let rows = k
          .selectFrom('stock_history')
          .select(['id', 'new_quantity', sql<number>`row_number() over (order by hlc_key, hlc) - 1`.as('i')])
          .where('unit_id', '=', place.unitId)
          .where('warehouse_id', '=', place.warehouseId);
        if (since !== null) rows = rows.where('hlc_key', '>=', since);
        return rows;
      },
    )
    .with('e', (k) =>
      k
        .selectFrom('n')
        .select([
          sql<number>`min(${key} + n.i) % ${sql.lit(PACK)}`.as('lowest'),
          sql<number>`${sql.lit(PACK - 1)} - max(${key} + ${sql.lit(PACK - 1)} - n.i) % ${sql.lit(PACK)}`.as('highest'),
        ])
        .groupBy(sql`n.i * ${sql.lit(runs)} / ${sql.lit(total)}`),
    )
    .selectFrom('n')
    .innerJoin('stock_history as h', 'h.id', 'n.id')
    .select(['h.hlc', 'h.new_quantity', 'h.kind', 'h.value', sourceNameOf('h').as('source'), 'h.reason', 'h.reference'])
    .where((eb) =>
      eb.or([
        eb('n.i', 'in', eb.selectFrom('e').select('e.lowest')),
        eb('n.i', 'in', eb.selectFrom('e').select('e.highest')),
        eb('n.i', '=', 0),
        eb('n.i', '=', total - 1),
      ]),
    )
    .orderBy('n.i');
}

export async function readStockChart(q: Queries, account: Account, query: StockChartQuery, now: number): Promise<StockChart> {
  const unit = await q.first(
    q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', query.barcode),
  );
  if (!unit) throw notFound(`No items or variants found with barcode: ${query.barcode}`);
  const days = CHART_RANGE_DAYS[query.range];
  const sinceMs = days === null ? null : now - days * DAY_MS;
  // The period's first order key: exactly the timestamps at or after its start (movements/hlc.ts).
  const since = sinceMs === null ? null : hlcKey(hlcFloor(sinceMs));
  const places = await q.all(
    q.k.selectFrom('stock_history').select('warehouse_id').distinct().where('unit_id', '=', unit.id).orderBy('warehouse_id'),
  );
  const names = new Map(
    (await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id))).map((w) => [w.id, w.name]),
  );
  const series: StockChart['series'] = [];
  for (const { warehouse_id: warehouseId } of places) {
    let counted = q.k
      .selectFrom('stock_history')
      .select(sql<number>`count(*)`.as('n'))
      .where('unit_id', '=', unit.id)
      .where('warehouse_id', '=', warehouseId);
    if (since !== null) counted = counted.where('hlc_key', '>=', since);
    // The count is a walk of the index alone; a period too long to draw whole is picked in the database.
    const total = Number((await q.first(counted))?.n ?? 0);
    let rows = q.k
      .selectFrom('stock_history as h')
      .select(['h.hlc', 'h.new_quantity', 'h.kind', 'h.value', sourceNameOf('h').as('source'), 'h.reason', 'h.reference'])
      .where('h.unit_id', '=', unit.id)
      .where('h.warehouse_id', '=', warehouseId)
      .$call(oldestFirst('h'));
    if (since !== null) rows = rows.where('h.hlc_key', '>=', since);
    const read: ChartRow[] = await q.all(total > MAX_CHART_POINTS ? pickedPoints(q, { unitId: unit.id, warehouseId }, since, total) : rows);
    const points: ChartPoint[] = read.map((r) => ({
      at: new Date(parseHlc(r.hlc)?.wall ?? 0).toISOString(),
      quantity: r.new_quantity,
      kind: r.kind as ChartPoint['kind'],
      value: r.value,
      source: r.source,
      reason: r.reason,
      reference: r.reference,
    }));
    const before =
      since === null
        ? undefined
        : await q.first(
            q.k
              .selectFrom('stock_history')
              .select('new_quantity')
              .where('unit_id', '=', unit.id)
              .where('warehouse_id', '=', warehouseId)
              .where('hlc_key', '<', since) // a floor: its key bounds exactly the timestamps before it
              .$call(newestFirst())
              .limit(1),
          );
    if (total === 0 && before === undefined) continue;
    series.push({
      warehouse: warehouseId === NO_WAREHOUSE ? null : warehouseId,
      warehouse_name: warehouseId === NO_WAREHOUSE ? null : (names.get(warehouseId) ?? null),
      start: before?.new_quantity ?? null,
      movements: total,
      downsampled: total > MAX_CHART_POINTS,
      points,
    });
  }
  return { barcode: query.barcode, since: sinceMs === null ? null : new Date(sinceMs).toISOString(), series };
}
