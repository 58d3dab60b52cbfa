// The review of a session before (and after) its commit: its lines that need a look first, the
// expected units not scanned, the unknown barcodes; and the review's lines page by page for the
// counts CSV.
import {
  MAX_REVIEW_LINES,
  MAX_REVIEW_NOT_SCANNED,
  type NotScanned,
  type StocktakeLine,
  type StocktakeReview,
} from '../../../shared/index.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import { selectLines, sinceCount, toLine } from './lines.ts';
import { type StocktakeRow, describeStocktake, loadStocktake } from './sessions.ts';

/** Lines per page of a session's counts CSV. */
export const COUNTS_PAGE_LINES = 1000;

/**
 * One page of a session's lines as the review shows them (book quantity and difference always), known
 * or unknown ones, after line `afterId`: the counts CSV of a session of any size, page by page
 * (index stocktake_lines_session_order).
 */
export async function reviewLinesPage(
  q: Queries,
  account: Account,
  id: number,
  known: boolean,
  afterId: number,
  limit = COUNTS_PAGE_LINES,
): Promise<StocktakeLine[]> {
  const session = await loadStocktake(q, account, id);
  return (await selectLines(q, session, undefined, { known, afterId, limit })).map((row) => toLine(row, true));
}

/** Expected units (a book quantity other than 0 in the session's warehouse) that have no line. */
export function expectedNotScanned(q: Queries, session: StocktakeRow) {
  return q.k
    .selectFrom('stock as s')
    .innerJoin('stock_units as u', 'u.id', 's.unit_id')
    .where('u.account_id', '=', session.account_id)
    .where('s.warehouse_id', '=', session.warehouse_id)
    .where('s.quantity', '!=', 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('stocktake_lines as l').select('l.id').where('l.stocktake_id', '=', session.id).whereRef('l.unit_id', '=', 'u.id'),
        ),
      ),
    );
}

/** The first `limit` expected units that have no line, by barcode. */
async function notScanned(q: Queries, session: StocktakeRow, limit: number): Promise<NotScanned[]> {
  const rows = await q.all(
    expectedNotScanned(q, session)
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.barcode', 'u.item_id', 'u.variant_id', 'i.name as item_name', 'v.name as variant_name', 's.quantity'])
      .orderBy('u.barcode')
      .limit(limit),
  );
  return rows.map((row) => ({
    barcode: row.barcode,
    item: row.item_id,
    liquid_stock: row.variant_id,
    name: row.variant_name ? `${row.item_name} / ${row.variant_name}` : row.item_name,
    book_quantity: row.quantity,
  }));
}

async function countNotScanned(q: Queries, session: StocktakeRow): Promise<number> {
  return Number((await q.first(expectedNotScanned(q, session).select((eb) => eb.fn.countAll<number>().as('n'))))?.n ?? 0);
}

/** How much a line needs a look in the review: refused by the commit, then changing stock, then the rest. */
const attentionOf = (line: StocktakeLine) => (line.commit?.state === 'failed' ? 0 : line.difference ? 1 : 2);

export async function reviewStocktake(q: Queries, account: Account, id: number): Promise<StocktakeReview> {
  const session = await loadStocktake(q, account, id);
  const rows = await selectLines(q, session);
  const since = await sinceCount(q, session, rows);
  const lines = rows.map((row) => toLine(row, true, since));
  const known = lines.filter((line) => line.known);
  // A stable sort: within a group, the order counted (line id) stays.
  const listed = known.sort((a, b) => attentionOf(a) - attentionOf(b)).slice(0, MAX_REVIEW_LINES);
  const unknown = lines.filter((line) => !line.known);
  // Who counted each line shown: the actors of its scans and edits that were not undone, in one read.
  const counters = await countedBy(
    q,
    session.id,
    [...listed, ...unknown].map((line) => line.id),
  );
  for (const line of [...listed, ...unknown]) line.counted_by = counters.get(line.id) ?? [];
  return {
    stocktake: await describeStocktake(q, session),
    lines: listed,
    lines_total: known.length,
    lines_changed: known.filter((line) => line.difference).length,
    not_scanned: await notScanned(q, session, MAX_REVIEW_NOT_SCANNED),
    not_scanned_total: await countNotScanned(q, session),
    unknown,
  };
}

/** The people (or tokens) who scanned or edited each of these lines, in the order they first did. */
async function countedBy(q: Queries, stocktakeId: number, lineIds: number[]): Promise<Map<number, string[]>> {
  const counters = new Map<number, string[]>();
  if (lineIds.length === 0) return counters;
  const rows = await q.all(
    q.k
      .selectFrom('stocktake_scans')
      .select(['line_id', 'actor'])
      .where('stocktake_id', '=', stocktakeId)
      .where('line_id', 'in', lineIds)
      .where('undone_at', 'is', null)
      .where('actor', 'is not', null)
      .orderBy('id'),
  );
  for (const row of rows) {
    const names = counters.get(row.line_id) ?? [];
    if (!names.includes(row.actor!)) names.push(row.actor!);
    counters.set(row.line_id, names);
  }
  return counters;
}
