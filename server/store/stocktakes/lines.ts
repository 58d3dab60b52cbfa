// A session's lines as the pages show them: names, the book quantity and, before the commit, what
// was recorded after each line was counted, folded on top of the count (what the commit will leave).
// A blind session hides the book while it is open.
import { type StocktakeLine, type UnknownResolution, stocktakeMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import { foldFrom } from '../movements/fold.ts';
import { type StocktakeRow, loadStocktake } from './sessions.ts';
import { after, oldestFirst, timeBound } from '../movements/time-order.ts';

/** The lines of a session with names and book quantities; `lineId` narrows to one line, `page` to a range. */
export async function selectLines(
  q: Queries,
  session: StocktakeRow,
  lineId?: number,
  page?: { known: boolean; afterId: number; limit: number },
  ids?: readonly number[],
) {
  let query = q.k
    .selectFrom('stocktake_lines as l')
    .leftJoin('stock_units as u', 'u.id', 'l.unit_id')
    .leftJoin('items as i', 'i.id', 'u.item_id')
    .leftJoin('variants as v', 'v.id', 'u.variant_id')
    .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'l.unit_id').on('s.warehouse_id', '=', session.warehouse_id))
    .select([
      'l.id',
      'l.barcode',
      'l.unit_id',
      'l.counted',
      'l.resolution',
      'l.zeroed',
      'l.updated_at',
      'l.commit_state',
      'l.book_quantity',
      'l.commit_errors',
      'l.counted_hlc',
      'u.item_id',
      'u.variant_id',
      'i.name as item_name',
      'v.name as variant_name',
      's.quantity as live_quantity',
    ])
    .where('l.stocktake_id', '=', session.id)
    .orderBy('l.id');
  if (lineId !== undefined) query = query.where('l.id', '=', lineId);
  if (ids !== undefined) query = query.where('l.id', 'in', ids);
  if (page !== undefined) {
    // The page's line ids first, from the covering index stocktake_lines_session_order (session, id,
    // unit): one range of it per page, however many lines the session or later sessions have.
    const { known, afterId, limit } = page;
    query = query.where('l.id', 'in', (eb) =>
      eb
        .selectFrom('stocktake_lines as p')
        .select('p.id')
        .where('p.stocktake_id', '=', session.id)
        .where('p.id', '>', afterId)
        .where('p.unit_id', known ? 'is not' : 'is', null)
        .orderBy('p.id')
        .limit(limit),
    );
  }
  return q.all(query);
}

type LineRow = Awaited<ReturnType<typeof selectLines>>[number];

/** What was recorded after each line's count: the net change, or null when a later set or count replaced it. */
type SinceCount = Map<number, { moved: number | null; after: number }>;

/**
 * For the open session's known lines: the movements of their units in the session's warehouse
 * recorded after each line was counted, folded on top of the count — what the commit will leave.
 */
export async function sinceCount(q: Queries, session: StocktakeRow, rows: readonly LineRow[]): Promise<SinceCount> {
  const result: SinceCount = new Map();
  const counted = rows.filter((row) => row.unit_id !== null && row.counted_hlc !== null && row.commit_state === null);
  for (let i = 0; i < counted.length; i += 500) {
    const batch = counted.slice(i, i + 500);
    const earliest = batch.reduce((min, row) => (row.counted_hlc! < min ? row.counted_hlc! : min), batch[0]!.counted_hlc!);
    const movements = await q.all(
      q.k
        .selectFrom('stock_history')
        .select(['unit_id', 'kind', 'value', 'hlc'])
        .where('warehouse_id', '=', session.warehouse_id)
        .where(
          'unit_id',
          'in',
          batch.map((row) => row.unit_id!),
        )
        .$call(after(timeBound(earliest)))
        .$call(oldestFirst()),
    );
    // Each unit's movements, still in timestamp order.
    const ofUnit = new Map<number, typeof movements>();
    for (const m of movements) {
      const list = ofUnit.get(m.unit_id);
      if (list) list.push(m);
      else ofUnit.set(m.unit_id, [m]);
    }
    for (const row of batch) {
      const since = (ofUnit.get(row.unit_id!) ?? []).filter((m) => m.hlc > row.counted_hlc!);
      const { quantity, moved } = foldFrom(row.counted, since);
      result.set(row.id, { moved, after: quantity });
    }
  }
  return result;
}

export function toLine(row: LineRow, showBook: boolean, since?: SinceCount): StocktakeLine {
  const known = row.unit_id !== null;
  const line: StocktakeLine = {
    id: row.id,
    barcode: row.barcode,
    known,
    item: row.item_id ?? null,
    liquid_stock: row.variant_id ?? null,
    name: row.item_name ? (row.variant_name ? `${row.item_name} / ${row.variant_name}` : row.item_name) : null,
    counted: row.counted,
    resolution: (row.resolution as UnknownResolution | null) ?? null,
    zeroed: row.zeroed === 1,
    updated_at: row.updated_at,
    commit: row.commit_state
      ? {
          state: row.commit_state as 'applied' | 'failed',
          book_quantity: row.book_quantity,
          errors: row.commit_errors ? (JSON.parse(row.commit_errors) as Record<string, string>) : null,
        }
      : null,
  };
  if (known && showBook) {
    if (row.commit_state === 'applied') {
      // After the commit, book means what the count replaced.
      line.book_quantity = row.book_quantity ?? 0;
      line.difference = row.counted - line.book_quantity;
    } else {
      // Before it, the quantity on the books now, and what the commit will make of it.
      line.book_quantity = row.live_quantity ?? 0;
      const { moved, after } = since?.get(row.id) ?? { moved: 0, after: row.counted };
      line.moved_since_count = moved;
      line.after_commit = after;
      line.difference = after - line.book_quantity;
    }
  }
  return line;
}

const showsBook = (session: StocktakeRow) => !(session.blind === 1 && session.status === 'open');

/** Lines as a counting page shows them: the book (and what moved since the count) unless blind. */
export async function shownLines(q: Queries, session: StocktakeRow, rows: readonly LineRow[]): Promise<StocktakeLine[]> {
  const since = showsBook(session) ? await sinceCount(q, session, rows) : undefined;
  return rows.map((row) => toLine(row, showsBook(session), since));
}

export async function listLines(q: Queries, account: Account, id: number): Promise<StocktakeLine[]> {
  const session = await loadStocktake(q, account, id);
  return shownLines(q, session, await selectLines(q, session));
}

export async function lineOf(q: Queries, session: StocktakeRow, lineId: number): Promise<StocktakeLine> {
  const row = (await selectLines(q, session, lineId))[0];
  if (!row) throw apiError(404, stocktakeMessages.lineNotFound, { code: 'stocktake_line_not_found' });
  return (await shownLines(q, session, [row]))[0]!;
}
