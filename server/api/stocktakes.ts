// Stocktake (count) sessions (docs/STOCKTAKE.md): several terminals count into one session, unknown
// barcodes are queued, the review compares book and counted, the commit applies the counts.
import {
  MAY,
  STOCKTAKES_PATH,
  STOCKTAKE_COMMIT_BATCH,
  commitBodySchema,
  commitResultSchema,
  createStocktakeBodySchema,
  scanBodySchema,
  scanResultSchema,
  stocktakeChangesQuerySchema,
  stocktakeChangesSchema,
  stocktakeLineListSchema,
  stocktakeLineSchema,
  stocktakeListQuerySchema,
  stocktakePageSchema,
  stocktakeReviewSchema,
  stocktakeSchema,
  undoBodySchema,
  undoResultSchema,
  updateLineBodySchema,
} from '../../shared/index.ts';
import { Readable } from 'node:stream';
import { sessionCountsCsvChunks } from '../csv/stocktake-csv.ts';
import { type Resource, endpoint } from './endpoint.ts';

const base = STOCKTAKES_PATH;
const one = `${base}{id}/`;
const id = { id: 'Stocktake id.' };
const notFound = { description: 'No such stocktake in the calling account.' };
const readOnly = { description: 'The stocktake is committing or committed: read-only.' };

export const stocktakes: Resource = {
  tag: 'Stocktakes',
  endpoints: [
    endpoint({
      method: 'GET',
      path: base,
      summary: 'List stocktakes',
      roles: MAY.count,
      description:
        'The sessions of the calling account, newest first, committed ones included, one page at a time: follow `next` (or pass ' +
        '`next_cursor` as `cursor`) for older ones. Pages stay stable while new sessions are started.',
      query: { schema: stocktakeListQuerySchema },
      responses: {
        200: { description: 'One page of sessions.', schema: stocktakePageSchema },
        400: { description: 'Invalid limit or cursor.' },
      },
      async handler({ store, caller, query }) {
        const page = await store.stocktakes.list(caller, query.limit, query.cursor === undefined ? undefined : Number(query.cursor));
        const nextCursor = page.nextCursor === null ? null : String(page.nextCursor);
        const next =
          nextCursor === null ? null : `${base}?${new URLSearchParams({ limit: String(query.limit), cursor: nextCursor }).toString()}`;
        return { body: { results: page.sessions, next_cursor: nextCursor, next } };
      },
    }),
    endpoint({
      method: 'POST',
      path: base,
      summary: 'Start a stocktake',
      roles: MAY.startStocktake,
      idempotent: true,
      body: { schema: createStocktakeBodySchema },
      responses: {
        201: { description: 'The new open session.', schema: stocktakeSchema },
        400: { description: 'Missing or unknown warehouse_name.' },
      },
      handler: ({ store, caller, body, once }) => store.stocktakes.create(caller, body, { once }),
    }),
    endpoint({
      method: 'GET',
      path: one,
      summary: 'Read a stocktake',
      roles: MAY.count,
      params: id,
      responses: { 200: { description: 'The session and its totals.', schema: stocktakeSchema }, 404: notFound },
      handler: async ({ store, caller, params }) => ({ body: await store.stocktakes.get(caller, params.id!) }),
    }),
    endpoint({
      method: 'POST',
      path: `${one}scans/`,
      summary: 'Scan to count',
      roles: MAY.count,
      description:
        "Adds `amount` (default 1) to the barcode's line; the same barcode again increases its line. An unknown barcode goes to the " +
        'unknown queue with its count. Increments from several terminals at once are all kept. Resending a scan with the same ' +
        '`scan_id` counts it once (answer 200 with `duplicate: true`).',
      params: id,
      idempotent: true,
      body: { schema: scanBodySchema },
      responses: {
        201: { description: 'Counted.', schema: scanResultSchema },
        200: { description: 'A resent scan_id: counted before, not again.', schema: scanResultSchema },
        400: { description: 'Invalid barcode or amount.' },
        404: notFound,
        409: readOnly,
      },
      handler: ({ store, caller, params, body, once }) => store.stocktakes.scan(caller, params.id!, body, { once }),
    }),
    endpoint({
      method: 'POST',
      path: `${one}undo/`,
      summary: 'Undo the last scan',
      roles: MAY.count,
      description: 'Of a terminal when `terminal` is given, else of the session. Edits are not undone. The body may be empty.',
      params: id,
      idempotent: true,
      body: { schema: undoBodySchema, required: false },
      responses: {
        200: { description: 'The scan taken back.', schema: undoResultSchema },
        404: notFound,
        409: { description: 'Nothing to undo, or read-only.' },
      },
      handler: ({ store, caller, params, body, once }) => store.stocktakes.undo(caller, params.id!, body, { once }),
    }),
    endpoint({
      method: 'GET',
      path: `${one}lines/`,
      summary: 'List the lines counted so far',
      roles: MAY.count,
      description: 'In blind mode the book quantity is left out until the session is committed.',
      params: id,
      responses: { 200: { description: 'Lines in the order first scanned.', schema: stocktakeLineListSchema }, 404: notFound },
      handler: async ({ store, caller, params }) => ({ body: await store.stocktakes.lines(caller, params.id!) }),
    }),
    endpoint({
      method: 'GET',
      path: `${one}changes/`,
      summary: 'The lines changed since the last ask',
      roles: MAY.count,
      description:
        'What a counting page asks every two seconds: without `after`, every line; with the `after` of its last answer, only the lines ' +
        'written since and those whose book quantity may have moved since. A `line_count` smaller than the lines the client holds means ' +
        'lines were removed (an undone scan): ask again without `after`. In blind mode the book quantity is left out until the session is committed.',
      params: id,
      query: { schema: stocktakeChangesQuerySchema },
      responses: {
        200: { description: 'The changed lines and the next `after`.', schema: stocktakeChangesSchema },
        400: { description: 'Invalid `after`.' },
        404: notFound,
      },
      handler: async ({ store, caller, params, query }) => ({ body: await store.stocktakes.changes(caller, params.id!, query.after) }),
    }),
    endpoint({
      method: 'PATCH',
      path: `${one}lines/{line}/`,
      summary: "Edit a line's count or resolve an unknown barcode",
      roles: MAY.count,
      params: { ...id, line: 'Line id.' },
      idempotent: true,
      body: { schema: updateLineBodySchema },
      responses: {
        200: { description: 'The line after the edit.', schema: stocktakeLineSchema },
        400: { description: 'Invalid count, or a resolution for a known barcode.' },
        404: { description: 'No such stocktake or line.' },
        409: readOnly,
      },
      handler: ({ store, caller, params, body, once }) => store.stocktakes.updateLine(caller, params.id!, params.line!, body, { once }),
    }),
    endpoint({
      method: 'GET',
      path: `${one}review/`,
      summary: 'Review: book vs counted',
      roles: MAY.commitStocktake,
      description:
        'Book quantity, count and difference per line (blind mode too), what was expected but not scanned, and the unknown barcodes.',
      params: id,
      responses: { 200: { description: 'The review.', schema: stocktakeReviewSchema }, 404: notFound },
      handler: async ({ store, caller, params }) => ({ body: await store.stocktakes.review(caller, params.id!) }),
    }),
    endpoint({
      method: 'POST',
      path: `${one}commit/`,
      summary: 'Commit the counts',
      roles: MAY.commitStocktake,
      description:
        `Applies the counts as new quantities through the update endpoint's logic, in batches of at most ${STOCKTAKE_COMMIT_BATCH} rows; ` +
        'per-line errors are answered and kept. A commit cut short is resumed by sending it again: applied lines are never applied twice ' +
        '(so it takes no Idempotency-Key). With `zero_uncounted: true` every expected unit nobody scanned is set to 0. ' +
        'Committing a committed session answers its result again.',
      params: id,
      body: { schema: commitBodySchema, required: false },
      responses: {
        200: { description: 'The result over all runs of the commit.', schema: commitResultSchema },
        404: notFound,
        409: { description: 'Resumed with another zero_uncounted than it was started with.' },
      },
      handler: async ({ store, caller, params, body }) => ({ body: await store.stocktakes.commit(caller, params.id!, body) }),
    }),
    endpoint({
      method: 'GET',
      path: `${one}counts.csv`,
      summary: "The session's counts as CSV",
      roles: MAY.commitStocktake,
      description:
        'Columns: barcode, item_id, variant_id, name, known, resolution, counted, book_quantity, difference, commit. ' +
        'Known lines first, then unknown ones; streamed in pages of 1000 lines, each read on its own.',
      params: id,
      responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' }, 404: notFound },
      handler: async ({ store, caller, params }) => ({
        body: Readable.from(await sessionCountsCsvChunks(store, caller, params.id!)),
        type: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': `attachment; filename="stocktake-${params.id!}.csv"` },
      }),
    }),
  ],
};
