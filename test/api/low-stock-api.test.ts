// The low-stock list (docs/REORDER.md) against an independent computation: a seeded shop of 120
// units in two warehouses, reorder points set through the API, sales made through the adjust
// endpoint (some of them older than the sales window, on a clock the test moves), and the expected
// list computed here from what the test did: every place at or below its minimum, furthest below
// first, then most sold in the window, then unit and warehouse; suggested order (target, else
// minimum) − quantity. Pages, the warehouse filter, the CSV and account isolation follow.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  LOW_STOCK_CSV_PATH,
  LOW_STOCK_PATH,
  LOW_STOCK_SALES_DAYS,
  type LowStockEntry,
  REORDER_POINTS_PATH,
  lowStockPageSchema,
} from '../../shared/index.ts';
import type { Engine } from '../../server/store/engine.ts';
import { providerFor } from '../../server/store/engines.ts';
import { readLowStockPage } from '../../server/store/low-stock.ts';
import { lowStockQuerySchema } from '../../shared/index.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const UNITS = 120;
const WAREHOUSES = [
  { id: 901, name: 'Front' },
  { id: 902, name: 'Store' },
];
const DAY = 24 * 60 * 60 * 1000;

interface Place {
  barcode: string;
  item: number;
  warehouse: (typeof WAREHOUSES)[number];
  quantity: number;
  minimum?: number;
  target?: number | null;
  /** Sold inside the window. */
  sold: number;
}

describe('the low-stock list', () => {
  let server: TestServer;
  let now = Date.parse('2026-06-01T12:00:00Z');
  const random = seededRandom(32);
  const places: Place[] = [];
  const unitOf = new Map<string, number>();

  const call = async (method: string, path: string, body?: unknown, account = 'shop') => {
    const res = await server.request(method, path, { token: server.tokens[account], ...(body === undefined ? {} : { body }) });
    expect(res.status, `${method} ${path}`).toBe(200);
    return res;
  };
  const sell = async (sales: { place: Place; amount: number }[]) => {
    for (let i = 0; i < sales.length; i += 50) {
      const rows = sales
        .slice(i, i + 50)
        .map(({ place, amount }) => ({ barcode: place.barcode, warehouse_name: place.warehouse.name, delta: -amount }));
      await call('POST', ADJUST_PATH, rows);
    }
  };
  const allPages = async (query: string, limit: number) => {
    const entries: LowStockEntry[] = [];
    let path: string | null = `${LOW_STOCK_PATH}?limit=${limit}${query}`;
    let pages = 0;
    while (path !== null) {
      const page = lowStockPageSchema.parse(await (await call('GET', path)).json());
      expect(page.results.length).toBeLessThanOrEqual(limit);
      entries.push(...page.results);
      path = page.next;
      pages++;
    }
    return { entries, pages };
  };

  /** The list as docs/REORDER.md defines it, from what this test did, without the server's code. */
  const expectedList = (warehouse?: number) =>
    places
      .filter((p) => p.minimum !== undefined && p.quantity <= p.minimum && (warehouse === undefined || p.warehouse.id === warehouse))
      .map((p) => ({
        barcode: p.barcode,
        warehouse: p.warehouse.id,
        quantity: p.quantity,
        shortfall: p.minimum! - p.quantity,
        sold: p.sold,
        suggested_order: (p.target ?? p.minimum!) - p.quantity,
        unit: unitOf.get(p.barcode)!,
      }))
      .sort((a, b) => b.shortfall - a.shortfall || b.sold - a.sold || a.unit - b.unit || a.warehouse - b.warehouse)
      .map(({ unit: _, ...entry }) => entry);
  const asExpected = (entries: readonly LowStockEntry[]) =>
    entries.map((e) => ({
      barcode: e.barcode,
      warehouse: e.warehouse,
      quantity: e.quantity,
      shortfall: e.shortfall,
      sold: e.sold,
      suggested_order: e.suggested_order,
    }));

  beforeAll(async () => {
    const items = Array.from({ length: UNITS }, (_, i) => {
      const stock = WAREHOUSES.flatMap((w) => (i % 17 === 3 && w.id === 902 ? [] : [{ warehouse: w.name, quantity: random.int(0, 40) }]));
      return { id: 7000 + i, name: `Part ${i}`, barcode: `R${String(i).padStart(4, '0')}`, stock };
    });
    const catalogue = {
      accounts: [
        { name: 'shop', warehouses_enabled: true, warehouses: WAREHOUSES, items },
        {
          name: 'other',
          warehouses_enabled: true,
          warehouses: [{ id: 990, name: 'Front' }],
          items: [{ id: 7990, name: 'Theirs', barcode: 'R0000', stock: [{ warehouse: 'Front', quantity: 0 }] }],
        },
      ],
    };
    server = await startTestServer(catalogue, { clock: { now: () => now } });
    for (const item of items) {
      for (const w of WAREHOUSES) {
        const entry = item.stock.find((s) => s.warehouse === w.name);
        places.push({ barcode: item.barcode, item: item.id, warehouse: w, quantity: entry?.quantity ?? 0, sold: 0 });
      }
    }
    for (const u of await server.probe.all<{ id: number; barcode: string }>(
      "SELECT u.id, u.barcode FROM stock_units u JOIN accounts a ON a.id = u.account_id WHERE a.name = 'shop'",
    ))
      unitOf.set(u.barcode, u.id);
    // Reorder points on two of every three places (the places without stock in Store among them); a third without target.
    const rows = [];
    for (const [i, p] of places.entries()) {
      if (i % 3 === 2) continue;
      p.minimum = random.int(0, 30);
      p.target = i % 4 === 0 ? null : p.minimum + random.int(0, 25);
      rows.push({
        barcode: p.barcode,
        warehouse_name: p.warehouse.name,
        minimum: p.minimum,
        ...(p.target === null ? {} : { target: p.target }),
      });
    }
    for (let i = 0; i < rows.length; i += 50) await call('POST', REORDER_POINTS_PATH, rows.slice(i, i + 50));
    await call('POST', REORDER_POINTS_PATH, [{ barcode: 'R0000', warehouse_name: 'Front', minimum: 5 }], 'other');
    // Old sales, then the window moves past them: they lower the quantity but do not count as sold.
    const oldSales = places.filter(() => random.chance(0.3)).map((place) => ({ place, amount: random.int(1, 5) }));
    await sell(oldSales);
    for (const { place, amount } of oldSales) place.quantity -= amount;
    now += (LOW_STOCK_SALES_DAYS + 1) * DAY;
    // Recent sales, some places twice; a delivery (a positive adjust) is no sale.
    const recent = places.filter(() => random.chance(0.5)).map((place) => ({ place, amount: random.int(1, 6) }));
    await sell([...recent, ...recent.filter((_, i) => i % 5 === 0)]);
    for (const [i, { place, amount }] of recent.entries()) {
      const times = i % 5 === 0 ? 2 : 1;
      place.quantity -= amount * times;
      place.sold += amount * times;
    }
    const delivered = places.find((p) => p.minimum !== undefined)!;
    await call('POST', ADJUST_PATH, [{ barcode: delivered.barcode, warehouse_name: delivered.warehouse.name, delta: 3 }]);
    delivered.quantity += 3;
  }, 60_000);
  afterAll(() => server.stop());

  it('lists every place at or below its minimum, most urgent first, with the suggested order', async () => {
    const expected = expectedList();
    expect(expected.length).toBeGreaterThan(40); // the seed makes a list worth ordering
    expect(expected.some((e) => e.shortfall === 0)).toBe(true); // "at" its minimum counts
    expect(expected.some((e, i) => i > 0 && expected[i - 1]!.shortfall === e.shortfall && expected[i - 1]!.sold > e.sold)).toBe(true);
    const { entries, pages } = await allPages('', 500);
    expect(pages).toBe(1);
    expect(asExpected(entries)).toEqual(expected);
    const first = entries[0]!;
    const place = places.find((p) => p.barcode === first.barcode && p.warehouse.id === first.warehouse)!;
    expect(first).toEqual({
      item: place.item,
      liquid_stock: null,
      barcode: place.barcode,
      item_name: `Part ${place.item - 7000}`,
      variant_name: null,
      warehouse: place.warehouse.id,
      warehouse_name: place.warehouse.name,
      quantity: place.quantity,
      minimum: place.minimum,
      target: place.target,
      shortfall: place.minimum! - place.quantity,
      sold: place.sold,
      suggested_order: (place.target ?? place.minimum!) - place.quantity,
    });
  });

  it('pages through the same list, a page keyed on the last entry before it', async () => {
    const { entries, pages } = await allPages('', 7);
    expect(pages).toBe(Math.ceil(expectedList().length / 7));
    expect(asExpected(entries)).toEqual(expectedList());
  });

  it('walks the reorder points in stretches, each its own read, and answers the same pages', async () => {
    const caller = (await server.store.tokens.authenticate(server.tokens.shop!))!;
    const engine = await providerFor(server.dbFile).open(server.dbFile);
    try {
      let reads = 0;
      const read: Engine['read'] = (work) => (reads++, engine.read(work));
      const now = server.store.reorder.now();
      const points = places.filter((p) => p.minimum !== undefined).length;
      for (const [query, where] of [
        [{ limit: 7 }, undefined],
        [{ limit: 500, warehouse: WAREHOUSES[1]!.id }, WAREHOUSES[1]!.id],
      ] as const) {
        const parsed = lowStockQuerySchema.parse(query);
        const whole = await readLowStockPage(read, caller, parsed, now);
        const second = whole.nextCursor ? await readLowStockPage(read, caller, { ...parsed, cursor: whole.nextCursor }, now) : undefined;
        const inWarehouse = where === undefined ? points : places.filter((p) => p.minimum !== undefined && p.warehouse.id === where).length;
        for (const stretch of [1, 3, 7]) {
          reads = 0;
          expect(await readLowStockPage(read, caller, parsed, now, stretch)).toEqual(whole);
          // One read per stretch (one more when the last stretch ends on the last point), one to check a warehouse.
          const stretches = Math.floor(inWarehouse / stretch) + 1;
          expect(reads).toBe(stretches + (where === undefined ? 0 : 1));
          if (second) expect(await readLowStockPage(read, caller, { ...parsed, cursor: whole.nextCursor! }, now, stretch)).toEqual(second);
        }
      }
    } finally {
      await engine.close();
    }
  });

  it('filters by warehouse, and refuses a warehouse the account does not have', async () => {
    for (const w of WAREHOUSES) expect(asExpected((await allPages(`&warehouse=${w.id}`, 11)).entries)).toEqual(expectedList(w.id));
    for (const bad of ['990', '12345', 'abc', '0']) {
      const res = await server.request('GET', `${LOW_STOCK_PATH}?warehouse=${bad}`, { token: server.tokens.shop });
      expect([res.status, (await res.json()).code], bad).toEqual([400, 'invalid_query']);
    }
    const badCursor = await server.request('GET', `${LOW_STOCK_PATH}?cursor=1.2`, { token: server.tokens.shop });
    expect(badCursor.status).toBe(400);
  });

  it("answers the caller's account only", async () => {
    const theirs = lowStockPageSchema.parse(await (await call('GET', LOW_STOCK_PATH, undefined, 'other')).json());
    expect(theirs.results.map((e) => [e.barcode, e.warehouse, e.suggested_order])).toEqual([['R0000', 990, 5]]);
    const ours = await allPages('', 500);
    expect(ours.entries.some((e) => e.warehouse === 990)).toBe(false);
  });

  it('writes the same list as CSV for the supplier, in the same order', async () => {
    const res = await call('GET', `${LOW_STOCK_CSV_PATH}?warehouse=902`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="low-stock.csv"');
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'barcode',
      'item_id',
      'item_name',
      'variant_id',
      'variant_name',
      'warehouse',
      'quantity',
      'minimum',
      'target',
      'suggested_order',
      'sold_30_days',
    ]);
    expect(rows.map((r) => [r.barcode, r.warehouse, Number(r.quantity), Number(r.suggested_order), Number(r.sold_30_days)])).toEqual(
      expectedList(902).map((e) => [e.barcode, 'Store', e.quantity, e.suggested_order, e.sold]),
    );
    const refused = await server.request('GET', `${LOW_STOCK_CSV_PATH}?warehouse=990`, { token: server.tokens.shop });
    expect(refused.status).toBe(400);
  });
});
