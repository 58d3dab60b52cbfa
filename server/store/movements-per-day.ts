// A warehouse's movements per day (docs/REORDER.md, "Movements per day"): sales, receipts, counts and
// sets of each calendar day of a period, and the day's net change. One aggregating statement over one
// index range of the account's movement log: `stock_history_warehouse_hlc (warehouse_id, hlc)` for
// one warehouse, `stock_history_account_hlc (account_id, hlc)` for the whole account (every warehouse,
// or the one figure of an account without warehouses). The database reads the period's movements and
// hands back at most a row per day and kind; the answer is a day per day of the period.
import { sql } from 'kysely';
import {
  type MovementsPerDay,
  type MovementsPerDayQuery,
  type PerDay,
  type PerDayKind,
  addDays,
  daysBetween,
  perDayPeriod,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';
import { hlcFloor } from './movements/hlc.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const emptyDay = (date: string): PerDay => ({
  date,
  sales: { movements: 0, quantity: 0 },
  receipts: { movements: 0, quantity: 0 },
  counts: { movements: 0, quantity: 0 },
  sets: { movements: 0, quantity: 0 },
  net: 0,
});

export async function readMovementsPerDay(
  q: Queries,
  account: Account,
  query: MovementsPerDayQuery,
  now: number,
): Promise<MovementsPerDay> {
  let warehouseName: string | null = null;
  if (query.warehouse !== undefined) {
    const known = account.warehousesEnabled
      ? await q.first(q.k.selectFrom('warehouses').select('name').where('account_id', '=', account.id).where('id', '=', query.warehouse))
      : undefined;
    if (!known) throw badRequest(`No warehouse with id ${query.warehouse} in this account.`, 'invalid_query');
    warehouseName = known.name;
  }
  const { from, to } = perDayPeriod(query, now);
  const offsetMs = query.utc_offset * 60_000;
  // The period's first midnight and the midnight after its last day, on the shop's clock, as timestamps.
  const startMs = Date.parse(`${from}T00:00:00Z`) - offsetMs;
  const endMs = Date.parse(`${to}T00:00:00Z`) + DAY_MS - offsetMs;

  // The day of a movement: its timestamp's wall time (the first 16 digits) on the shop's clock, in
  // whole days since 1970. Integer division in both engines (bigint / integer).
  const day = sql<number>`(cast(substr(h.hlc, 1, 16) as bigint) + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)}`;
  const kind = sql<PerDayKind>`case when h.kind = 'adjust' and h.value < 0 then 'sales' when h.kind = 'adjust' then 'receipts' when h.kind = 'count' then 'counts' else 'sets' end`;
  let rows = q.k
    .selectFrom('stock_history as h')
    .select([
      day.as('day'),
      kind.as('kind'),
      sql<number>`count(*)`.as('movements'),
      // Units sold or received for adjusts; the change a count or set made, in fold order.
      sql<number>`sum(case when h.kind = 'adjust' and h.value < 0 then -h.value when h.kind = 'adjust' then h.value else h.new_quantity - coalesce(h.old_quantity, 0) end)`.as(
        'quantity',
      ),
      sql<number>`sum(h.new_quantity - coalesce(h.old_quantity, 0))`.as('net'),
    ])
    .where('h.account_id', '=', account.id)
    .where('h.hlc', '>=', hlcFloor(startMs))
    .where('h.hlc', '<', hlcFloor(endMs))
    .groupBy([day, kind]);
  if (query.warehouse !== undefined) rows = rows.where('h.warehouse_id', '=', query.warehouse);

  const length = daysBetween(from, to);
  const days = Array.from({ length }, (_, i) => emptyDay(addDays(from, i)));
  const firstDay = Math.round(Date.parse(`${from}T00:00:00Z`) / DAY_MS);
  const totals = emptyDay(from);
  for (const row of await q.all(rows)) {
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
    days,
    totals: total,
  };
}
