// Reorder points and the low-stock list (docs/REORDER.md): read and set a unit's minimum and target per
// warehouse; the list of what is at or below its minimum, most urgent first, as JSON pages or as CSV.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  LOW_STOCK_CSV_PATH,
  LOW_STOCK_PATH,
  LOW_STOCK_SALES_DAYS,
  LOW_STOCK_WEBHOOK_PATH,
  MAX_ROWS_PER_UPDATE,
  MAY,
  REORDER_POINTS_PATH,
  lowStockPageSchema,
  lowStockQuerySchema,
  lowStockWebhookAnswerSchema,
  lowStockWebhookBodySchema,
  parseBarcodeList,
  reorderPointListSchema,
  reorderPointRowsSchema,
} from '../../shared/index.ts';
import { lowStockCsvChunks } from '../csv/low-stock-csv.ts';
import { badRequest } from '../errors.ts';
import { barcodesQuery } from './barcodes-query.ts';
import { type Resource, endpoint } from './endpoint.ts';

const ORDER =
  'Most urgent first: furthest below the minimum (minimum − quantity), then what sold most (adjusts that took stock out) ' +
  `in the last ${LOW_STOCK_SALES_DAYS} days, then unit and warehouse.`;

export const reorder: Resource = {
  tag: 'Reorder points',
  endpoints: [
    endpoint({
      method: 'GET',
      path: REORDER_POINTS_PATH,
      summary: 'Read reorder points by barcode',
      roles: MAY.lowStock,
      description:
        'The reorder points of the requested barcodes (those that have one), each with the quantity there now and whether it is low ' +
        '(quantity ≤ minimum); in request order, then by warehouse id.',
      query: barcodesQuery,
      responses: {
        200: { description: 'The reorder points.', schema: reorderPointListSchema },
        400: { description: 'Missing or empty `barcodes`, or more than the limit.' },
      },
      async handler({ store, caller, query }) {
        const parsed = parseBarcodeList(query.barcodes);
        if (!parsed.ok) throw badRequest(parsed.detail, 'invalid_barcodes');
        return { body: { results: await store.reorder.points(caller, parsed.barcodes) } };
      },
    }),
    endpoint({
      method: 'POST',
      path: REORDER_POINTS_PATH,
      summary: 'Set reorder points',
      roles: MAY.setReorderPoints,
      description:
        `A JSON array of at most ${MAX_ROWS_PER_UPDATE} rows \`{barcode, warehouse_name?, minimum, target?}\`: the unit is low at or below ` +
        '`minimum` and a purchase orders up to `target` (up to the minimum without one); `minimum: null` removes the reorder point. ' +
        'All rows or none: an unknown barcode or warehouse refuses the request naming every such row. A reorder point is part of ' +
        'the catalogue: an account that follows an upstream refuses it (409), the upstream hands it down with sync.',
      body: { schema: reorderPointRowsSchema },
      responses: {
        200: { description: "The reorder points of the rows' barcodes after the change.", schema: reorderPointListSchema },
        400: { description: 'A row is invalid or names an unknown barcode or warehouse: nothing was written.' },
        409: { description: 'The account follows an upstream (`catalogue_from_upstream`): set it there.' },
      },
      handler: async ({ store, caller, body }) => ({ body: { results: await store.reorder.set(caller, body) } }),
    }),
    endpoint({
      method: 'GET',
      path: LOW_STOCK_PATH,
      summary: 'The low-stock list',
      roles: MAY.lowStock,
      description:
        `Every unit and warehouse at or below its minimum, with \`suggested_order\` = (target, else minimum) − quantity. ${ORDER} ` +
        'Follow `next` (or pass `next_cursor` as `cursor`) for the next page; each page is computed when asked.',
      query: { schema: lowStockQuerySchema },
      responses: {
        200: { description: 'One page.', schema: lowStockPageSchema },
        400: { description: 'Invalid parameter or a warehouse the account does not have.' },
      },
      async handler({ store, caller, query }) {
        const page = await store.reorder.lowStockPage(caller, query);
        let next: string | null = null;
        if (page.nextCursor !== null) {
          const params = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor });
          if (query.warehouse !== undefined) params.set('warehouse', String(query.warehouse));
          next = `${LOW_STOCK_PATH}?${params.toString()}`;
        }
        return { body: { results: page.results, next_cursor: page.nextCursor, next } };
      },
    }),
    endpoint({
      method: 'GET',
      path: LOW_STOCK_CSV_PATH,
      summary: 'The low-stock list as CSV',
      roles: MAY.lowStock,
      description:
        'Columns barcode, item_id, item_name, variant_id, variant_name, warehouse, quantity, minimum, target, suggested_order, ' +
        `sold_30_days, in the list's order (${ORDER}) Streamed in pages of 500.`,
      query: { schema: z.object({ warehouse: lowStockQuerySchema.shape.warehouse }) },
      responses: {
        200: { description: 'CSV with a header row.', contentType: 'text/csv' },
        400: { description: 'A warehouse the account does not have.' },
      },
      async handler({ store, caller, query }) {
        const chunks = await lowStockCsvChunks(store, caller, query.warehouse);
        return {
          body: Readable.from(chunks),
          type: 'text/csv; charset=utf-8',
          headers: { 'Content-Disposition': 'attachment; filename="low-stock.csv"' },
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: LOW_STOCK_WEBHOOK_PATH,
      summary: 'Set the low-stock webhook',
      roles: MAY.lowStockWebhook,
      description:
        '`{url, secret?}`: each time a movement takes a unit from above its minimum to at or below it, a JSON event is posted to `url`, ' +
        'signed (`X-Webhook-Signature: sha256=<HMAC-SHA256(secret, "<X-Webhook-Timestamp>.<body>")>`), under its own `X-Webhook-Id`; ' +
        'retried with a doubling wait until a 2xx, so an event may come more than once. Without `secret` a random one is made; the ' +
        'answer is the only time it is shown. `url: null` removes the webhook. Only crossings after this call are sent.',
      body: { schema: lowStockWebhookBodySchema },
      responses: {
        200: { description: 'The webhook, with its secret.', schema: lowStockWebhookAnswerSchema },
        400: { description: 'Not an http(s) URL, or a secret shorter than 16 characters.' },
      },
      async handler({ store, caller, body }) {
        const secret = body.url === null ? null : (body.secret ?? randomBytes(24).toString('base64url'));
        await store.reorder.setWebhook(caller, body.url, secret ?? '');
        return { body: { url: body.url, secret } };
      },
    }),
  ],
};
