// An item's stock over time (docs/REORDER.md, "Stock over time"): per warehouse, the quantity after
// each movement of a period, read by one range of `stock_history_unit_hlc` per warehouse, and the
// quantity the period began with. A period of more than MAX_CHART_POINTS movements is downsampled
// here: its movements are cut into equal runs and each run keeps its lowest and highest point (the
// first and the last movement always stay), so the line keeps its peaks and troughs and the client
// never receives 100,000 points.
import { CHART_RANGE_DAYS, type ChartPoint, MAX_CHART_POINTS, type StockChart, type StockChartQuery } from '../../shared/index.ts';
import { notFound } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { hlcFloor, parseHlc } from './movements/hlc.ts';
import { NO_WAREHOUSE } from './schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** At most `max` points of `points`, in order: the first, the last, and each run's lowest and highest. */
export function downsample<T extends { quantity: number }>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const runs = Math.floor((max - 2) / 2);
  const kept = new Set<number>([0, points.length - 1]);
  for (let r = 0; r < runs; r++) {
    const from = Math.floor((r * points.length) / runs);
    const to = Math.floor(((r + 1) * points.length) / runs);
    let low = from;
    let high = from;
    for (let i = from; i < to; i++) {
      if (points[i]!.quantity < points[low]!.quantity) low = i;
      if (points[i]!.quantity > points[high]!.quantity) high = i;
    }
    kept.add(low).add(high);
  }
  return [...kept].sort((a, b) => a - b).map((i) => points[i]!);
}

export async function readStockChart(q: Queries, account: Account, query: StockChartQuery, now: number): Promise<StockChart> {
  const unit = await q.first(
    q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', query.barcode),
  );
  if (!unit) throw notFound(`No items or variants found with barcode: ${query.barcode}`);
  const days = CHART_RANGE_DAYS[query.range];
  const sinceMs = days === null ? null : now - days * DAY_MS;
  const since = sinceMs === null ? null : hlcFloor(sinceMs);
  const places = await q.all(
    q.k.selectFrom('stock_history').select('warehouse_id').distinct().where('unit_id', '=', unit.id).orderBy('warehouse_id'),
  );
  const names = new Map(
    (await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id))).map((w) => [w.id, w.name]),
  );
  const series: StockChart['series'] = [];
  for (const { warehouse_id: warehouseId } of places) {
    let rows = q.k
      .selectFrom('stock_history')
      .select(['hlc', 'new_quantity', 'kind', 'value', 'source', 'reason', 'reference'])
      .where('unit_id', '=', unit.id)
      .where('warehouse_id', '=', warehouseId)
      .orderBy('hlc');
    if (since !== null) rows = rows.where('hlc', '>=', since);
    const points: ChartPoint[] = (await q.all(rows)).map((r) => ({
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
              .where('hlc', '<', since)
              .orderBy('hlc', 'desc')
              .limit(1),
          );
    if (points.length === 0 && before === undefined) continue;
    series.push({
      warehouse: warehouseId === NO_WAREHOUSE ? null : warehouseId,
      warehouse_name: warehouseId === NO_WAREHOUSE ? null : (names.get(warehouseId) ?? null),
      start: before?.new_quantity ?? null,
      movements: points.length,
      downsampled: points.length > MAX_CHART_POINTS,
      points: downsample(points, MAX_CHART_POINTS),
    });
  }
  return { barcode: query.barcode, since: sinceMs === null ? null : new Date(sinceMs).toISOString(), series };
}
