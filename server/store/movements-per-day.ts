// A warehouse's movements per day (docs/REORDER.md, "Movements per day"): sales, receipts, counts and
// sets of each calendar day of a period, and the day's net change. One aggregating statement over one
// index range of the account's movement log: `stock_history_warehouse_hlc (warehouse_id, hlc_key)` for
// one warehouse, `stock_history_account_hlc (account_id, hlc_key)` for the whole account (every warehouse,
// or the one figure of an account without warehouses). The database reads the period's movements and
// hands back at most a row per day and kind; the answer is a day per day of the period.
//
// A period can hold millions of movements (a head office, a catalogue import), read at about 1 µs
// each, and SQLite answers one thing at a time: the period is read in stretches of PER_DAY_STRETCH
// movements, each its own read, with a turn of the event loop between them, so a report never holds
// the other requests (of any account) for more than a few tens of milliseconds. Each stretch is
// consistent; a movement recorded while the report runs counts if its stretch is read after it.
import { sql } from 'kysely';
import {
  type MovementsPerDay,
  type MovementsPerDayQuery,
  type PerDay,
  type PerDayKind,
  type OffsetStretch,
  addDays,
  daysBetween,
  offsetStretches,
  perDayPeriod,
  startOfDay,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Engine, Queries } from './engine.ts';
import { HLC_KEY_COUNTERS, hlcFloor, hlcKey } from './movements/hlc.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Movements aggregated by one read at most (see above): 20,000 take 20-30 ms. */
export const PER_DAY_STRETCH = 20_000;

const emptyDay = (date: string): PerDay => ({
  date,
  sales: { movements: 0, quantity: 0 },
  receipts: { movements: 0, quantity: 0 },
  counts: { movements: 0, quantity: 0 },
  sets: { movements: 0, quantity: 0 },
  net: 0,
});

export async function readMovementsPerDay(
  read: Engine['read'],
  account: Account,
  query: MovementsPerDayQuery,
  now: number,
  stretch = PER_DAY_STRETCH,
): Promise<MovementsPerDay> {
  let warehouseName: string | null = null;
  if (query.warehouse !== undefined) {
    const known = account.warehousesEnabled
      ? await read((q) =>
          q.first(q.k.selectFrom('warehouses').select('name').where('account_id', '=', account.id).where('id', '=', query.warehouse!)),
        )
      : undefined;
    if (!known) throw badRequest(`No warehouse with id ${query.warehouse} in this account.`, 'invalid_query');
    warehouseName = known.name;
  }
  const { from, to } = perDayPeriod(query, now);
  // The period's first midnight and the midnight after its last day, on the shop's clock, as instants;
  // in a time zone, cut where its offset changes (summer time), each piece read at its own offset.
  const afterLast = addDays(to, 1);
  const stretches: OffsetStretch[] =
    query.time_zone !== undefined
      ? offsetStretches(query.time_zone, startOfDay(query.time_zone, from), startOfDay(query.time_zone, afterLast))
      : [
          {
            fromMs: Date.parse(`${from}T00:00:00Z`) - query.utc_offset * 60_000,
            untilMs: Date.parse(`${afterLast}T00:00:00Z`) - query.utc_offset * 60_000,
            offsetMinutes: query.utc_offset,
          },
        ];

  // The day of a movement: its timestamp's wall time (its order key without the counter) on the
  // shop's clock, in whole days since 1970. Integer division in both engines (bigint / integer).
  const dayAt = (offsetMs: number) => sql<number>`(h.hlc_key / ${sql.lit(HLC_KEY_COUNTERS)} + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)}`;
  const kind = sql<PerDayKind>`case when h.kind = 'adjust' and h.value < 0 then 'sales' when h.kind = 'adjust' then 'receipts' when h.kind = 'count' then 'counts' else 'sets' end`;
  const inPeriod = (q: Queries, fromKey: number, untilKey: number) => {
    let movements = q.k
      .selectFrom('stock_history as h')
      .where('h.account_id', '=', account.id)
      .where('h.hlc_key', '>=', fromKey)
      .where('h.hlc_key', '<', untilKey);
    if (query.warehouse !== undefined) movements = movements.where('h.warehouse_id', '=', query.warehouse);
    return movements;
  };
  const tally = (q: Queries, fromKey: number, untilKey: number, offsetMs: number) =>
    inPeriod(q, fromKey, untilKey)
      .select([
        dayAt(offsetMs).as('day'),
        kind.as('kind'),
        sql<number>`count(*)`.as('movements'),
        // Units sold or received for adjusts; the change a count or set made, in fold order.
        sql<number>`sum(case when h.kind = 'adjust' and h.value < 0 then -h.value when h.kind = 'adjust' then h.value else h.new_quantity - coalesce(h.old_quantity, 0) end)`.as(
          'quantity',
        ),
        sql<number>`sum(h.new_quantity - coalesce(h.old_quantity, 0))`.as('net'),
      ])
      .groupBy([dayAt(offsetMs), kind]);
  /**
   * Where the next stretch ends: the order key `stretch` movements on, or the period's end. A walk of
   * the index alone: a warehouse (checked above to be the account's) needs no look at the rows. A key
   * shared by more movements than a stretch (a counter past 1023) is read whole, so the walk moves on.
   */
  const stretchEnd = async (q: Queries, fromKey: number, endKey: number) => {
    let walk = q.k.selectFrom('stock_history as h').select('h.hlc_key').where('h.hlc_key', '>=', fromKey).where('h.hlc_key', '<', endKey);
    walk = query.warehouse === undefined ? walk.where('h.account_id', '=', account.id) : walk.where('h.warehouse_id', '=', query.warehouse);
    const key = (await q.first(walk.orderBy('h.hlc_key').limit(1).offset(stretch)))?.hlc_key ?? endKey;
    return key > fromKey ? key : fromKey + 1;
  };

  const length = daysBetween(from, to);
  const days = Array.from({ length }, (_, i) => emptyDay(addDays(from, i)));
  const firstDay = Math.round(Date.parse(`${from}T00:00:00Z`) / DAY_MS);
  const totals = emptyDay(from);
  const rows: Awaited<ReturnType<ReturnType<typeof tally>['execute']>> = [];
  for (const { fromMs, untilMs, offsetMinutes } of stretches) {
    const endKey = hlcKey(hlcFloor(untilMs));
    for (let cursor = hlcKey(hlcFloor(fromMs)); cursor < endKey;) {
      const from = cursor;
      const stretchRead = await read(async (q) => {
        const until = await stretchEnd(q, from, endKey);
        return { until, rows: await q.all(tally(q, from, until, offsetMinutes * 60_000)) };
      });
      rows.push(...stretchRead.rows);
      cursor = stretchRead.until;
      if (cursor < endKey) await new Promise<void>((resolve) => setImmediate(resolve)); // the other requests' turn
    }
  }
  for (const row of rows) {
    const entry = days[Number(row.day) - firstDay];
    if (!entry) continue; // cannot happen: the range is the period's
    const movements = Number(row.movements);
    const quantity = Number(row.quantity);
    const net = Number(row.net);
    entry[row.kind].movements += movements;
    entry[row.kind].quantity += quantity;
    entry.net += net;
    totals[row.kind].movements += movements;
    totals[row.kind].quantity += quantity;
    totals.net += net;
  }
  const { date: _, ...total } = totals;
  return {
    warehouse: query.warehouse ?? null,
    warehouse_name: warehouseName,
    from,
    to,
    utc_offset: query.utc_offset,
    time_zone: query.time_zone ?? null,
    days,
    totals: total,
  };
}
