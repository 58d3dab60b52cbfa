// Wire shapes of the stock history: one entry per movement (a change of a quantity, made here or on
// another instance), newest first in time order, paged with an opaque cursor.
import { z } from 'zod';

/** The label the owner of the instance that made a movement chose at `sync link`, where this instance knows it. */
export const originLabelSchema = z
  .string()
  .nullable()
  .describe(
    'How its owner named the instance that made it at `sync link` ("Laptop 2"), when this instance knows it: its own label, or that of a follower registered here; else null.',
  );

export const MAX_HISTORY_PAGE = 500;
export const DEFAULT_HISTORY_PAGE = 100;

const isoInstant = z.iso.datetime({ offset: true });

export const historyQuerySchema = z
  .object({
    barcode: z.string().min(1).optional().describe('Only changes of this barcode.'),
    warehouse: z.coerce.number().int().positive().optional().describe('Only changes in this warehouse id.'),
    source: z.string().min(1).optional().describe('Only changes of this source: api, import, stocktake, …'),
    actor: z.string().min(1).max(200).optional().describe('Only changes made by this actor: a person, a token label, the command line.'),
    since: isoInstant.optional().describe('Only changes at or after this instant (ISO 8601).'),
    until: isoInstant.optional().describe('Only changes before this instant (ISO 8601).'),
    limit: z.coerce.number().int().min(1).max(MAX_HISTORY_PAGE).default(DEFAULT_HISTORY_PAGE),
    cursor: z
      .string()
      .regex(/^\d{16}-\d{5}-[a-z0-9]{4,32}$/)
      .optional()
      .describe('The next_cursor of the previous page.'),
  })
  .meta({ id: 'HistoryQuery' });
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const movementKindSchema = z.enum(['set', 'count', 'adjust']);
export type MovementKind = z.infer<typeof movementKindSchema>;

export const historyEntrySchema = z
  .strictObject({
    id: z.number().int().describe('Order in which this instance recorded it.'),
    movement: z.string().describe("The movement's id on every instance: the instance that made it and its sequence there."),
    origin: z.string().describe('The instance that made it (its id: `instance` in sync/status/).'),
    origin_label: originLabelSchema,
    kind: movementKindSchema.describe(
      'set (a quantity), count (a stocktake line: there were `value` then) or adjust (a change by `value`).',
    ),
    value: z.number().int(),
    barcode: z.string(),
    item: z.number().int(),
    liquid_stock: z.number().int().nullable(),
    warehouse: z.number().int().nullable(),
    warehouse_name: z.string().nullable(),
    old_quantity: z.number().int().nullable().describe('null when the barcode had no stock there before.'),
    new_quantity: z.number().int(),
    source: z.string(),
    reason: z.string().nullable(),
    reference: z.string().nullable(),
    token: z.number().int().nullable().describe('Id of the API token that made the change (on this instance).'),
    actor: z
      .string()
      .nullable()
      .describe(
        "Who made it: the person signed in on a shared scanner, the token's label (`token <id>` without one), `command line (<user>@<host>)`, " +
          'as the instance that made it recorded it; null for changes made before actors were recorded.',
      ),
    instance: z.string().describe('The instance (this one or another, through sync) that made it.'),
    hlc: z.string().describe('Hybrid logical clock timestamp: the order quantities are folded in.'),
    occurred_at: z.string().describe('When it happened, by the clock of the instance that made it.'),
    created_at: z.string().describe('When this instance recorded it.'),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyPageSchema = z
  .strictObject({
    results: z.array(historyEntrySchema),
    next_cursor: z.string().nullable(),
    next: z.string().nullable().describe('Path of the next page, or null on the last one.'),
  })
  .meta({ id: 'HistoryPage' });
export type HistoryPage = z.infer<typeof historyPageSchema>;
