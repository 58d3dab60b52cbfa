// The conflicts this instance knows of (docs/SYNC.md, "Conflicts"): groups of sets and counts of one
// unit and warehouse made without seeing what they overrode, open until someone who saw all of them
// recorded the quantity again. The movement log keeps them as it applies movements (the rules are
// movements/fold.ts); listing and counting them is one query each, with a limit.
import { type Conflict, MAX_COUNTED_CONFLICTS, type MovementKind } from '../../../shared/index.ts';
import { type Param, type Queries, statement } from '../engine.ts';
import { actorNameOf, sourceNameOf } from '../movements/movement-names.ts';
import { parseHlc } from '../movements/hlc.ts';
import { NO_WAREHOUSE } from '../schema.ts';
import { instanceLabels } from './instance-labels.ts';

/**
 * The account's open groups, counted up to one past MAX_COUNTED_CONFLICTS (the status then says
 * "more than"): the count stops there, whatever was pushed.
 */
const openCount = statement('sync.openConflicts', (k, p: Param<{ accountId: number; cap: number }>) =>
  k
    .selectFrom((db) =>
      db
        .selectFrom('stock_conflict_groups')
        .select('id')
        .where('account_id', '=', p('accountId'))
        .where('open', '=', 1)
        .limit(p('cap'))
        .as('o'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

export async function countOpenConflicts(q: Queries, accountId: number): Promise<number> {
  return Number((await q.first(openCount, { accountId, cap: MAX_COUNTED_CONFLICTS + 1 }))?.n ?? 0);
}

const sides = ['f', 'l', 'e'] as const;

function listQuery(q: Queries) {
  let query = q.k
    .selectFrom('stock_conflict_groups as c')
    .innerJoin('stock_units as u', 'u.id', 'c.unit_id')
    .leftJoin('warehouses as w', 'w.id', 'c.warehouse_id')
    .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'c.unit_id').onRef('s.warehouse_id', '=', 'c.warehouse_id'))
    .innerJoin('stock_history as f', (join) =>
      join.onRef('f.account_id', '=', 'c.account_id').onRef('f.origin', '=', 'c.first_origin').onRef('f.seq', '=', 'c.first_seq'),
    )
    .innerJoin('stock_history as l', (join) =>
      join.onRef('l.account_id', '=', 'c.account_id').onRef('l.origin', '=', 'c.last_origin').onRef('l.seq', '=', 'c.last_seq'),
    )
    .innerJoin('stock_history as e', (join) =>
      join.onRef('e.account_id', '=', 'c.account_id').onRef('e.origin', '=', 'c.earlier_origin').onRef('e.seq', '=', 'c.earlier_seq'),
    )
    .select([
      'c.id',
      'c.warehouse_id',
      'c.movements',
      'c.racing',
      'c.open',
      'c.detected_at',
      'u.barcode',
      'u.item_id',
      'u.variant_id',
      'w.name as warehouse_name',
      's.quantity',
    ]);
  for (const p of sides)
    query = query.select([
      `${p}.origin as ${p}_origin`,
      `${p}.seq as ${p}_seq`,
      `${p}.kind as ${p}_kind`,
      `${p}.value as ${p}_value`,
      `${p}.hlc as ${p}_hlc`,
      sourceNameOf(p).as(`${p}_source`),
      `${p}.reference as ${p}_reference`,
      actorNameOf(p).as(`${p}_actor`),
    ] as never);
  return query;
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number] &
  Record<`${(typeof sides)[number]}_${'origin' | 'kind' | 'hlc' | 'source'}`, string> &
  Record<`${(typeof sides)[number]}_${'seq' | 'value'}`, number> &
  Record<`${(typeof sides)[number]}_${'reference' | 'actor'}`, string | null>;

/** The account's conflict groups, newest first, at most `limit`: one query, whatever is stored (and the labels of their instances). */
export async function listConflicts(q: Queries, accountId: number, state: 'open' | 'all', limit: number): Promise<Conflict[]> {
  let query = listQuery(q).where('c.account_id', '=', accountId);
  if (state === 'open') query = query.where('c.open', '=', 1);
  const rows = (await q.all(query.orderBy('c.id', 'desc').limit(limit))) as ListRow[];
  const labels = await instanceLabels(
    q,
    accountId,
    rows.flatMap((row) => sides.map((p) => row[`${p}_origin`])),
  );
  return rows.map((row) => {
    const side = (p: (typeof sides)[number]) => ({
      movement: `${row[`${p}_origin`]}-${row[`${p}_seq`]}`,
      kind: row[`${p}_kind`] as MovementKind,
      value: row[`${p}_value`],
      origin: row[`${p}_origin`],
      origin_label: labels.get(row[`${p}_origin`]) ?? null,
      occurred_at: new Date(parseHlc(row[`${p}_hlc`])?.wall ?? 0).toISOString(),
      source: row[`${p}_source`],
      reference: row[`${p}_reference`],
      actor: row[`${p}_actor`],
    });
    return {
      id: row.id,
      barcode: row.barcode,
      item: row.item_id,
      liquid_stock: row.variant_id,
      warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
      warehouse_name: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_name,
      first: side('f'),
      later: side('l'),
      earlier: side('e'),
      movements: row.movements,
      racing: row.racing === 1,
      quantity: row.quantity ?? null,
      resolved: row.open === 0,
      detected_at: row.detected_at,
    };
  });
}
