// Change numbers of a session's lines: every write to a line takes the session's next number, so a
// counting page asks every two seconds only for the lines changed since the last answer it had.
import { sql } from 'kysely';
import type { StocktakeChanges } from '../../../shared/index.ts';
import type { Account } from '../accounts.ts';
import { type Param, type Queries, statement } from '../engine.ts';
import { selectLines, shownLines } from './lines.ts';
import { loadStocktake } from './sessions.ts';

const takeChange = statement('stocktakes.takeChange', (k, p: Param<{ id: number }>) =>
  k
    .updateTable('stocktakes')
    .set((eb) => ({ change_seq: eb('change_seq', '+', 1) }))
    .where('id', '=', p('id'))
    .returning('change_seq'),
);

/**
 * The session's next change number, for a write to its lines in the caller's transaction: the line
 * keeps it (`change_seq`), so a counting page can ask for the lines changed since the last number
 * it saw (linesChangedAfter).
 */
export async function nextChange(q: Queries, stocktakeId: number): Promise<number> {
  return (await q.first(takeChange, { id: stocktakeId }))!.change_seq;
}

/** More changed lines than this, and the answer is every line (one statement, not a list of ids). */
const MAX_CHANGED_IDS = 1000;

/**
 * What a counting page asks every two seconds (GET …/changes/): without `after`, every line; with
 * it, the lines written since (their change_seq, index stocktake_lines_change) and those whose book
 * quantity may have moved since (a history row of their unit in the session's warehouse after the
 * account's last one the page saw). Lines removed by an undo show in `line_count` and `line_id_sum`.
 */
export async function linesChangedAfter(q: Queries, account: Account, id: number, after?: string): Promise<StocktakeChanges> {
  const session = await loadStocktake(q, account, id);
  // The cursor is read before the lines: a write committed in between comes again next time, never skipped.
  const change = (await q.first(q.k.selectFrom('stocktakes').select('change_seq').where('id', '=', id)))!.change_seq;
  const history = Number(
    (
      await q.first(
        q.k
          .selectFrom('stock_history')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('account_id', '=', session.account_id),
      )
    )?.id ?? 0,
  );
  let ids: number[] | undefined;
  if (after !== undefined) {
    const [sinceChange, sinceHistory] = after.split('.').map(Number) as [number, number];
    const written = await q.all(
      q.k.selectFrom('stocktake_lines').select('id').where('stocktake_id', '=', id).where('change_seq', '>', sinceChange),
    );
    const moved = await q.all(
      q.k
        .selectFrom('stocktake_lines')
        .select('id')
        .where('stocktake_id', '=', id)
        .where('unit_id', 'in', (eb) =>
          eb
            .selectFrom('stock_history')
            .select('unit_id')
            .where('account_id', '=', session.account_id)
            .where('id', '>', sinceHistory)
            .where('warehouse_id', '=', session.warehouse_id),
        ),
    );
    ids = [...new Set([...written, ...moved].map((row) => row.id))];
    if (ids.length > MAX_CHANGED_IDS) ids = undefined;
  }
  const rows = ids?.length === 0 ? [] : await selectLines(q, session, undefined, undefined, ids);
  const held = await q.first(
    q.k
      .selectFrom('stocktake_lines')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(id), 0)`.as('ids')])
      .where('stocktake_id', '=', id),
  );
  return {
    lines: await shownLines(q, session, rows),
    line_count: Number(held?.n ?? 0),
    line_id_sum: Number(held?.ids ?? 0),
    after: `${change}.${history}`,
  };
}
