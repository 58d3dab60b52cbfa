// Committing a stocktake: each counted line becomes a `count` movement at the time the line was last
// scanned or edited, through the update endpoint's own checks (countRows), in batches of at most 50 rows. Each batch, and the marking of its lines as
// applied or failed, is one transaction: a commit cut short by a crash is resumed by committing
// again, and a line already applied is never applied twice.
import { type Actor, recordAudit } from '../audit.ts';
import { type CommitBody, type CommitResult, STOCKTAKE_COMMIT_BATCH, stocktakeMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import { type Engine, type Param, type Queries, statement } from '../engine.ts';
import { NO_WAREHOUSE } from '../schema.ts';
import { MovementLog, type StoreClock } from '../movements/movement-log.ts';
import { countRows } from '../stock-write.ts';
import { instanceId } from '../sync/held-vector.ts';
import { nextChange } from './changes.ts';
import { expectedNotScanned } from './review.ts';
import { type StocktakeCaller, describeStocktake, loadStocktake } from './sessions.ts';

export interface CommitHooks {
  /** Called inside each batch's transaction after it was applied; a throw rolls the batch back (tests cut a commit short with it). */
  onBatch?: (batch: number) => void;
  /** Awaited after each batch's transaction, before the next: tests hold a commit halfway with it, other requests answered meanwhile. */
  afterBatch?: (batch: number) => Promise<void>;
}

/** Source and reference written to the stock history by a commit. */
export const STOCKTAKE_SOURCE = 'stocktake';
/**
 * A commit's reference in the history: the session's id on the instance that counted it, and that
 * instance. Ids are numbered per instance, so a laptop's stocktake 1 and the shop PC's stocktake 1
 * would read the same wherever both arrive (head office) without it.
 */
export const stocktakeReference = (id: number, instance: string) => `stocktake:${id}@${instance}`;

/** A line's mark after its batch: one statement for every line of every batch, compiled once. */
const markLine = statement(
  'stocktakes.markLine',
  (k, p: Param<{ id: number; state: string; bookQuantity: number | null; errors: string | null; change: number }>) =>
    k
      .updateTable('stocktake_lines')
      .set({ commit_state: p('state'), book_quantity: p('bookQuantity'), commit_errors: p('errors'), change_seq: p('change') })
      .where('id', '=', p('id')),
);

const yieldToOtherRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves an open session to committing, fixing the zero option and adding the zero lines it asks for. */
async function startCommit(q: Queries, caller: StocktakeCaller, id: number, zeroUncounted: boolean): Promise<void> {
  const session = await loadStocktake(q, caller, id);
  if (session.status === 'committed') return;
  if (session.status === 'committing') {
    if ((session.zero_uncounted === 1) !== zeroUncounted) {
      throw apiError(409, stocktakeMessages.zeroOptionChanged(session.zero_uncounted === 1), { code: 'zero_option_changed' });
    }
    return;
  }
  const at = new Date().toISOString();
  const change = await nextChange(q, id);
  if (zeroUncounted) {
    // One statement, in barcode order: row by row from JavaScript, 85,335 zero lines (a 100k
    // catalogue) held the server 1.4 s and a million barcodes would hold it for many seconds.
    await q.run(
      q.k
        .insertInto('stocktake_lines')
        .columns(['stocktake_id', 'barcode', 'unit_id', 'counted', 'zeroed', 'created_at', 'updated_at', 'change_seq'])
        .expression(
          expectedNotScanned(q, session)
            .select((eb) => [
              eb.val(id).as('stocktake_id'),
              'u.barcode',
              'u.id',
              eb.val(0).as('counted'),
              eb.val(1).as('zeroed'),
              eb.val(at).as('created_at'),
              eb.val(at).as('updated_at'),
              eb.val(change).as('change_seq'),
            ])
            .orderBy('u.barcode'),
        ),
    );
  }
  await q.run(
    q.k
      .updateTable('stocktakes')
      .set({ status: 'committing', zero_uncounted: zeroUncounted ? 1 : 0, commit_started_at: at })
      .where('id', '=', id),
  );
}

/**
 * The warehouse name a session's rows are posted with; undefined without warehouses. A warehouse
 * that no longer exists gives '' so its rows fail as unknown warehouse instead of posting without one.
 */
async function sessionWarehouseName(q: Queries, session: { warehouse_id: number }): Promise<string | undefined> {
  if (session.warehouse_id === NO_WAREHOUSE) return undefined;
  return (await q.first(q.k.selectFrom('warehouses').select('name').where('id', '=', session.warehouse_id)))?.name ?? '';
}

/** The update row a counted line is committed as (and echoed as in the commit's errors). */
function commitRow(line: { barcode: string; counted: number }, warehouseName: string | undefined) {
  return warehouseName === undefined
    ? { barcode: line.barcode, quantity: line.counted }
    : { barcode: line.barcode, quantity: line.counted, warehouse_name: warehouseName };
}

/**
 * Applies the next batch of lines not yet handled, after line `afterId` (lines are handled in id
 * order, a batch's lines all marked in its transaction); the last line's id, or null when none was
 * left. Without `afterId` the walk started again from the session's first line on every batch:
 * quadratic, 9 of a 100k catalogue's 18 s zeroing commit.
 */
async function applyNextBatch(
  log: MovementLog,
  caller: StocktakeCaller,
  id: number,
  afterId: number,
  batch: number,
  hooks: CommitHooks,
  actor?: Actor,
): Promise<number | null> {
  const { q } = log;
  const session = await loadStocktake(q, caller, id);
  const lines = await q.all(
    q.k
      .selectFrom('stocktake_lines as l')
      .select(['l.id', 'l.barcode', 'l.counted', 'l.counted_hlc'])
      .where('l.stocktake_id', '=', id)
      .where('l.id', '>', afterId)
      .where('l.unit_id', 'is not', null)
      .where('l.commit_state', 'is', null)
      .orderBy('l.id')
      .limit(STOCKTAKE_COMMIT_BATCH),
  );
  if (lines.length === 0) return null;
  const warehouseName = await sessionWarehouseName(q, session);
  const rows = lines.map((line) => commitRow(line, warehouseName));
  // The rows and the marks below share this transaction: they commit together or not at all. A line
  // without a count time (added by zero_uncounted) is a count of now: the instance's next timestamp,
  // later than everything it holds, so it needs no look for later movements (1.7 of a 100k
  // catalogue's 8 s zeroing commit).
  const replaced = new Map<number, number | null>();
  const response = await countRows(
    log,
    caller,
    rows,
    {
      source: STOCKTAKE_SOURCE,
      tokenId: caller.tokenId ?? null,
      reference: stocktakeReference(id, await instanceId(q)),
      actor: actor?.name ?? null,
    },
    (index) => lines[index]!.counted_hlc ?? undefined,
    (index, applied) => replaced.set(lines[index]!.id, applied.oldQuantity),
  );
  // Barcodes are unique within a session, so an error entry names its line by the barcode it echoes.
  const errorsByBarcode = new Map<string, Record<string, string>>();
  for (const entry of response.errors) {
    const barcode = (entry.data as { barcode?: unknown } | null)?.barcode;
    if (typeof barcode === 'string') errorsByBarcode.set(barcode, entry.errors);
  }
  const change = await nextChange(q, id);
  for (const line of lines) {
    const errors = errorsByBarcode.get(line.barcode);
    await q.run(markLine, {
      change,
      id: line.id,
      state: errors ? 'failed' : 'applied',
      bookQuantity: replaced.get(line.id) ?? null,
      errors: errors ? JSON.stringify(errors) : null,
    });
  }
  hooks.onBatch?.(batch);
  return lines.at(-1)!.id;
}

async function summarise(q: Queries, caller: StocktakeCaller, id: number): Promise<CommitResult> {
  const session = await loadStocktake(q, caller, id);
  const lines = await q.all(
    q.k
      .selectFrom('stocktake_lines')
      .select(['id', 'barcode', 'counted', 'commit_state', 'commit_errors'])
      .where('stocktake_id', '=', id)
      .where('commit_state', 'is not', null)
      .orderBy('id'),
  );
  const warehouseName = await sessionWarehouseName(q, session);
  const failed = lines.filter((line) => line.commit_state === 'failed');
  return {
    stocktake: await describeStocktake(q, session),
    applied: lines.length - failed.length,
    failed: failed.length,
    errors: failed.map((line) => ({
      line: line.id,
      data: commitRow(line, warehouseName),
      errors: JSON.parse(line.commit_errors ?? '{}') as Record<string, string>,
    })),
  };
}

/**
 * Commits (or resumes committing) a session. Committing a committed session changes nothing and
 * answers its result again, so a client that lost the answer can safely retry.
 */
export async function commitStocktake(
  engine: Engine,
  clock: StoreClock,
  caller: StocktakeCaller,
  id: number,
  body: CommitBody,
  hooks: CommitHooks = {},
  actor?: Actor,
): Promise<CommitResult> {
  const committing = await engine.write(async (q) => {
    await startCommit(q, caller, id, body.zero_uncounted);
    return (await loadStocktake(q, caller, id)).status === 'committing';
  });
  const batchOf = (batch: number, afterId: number) =>
    engine.write(async (q) => {
      const log = await MovementLog.open(q, clock);
      const last = await applyNextBatch(log, caller, id, afterId, batch, hooks, actor);
      await log.close();
      return last;
    });
  if (committing) {
    // One transaction per batch, and a turn for other requests between batches.
    let afterId = 0;
    for (let batch = 1; ; batch++) {
      const last = await batchOf(batch, afterId);
      if (last === null) break;
      afterId = last;
      await hooks.afterBatch?.(batch);
      await yieldToOtherRequests();
    }
    await engine.write(async (q) => {
      const { changes } = await q.run(
        q.k
          .updateTable('stocktakes')
          .set({ status: 'committed', committed_at: new Date().toISOString(), committed_by: actor?.name ?? null })
          .where('id', '=', id)
          .where('status', '=', 'committing'),
      );
      // Recorded by the request that finished the commit, in the same transaction (a resumed commit once).
      if (changes === 1 && actor)
        await recordAudit(q, caller.id, actor, {
          action: 'stocktake.commit',
          subject: `stocktake ${id}`,
          detail: { zero_uncounted: body.zero_uncounted },
        });
    });
  }
  return engine.read((q) => summarise(q, caller, id));
}
