// What counting writes to a session's lines: a scan adds to its line in SQL (`counted = counted + ?`)
// inside the transaction, so increments from several terminals are never lost; every scan is
// recorded so the last one can be undone and a resent one counted once; an edit sets a line's count
// or an unknown barcode's resolution. A line's count is a fact of the time of its last scan or edit.
import { sql } from 'kysely';
import {
  type ScanBody,
  type ScanResult,
  type StocktakeLine,
  type UndoBody,
  type UndoResult,
  type UpdateLineBody,
  stocktakeMessages,
} from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import type { MovementLog } from '../movements/movement-log.ts';
import { findUnits } from '../stock-write.ts';
import { nextChange } from './changes.ts';
import { lineOf } from './lines.ts';
import { type StocktakeCaller, type StocktakeRow, loadStocktake, stocktakeActor } from './sessions.ts';

const now = () => new Date().toISOString();

function requireOpen(session: StocktakeRow): void {
  if (session.status === 'committing') throw apiError(409, stocktakeMessages.committing, { code: 'stocktake_committing' });
  if (session.status !== 'open') throw apiError(409, stocktakeMessages.readOnly(session.status), { code: 'stocktake_read_only' });
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
      if (earlier.barcode !== barcode || earlier.amount !== body.amount)
        throw apiError(409, stocktakeMessages.scanIdReused, { code: 'scan_id_reused' });
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
        actor: stocktakeActor(caller),
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
  if (!last) throw apiError(409, stocktakeMessages.nothingToUndo, { code: 'nothing_to_undo' });
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
  if (!line) throw apiError(404, stocktakeMessages.lineNotFound, { code: 'stocktake_line_not_found' });
  requireOpen(session);
  if (body.resolution !== undefined && line.unit_id !== null)
    throw apiError(400, stocktakeMessages.resolutionOfKnown, { code: 'resolution_of_known_barcode' });
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
        actor: stocktakeActor(caller),
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
