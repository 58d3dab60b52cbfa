// An item's stock over time (docs/REORDER.md, "Stock over time"): per warehouse, the quantity after
// each movement of a period, read by one range of `stock_history_unit_hlc` per warehouse, and the
// quantity the period began with. A period of more than MAX_CHART_POINTS movements is downsampled
// in the database: its movements are cut into equal runs and each run keeps its lowest and highest
// point (the first and the last movement always stay), so the line keeps its peaks and troughs, and
// neither the server nor the client ever holds 100,000 points.
//
// SQLite answers one thing at a time, and an item of 100,000 movements took about 0.19 s to pick
// from in one statement, that long a wait for every other request of every account: a long period is
// picked in stretches of CHART_STRETCH movements, each its own read, each stretch's lowest and highest
// of every run it holds kept, and the best of those chosen here, as movements-per-day.ts does. Each
// stretch is consistent; a movement recorded while the chart is read counts if its stretch is read
// after it (past the count, it falls in the last run).
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
import type { Engine, Queries } from './engine.ts';
import { hlcFloor, hlcKey, parseHlc } from './movements/hlc.ts';
import { sourceNameOf } from './movements/movement-names.ts';
import { NO_WAREHOUSE } from './schema.ts';
import { newestFirst, oldestFirst } from './movements/time-order.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Movements one read of a long period numbers and picks from at most (see above). */
export const CHART_STRETCH = 20_000;

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

/** A picked movement with its number in the period (0 for its first, in time order). */
type PickedRow = ChartRow & { i: number };

/** A stretch of a period: its order keys from `fromKey` up to `untilKey` (excluded; none: to the end), numbered from `offset`. */
interface Stretch {
  fromKey: number;
  untilKey: number | undefined;
  offset: number;
}

/**
 * The candidates of one stretch of a period of `total` movements (more than MAX_CHART_POINTS): the
 * movements are numbered in time order (`i`, from the stretch's offset), cut into `runs` equal runs
 * of the period (movement i is in run ⌊i × runs / total⌋), and each run keeps its lowest and its
 * highest within the stretch (the first of each when several tie), with the stretch's first and last
 * movement. The offset is cast: better-sqlite3 binds a number as a real, and the runs need integer
 * division. One statement: the stretch's movements numbered once (their id and quantity only), one
 * aggregating pass over them for each run's two numbers, and the picked ones joined back to the
 * history by id; at most two rows per run and two more.
 */
function stretchCandidates(q: Queries, place: { unitId: number; warehouseId: number }, total: number, stretch: Stretch) {
  const runs = runsFor(MAX_CHART_POINTS);
  const key = sql`(cast(n.new_quantity as bigint) + ${sql.lit(-MIN_QUANTITY)}) * ${sql.lit(PACK)}`;
  const offset = sql<number>`cast(${stretch.offset} as bigint)`;
  return q.k
    .with(
      (cte) => cte('n').materialized(),
      (k) => {
        let rows = k
          .selectFrom('stock_history')
          .select(['id', 'new_quantity', sql<number>`row_number() over (order by hlc_key, hlc) - 1 + ${offset}`.as('i')])
          .where('unit_id', '=', place.unitId)
          .where('warehouse_id', '=', place.warehouseId)
          .where('hlc_key', '>=', stretch.fromKey);
        if (stretch.untilKey !== undefined) rows = rows.where('hlc_key', '<', stretch.untilKey);
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
    .select(['n.i', 'h.hlc', 'h.new_quantity', 'h.kind', 'h.value', sourceNameOf('h').as('source'), 'h.reason', 'h.reference'])
    .where((eb) =>
      eb.or([
        eb('n.i', 'in', eb.selectFrom('e').select('e.lowest')),
        eb('n.i', 'in', eb.selectFrom('e').select('e.highest')),
        eb('n.i', '=', offset),
        eb(
          'n.i',
          'in',
          eb.selectFrom('n').select((m) => m.fn.max('n.i').as('i')),
        ),
      ]),
    )
    .orderBy('n.i');
}

/**
 * The points of a period of `total` movements (more than MAX_CHART_POINTS) from `since`, picked in
 * stretches of about `stretchLength`, each its own read: every run's lowest and highest of the whole
 * period (the first of each when several tie) are among its stretches' candidates, and so are the
 * first and the last. A stretch is a range of order keys, found by a walk of the index alone (as the
 * movements per day's are): a key shared by more movements than a stretch is read whole.
 */
async function pickedPoints(
  read: Engine['read'],
  place: { unitId: number; warehouseId: number },
  since: number | null,
  total: number,
  stretchLength: number,
): Promise<PickedRow[]> {
  const runs = runsFor(MAX_CHART_POINTS);
  const lowest = new Map<number, PickedRow>();
  const highest = new Map<number, PickedRow>();
  let first: PickedRow | undefined;
  let last: PickedRow | undefined;
  for (let stretch: Stretch = { fromKey: since ?? 0, untilKey: undefined, offset: 0 }; ;) {
    const { candidates, untilKey } = await read(async (q) => {
      const next = await q.first(
        q.k
          .selectFrom('stock_history')
          .select('hlc_key')
          .where('unit_id', '=', place.unitId)
          .where('warehouse_id', '=', place.warehouseId)
          .where('hlc_key', '>=', stretch.fromKey)
          .orderBy('hlc_key')
          .limit(1)
          .offset(stretchLength),
      );
      // No movement a stretch on: the period ends within this one.
      const until = next === undefined ? undefined : Math.max(Number(next.hlc_key), stretch.fromKey + 1);
      const rows = (await q.all(stretchCandidates(q, place, total, { ...stretch, untilKey: until }))) as PickedRow[];
      return { candidates: rows, untilKey: until };
    });
    for (const row of candidates) {
      row.i = Number(row.i);
      // Past the count (recorded while the chart is read): in the last run.
      const run = Math.min(runs - 1, Math.floor((row.i * runs) / total));
      if (row.i === 0) first = row;
      if (!last || row.i > last.i) last = row;
      const low = lowest.get(run);
      if (!low || row.new_quantity < low.new_quantity || (row.new_quantity === low.new_quantity && row.i < low.i)) lowest.set(run, row);
      const high = highest.get(run);
      if (!high || row.new_quantity > high.new_quantity || (row.new_quantity === high.new_quantity && row.i < high.i))
        highest.set(run, row);
    }
    if (untilKey === undefined) break;
    stretch = { fromKey: untilKey, untilKey: undefined, offset: last === undefined ? stretch.offset : last.i + 1 };
  }
  const kept = new Map<number, PickedRow>();
  for (const row of [first, last, ...lowest.values(), ...highest.values()]) if (row) kept.set(row.i, row);
  return [...kept.values()].sort((a, b) => a.i - b.i);
}

export async function readStockChart(
  read: Engine['read'],
  account: Account,
  query: StockChartQuery,
  now: number,
  stretch = CHART_STRETCH,
): Promise<StockChart> {
  const days = CHART_RANGE_DAYS[query.range];
  const sinceMs = days === null ? null : now - days * DAY_MS;
  // The period's first order key: exactly the timestamps at or after its start (movements/hlc.ts).
  const since = sinceMs === null ? null : hlcKey(hlcFloor(sinceMs));
  // One read for the places, their counts, where they began, and the points of the short periods.
  const { unitId, places } = await read(async (q) => {
    const unit = await q.first(
      q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', query.barcode),
    );
    if (!unit) throw notFound(`No items or variants found with barcode: ${query.barcode}`);
    const warehouseIds = await q.all(
      q.k.selectFrom('stock_history').select('warehouse_id').distinct().where('unit_id', '=', unit.id).orderBy('warehouse_id'),
    );
    const names = new Map(
      (await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id))).map((w) => [w.id, w.name]),
    );
    const found = [];
    for (const { warehouse_id: warehouseId } of warehouseIds) {
      let counted = q.k
        .selectFrom('stock_history')
        .select(sql<number>`count(*)`.as('n'))
        .where('unit_id', '=', unit.id)
        .where('warehouse_id', '=', warehouseId);
      if (since !== null) counted = counted.where('hlc_key', '>=', since);
      // The count is a walk of the index alone; a period too long to draw whole is picked in stretches.
      const total = Number((await q.first(counted))?.n ?? 0);
      let rows = q.k
        .selectFrom('stock_history as h')
        .select(['h.hlc', 'h.new_quantity', 'h.kind', 'h.value', sourceNameOf('h').as('source'), 'h.reason', 'h.reference'])
        .where('h.unit_id', '=', unit.id)
        .where('h.warehouse_id', '=', warehouseId)
        .$call(oldestFirst('h'));
      if (since !== null) rows = rows.where('h.hlc_key', '>=', since);
      const whole: ChartRow[] | undefined = total > MAX_CHART_POINTS ? undefined : await q.all(rows);
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
      found.push({ warehouseId, name: names.get(warehouseId) ?? null, total, whole, start: before?.new_quantity ?? null });
    }
    return { unitId: unit.id, places: found };
  });
  const series: StockChart['series'] = [];
  for (const { warehouseId, name, total, whole, start } of places) {
    const rows = whole ?? (await pickedPoints(read, { unitId, warehouseId }, since, total, stretch));
    const points: ChartPoint[] = rows.map((r) => ({
      at: new Date(parseHlc(r.hlc)?.wall ?? 0).toISOString(),
      quantity: r.new_quantity,
      kind: r.kind as ChartPoint['kind'],
      value: r.value,
      source: r.source,
      reason: r.reason,
      reference: r.reference,
    }));
    series.push({
      warehouse: warehouseId === NO_WAREHOUSE ? null : warehouseId,
      warehouse_name: warehouseId === NO_WAREHOUSE ? null : name,
      start,
      movements: total,
      downsampled: total > MAX_CHART_POINTS,
      points,
    });
  }
  return { barcode: query.barcode, since: sinceMs === null ? null : new Date(sinceMs).toISOString(), series };
}
