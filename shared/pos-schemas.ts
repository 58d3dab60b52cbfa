// Wire shapes of the POS integration (docs/POS.md): the adjust endpoint's rows, request and response,
// exported so an OpenAPI document can be generated from them like the spec's endpoints.
import { z } from 'zod';
import {
  MAX_BARCODE_LENGTH,
  MAX_DELTA,
  MAX_QUANTITY,
  MAX_REASON_LENGTH,
  MAX_REFERENCE_LENGTH,
  MAX_ROWS_PER_UPDATE,
  MIN_DELTA,
  MIN_QUANTITY,
} from './limits.ts';
import { updateResponseSchema, updateRowSchema } from './schemas.ts';

/** One row of an adjust request, after validation (delta normalised to a number). */
export const adjustRowSchema = z.object({
  barcode: z.string().min(1).max(MAX_BARCODE_LENGTH),
  delta: z.number().int().min(MIN_DELTA).max(MAX_DELTA).meta({
    description: 'Signed change of the quantity, applied atomically in the database: -1 for one unit sold, +24 for a delivery.',
  }),
  warehouse_name: z.string().optional(),
  reason: z.string().min(1).max(MAX_REASON_LENGTH).optional().meta({
    description: 'Short code saying why stock changed (sale, return, receipt, correction, count, …); recorded in the stock history.',
  }),
  reference: z.string().min(1).max(MAX_REFERENCE_LENGTH).optional().meta({
    description: "The POS's own reference (receipt or delivery number); recorded in the stock history.",
  }),
});
export type AdjustRow = z.infer<typeof adjustRowSchema>;

/** Body of POST …/inventory_by_barcode/adjust/: up to 50 rows. */
export const adjustRequestSchema = z.array(adjustRowSchema).max(MAX_ROWS_PER_UPDATE);
/** Same partial-success shape as the update endpoint; each record carries the quantity after its row. */
export const adjustResponseSchema = updateResponseSchema;
export type AdjustResponse = z.infer<typeof adjustResponseSchema>;

/** Body of POST …/inventory_by_barcode/ (the spec's update) with the optional POS fields. */
export const updateRequestSchema = z.array(updateRowSchema).max(MAX_ROWS_PER_UPDATE);

/** Request header that makes a write safe to retry (docs/POS.md, "Safe retries"). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Response header set on a replayed answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

// How the optional POS fields look on the wire, for the OpenAPI document: the row validators turn
// unknown input into numbers in code (a transform JSON Schema cannot show), so these spell out what
// the validators accept.
const integerText = z.string().regex(/^\s*-?\d+\s*$/);
const optionalReason = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_REASON_LENGTH}}$`))
  .nullish()
  .describe(
    'Why stock changed, as a short code: sale, return, receipt, correction, count, damage, transfer, … Recorded in the stock history.',
  );
const optionalReference = z
  .string()
  .min(1)
  .max(MAX_REFERENCE_LENGTH)
  .nullish()
  .describe("The POS's own reference of the change (receipt or delivery number). Recorded in the stock history.");

/** Wire form of the optional fields of an update row. */
export const updateRowPosFieldsDoc = {
  compare_quantity: z
    .union([z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY), integerText])
    .nullish()
    .describe(
      'Guarded set: apply the row only if the stored quantity (0 without a stock definition) equals this; else the row is rejected under `quantity`.',
    ),
  reason: optionalReason,
  reference: optionalReference,
};

/** Wire form of an adjust row's delta and optional fields. */
export const adjustRowFieldsDoc = {
  delta: z
    .union([z.number().int().min(MIN_DELTA).max(MAX_DELTA), integerText])
    .describe(
      'Signed change, added in the database: -1 for one unit sold, 24 for a delivery. An integer or a string of digits with an optional minus sign.',
    ),
  reason: optionalReason,
  reference: optionalReference,
};
