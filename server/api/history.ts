// The stock history and the stock export (CSV in the columns `csv import` reads).
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  HISTORY_EXPORT_PATH,
  MAX_CHART_POINTS,
  MAX_PER_DAY_DAYS,
  MAY,
  MOVEMENTS_PER_DAY_PATH,
  STOCK_CHART_PATH,
  STOCK_EXPORT_PATH,
  STOCK_HISTORY_PATH,
  historyPageSchema,
  historyQuerySchema,
  movementsPerDayQuerySchema,
  movementsPerDaySchema,
  stockChartQuerySchema,
  stockChartSchema,
} from '../../shared/index.ts';
import { historyCsvChunks } from '../csv/history-csv.ts';
import { stockCsvChunks } from '../csv/stock-csv.ts';
import { type Resource, endpoint } from './endpoint.ts';

export const history: Resource = {
  tag: 'Stock history',
  endpoints: [
    endpoint({
      method: 'GET',
      path: STOCK_HISTORY_PATH,
      summary: 'Read the stock history',
      roles: MAY.history,
      description:
        'Every change of a quantity (API, import, stocktake commit, …), newest first, with source and old/new quantity. ' +
        'Follow `next` (or pass `next_cursor` as `cursor`) for the next page; pages stay stable while new changes arrive.',
      query: { schema: historyQuerySchema },
      responses: { 200: { description: 'One page.', schema: historyPageSchema }, 400: { description: 'Invalid parameter.' } },
      async handler({ store, caller, query }) {
        const page = await store.history.page(caller, query);
        let next: string | null = null;
        if (page.nextCursor !== null) {
          const params = new URLSearchParams(
            Object.entries(query)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => [k, String(v)]),
          );
          params.set('cursor', page.nextCursor);
          next = `${STOCK_HISTORY_PATH}?${params.toString()}`;
        }
        return { body: { results: page.results, next_cursor: page.nextCursor, next } };
      },
    }),
    endpoint({
      method: 'GET',
      path: HISTORY_EXPORT_PATH,
      summary: 'Export the stock history as CSV',
      roles: MAY.history,
      description:
        'The history with the same filters (barcode, warehouse, source, actor, since, until), newest first, one row per change with ' +
        'who made it (`actor`) and where (`instance`). Streamed in pages of 500 changes, each read on its own.',
      query: { schema: historyQuerySchema.omit({ limit: true, cursor: true }) },
      responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' }, 400: { description: 'Invalid parameter.' } },
      async handler({ store, caller, query }) {
        return {
          body: Readable.from(await historyCsvChunks(store, caller, query)),
          type: 'text/csv; charset=utf-8',
          headers: { 'Content-Disposition': 'attachment; filename="stock-history.csv"' },
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: STOCK_CHART_PATH,
      summary: "A barcode's stock over time",
      roles: MAY.history,
      description:
        'Per warehouse, the quantity after each movement of the last 7, 30 or 90 days (or all), with what it was and why, and the ' +
        `quantity the period began with. More than ${MAX_CHART_POINTS} movements are downsampled on the server: each equal run keeps its lowest ` +
        'and highest point, the first and last always stay.',
      query: { schema: stockChartQuerySchema },
      responses: {
        200: { description: 'The series.', schema: stockChartSchema },
        400: { description: 'Invalid parameter.' },
        404: { description: 'No such barcode in the account.' },
      },
      handler: async ({ store, caller, query }) => ({ body: await store.history.chart(caller, query) }),
    }),
    endpoint({
      method: 'GET',
      path: MOVEMENTS_PER_DAY_PATH,
      summary: 'Movements per day of a warehouse',
      roles: MAY.history,
      description:
        'For each calendar day of a period (the last `days` days, or `from` to `to`; at most ' +
        `${MAX_PER_DAY_DAYS}), the sales (adjusts out), receipts (adjusts in), counts and sets of one warehouse or of the whole account: ` +
        'how many and what they moved, and the net change of stock. Days run from midnight in `time_zone` (summer time included), or at `utc_offset`. Aggregated in the database ' +
        'over one index range of the movement log; every day of the period is listed, those without movements with zeros.',
      query: { schema: movementsPerDayQuerySchema },
      responses: {
        200: { description: 'One entry per day, and the totals.', schema: movementsPerDaySchema },
        400: { description: 'Invalid parameter, or a warehouse the account does not have.' },
      },
      handler: async ({ store, caller, query }) => ({ body: await store.history.perDay(caller, query) }),
    }),
  ],
};

export const dataExchange: Resource = {
  tag: 'Data exchange',
  endpoints: [
    endpoint({
      method: 'GET',
      path: STOCK_EXPORT_PATH,
      summary: 'Export stock as CSV',
      roles: MAY.exportStock,
      description:
        'Columns item_id, item_name, variant_id, variant_name, barcode, warehouse, quantity: the format `barcode-inventory csv import` reads. ' +
        'Streamed in pages of 1000 barcodes, each read on its own: a change made during a long export may show on a later page.',
      query: { schema: z.object({ warehouse_name: z.string().optional().describe('Only this warehouse; all when absent.') }) },
      responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' }, 400: { description: 'Unknown warehouse.' } },
      async handler({ store, caller, query }) {
        const chunks = await stockCsvChunks(store, caller, query.warehouse_name === '' ? undefined : query.warehouse_name);
        return {
          body: Readable.from(chunks),
          type: 'text/csv; charset=utf-8',
          headers: { 'Content-Disposition': 'attachment; filename="stock.csv"' },
        };
      },
    }),
  ],
};
