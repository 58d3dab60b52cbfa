// A warehouse's movements per day (docs/REORDER.md, "Movements per day"): the answer is checked
// against the stock history read through its own endpoint and tallied here, day by day on the shop's
// clock; one account never sees another's movements, an account without warehouses has its one
// figure, and a bad period or warehouse is a 400 that says what is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  INVENTORY_PATH,
  MOVEMENTS_PER_DAY_PATH,
  type HistoryEntry,
  type HistoryPage,
  type MovementsPerDay,
  PER_DAY_KINDS,
  STOCK_HISTORY_PATH,
  STOCKTAKES_PATH,
  movementsPerDayQuerySchema,
  movementsPerDaySchema,
  stocktakePath,
} from '../../shared/index.ts';
import type { Engine } from '../../server/store/engine.ts';
import { providerFor } from '../../server/store/engines.ts';
import { readMovementsPerDay } from '../../server/store/movements-per-day.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';
const SHIRT = '8690000000024';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The example catalogue and a second shop with warehouses, whose movements north must never see. */
function catalogue(): unknown {
  const example = exampleCatalogue() as { accounts: unknown[] };
  example.accounts.push({
    name: 'south',
    warehouses_enabled: true,
    warehouses: [{ id: 20, name: 'Shop' }],
    items: [{ id: 300, name: 'Cup', barcode: '8690000000031', stock: [{ warehouse: 'Shop', quantity: 50 }] }],
  });
  return example;
}

/** The tally of the history as the endpoint documents it, computed from the entries alone. */
function tally(entries: readonly HistoryEntry[], warehouse: number | null, from: string, to: string, offsetMinutes: number) {
  const days = new Map<string, MovementsPerDay['days'][number]>();
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, {
      date,
      sales: { movements: 0, quantity: 0 },
      receipts: { movements: 0, quantity: 0 },
      counts: { movements: 0, quantity: 0 },
      sets: { movements: 0, quantity: 0 },
      net: 0,
    });
  }
  for (const e of entries) {
    if (warehouse !== null && e.warehouse !== warehouse) continue;
    const day = days.get(new Date(Date.parse(e.occurred_at) + offsetMinutes * 60_000).toISOString().slice(0, 10));
    if (!day) continue;
    const change = e.new_quantity - (e.old_quantity ?? 0);
    const kind = e.kind === 'adjust' ? (e.value < 0 ? 'sales' : 'receipts') : e.kind === 'count' ? 'counts' : 'sets';
    day[kind].movements += 1;
    day[kind].quantity += e.kind === 'adjust' ? Math.abs(e.value) : change;
    day.net += change;
  }
  return [...days.values()];
}

describe('movements per day', () => {
  let server: TestServer;
  // Two weeks of a shop's life, ending on 2026-03-15 at 10:00 UTC (13:00 in Istanbul).
  let now = Date.parse('2026-03-01T08:00:00Z');
  const at = (iso: string) => {
    now = Math.max(now, Date.parse(iso));
  };
  const write = async (path: string, rows: unknown[], account = 'north') => {
    const res = await server.request('POST', path, { token: server.tokens[account], body: rows });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const perDay = async (query: string, account = 'north'): Promise<MovementsPerDay> => {
    const res = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?${query}`, { token: server.tokens[account] });
    expect(res.status, await res.clone().text()).toBe(200);
    return movementsPerDaySchema.parse(await res.json());
  };
  const history = async (account: string): Promise<HistoryEntry[]> => {
    const res = await server.request('GET', `${STOCK_HISTORY_PATH}?limit=500`, { token: server.tokens[account] });
    const page = (await res.json()) as HistoryPage;
    expect(page.next_cursor).toBeNull();
    return page.results;
  };

  // Late on the 14th (UTC) — already the 15th in Istanbul — a stocktake counts the mug in Main.
  const countTheMug = async () => {
    at('2026-03-14T22:30:00Z');
    const created = await server.request('POST', STOCKTAKES_PATH, {
      token: server.tokens.north,
      body: { warehouse_name: 'Main', blind: false },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const scanned = await server.request('POST', stocktakePath(id, 'scans'), {
      token: server.tokens.north,
      body: { barcode: MUG, amount: 30 },
    });
    expect(scanned.status).toBe(201);
    const committed = await server.request('POST', stocktakePath(id, 'commit'), { token: server.tokens.north, body: {} });
    expect(committed.status).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(catalogue(), { clock: { now: () => now } });
    for (let d = 2; d <= 15; d++) {
      const date = `2026-03-${String(d).padStart(2, '0')}`;
      at(`${date}T09:00:00Z`);
      await write(ADJUST_PATH, [
        { barcode: MUG, warehouse_name: 'Main', delta: -(d % 3) - 1 },
        { barcode: SHIRT, warehouse_name: 'Main', delta: -1 },
      ]);
      if (d % 4 === 0) await write(ADJUST_PATH, [{ barcode: MUG, warehouse_name: 'Main', delta: 12, reason: 'delivery' }]);
      if (d === 7) await write(INVENTORY_PATH, [{ barcode: MUG, warehouse_name: 'Backroom', quantity: 4 }]);
      // South sells too, on the same days: none of it is north's.
      await write(ADJUST_PATH, [{ barcode: '8690000000031', warehouse_name: 'Shop', delta: -2 }], 'south');
      // The kiosk (no warehouses) sells a pen on odd days.
      if (d % 2 === 1) await write(ADJUST_PATH, [{ barcode: '111', delta: -1 }], 'kiosk');
      if (d === 14) await countTheMug();
    }
    at('2026-03-15T10:00:00Z');
  });
  afterAll(() => server.stop());

  it("tallies every day of the period as the history has it, for one warehouse and for the account's all", async () => {
    const entries = await history('north');
    expect(entries.some((e) => e.kind === 'count')).toBe(true);
    const main = await perDay('warehouse=10&days=14');
    expect(main).toMatchObject({ warehouse: 10, warehouse_name: 'Main', from: '2026-03-02', to: '2026-03-15', utc_offset: 0 });
    expect(main.days).toEqual(tally(entries, 10, '2026-03-02', '2026-03-15', 0));
    expect(main.days.find((d) => d.date === '2026-03-14')!.counts.movements).toBe(1);
    const all = await perDay('from=2026-03-01&to=2026-03-15');
    expect(all).toMatchObject({ warehouse: null, warehouse_name: null });
    expect(all.days).toEqual(tally(entries, null, '2026-03-01', '2026-03-15', 0));
    // The totals are the days added up; the net change of the period is the stock's change.
    for (const kind of PER_DAY_KINDS) {
      expect(all.totals[kind].movements).toBe(all.days.reduce((sum, d) => sum + d[kind].movements, 0));
      expect(all.totals[kind].quantity).toBe(all.days.reduce((sum, d) => sum + d[kind].quantity, 0));
    }
    expect(all.totals.net).toBe(all.days.reduce((sum, d) => sum + d.net, 0));
    // The import's three quantities on the 1st, and the Backroom's set on the 7th.
    expect(all.totals.sets.movements).toBe(4);
    expect(all.totals.receipts).toEqual({ movements: 3, quantity: 36 });
  });

  it("counts a day from midnight on the shop's clock", async () => {
    const entries = await history('north');
    const istanbul = await perDay('warehouse=10&days=7&utc_offset=180');
    expect(istanbul.to).toBe('2026-03-15');
    expect(istanbul.days).toEqual(tally(entries, 10, '2026-03-09', '2026-03-15', 180));
    // The count of 22:30 UTC on the 14th is on the 15th there.
    expect(istanbul.days.find((d) => d.date === '2026-03-15')!.counts.movements).toBe(1);
    expect(istanbul.days.find((d) => d.date === '2026-03-14')!.counts.movements).toBe(0);
  });

  it("never shows one account another's movements, and gives an account without warehouses its one figure", async () => {
    const south = await perDay('days=14', 'south');
    expect(south.totals.sales).toEqual({ movements: 14, quantity: 28 });
    expect(south.totals.receipts.movements + south.totals.counts.movements + south.totals.sets.movements).toBe(0);
    expect(south.days).toEqual(tally(await history('south'), null, '2026-03-02', '2026-03-15', 0));
    const kiosk = await perDay('days=14', 'kiosk');
    expect(kiosk).toMatchObject({ warehouse: null, warehouse_name: null });
    expect(kiosk.totals.sales).toEqual({ movements: 7, quantity: 7 });
    expect(kiosk.days).toEqual(tally(await history('kiosk'), null, '2026-03-02', '2026-03-15', 0));
    // Another account's warehouse does not exist for the caller.
    const foreign = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?warehouse=20`, { token: server.tokens.north });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ code: 'invalid_query', detail: 'No warehouse with id 20 in this account.' });
    const none = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?warehouse=10`, { token: server.tokens.kiosk });
    expect(none.status).toBe(400);
  });

  it('reads a long period in stretches, each its own read, and answers the same', async () => {
    const caller = (await server.store.tokens.authenticate(server.tokens.north!))!;
    const engine = await providerFor(server.dbFile).open(server.dbFile);
    try {
      let reads = 0;
      const read: Engine['read'] = (work) => (reads++, engine.read(work));
      const query = movementsPerDayQuerySchema.parse({ from: '2026-03-01', to: '2026-03-15' });
      const now = Date.parse('2026-03-15T10:00:00Z');
      const whole = await readMovementsPerDay(read, caller, query, now);
      expect(reads).toBe(1); // the period holds fewer movements than a stretch
      const movements = PER_DAY_KINDS.reduce((sum, kind) => sum + whole.totals[kind].movements, 0);
      for (const stretch of [1, 3, 7]) {
        reads = 0;
        expect(await readMovementsPerDay(read, caller, query, now, stretch)).toEqual(whole);
        expect(reads).toBe(Math.ceil(movements / stretch));
      }
    } finally {
      await engine.close();
    }
  });

  it('refuses a bad period with a 400 that names the parameter', async () => {
    const bad: [string, RegExp][] = [
      ['days=0', /days/],
      ['days=367', /days/],
      ['days=abc', /days/],
      ['from=2026-03-01', /to: Give both from and to/],
      ['from=2026-03-10&to=2026-03-01', /from: from is after to/],
      ['from=2025-01-01&to=2026-03-01', /to: A period of at most 366 days/],
      ['days=7&from=2026-03-01&to=2026-03-02', /days: Give days, or from and to, not both/],
      ['from=2026-02-30&to=2026-03-02', /from/],
      ['utc_offset=900', /utc_offset/],
      ['time_zone=Mars/Olympus_Mons', /time_zone: Not a time zone/],
      [`time_zone=${'A'.repeat(65)}`, /time_zone/],
      ['warehouse=main', /warehouse/],
    ];
    for (const [query, detail] of bad) {
      const res = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?${query}`, { token: server.tokens.north });
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code, query).toBe('invalid_query');
      expect(body.detail, query).toMatch(detail);
    }
  });
});

describe('movements per day in a time zone, across changes of summer time', () => {
  let server: TestServer;
  let now = Date.parse('2026-03-20T08:00:00Z');
  const BERLIN = 'Europe/Berlin';
  /** The calendar day of an instant in a zone, by the runtime's own Intl: the oracle, not the code under test. */
  const localDate = (iso: string, timeZone: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.parse(iso));
  // Sales at the hours around midnight in Berlin, on both sides of the spring change (2026-03-29,
  // 02:00 CET becomes 03:00 CEST) and of the autumn one (2026-10-25, 03:00 CEST becomes 02:00 CET).
  const sales = [
    '2026-03-28T22:30:00Z', // 23:30 CET on the 28th
    '2026-03-28T23:30:00Z', // 00:30 CET on the 29th
    '2026-03-29T22:30:00Z', // 00:30 CEST on the 30th (at a fixed +01:00: 23:30 on the 29th)
    '2026-03-30T21:30:00Z', // 23:30 CEST on the 30th
    '2026-10-24T21:30:00Z', // 23:30 CEST on the 24th
    '2026-10-24T22:30:00Z', // 00:30 CEST on the 25th (at a fixed +01:00: 23:30 on the 24th)
    '2026-10-25T23:30:00Z', // 00:30 CET on the 26th (at a fixed +02:00: 01:30 on the 26th)
    '2026-10-26T22:30:00Z', // 23:30 CET on the 26th (at a fixed +02:00: 00:30 on the 27th)
  ];

  beforeAll(async () => {
    server = await startTestServer(catalogue(), { clock: { now: () => now } });
    for (const at of sales) {
      now = Date.parse(at);
      const res = await server.request('POST', ADJUST_PATH, {
        token: server.tokens.north,
        body: [{ barcode: MUG, warehouse_name: 'Main', delta: -1 }],
      });
      expect(res.status).toBe(200);
    }
    now = Date.parse('2026-10-27T10:00:00Z');
  });
  afterAll(() => server.stop());

  const perDay = async (query: string): Promise<MovementsPerDay> => {
    const res = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?warehouse=10&${query}`, { token: server.tokens.north });
    expect(res.status, await res.clone().text()).toBe(200);
    return movementsPerDaySchema.parse(await res.json());
  };
  const salesByDay = (answer: MovementsPerDay) =>
    Object.fromEntries(answer.days.filter((d) => d.sales.movements > 0).map((d) => [d.date, d.sales.movements]));
  const expected = (from: string, to: string) => {
    const byDay: Record<string, number> = {};
    for (const at of sales) {
      const date = localDate(at, BERLIN);
      if (date >= from && date <= to) byDay[date] = (byDay[date] ?? 0) + 1;
    }
    return byDay;
  };

  it('counts each sale on its calendar day in the zone, on both sides of a change of the clocks', async () => {
    const spring = await perDay(`from=2026-03-27&to=2026-03-31&time_zone=${BERLIN}`);
    expect(spring).toMatchObject({ time_zone: BERLIN, from: '2026-03-27', to: '2026-03-31' });
    expect(salesByDay(spring)).toEqual(expected('2026-03-27', '2026-03-31'));
    expect(salesByDay(spring)).toEqual({ '2026-03-28': 1, '2026-03-29': 1, '2026-03-30': 2 });
    const autumn = await perDay(`from=2026-10-23&to=2026-10-27&time_zone=${BERLIN}`);
    expect(salesByDay(autumn)).toEqual({ '2026-10-24': 1, '2026-10-25': 1, '2026-10-26': 2 });
    // One period across both changes: every sale once, on its day.
    const year = await perDay(`from=2026-03-20&to=2026-10-27&time_zone=${BERLIN}`);
    expect(salesByDay(year)).toEqual(expected('2026-03-20', '2026-10-27'));
    expect(year.totals.sales.movements).toBe(sales.length);
    // A fixed offset cannot be right on both sides: winter's +01:00 misplaces the summer midnights.
    const fixed = await perDay('from=2026-03-27&to=2026-03-31&utc_offset=60');
    expect(fixed.time_zone).toBeNull();
    expect(salesByDay(fixed)).toEqual({ '2026-03-28': 1, '2026-03-29': 2, '2026-03-30': 1 });
  });

  it("ends the last days on today's date in the zone", async () => {
    now = Date.parse('2026-10-26T23:30:00Z'); // 00:30 on the 27th in Berlin, still the 26th in UTC
    try {
      const answer = await perDay(`days=3&time_zone=${BERLIN}`);
      expect(answer).toMatchObject({ from: '2026-10-25', to: '2026-10-27' });
      expect(salesByDay(answer)).toEqual(expected('2026-10-25', '2026-10-27'));
    } finally {
      now = Date.parse('2026-10-27T10:00:00Z');
    }
  });
});
