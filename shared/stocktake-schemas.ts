// Wire shapes of stocktake (count) sessions: request bodies as sent and the answers the server builds.
// The server validates requests with these; the UI parses answers with them; the OpenAPI document is
// generated from them.
import { z } from 'zod';
import { MAX_QUANTITY } from './limits.ts';
import { keptBarcodeSchema, warehouseNameInputSchema } from './row-validation.ts';
import { fieldErrorsSchema } from './schemas.ts';

/** Largest amount one scan may add: a typed amount, not a quantity to set. */
export const MAX_SCAN_AMOUNT = 1_000_000;
/** Rows per commit batch: the update endpoint's limit. */
export const STOCKTAKE_COMMIT_BATCH = 50;

const shortText = z.string().trim().min(1).max(200);

export const stocktakeStatusSchema = z.enum(['open', 'committing', 'committed']);
export type StocktakeStatus = z.infer<typeof stocktakeStatusSchema>;
export const unknownResolutionSchema = z.enum(['pending', 'ignored', 'kept']);
export type UnknownResolution = z.infer<typeof unknownResolutionSchema>;

export const createStocktakeBodySchema = z
  .object({
    name: shortText.optional().describe('A name to tell sessions apart; defaults to "Stocktake <date>".'),
    warehouse_name: warehouseNameInputSchema
      .optional()
      .describe('The warehouse counted; required for an account with warehouses, ignored otherwise.'),
    blind: z.boolean().default(false).describe('Hide the book quantity while counting.'),
  })
  .meta({ id: 'CreateStocktake' });
export type CreateStocktakeBody = z.infer<typeof createStocktakeBodySchema>;

export const scanBodySchema = z
  .object({
    barcode: keptBarcodeSchema,
    amount: z.number().int().min(1).max(MAX_SCAN_AMOUNT).default(1).describe('How many were counted with this scan.'),
    scan_id: shortText
      .optional()
      .describe('Client-chosen id of this scan: sending the same scan again (after a lost answer) counts it once.'),
    terminal: shortText.optional().describe('Which browser or scanner sent the scan; undo takes back the last scan of a terminal.'),
  })
  .meta({ id: 'Scan' });
export type ScanBody = z.infer<typeof scanBodySchema>;

export const undoBodySchema = z
  .object({ terminal: shortText.optional().describe('Undo the last scan of this terminal; without it, the last scan of the session.') })
  .meta({ id: 'Undo' });
export type UndoBody = z.infer<typeof undoBodySchema>;

export const updateLineBodySchema = z
  .object({
    counted: z.number().int().min(0).max(MAX_QUANTITY).optional().describe('The corrected count of the line.'),
    resolution: unknownResolutionSchema.optional().describe('Unknown barcodes only: ignore it, or keep it for export.'),
  })
  .refine((body) => body.counted !== undefined || body.resolution !== undefined, {
    message: 'Give counted or resolution.',
  })
  .meta({ id: 'UpdateStocktakeLine' });
export type UpdateLineBody = z.infer<typeof updateLineBodySchema>;

export const commitBodySchema = z
  .object({
    zero_uncounted: z
      .boolean()
      .default(false)
      .describe('Also set every expected unit that was not scanned to 0. Must be sent explicitly; fixed when the commit starts.'),
  })
  .meta({ id: 'CommitStocktake' });
export type CommitBody = z.infer<typeof commitBodySchema>;

export const stocktakeTotalsSchema = z.strictObject({
  known_lines: z.number().int(),
  unknown_lines: z.number().int(),
  counted_units: z.number().int().describe('Sum of the counts of the known lines.'),
  scans: z.number().int().describe('Scans that were not undone.'),
  committed_lines: z
    .number()
    .int()
    .describe(
      'Known lines the commit has handled so far (applied or refused): 0 while the session is open, known_lines once it is committed. Progress while it is committing.',
    ),
});

export const stocktakeSchema = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    warehouse: z.number().int().nullable(),
    warehouse_name: z.string().nullable(),
    blind: z.boolean(),
    status: stocktakeStatusSchema,
    zero_uncounted: z.boolean().nullable(),
    created_at: z.string(),
    committed_at: z.string().nullable(),
    committed_by: z.string().nullable().describe('Who committed it (a person, a token label); null while open, or from before actors.'),
    totals: stocktakeTotalsSchema,
  })
  .meta({ id: 'Stocktake' });
export type Stocktake = z.infer<typeof stocktakeSchema>;

export const lineCommitSchema = z.strictObject({
  state: z.enum(['applied', 'failed']),
  book_quantity: z.number().int().nullable().describe('The quantity the count replaced.'),
  errors: fieldErrorsSchema.nullable(),
});

export const stocktakeLineSchema = z
  .strictObject({
    id: z.number().int(),
    barcode: z.string(),
    known: z.boolean(),
    item: z.number().int().nullable(),
    liquid_stock: z.number().int().nullable(),
    name: z.string().nullable().describe('Item name, and the variant name after " / ".'),
    counted: z.number().int(),
    book_quantity: z
      .number()
      .int()
      .optional()
      .describe(
        'Open session: the quantity on the books now; committed: what the count replaced. Absent while a blind session is counting, and for unknown barcodes.',
      ),
    difference: z
      .number()
      .int()
      .optional()
      .describe('Open session: what the commit will change (after_commit - book_quantity); committed: counted - book_quantity.'),
    moved_since_count: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe(
        'Open session: the net change recorded after the line was last counted (a sale at the till: -1), which stays applied on top of the count; null when a later set replaces the count.',
      ),
    after_commit: z
      .number()
      .int()
      .optional()
      .describe('Open session: the quantity the commit will leave (the count, and what was recorded after it).'),
    resolution: unknownResolutionSchema.nullable().describe('Unknown barcodes only.'),
    zeroed: z.boolean().describe('Added by the commit: expected, not scanned, set to 0.'),
    counted_by: z
      .array(z.string())
      .optional()
      .describe('In the review: who scanned or edited the line (people, token labels), in the order they first did.'),
    updated_at: z.string(),
    commit: lineCommitSchema.nullable(),
  })
  .meta({ id: 'StocktakeLine' });
export type StocktakeLine = z.infer<typeof stocktakeLineSchema>;

export const stocktakeLineListSchema = z.array(stocktakeLineSchema);

export const stocktakeChangesQuerySchema = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,15}\.\d{1,15}$/)
      .optional()
      .describe('The `after` of the previous answer; without it, every line.'),
  })
  .meta({ id: 'StocktakeChangesQuery' });
export type StocktakeChangesQuery = z.infer<typeof stocktakeChangesQuerySchema>;

/** What a counting page asks every two seconds: the lines changed since it last asked. */
export const stocktakeChangesSchema = z
  .strictObject({
    lines: z
      .array(stocktakeLineSchema)
      .describe(
        'Without `after`, every line. With it, the lines written since (scanned, edited, resolved, undone), and those whose book ' +
          "quantity may have moved since (a movement of their item in the session's warehouse).",
      ),
    line_count: z.number().int().nonnegative().describe('How many lines the session has now.'),
    line_id_sum: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'The sum of the ids of those lines. When the lines the client holds (after merging these) differ in number or in this sum, ' +
          'some were removed (an undone scan): ask again without `after`.',
      ),
    after: z.string().describe('Pass it as `after` next time.'),
  })
  .meta({ id: 'StocktakeChanges' });
export type StocktakeChanges = z.infer<typeof stocktakeChangesSchema>;

export const scanResultSchema = z
  .strictObject({
    scan: z.strictObject({ id: z.number().int(), amount: z.number().int(), duplicate: z.boolean() }),
    line: stocktakeLineSchema,
  })
  .meta({ id: 'ScanResult' });
export type ScanResult = z.infer<typeof scanResultSchema>;

/** Answer of POST …/undo/: the scan taken back, and its line (null when the line was removed). */
export const undoResultSchema = z
  .strictObject({
    undone: z.strictObject({ id: z.number().int(), amount: z.number().int(), duplicate: z.boolean(), barcode: z.string() }),
    line: stocktakeLineSchema.nullable().describe('The line after the undo; null when the line had no scan left and was removed.'),
  })
  .meta({ id: 'UndoResult' });
export type UndoResult = z.infer<typeof undoResultSchema>;

export const notScannedSchema = z.strictObject({
  barcode: z.string(),
  item: z.number().int(),
  liquid_stock: z.number().int().nullable(),
  name: z.string(),
  book_quantity: z.number().int(),
});
export type NotScanned = z.infer<typeof notScannedSchema>;

/**
 * The review lists at most this many of the items expected but not scanned (the first by barcode),
 * with their total: a fresh session on a catalogue of a million barcodes would otherwise answer
 * 850,000 of them (92 MB, 2.6 s in which the server answers nothing else).
 */
export const MAX_REVIEW_NOT_SCANNED = 500;

/**
 * The review lists at most this many of the known lines, those that need a look first, with their
 * totals: after a commit that zeroed a 100k catalogue the review answered all 85,335 lines (25 MB),
 * and the page took 15 s to show them. The counts CSV has every line.
 */
export const MAX_REVIEW_LINES = 500;

export const stocktakeReviewSchema = z
  .strictObject({
    stocktake: stocktakeSchema,
    lines: z
      .array(stocktakeLineSchema)
      .max(MAX_REVIEW_LINES)
      .describe(
        `Known barcodes, book vs counted: at most ${MAX_REVIEW_LINES}, those that need a look first (refused by the commit, then those ` +
          'whose difference is not 0, then the others), each group in the order counted. `lines_total` counts them all; the counts CSV lists them all.',
      ),
    lines_total: z.number().int().nonnegative().describe('How many known lines the session has, listed or not.'),
    lines_changed: z
      .number()
      .int()
      .nonnegative()
      .describe('How many of them have a difference other than 0: before the commit, what it would change; after it, what it changed.'),
    not_scanned: z
      .array(notScannedSchema)
      .max(MAX_REVIEW_NOT_SCANNED)
      .describe(
        `Expected (book quantity not 0) but not scanned: the first ${MAX_REVIEW_NOT_SCANNED} by barcode (\`not_scanned_total\` counts them all).`,
      ),
    not_scanned_total: z.number().int().nonnegative().describe('How many items are expected but not scanned, listed or not.'),
    unknown: z.array(stocktakeLineSchema).describe('Barcodes the catalogue does not know.'),
  })
  .meta({ id: 'StocktakeReview' });
export type StocktakeReview = z.infer<typeof stocktakeReviewSchema>;

export const commitErrorSchema = z.strictObject({
  line: z.number().int(),
  data: z.unknown(),
  errors: fieldErrorsSchema,
});

export const commitResultSchema = z
  .strictObject({
    stocktake: stocktakeSchema,
    applied: z.number().int().describe('Lines applied, over all runs of the commit.'),
    failed: z.number().int(),
    errors: z.array(commitErrorSchema).describe('Per-line errors, as the update endpoint reports them.'),
  })
  .meta({ id: 'CommitResult' });
export type CommitResult = z.infer<typeof commitResultSchema>;

export const stocktakeListSchema = z.array(stocktakeSchema);

export const MAX_STOCKTAKE_PAGE = 100;
export const DEFAULT_STOCKTAKE_PAGE = 50;

export const stocktakeListQuerySchema = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_STOCKTAKE_PAGE)
      .default(DEFAULT_STOCKTAKE_PAGE)
      .describe(`Sessions per page, at most ${MAX_STOCKTAKE_PAGE}.`),
    cursor: z
      .string()
      .regex(/^\d{1,15}$/)
      .optional()
      .describe('The next_cursor of the previous page.'),
  })
  .meta({ id: 'StocktakeListQuery' });
export type StocktakeListQuery = z.infer<typeof stocktakeListQuerySchema>;

/** One page of sessions, newest first; follow `next` (or pass `next_cursor` as `cursor`) for the next. */
export const stocktakePageSchema = z
  .strictObject({
    results: stocktakeListSchema,
    next_cursor: z.string().nullable(),
    next: z.string().nullable().describe('Path of the next page, or null on the last one.'),
  })
  .meta({ id: 'StocktakePage' });
export type StocktakePage = z.infer<typeof stocktakePageSchema>;
