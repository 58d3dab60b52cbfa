// Stocktake (count) sessions in the store: scans add to a line in SQL (`counted = counted + ?`) inside
// a transaction, so increments from several terminals are never lost; every scan is recorded so the
// last one can be undone and a resent one counted once. The commit lives in stocktake-commit.ts.
import { type Selectable, sql } from 'kysely';
import {
  type CreateStocktakeBody,
  type NotScanned,
  type ScanBody,
  type ScanResult,
  type Stocktake,
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
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE, type StocktakeTable } from './schema.ts';
import { findUnits } from './stock-write.ts';
import { apiError } from '../errors.ts';

/** The account a request acts for and the token it used. */
export interface StocktakeCaller extends Account {
  tokenId?: number | null;
}

/** The columns of a session the store works with (not the commit's bookkeeping). */
const STOCKTAKE_COLUMNS = ['id', 'account_id', 'warehouse_id', 'name', 'blind', 'status', 'zero_uncounted', 'created_at', 'committed_at'] as const;

export type StocktakeRow = Pick<Selectable<StocktakeTable>, (typeof STOCKTAKE_COLUMNS)[number]>;

const now = () => new Date().toISOString();

/** The session of this account, or 404: another account's session does not exist for the caller. */
export async function loadStocktake(q: Queries, account: Account, id: number): Promise<StocktakeRow> {
  const row = await q.first(
    q.k
      .selectFrom('stocktakes')
      .select(STOCKTAKE_COLUMNS)
      .where('id', '=', id)
      .where('account_id', '=', account.id),
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
  const lines = await q.first(
    q.k
      .selectFrom('stocktake_lines')
      .select([
        sql<number>`count(unit_id)`.as('known'),
        sql<number>`count(*) - count(unit_id)`.as('unknown'),
        sql<number>`coalesce(sum(case when unit_id is not null then counted else 0 end), 0)`.as('units'),
      ])
      .where('stocktake_id', '=', session.id),
  );
  const scans = await q.first(
    q.k
      .selectFrom('stocktake_scans')
      .select(sql<number>`count(*)`.as('n'))
      .where('stocktake_id', '=', session.id)
      .where('kind', '=', 'scan')
      .where('undone_at', 'is', null),
  );
  return {
    id: session.id,
    name: session.name,
    warehouse: session.warehouse_id === NO_WAREHOUSE ? null : session.warehouse_id,
    warehouse_name: await warehouseName(q, session.warehouse_id),
    blind: session.blind === 1,
    status: session.status as StocktakeStatus,
    zero_uncounted: session.zero_uncounted === null ? null : session.zero_uncounted === 1,
    created_at: session.created_at,
    committed_at: session.committed_at,
    totals: {
      known_lines: lines?.known ?? 0,
      unknown_lines: lines?.unknown ?? 0,
      counted_units: lines?.units ?? 0,
      scans: scans?.n ?? 0,
    },
  };
}

export async function createStocktake(q: Queries, caller: StocktakeCaller, body: CreateStocktakeBody): Promise<Stocktake> {
  let warehouseId = NO_WAREHOUSE;
  if (caller.warehousesEnabled) {
    if (body.warehouse_name === undefined) {
      throw apiError(400, stocktakeMessages.invalidBody(`warehouse_name: ${fieldMessages.required}`));
    }
    const warehouse = await q.first(
      q.k
        .selectFrom('warehouses')
        .select('id')
        .where('account_id', '=', caller.id)
        .where('name', '=', body.warehouse_name),
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

export async function listStocktakes(q: Queries, account: Account): Promise<Stocktake[]> {
  const rows = await q.all(
    q.k
      .selectFrom('stocktakes')
      .select(STOCKTAKE_COLUMNS)
      .where('account_id', '=', account.id)
      .orderBy('id', 'desc'),
  );
  const sessions: Stocktake[] = [];
  for (const row of rows) sessions.push(await describeStocktake(q, row));
  return sessions;
}

export async function getStocktake(q: Queries, account: Account, id: number): Promise<Stocktake> {
  return describeStocktake(q, await loadStocktake(q, account, id));
}

/** The lines of a session with names and book quantities; `lineId` narrows to one line. */
async function selectLines(q: Queries, session: StocktakeRow, lineId?: number) {
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
      'u.item_id',
      'u.variant_id',
      'i.name as item_name',
      'v.name as variant_name',
      's.quantity as live_quantity',
    ])
    .where('l.stocktake_id', '=', session.id)
    .orderBy('l.id');
  if (lineId !== undefined) query = query.where('l.id', '=', lineId);
  return q.all(query);
}

type LineRow = Awaited<ReturnType<typeof selectLines>>[number];

function toLine(row: LineRow, showBook: boolean): StocktakeLine {
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
    // After the commit, book means what the count replaced; before, the quantity on the books now.
    const book = row.commit_state === 'applied' ? (row.book_quantity ?? 0) : (row.live_quantity ?? 0);
    line.book_quantity = book;
    line.difference = row.counted - book;
  }
  return line;
}

const showsBook = (session: StocktakeRow) => !(session.blind === 1 && session.status === 'open');

export async function listLines(q: Queries, account: Account, id: number): Promise<StocktakeLine[]> {
  const session = await loadStocktake(q, account, id);
  return (await selectLines(q, session)).map((row) => toLine(row, showsBook(session)));
}

async function lineOf(q: Queries, session: StocktakeRow, lineId: number): Promise<StocktakeLine> {
  const row = (await selectLines(q, session, lineId))[0];
  if (!row) throw apiError(404, stocktakeMessages.lineNotFound);
  return toLine(row, showsBook(session));
}

/** Expected units (a book quantity other than 0 in the session's warehouse) that have no line. */
export async function notScanned(q: Queries, session: StocktakeRow): Promise<(NotScanned & { unitId: number })[]> {
  const rows = await q.all(
    q.k
      .selectFrom('stock as s')
      .innerJoin('stock_units as u', 'u.id', 's.unit_id')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.id', 'u.barcode', 'u.item_id', 'u.variant_id', 'i.name as item_name', 'v.name as variant_name', 's.quantity'])
      .where('u.account_id', '=', session.account_id)
      .where('s.warehouse_id', '=', session.warehouse_id)
      .where('s.quantity', '!=', 0)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('stocktake_lines as l')
              .select('l.id')
              .where('l.stocktake_id', '=', session.id)
              .whereRef('l.unit_id', '=', 'u.id'),
          ),
        ),
      )
      .orderBy('u.barcode'),
  );
  return rows.map((row) => ({
    unitId: row.id,
    barcode: row.barcode,
    item: row.item_id,
    liquid_stock: row.variant_id,
    name: row.variant_name ? `${row.item_name} / ${row.variant_name}` : row.item_name,
    book_quantity: row.quantity,
  }));
}

export async function reviewStocktake(q: Queries, account: Account, id: number): Promise<StocktakeReview> {
  const session = await loadStocktake(q, account, id);
  const lines = (await selectLines(q, session)).map((row) => toLine(row, true));
  return {
    stocktake: await describeStocktake(q, session),
    lines: lines.filter((line) => line.known),
    not_scanned: (await notScanned(q, session)).map(({ unitId: _, ...rest }) => rest),
    unknown: lines.filter((line) => !line.known),
  };
}

/** Adds a scan to its line (creating the line), atomically; a resent scan_id is counted once. */
export async function recordScan(q: Queries, caller: StocktakeCaller, id: number, body: ScanBody): Promise<ScanResult> {
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
      })
      .onConflict((oc) =>
        oc.columns(['stocktake_id', 'barcode']).doUpdateSet({
          counted: sql`stocktake_lines.counted + excluded.counted`,
          updated_at: sql`excluded.updated_at`,
          unit_id: sql`coalesce(excluded.unit_id, stocktake_lines.unit_id)`,
          resolution: sql`case when coalesce(excluded.unit_id, stocktake_lines.unit_id) is null then stocktake_lines.resolution end`,
        }),
      ),
  );
  const line = (await q.first(q.k.selectFrom('stocktake_lines').select('id').where('stocktake_id', '=', id).where('barcode', '=', barcode)))!;
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
      .set({ counted: sql`case when counted > ${last.amount} then counted - ${last.amount} else 0 end`, updated_at: at })
      .where('id', '=', last.line_id),
  );
  return { undone, line: await lineOf(q, session, last.line_id) };
}

/** Edits a line: sets its count (recorded as an edit) and/or an unknown barcode's resolution. */
export async function updateLine(q: Queries, caller: StocktakeCaller, id: number, lineId: number, body: UpdateLineBody): Promise<StocktakeLine> {
  const session = await loadStocktake(q, caller, id);
  const line = await q.first(
    q.k.selectFrom('stocktake_lines').select(['id', 'unit_id']).where('id', '=', lineId).where('stocktake_id', '=', id),
  );
  if (!line) throw apiError(404, stocktakeMessages.lineNotFound);
  requireOpen(session);
  if (body.resolution !== undefined && line.unit_id !== null) throw apiError(400, stocktakeMessages.resolutionOfKnown);
  const at = now();
  if (body.counted !== undefined) {
    await q.run(q.k.updateTable('stocktake_lines').set({ counted: body.counted, updated_at: at }).where('id', '=', lineId));
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
    await q.run(q.k.updateTable('stocktake_lines').set({ resolution: body.resolution, updated_at: at }).where('id', '=', lineId));
  }
  return lineOf(q, session, lineId);
}
