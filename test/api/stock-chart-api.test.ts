// A barcode's stock over time (docs/REORDER.md, "Stock over time"): the chart's points are the stock
// history's movements (quantity after, kind, why) per warehouse, within the period asked for, with the
// quantity it began with; an item of 5,000 movements comes downsampled to at most MAX_CHART_POINTS
// points that keep its first, last, lowest and highest; the points the database picks from 30,000
// movements are those the documented rule picks from the history, computed here, and the same when
// they are picked in stretches of any length, each its own read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MAX_CHART_POINTS,
  STOCK_CHART_PATH,
  STOCK_HISTORY_PATH,
  type HistoryPage,
  type StockChart,
  stockChartQuerySchema,
  stockChartSchema,
} from '../../shared/index.ts';
import type { Engine } from '../../server/store/engine.ts';
import { providerFor } from '../../server/store/engines.ts';
import { readStockChart } from '../../server/store/stock-chart.ts';
import { HLC_KEY_COUNTERS } from '../../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../../server/store/movements/movement-names.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';
const PEN = '111';
const DAY = 24 * 60 * 60 * 1000;

describe("a barcode's stock over time", () => {
  let server: TestServer;
  // The catalogue is imported 40 days before "now"; the clock only moves forward, as time does.
  let now = Date.parse('2026-03-22T10:00:00Z');
  const get = async <T>(path: string, account = 'north'): Promise<T> => {
    const res = await server.request('GET', path, { token: server.tokens[account] });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const chart = async (barcode: string, range: string, account = 'north') =>
    stockChartSchema.parse(await get(`${STOCK_CHART_PATH}?barcode=${barcode}&range=${range}`, account));

  beforeAll(async () => {
    server = await startTestServer(undefined, { clock: { now: () => now } });
    const write = (path: string, rows: unknown[]) => server.request('POST', path, { token: server.tokens.north, body: rows });
    // An hour after the import: a sale; 10 days ago: a set; now: a delivery with a reason.
    now += 60 * 60 * 1000;
    await write(ADJUST_PATH, [{ barcode: MUG, warehouse_name: 'Main', delta: -1 }]);
    now += 30 * DAY - 60 * 60 * 1000;
    await write(INVENTORY_PATH, [{ barcode: MUG, warehouse_name: 'Main', quantity: 9 }]);
    now += 10 * DAY;
    await write(ADJUST_PATH, [{ barcode: MUG, warehouse_name: 'Backroom', delta: 4, reason: 'delivery', reference: 'PO-7' }]);
  });
  afterAll(() => server.stop());

  it('draws every movement of the history, per warehouse, with what it was', async () => {
    const history = (await get<HistoryPage>(`${STOCK_HISTORY_PATH}?barcode=${MUG}&limit=500`)).results.reverse();
    const all = await chart(MUG, 'all');
    const expected = [10, 11].map((warehouse) => {
      const own = history.filter((h) => h.warehouse === warehouse);
      return {
        warehouse,
        points: own.map((h) => ({
          at: h.occurred_at,
          quantity: h.new_quantity,
          kind: h.kind,
          value: h.value,
          reason: h.reason,
          reference: h.reference,
        })),
      };
    });
    expect(all.series.map((s) => ({ warehouse: s.warehouse, points: s.points.map(({ source: _, ...p }) => p) }))).toEqual(expected);
    expect(all.series.every((s) => !s.downsampled && s.movements === s.points.length && s.start === null)).toBe(true);
    expect(all.series.map((s) => s.warehouse_name)).toEqual(['Main', 'Backroom']);
  });

  it('keeps to the period asked for, starting from the quantity it began with', async () => {
    const month = await chart(MUG, '30d');
    const main = month.series.find((s) => s.warehouse === 10)!;
    expect(main.start).toBe(4); // the import's 5, less the sale 40 days ago
    expect(main.points.map((p) => [p.kind, p.quantity])).toEqual([['set', 9]]);
    expect(month.since).toBe(new Date(now - 30 * DAY).toISOString());
    const week = await chart(MUG, '7d');
    expect(week.series.map((s) => [s.warehouse, s.start, s.points.length])).toEqual([
      [10, 9, 0],
      [11, 0, 1],
    ]);
    expect(week.series[1]!.points[0]).toMatchObject({ kind: 'adjust', value: 4, quantity: 4, reason: 'delivery', reference: 'PO-7' });
  });

  it('answers one figure without warehouses, and refuses what is not the caller’s', async () => {
    const pen = await chart(PEN, 'all', 'kiosk');
    expect(pen.series.map((s) => [s.warehouse, s.warehouse_name, s.points.map((p) => p.quantity)])).toEqual([[null, null, [7]]]);
    expect((await server.request('GET', `${STOCK_CHART_PATH}?barcode=${PEN}`, { token: server.tokens.north })).status).toBe(404);
    expect((await server.request('GET', `${STOCK_CHART_PATH}?barcode=${MUG}&range=1y`, { token: server.tokens.north })).status).toBe(400);
  });

  it('downsamples 5,000 movements on the server, keeping the first, the last, the lowest and the highest', async () => {
    // 5,000 sales and deliveries of the shirt in Main over the last 5 days, written as the API would: 100 requests of 50 rows.
    const quantities: number[] = [];
    let quantity = 3;
    for (let request = 0; request < 100; request++) {
      const rows = Array.from({ length: 50 }, (_, i) => {
        const k = request * 50 + i;
        const delta = k === 2500 ? 900 : k === 3700 ? -1500 : k % 3 === 0 ? 2 : -1;
        quantity += delta;
        quantities.push(quantity);
        return { barcode: '8690000000024', warehouse_name: 'Main', delta };
      });
      now += 60 * 60 * 1000;
      const res = await server.request('POST', ADJUST_PATH, { token: server.tokens.north, body: rows });
      expect(res.status).toBe(200);
    }
    const drawn: StockChart = await chart('8690000000024', '30d');
    const main = drawn.series.find((s) => s.warehouse === 10)!;
    expect(main.movements).toBe(5_000);
    expect(main.downsampled).toBe(true);
    expect(main.points.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(main.points.length).toBeGreaterThan(MAX_CHART_POINTS / 2);
    const shown = main.points.map((p) => p.quantity);
    expect(shown[0]).toBe(quantities[0]);
    expect(shown.at(-1)).toBe(quantities.at(-1));
    expect(Math.max(...shown)).toBe(Math.max(...quantities));
    expect(Math.min(...shown)).toBe(Math.min(...quantities));
    // In time order, and each point one of the movements.
    expect(main.points.map((p) => p.at)).toEqual([...main.points.map((p) => p.at)].sort());
  }, 60_000);

  it('picks the points of 30,000 movements in the database, as the rule says when applied to the history', async () => {
    // 30,000 movements of the shirt in the Backroom, a minute apart up to now, with quantities that
    // tie often (so which of equal points a run keeps matters), written straight into the history.
    const TOTAL = 30_000;
    const probe = probeDatabase(server.dbFile);
    try {
      const unit = (await probe.first<{ id: number; account_id: number; item_id: number; variant_id: number }>(
        "SELECT id, account_id, item_id, variant_id FROM stock_units WHERE barcode = '8690000000024'",
      ))!;
      const first = now - TOTAL * 60_000;
      await probe.run(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL - 1})
         INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
         SELECT ?, ?, ?, ?, 11, 'generated', 1 + n.i, 'set', (n.i * 7919) % 613, (${first} + n.i * 60000) * ${HLC_KEY_COUNTERS}, NULL, (n.i * 7919) % 613, ${SOURCE_IDS.api}, ${first}
         FROM n`,
        unit.account_id,
        unit.id,
        unit.item_id,
        unit.variant_id,
      );
      const history = await probe.all<{ hlc: string; new_quantity: number }>(
        'SELECT hlc, new_quantity FROM stock_history WHERE unit_id = ? AND warehouse_id = 11 ORDER BY hlc',
        unit.id,
      );
      // The rule of docs/REORDER.md on the history itself: movement i of n (in time order) is in run
      // ⌊i × runs / n⌋; each run keeps its first lowest and first highest point, and the period its
      // first and last movement.
      const expected = (rows: typeof history) => {
        const runs = Math.floor((MAX_CHART_POINTS - 2) / 2);
        const lowest = new Map<number, number>();
        const highest = new Map<number, number>();
        rows.forEach((row, i) => {
          const run = Math.floor((i * runs) / rows.length);
          const q = Number(row.new_quantity);
          if (!lowest.has(run) || q < Number(rows[lowest.get(run)!]!.new_quantity)) lowest.set(run, i);
          if (!highest.has(run) || q > Number(rows[highest.get(run)!]!.new_quantity)) highest.set(run, i);
        });
        const kept = new Set([0, rows.length - 1, ...lowest.values(), ...highest.values()]);
        return [...kept]
          .sort((a, b) => a - b)
          .map((i) => [new Date(Number(rows[i]!.hlc.slice(0, 16))).toISOString(), Number(rows[i]!.new_quantity)]);
      };
      const all = (await chart('8690000000024', 'all')).series.find((s) => s.warehouse === 11)!;
      expect(all).toMatchObject({ movements: TOTAL, downsampled: true, start: null });
      expect(all.points.map((p) => [p.at, p.quantity])).toEqual(expected(history));
      expect(all.points.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
      expect(all.points.every((p) => p.kind === 'set' && p.source === 'api')).toBe(true);
      // A week of it: the runs are cut from the week's movements alone, and it starts from the one before.
      const since = `000${now - 7 * DAY}`;
      const week = (await chart('8690000000024', '7d')).series.find((s) => s.warehouse === 11)!;
      const inWeek = history.filter((h) => h.hlc >= since);
      expect(week.movements).toBe(inWeek.length);
      expect(week.start).toBe(Number(history[history.length - inWeek.length - 1]!.new_quantity));
      expect(week.points.map((p) => [p.at, p.quantity])).toEqual(expected(inWeek));
    } finally {
      await probe.close();
    }
  }, 60_000);

  // After the test above, which wrote the 30,000 movements.
  it('picks the same points in stretches of any length, each its own read', async () => {
    const caller = (await server.store.tokens.authenticate(server.tokens.north!))!;
    const engine = await providerFor(server.dbFile).open(server.dbFile);
    try {
      let reads = 0;
      const read: Engine['read'] = (work) => (reads++, engine.read(work));
      for (const range of ['all', '7d'] as const) {
        const query = stockChartQuerySchema.parse({ barcode: '8690000000024', range });
        const answered = await chart('8690000000024', range);
        const movements = answered.series.find((s) => s.warehouse === 11)!.movements;
        expect(movements).toBeGreaterThan(MAX_CHART_POINTS);
        // One stretch (longer than the period, and as long), and lengths shorter than a run (about 150
        // movements of 30,000, 50 of a week), so that runs straddle stretches.
        for (const stretch of [movements + 1, movements, 1_000, range === 'all' ? 97 : 13]) {
          reads = 0;
          expect(await readStockChart(read, caller, query, now, stretch), `${range}, stretches of ${stretch}`).toEqual(answered);
          // The places, their counts and the short periods in one read; then each stretch of the long ones.
          const stretchReads = answered.series.filter((s) => s.downsampled).map((s) => Math.ceil(s.movements / stretch));
          expect(reads, `${range}, stretches of ${stretch}`).toBe(1 + stretchReads.reduce((a, b) => a + b, 0));
        }
      }
    } finally {
      await engine.close();
    }
  }, 120_000);
});
