// Stocktake (count) sessions in the store: scans add to a line in SQL (`counted = counted + ?`) inside
// a transaction, so increments from several terminals are never lost; every scan is recorded so the
// last one can be undone and a resent one counted once. The commit lives in stocktake-commit.ts.
import { type Selectable, sql } from 'kysely';
import {
  type CreateStocktakeBody,
  MAX_REVIEW_LINES,
  MAX_REVIEW_NOT_SCANNED,
  type NotScanned,
  type ScanBody,
  type ScanResult,
  type Stocktake,
  type StocktakeChanges,
  type StocktakeLine,
  type StocktakeReview,
  type StocktakeStatus,
  type UndoBody,
  type UndoResult,
  type UnknownResolution,
  type UpdateLineBody,
  fieldMessages,
  stocktakeMessages,
} from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import { type Param, type Queries, statement } from './engine.ts';
import { NO_WAREHOUSE, type StocktakeTable } from './schema.ts';
import type { MovementLog } from './movements.ts';
import { foldFrom } from './movements/fold.ts';
import { findUnits } from './stock-write.ts';
import { apiError } from '../errors.ts';

/** The account a request acts for and the token it used. */
export interface StocktakeCaller extends Account {
  tokenId?: number | null;
}

/** The columns of a session the store works with (not the commit's bookkeeping). */
const STOCKTAKE_COLUMNS = [
  'id',
  'account_id',
  'warehouse_id',
  'name',
  'blind',
  'status',
  'zero_uncounted',
  'created_at',
  'committed_at',
] as const;

export type StocktakeRow = Pick<Selectable<StocktakeTable>, (typeof STOCKTAKE_COLUMNS)[number]>;

const now = () => new Date().toISOString();

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

/** The session of this account, or 404: another account's session does not exist for the caller. */
export async function loadStocktake(q: Queries, account: Account, id: number): Promise<StocktakeRow> {
  const row = await q.first(
    q.k.selectFrom('stocktakes').select(STOCKTAKE_COLUMNS).where('id', '=', id).where('account_id', '=', account.id),
  );
  if (!row) throw apiError(404, stocktakeMessages.notFound);
  return row;
}

function requireOpen(session: StocktakeRow): void {
  if (session.status === 'committing') throw apiError(409, stocktakeMessages.committing);
  if (session.status !== 'open') throw apiError(409, stocktakeMessages.readOnly(session.status));
}

async function warehouseName(q: Queries, warehouseId: number): Promise<string | null> {
  if (warehouseId === NO_WAREHOUSE) return null;
  return (await q.first(q.k.selectFrom('warehouses').select('name').where('id', '=', warehouseId)))?.name ?? null;
}

export async function describeStocktake(q: Queries, session: StocktakeRow): Promise<Stocktake> {
  return toStocktake(session, await warehouseName(q, session.warehouse_id), (await totalsOf(q, [session.id])).get(session.id)!);
}

/**
 * The totals of some sessions (one, or a page of the list): two statements whatever their number,
 * the line totals and the scan totals, each grouped by session.
 */
async function totalsOf(q: Queries, ids: number[]): Promise<Map<number, Stocktake['totals']>> {
  const lines = await q.all(
    q.k
      .selectFrom('stocktake_lines')
      .select([
        'stocktake_id',
        sql<number>`count(unit_id)`.as('known'),
        sql<number>`count(*) - count(unit_id)`.as('unknown'),
        sql<number>`coalesce(sum(case when unit_id is not null then counted else 0 end), 0)`.as('units'),
        sql<number>`count(commit_state)`.as('committed'),
      ])
      .where('stocktake_id', 'in', ids)
      .groupBy('stocktake_id'),
  );
  const scans = await q.all(
    q.k
      .selectFrom('stocktake_scans')
      .select(['stocktake_id', sql<number>`count(*)`.as('n')])
      .where('stocktake_id', 'in', ids)
      .where('kind', '=', 'scan')
      .where('undone_at', 'is', null)
      .groupBy('stocktake_id'),
  );
  const linesOf = new Map(lines.map((l) => [l.stocktake_id, l]));
  const scansOf = new Map(scans.map((c) => [c.stocktake_id, Number(c.n)]));
  return new Map(
    ids.map((id) => {
      const counted = linesOf.get(id);
      return [
        id,
        {
          known_lines: Number(counted?.known ?? 0),
          unknown_lines: Number(counted?.unknown ?? 0),
          counted_units: Number(counted?.units ?? 0),
          scans: scansOf.get(id) ?? 0,
          committed_lines: Number(counted?.committed ?? 0),
        },
      ];
    }),
  );
}

function toStocktake(session: StocktakeRow, warehouseName: string | null, totals: Stocktake['totals']): Stocktake {
  return {
    id: session.id,
    name: session.name,
    warehouse: session.warehouse_id === NO_WAREHOUSE ? null : session.warehouse_id,
    warehouse_name: warehouseName,
    blind: session.blind === 1,
    status: session.status as StocktakeStatus,
    zero_uncounted: session.zero_uncounted === null ? null : session.zero_uncounted === 1,
    created_at: session.created_at,
    committed_at: session.committed_at,
    totals,
  };
}

export async function createStocktake(q: Queries, caller: StocktakeCaller, body: CreateStocktakeBody): Promise<Stocktake> {
  let warehouseId = NO_WAREHOUSE;
  if (caller.warehousesEnabled) {
    if (body.warehouse_name === undefined) {
      throw apiError(400, stocktakeMessages.invalidBody(`warehouse_name: ${fieldMessages.required}`));
    }
    const warehouse = await q.first(
      q.k.selectFrom('warehouses').select('id').where('account_id', '=', caller.id).where('name', '=', body.warehouse_name),
    );
    if (!warehouse) {
      throw apiError(400, stocktakeMessages.invalidBody(`warehouse_name: ${fieldMessages.warehouseNotFound(body.warehouse_name)}`));
    }
    warehouseId = warehouse.id;
  }
  const at = now();
  const created = await q.first(
    q.k
      .insertInto('stocktakes')
      .values({
        account_id: caller.id,
        warehouse_id: warehouseId,
        name: body.name ?? `Stocktake ${at.slice(0, 16).replace('T', ' ')}`,
        blind: body.blind ? 1 : 0,
        status: 'open',
        token_id: caller.tokenId ?? null,
        created_at: at,
      })
      .returning('id'),
  );
  return describeStocktake(q, await loadStocktake(q, caller, created!.id));
}

/**
 * One page of an account's sessions, newest first, after the session `before` (exclusive). Four
 * statements whatever the page size: the sessions (index stocktakes_account), then the line totals,
 * the scan totals and the warehouse names of the whole page at once, each grouped by session.
 */
export async function listStocktakes(
  q: Queries,
  account: Account,
  limit: number,
  before?: number,
): Promise<{ sessions: Stocktake[]; nextCursor: number | null }> {
  let query = q.k
    .selectFrom('stocktakes')
    .select(STOCKTAKE_COLUMNS)
    .where('account_id', '=', account.id)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) query = query.where('id', '<', before);
  const rows = await q.all(query);
  const page = rows.slice(0, limit);
  if (page.length === 0) return { sessions: [], nextCursor: null };
  const totals = await totalsOf(
    q,
    page.map((row) => row.id),
  );
  const warehouseIds = [...new Set(page.map((row) => row.warehouse_id).filter((id) => id !== NO_WAREHOUSE))];
  const warehouses =
    warehouseIds.length === 0 ? [] : await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('id', 'in', warehouseIds));
  const nameOf = new Map(warehouses.map((w) => [w.id, w.name]));
  const sessions = page.map((session) => toStocktake(session, nameOf.get(session.warehouse_id) ?? null, totals.get(session.id)!));
  return { sessions, nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

export async function getStocktake(q: Queries, account: Account, id: number): Promise<Stocktake> {
  return describeStocktake(q, await loadStocktake(q, account, id));
}

/** The lines of a session with names and book quantities; `lineId` narrows to one line, `page` to a range. */
async function selectLines(
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

type LineRow = Awaited<ReturnType<typeof selectLines>>[number];

/** What was recorded after each line's count: the net change, or null when a later set or count replaced it. */
type SinceCount = Map<number, { moved: number | null; after: number }>;

/**
 * For the open session's known lines: the movements of their units in the session's warehouse
 * recorded after each line was counted, folded on top of the count — what the commit will leave.
 */
async function sinceCount(q: Queries, session: StocktakeRow, rows: readonly LineRow[]): Promise<SinceCount> {
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
        .where('hlc', '>', earliest)
        .orderBy('hlc'),
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

function toLine(row: LineRow, showBook: boolean, since?: SinceCount): StocktakeLine {
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
async function shownLines(q: Queries, session: StocktakeRow, rows: readonly LineRow[]): Promise<StocktakeLine[]> {
  const since = showsBook(session) ? await sinceCount(q, session, rows) : undefined;
  return rows.map((row) => toLine(row, showsBook(session), since));
}

export async function listLines(q: Queries, account: Account, id: number): Promise<StocktakeLine[]> {
  const session = await loadStocktake(q, account, id);
  return shownLines(q, session, await selectLines(q, session));
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

async function lineOf(q: Queries, session: StocktakeRow, lineId: number): Promise<StocktakeLine> {
  const row = (await selectLines(q, session, lineId))[0];
  if (!row) throw apiError(404, stocktakeMessages.lineNotFound);
  return (await shownLines(q, session, [row]))[0]!;
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
  return {
    stocktake: await describeStocktake(q, session),
    lines: listed,
    lines_total: known.length,
    lines_changed: known.filter((line) => line.difference).length,
    not_scanned: await notScanned(q, session, MAX_REVIEW_NOT_SCANNED),
    not_scanned_total: await countNotScanned(q, session),
    unknown: lines.filter((line) => !line.known),
  };
}

/** Adds a scan to its line (creating the line), atomically; a resent scan_id is counted once. */
export async function recordScan(log: MovementLog, caller: StocktakeCaller, id: number, body: ScanBody): Promise<ScanResult> {
  const { q } = log;
  const session = await loadStocktake(q, caller, id);
  const unit = (await findUnits(q, caller.id, [body.barcode], caller.gtinEquivalence)).get(body.barcode);
  // Under GTIN equivalence another form of a known GTIN counts on the line of the catalogue's barcode,
  // so one product never gets two lines (the commit would set it twice).
  const barcode = unit?.matchedBarcode ?? body.barcode;
  if (body.scan_id !== undefined) {
    const earlier = await q.first(
      q.k
        .selectFrom('stocktake_scans as sc')
        .innerJoin('stocktake_lines as l', 'l.id', 'sc.line_id')
        .select(['sc.id', 'sc.amount', 'sc.line_id', 'l.barcode'])
        .where('sc.stocktake_id', '=', id)
        .where('sc.client_scan_id', '=', body.scan_id),
    );
    if (earlier) {
      if (earlier.barcode !== barcode || earlier.amount !== body.amount) throw apiError(409, stocktakeMessages.scanIdReused);
      return { scan: { id: earlier.id, amount: earlier.amount, duplicate: true }, line: await lineOf(q, session, earlier.line_id) };
    }
  }
  requireOpen(session);
  const at = now();
  const change = await nextChange(q, id);
  // The increment is done by the database, never read-modify-write in JavaScript. A barcode unknown when
  // first scanned but imported since is resolved on its next scan.
  await q.run(
    q.k
      .insertInto('stocktake_lines')
      .values({
        stocktake_id: id,
        barcode,
        unit_id: unit?.id ?? null,
        counted: body.amount,
        resolution: unit ? null : 'pending',
        created_at: at,
        updated_at: at,
        // The count is a fact of the time of the line's last scan (docs/STOCKTAKE.md).
        counted_hlc: log.nextHlc(),
        change_seq: change,
      })
      .onConflict((oc) =>
        oc.columns(['stocktake_id', 'barcode']).doUpdateSet({
          counted: sql`stocktake_lines.counted + excluded.counted`,
          updated_at: sql`excluded.updated_at`,
          counted_hlc: sql`excluded.counted_hlc`,
          change_seq: sql`excluded.change_seq`,
          unit_id: sql`coalesce(excluded.unit_id, stocktake_lines.unit_id)`,
          resolution: sql`case when coalesce(excluded.unit_id, stocktake_lines.unit_id) is null then stocktake_lines.resolution end`,
        }),
      ),
  );
  const line = (await q.first(
    q.k.selectFrom('stocktake_lines').select('id').where('stocktake_id', '=', id).where('barcode', '=', barcode),
  ))!;
  const scan = await q.first(
    q.k
      .insertInto('stocktake_scans')
      .values({
        stocktake_id: id,
        line_id: line.id,
        kind: 'scan',
        amount: body.amount,
        client_scan_id: body.scan_id ?? null,
        terminal: body.terminal ?? null,
        token_id: caller.tokenId ?? null,
        created_at: at,
      })
      .returning('id'),
  );
  return { scan: { id: scan!.id, amount: body.amount, duplicate: false }, line: await lineOf(q, session, line.id) };
}

/**
 * Takes back the last scan (of a terminal, when given). A line left with no scan and no edit is
 * removed, so an undone mistake never becomes a count of 0 at commit.
 */
export async function undoLastScan(q: Queries, account: Account, id: number, body: UndoBody): Promise<UndoResult> {
  const session = await loadStocktake(q, account, id);
  requireOpen(session);
  let query = q.k
    .selectFrom('stocktake_scans as sc')
    .innerJoin('stocktake_lines as l', 'l.id', 'sc.line_id')
    .select(['sc.id', 'sc.amount', 'sc.line_id', 'l.barcode'])
    .where('sc.stocktake_id', '=', id)
    .where('sc.kind', '=', 'scan')
    .where('sc.undone_at', 'is', null)
    .orderBy('sc.id', 'desc')
    .limit(1);
  if (body.terminal !== undefined) query = query.where('sc.terminal', '=', body.terminal);
  const last = await q.first(query);
  if (!last) throw apiError(409, stocktakeMessages.nothingToUndo);
  const at = now();
  const change = await nextChange(q, id); // a line removed below shows as a smaller line count
  await q.run(q.k.updateTable('stocktake_scans').set({ undone_at: at }).where('id', '=', last.id));
  const remaining = await q.first(
    q.k
      .selectFrom('stocktake_scans')
      .select(sql<number>`count(*)`.as('n'))
      .where('line_id', '=', last.line_id)
      .where((eb) => eb.or([eb('kind', '=', 'set'), eb('undone_at', 'is', null)])),
  );
  const undone = { id: last.id, amount: last.amount, duplicate: false, barcode: last.barcode };
  if ((remaining?.n ?? 0) === 0) {
    await q.run(q.k.deleteFrom('stocktake_lines').where('id', '=', last.line_id));
    return { undone, line: null };
  }
  await q.run(
    q.k
      .updateTable('stocktake_lines')
      .set({
        counted: sql`case when counted > ${last.amount} then counted - ${last.amount} else 0 end`,
        updated_at: at,
        change_seq: change,
      })
      .where('id', '=', last.line_id),
  );
  return { undone, line: await lineOf(q, session, last.line_id) };
}

/** Edits a line: sets its count (recorded as an edit) and/or an unknown barcode's resolution. */
export async function updateLine(
  log: MovementLog,
  caller: StocktakeCaller,
  id: number,
  lineId: number,
  body: UpdateLineBody,
): Promise<StocktakeLine> {
  const { q } = log;
  const session = await loadStocktake(q, caller, id);
  const line = await q.first(
    q.k.selectFrom('stocktake_lines').select(['id', 'unit_id']).where('id', '=', lineId).where('stocktake_id', '=', id),
  );
  if (!line) throw apiError(404, stocktakeMessages.lineNotFound);
  requireOpen(session);
  if (body.resolution !== undefined && line.unit_id !== null) throw apiError(400, stocktakeMessages.resolutionOfKnown);
  const at = now();
  const change = await nextChange(q, id);
  if (body.counted !== undefined) {
    await q.run(
      q.k
        .updateTable('stocktake_lines')
        .set({ counted: body.counted, updated_at: at, counted_hlc: log.nextHlc(), change_seq: change })
        .where('id', '=', lineId),
    );
    await q.run(
      q.k.insertInto('stocktake_scans').values({
        stocktake_id: id,
        line_id: lineId,
        kind: 'set',
        amount: body.counted,
        token_id: caller.tokenId ?? null,
        created_at: at,
      }),
    );
  }
  if (body.resolution !== undefined) {
    await q.run(
      q.k.updateTable('stocktake_lines').set({ resolution: body.resolution, updated_at: at, change_seq: change }).where('id', '=', lineId),
    );
  }
  return lineOf(q, session, lineId);
}
