// Wire shapes of reorder points and the low-stock list (docs/REORDER.md): a unit's minimum per
// warehouse (low at or below it) and the optional target a purchase orders up to; the list of what
// is low, most urgent first, with what to order.
import { z } from 'zod';
import { MAX_QUANTITY, MAX_ROWS_PER_UPDATE } from './limits.ts';
import { keptBarcodeSchema, warehouseNameInputSchema } from './row-validation.ts';

export const MAX_LOW_STOCK_PAGE = 500;
export const DEFAULT_LOW_STOCK_PAGE = 100;
/** "Fastest moving" is what went out by adjusts (sales) over this many days before the list is read. */
export const LOW_STOCK_SALES_DAYS = 30;

const level = z.number().int().min(0).max(MAX_QUANTITY);

/** One row of a change: `minimum: null` removes the unit's reorder point in that warehouse. */
export const reorderPointRowSchema = z
  .strictObject({
    barcode: keptBarcodeSchema,
    warehouse_name: warehouseNameInputSchema.optional().describe('Required for an account with warehouses; refused without.'),
    minimum: level.nullable().describe('Low at or below this quantity; null removes the reorder point.'),
    target: level.nullable().optional().describe('Order up to this quantity (at least the minimum); absent or null: up to the minimum.'),
  })
  .refine((row) => row.target === undefined || row.target === null || row.minimum === null || row.target >= row.minimum, {
    message: 'The target may not be below the minimum.',
    path: ['target'],
  })
  .meta({ id: 'ReorderPointRow' });
export type ReorderPointRow = z.infer<typeof reorderPointRowSchema>;

export const reorderPointRowsSchema = z.array(reorderPointRowSchema).min(1).max(MAX_ROWS_PER_UPDATE);

export const reorderPointSchema = z
  .strictObject({
    item: z.number().int(),
    liquid_stock: z.number().int().nullable(),
    barcode: z.string(),
    warehouse: z.number().int().nullable().describe('null for an account without warehouses.'),
    warehouse_name: z.string().nullable(),
    minimum: z.number().int(),
    target: z.number().int().nullable(),
    quantity: z.number().int().describe('The stock there now (0 without a stock definition).'),
    low: z.boolean().describe('quantity ≤ minimum.'),
  })
  .meta({ id: 'ReorderPoint' });
export type ReorderPoint = z.infer<typeof reorderPointSchema>;

export const reorderPointListSchema = z.strictObject({ results: z.array(reorderPointSchema) }).meta({ id: 'ReorderPoints' });
export type ReorderPointList = z.infer<typeof reorderPointListSchema>;

/** shortfall.sold.unit.warehouse of the last entry of a page: the list's order, so the next page starts after it. */
export const LOW_STOCK_CURSOR = /^(\d{1,10})\.(\d{1,15})\.(\d{1,15})\.(\d{1,15})$/;

export const lowStockQuerySchema = z
  .object({
    warehouse: z.coerce.number().int().positive().optional().describe('Only this warehouse id.'),
    limit: z.coerce.number().int().min(1).max(MAX_LOW_STOCK_PAGE).default(DEFAULT_LOW_STOCK_PAGE),
    cursor: z.string().regex(LOW_STOCK_CURSOR).optional().describe('The next_cursor of the previous page.'),
  })
  .meta({ id: 'LowStockQuery' });
export type LowStockQuery = z.infer<typeof lowStockQuerySchema>;

export const lowStockEntrySchema = z
  .strictObject({
    item: z.number().int(),
    liquid_stock: z.number().int().nullable(),
    barcode: z.string(),
    item_name: z.string(),
    variant_name: z.string().nullable(),
    warehouse: z.number().int().nullable(),
    warehouse_name: z.string().nullable(),
    quantity: z.number().int(),
    minimum: z.number().int(),
    target: z.number().int().nullable(),
    shortfall: z.number().int().describe('minimum − quantity: how far below its minimum (0: at it).'),
    sold: z.number().int().describe(`What went out by adjusts (sales) in the last ${LOW_STOCK_SALES_DAYS} days.`),
    suggested_order: z.number().int().describe('(target, else minimum) − quantity.'),
  })
  .meta({ id: 'LowStockEntry' });
export type LowStockEntry = z.infer<typeof lowStockEntrySchema>;

export const lowStockPageSchema = z
  .strictObject({
    results: z.array(lowStockEntrySchema),
    next_cursor: z.string().nullable(),
    next: z.string().nullable().describe('Path of the next page, or null on the last one.'),
  })
  .meta({ id: 'LowStockPage' });
export type LowStockPage = z.infer<typeof lowStockPageSchema>;

export const lowStockWebhookBodySchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'An http or https URL is required.' })
      .max(2000)
      .nullable()
      .describe('Where each crossing of a minimum is posted; null removes the webhook.'),
    secret: z.string().min(16).max(200).optional().describe('The HMAC-SHA256 key of the signature; a new random one when absent.'),
  })
  .meta({ id: 'LowStockWebhook' });
export type LowStockWebhookBody = z.infer<typeof lowStockWebhookBodySchema>;

export const lowStockWebhookAnswerSchema = z
  .strictObject({
    url: z.string().nullable(),
    secret: z.string().nullable().describe('The secret to check signatures with; null once removed.'),
  })
  .meta({ id: 'LowStockWebhookAnswer' });
