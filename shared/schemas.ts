// Wire shapes of the inventory API (docs/API.md), as zod schemas. The server builds its answers
// to these shapes; the UI parses what it receives with them.
import { z } from 'zod';
import { MAX_BARCODE_LENGTH, MAX_QUANTITY, MAX_REASON_LENGTH, MAX_REFERENCE_LENGTH, MIN_QUANTITY } from './limits.ts';
import { ROLE_FORBIDDEN_CODE } from './messages.ts';
import { ROLES } from './roles.ts';

/** A stock record without warehouse fields (no-warehouse scenario). */
export const plainStockRecordSchema = z.strictObject({
  item: z.number().int(),
  liquid_stock: z.number().int().nullable(),
  barcode: z.string(),
  quantity: z.number().int(),
  /** The catalogue's barcode, present only when it differs from `barcode` (an account with GTIN equivalence on). */
  matched_barcode: z
    .string()
    .optional()
    .describe("The catalogue's barcode when another form of the same GTIN was asked for (GTIN equivalence); absent otherwise."),
});

/** A stock record of the warehouse scenario. */
export const warehouseStockRecordSchema = plainStockRecordSchema.extend({
  warehouse: z.number().int(),
  warehouse_name: z.string(),
});

export const stockRecordSchema = z.union([warehouseStockRecordSchema, plainStockRecordSchema]);
export type StockRecord = z.infer<typeof stockRecordSchema>;

/** Field name → message, as in `{"barcode": "No items or variants found with barcode: 1"}`. */
export const fieldErrorsSchema = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

export const readErrorEntrySchema = z.strictObject({
  barcode: z.string(),
  errors: fieldErrorsSchema,
});
export type ReadErrorEntry = z.infer<typeof readErrorEntrySchema>;

export const readResponseSchema = z.strictObject({
  results: z.array(stockRecordSchema),
  errors: z.array(readErrorEntrySchema),
});
export type ReadResponse = z.infer<typeof readResponseSchema>;

/** One row of an update request, after validation (quantity normalised to a number). */
export const updateRowSchema = z.object({
  barcode: z.string().min(1).max(MAX_BARCODE_LENGTH),
  quantity: z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY),
  warehouse_name: z.string().optional(),
  // Point-of-sale integration (docs/POS.md): a guarded set, and why the stock changed.
  compare_quantity: z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY).optional(),
  reason: z.string().min(1).max(MAX_REASON_LENGTH).optional(),
  reference: z.string().min(1).max(MAX_REFERENCE_LENGTH).optional(),
});
export type UpdateRow = z.infer<typeof updateRowSchema>;

export const updateErrorEntrySchema = z.strictObject({
  /** The row exactly as it was sent. */
  data: z.unknown(),
  errors: fieldErrorsSchema,
});
export type UpdateErrorEntry = z.infer<typeof updateErrorEntrySchema>;

export const updateResponseSchema = z.strictObject({
  results: z.array(stockRecordSchema),
  errors: z.array(updateErrorEntrySchema),
});
export type UpdateResponse = z.infer<typeof updateResponseSchema>;

export const warehouseSchema = z.strictObject({ id: z.number().int(), name: z.string() });
export type Warehouse = z.infer<typeof warehouseSchema>;
export const warehouseListSchema = z.array(warehouseSchema);

/** Body of every request-level error (4xx/5xx). */
export const requestErrorSchema = z.object({
  detail: z.string(),
  /** Always sent by this server (shared/error-codes.ts); optional for a client, which may talk to an older one. */
  code: z.string().optional(),
});
export type RequestError = z.infer<typeof requestErrorSchema>;

/** The 403 of a token whose role may not call the endpoint: the sentence, a code to act on, and the roles that may. */
export const roleRefusalSchema = z.strictObject({
  detail: z.string(),
  code: z.literal(ROLE_FORBIDDEN_CODE),
  roles: z.array(z.enum(ROLES)),
});
export type RoleRefusal = z.infer<typeof roleRefusalSchema>;
