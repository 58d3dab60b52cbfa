// Stocktake, stock history, CSV export and API-description endpoints (issue 5) for the OpenAPI document.
import { z } from 'zod';
import {
  API_DOCS_PATH,
  OPENAPI_PATH,
  STOCKTAKE_COMMIT_BATCH,
  STOCK_EXPORT_PATH,
  STOCK_HISTORY_PATH,
  commitBodySchema,
  commitResultSchema,
  createStocktakeBodySchema,
  historyPageSchema,
  historyQuerySchema,
  scanBodySchema,
  scanResultSchema,
  stocktakeLineListSchema,
  stocktakeLineSchema,
  stocktakeListSchema,
  stocktakeReviewSchema,
  stocktakeSchema,
  undoBodySchema,
  undoResultSchema,
  updateLineBodySchema,
} from '../../shared/index.ts';
import type { EndpointDoc } from './endpoint-doc.ts';
import { IDEMPOTENCY_NOTE, idempotencyResponses } from './pos-endpoints.ts';

const tag = 'Stocktakes';
const base = '/api/v1/stocktakes/';
const one = `${base}{id}/`;
const id = { id: { description: 'Stocktake id.' } };
const notFound = { description: 'No such stocktake in the calling account.' };
const readOnly = { description: 'The stocktake is committing or committed: read-only.' };
/** 409 of a write that takes an Idempotency-Key: its own conflict, or the key still in flight. */
const readOnlyOrInFlight = { description: `${readOnly.description} Or: ${idempotencyResponses[409].description}` };
const keyReused = { 422: idempotencyResponses[422] };

export const stocktakeEndpoints: EndpointDoc[] = [
  {
    method: 'get',
    path: base,
    tag,
    summary: 'List stocktakes',
    description: 'Every session of the calling account, newest first; committed ones are kept.',
    responses: { 200: { description: 'Sessions.', schema: stocktakeListSchema } },
  },
  {
    method: 'post',
    path: base,
    tag,
    summary: 'Start a stocktake',
    description: IDEMPOTENCY_NOTE.trim(),
    body: { schema: createStocktakeBodySchema },
    responses: {
      201: { description: 'The new open session.', schema: stocktakeSchema },
      400: { description: 'Missing or unknown warehouse_name.' },
      ...idempotencyResponses,
    },
  },
  {
    method: 'get',
    path: one,
    tag,
    summary: 'Read a stocktake',
    pathParams: id,
    responses: { 200: { description: 'The session and its totals.', schema: stocktakeSchema }, 404: notFound },
  },
  {
    method: 'post',
    path: `${one}scans/`,
    tag,
    summary: 'Scan to count',
    description:
      'Adds `amount` (default 1) to the barcode\'s line; the same barcode again increases its line. An unknown barcode goes to the ' +
      'unknown queue with its count. Increments from several terminals at once are all kept. Resending a scan with the same ' +
      '`scan_id` counts it once (answer 200 with `duplicate: true`).' +
      IDEMPOTENCY_NOTE,
    pathParams: id,
    body: { schema: scanBodySchema },
    responses: {
      201: { description: 'Counted.', schema: scanResultSchema },
      200: { description: 'A resent scan_id: counted before, not again.', schema: scanResultSchema },
      400: { description: 'Invalid barcode or amount.' },
      404: notFound,
      409: readOnlyOrInFlight,
      ...keyReused,
    },
  },
  {
    method: 'post',
    path: `${one}undo/`,
    tag,
    summary: 'Undo the last scan',
    description: 'Of a terminal when `terminal` is given, else of the session. Edits are not undone. The body may be empty.' + IDEMPOTENCY_NOTE,
    pathParams: id,
    body: { schema: undoBodySchema, required: false },
    responses: {
      200: { description: 'The scan taken back.', schema: undoResultSchema },
      404: notFound,
      409: { description: `Nothing to undo, or read-only. Or: ${idempotencyResponses[409].description}` },
      ...keyReused,
    },
  },
  {
    method: 'get',
    path: `${one}lines/`,
    tag,
    summary: 'List the lines counted so far',
    description: 'In blind mode the book quantity is left out until the session is committed.',
    pathParams: id,
    responses: { 200: { description: 'Lines in the order first scanned.', schema: stocktakeLineListSchema }, 404: notFound },
  },
  {
    method: 'patch',
    path: `${one}lines/{line}/`,
    tag,
    summary: "Edit a line's count or resolve an unknown barcode",
    description: IDEMPOTENCY_NOTE.trim(),
    pathParams: { ...id, line: { description: 'Line id.' } },
    body: { schema: updateLineBodySchema },
    responses: {
      200: { description: 'The line after the edit.', schema: stocktakeLineSchema },
      400: { description: 'Invalid count, or a resolution for a known barcode.' },
      404: { description: 'No such stocktake or line.' },
      409: readOnlyOrInFlight,
      ...keyReused,
    },
  },
  {
    method: 'get',
    path: `${one}review/`,
    tag,
    summary: 'Review: book vs counted',
    description: 'Book quantity, count and difference per line (blind mode too), what was expected but not scanned, and the unknown barcodes.',
    pathParams: id,
    responses: { 200: { description: 'The review.', schema: stocktakeReviewSchema }, 404: notFound },
  },
  {
    method: 'post',
    path: `${one}commit/`,
    tag,
    summary: 'Commit the counts',
    description:
      `Applies the counts as new quantities through the update endpoint's logic, in batches of at most ${STOCKTAKE_COMMIT_BATCH} rows; ` +
      'per-line errors are answered and kept. A commit cut short is resumed by sending it again: applied lines are never applied twice. ' +
      'With `zero_uncounted: true` every expected unit nobody scanned is set to 0. Committing a committed session answers its result again.',
    pathParams: id,
    body: { schema: commitBodySchema, required: false },
    responses: {
      200: { description: 'The result over all runs of the commit.', schema: commitResultSchema },
      404: notFound,
      409: { description: 'Resumed with another zero_uncounted than it was started with.' },
    },
  },
  {
    method: 'get',
    path: `${one}counts.csv`,
    tag,
    summary: "The session's counts as CSV",
    description: 'Columns: barcode, item_id, variant_id, name, known, resolution, counted, book_quantity, difference, commit.',
    pathParams: id,
    responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' }, 404: notFound },
  },
  {
    method: 'get',
    path: STOCK_HISTORY_PATH,
    tag: 'Stock history',
    summary: 'Read the stock history',
    description:
      'Every change of a quantity (API, import, stocktake commit, …), newest first, with source and old/new quantity. ' +
      'Follow `next` (or pass `next_cursor` as `cursor`) for the next page; pages stay stable while new changes arrive.',
    query: historyQuerySchema,
    responses: { 200: { description: 'One page.', schema: historyPageSchema }, 400: { description: 'Invalid parameter.' } },
  },
  {
    method: 'get',
    path: STOCK_EXPORT_PATH,
    tag: 'Data exchange',
    summary: 'Export stock as CSV',
    description:
      'Columns item_id, item_name, variant_id, variant_name, barcode, warehouse, quantity: the format `barcode-inventory csv import` reads.',
    query: z.object({ warehouse_name: z.string().optional().describe('Only this warehouse; all when absent.') }),
    responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' }, 400: { description: 'Unknown warehouse.' } },
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    tag: 'API description',
    summary: 'This OpenAPI document',
    auth: false,
    responses: { 200: { description: 'OpenAPI 3.1 document.', schema: z.record(z.string(), z.unknown()) } },
  },
  {
    method: 'get',
    path: API_DOCS_PATH,
    tag: 'API description',
    summary: 'The API page (HTML, generated from this document)',
    auth: false,
    responses: { 200: { description: 'HTML page.', contentType: 'text/html' } },
  },
];
