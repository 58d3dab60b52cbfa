// Wire shapes of sync between instances (docs/SYNC.md): movements as instances exchange them, what a
// push answers, a page of a pull, an instance's state, a link's status and the conflicts list.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import {
  MAX_ACTOR_LENGTH,
  MAX_BARCODE_LENGTH,
  MAX_COUNTED_CONFLICTS,
  MAX_DELTA,
  MAX_REASON_LENGTH,
  MAX_REFERENCE_LENGTH,
  MIN_DELTA,
} from './limits.ts';
import { movementKindSchema, originLabelSchema } from './history-schemas.ts';
import { posFieldMessages } from './messages.ts';
import { REASON_PATTERN, safeTextSchema } from './row-validation.ts';

export const SYNC_BASE = `${API_BASE}/sync`;
export const SYNC_STATE_PATH = `${SYNC_BASE}/state/`;
export const SYNC_MOVEMENTS_PATH = `${SYNC_BASE}/movements/`;
export const SYNC_CATALOGUE_PATH = `${SYNC_BASE}/catalogue/`;
export const SYNC_STATUS_PATH = `${SYNC_BASE}/status/`;
export const SYNC_CONFLICTS_PATH = `${SYNC_BASE}/conflicts/`;
export const SYNC_FOLLOWERS_PATH = `${SYNC_BASE}/followers/`;
export const SYNC_NOW_PATH = `${SYNC_BASE}/now/`;

/** Movements per push, and per page of a pull. */
export const MAX_MOVEMENTS_PER_BATCH = 500;
/** How far ahead of the receiver's clock a movement's time may be: beyond it, the sender's clock is wrong. */
export const MAX_CLOCK_AHEAD_MS = 24 * 3600_000;
/**
 * How far past its own wall clock a push may move the receiver's clock: a movement stamped further
 * ahead (up to MAX_CLOCK_AHEAD_MS) is accepted and sorts by its stamp, but what the receiver records
 * next is stamped at most this far ahead of its wall clock (docs/SYNC.md, "Clocks").
 */
export const MAX_CLOCK_DRAG_MS = 5 * 60_000;
/** Beyond this difference between an instance's clock and its upstream's, both warn. */
export const CLOCK_WARNING_MS = 2 * 60_000;
/**
 * The most origins (instances whose movements it holds) an account may have on an instance: a push
 * that would bring more is refused (docs/SYNC.md, "Who may speak for an origin"). It bounds the
 * state's vector, a pull's `have` and the followers' bookkeeping.
 */
export const MAX_ORIGINS_PER_ACCOUNT = 10_000;
/** The longest label a follower registers with (`sync link --label`). */
export const MAX_FOLLOWER_LABEL_LENGTH = 64;

/** What records movements in this version (the stock history's `source`): the update and adjust endpoints, imports, stocktake commits. */
export const MOVEMENT_SOURCES = ['api', 'import', 'stocktake'] as const;
export type MovementSourceName = (typeof MOVEMENT_SOURCES)[number];

/** `created_at` as the server writes it (`Date.prototype.toISOString`): UTC, milliseconds. */
export const CREATED_AT_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

export const instanceIdSchema = z.string().regex(/^[a-z0-9]{4,32}$/, { error: 'An instance id is 4 to 32 lowercase letters and digits.' });
export const hlcSchema = z
  .string()
  .regex(/^\d{16}-\d{5}-[a-z0-9]{4,32}$/, { error: 'A timestamp looks like 0001763900000000-00000-<instance>.' });
/** What an instance had seen of the others when it made a movement: `{instance: highest sequence}`. */
export const versionVectorSchema = z.record(instanceIdSchema, z.number().int().min(1));
export type VersionVector = z.infer<typeof versionVectorSchema>;

export const syncMovementSchema = z
  .strictObject({
    id: z.string().describe('`<origin>-<seq>`, for people; origin and seq are the key.'),
    origin: instanceIdSchema.describe('The instance that made the movement.'),
    seq: z.number().int().min(1).describe("The movement's number among its origin's movements of this account, without gaps."),
    kind: movementKindSchema,
    value: z.number().int().min(MIN_DELTA).max(MAX_DELTA).describe('set and count: the quantity; adjust: the change.'),
    hlc: hlcSchema.describe('When it happened (hybrid logical clock): the order quantities are folded in.'),
    item: z.number().int().positive(),
    liquid_stock: z.number().int().positive().nullable(),
    warehouse: z.number().int().positive().nullable().describe('null for an account without warehouses.'),
    barcode: z.string().min(1).max(MAX_BARCODE_LENGTH).describe('For people; item and liquid_stock name the unit.'),
    seen: versionVectorSchema.nullable().describe('set and count: what the origin had seen of other instances.'),
    source: z.enum(MOVEMENT_SOURCES).describe('What recorded it at its origin.'),
    reason: z
      .string()
      .regex(REASON_PATTERN, { error: posFieldMessages.reasonFormat(MAX_REASON_LENGTH) })
      .nullable()
      .describe("The local API's rule: a short code."),
    reference: safeTextSchema(MAX_REFERENCE_LENGTH).nullable().describe("The local API's rule: no control or text-direction characters."),
    created_at: z
      .string()
      .regex(CREATED_AT_PATTERN, { error: 'created_at is a UTC time as 2026-11-23T10:00:00.000Z.' })
      .describe('When the origin recorded it: ISO 8601, UTC, milliseconds.'),
    actor: safeTextSchema(MAX_ACTOR_LENGTH)
      .nullable()
      .optional()
      .describe(
        'Who made it at its origin: a person, a token label, the command line (docs/API.md, "Who did what"); absent from older versions.',
      ),
  })
  .meta({ id: 'SyncMovement' });
export type SyncMovement = z.infer<typeof syncMovementSchema>;

export const pushBodySchema = z
  .strictObject({ movements: z.array(syncMovementSchema).min(1).max(MAX_MOVEMENTS_PER_BATCH) })
  .meta({ id: 'SyncPush' });
export type PushBody = z.infer<typeof pushBodySchema>;

export const pushAnswerSchema = z
  .strictObject({
    applied: z.number().int().describe('Movements new to this instance, applied.'),
    duplicates: z.number().int().describe('Movements it already had (a resent batch): applied before, not again.'),
    vector: versionVectorSchema.describe(
      "The highest sequence this instance holds of each of the batch's origins, after the push (the state answers every origin).",
    ),
    now: z.number().int().describe("This instance's clock (ms since 1970)."),
  })
  .meta({ id: 'SyncPushAnswer' });
export type PushAnswer = z.infer<typeof pushAnswerSchema>;

export const pullQuerySchema = z.object({
  after: z.coerce.number().int().min(0).default(0).describe('The `next_cursor` of the previous page; 0 from the start.'),
  limit: z.coerce.number().int().min(1).max(MAX_MOVEMENTS_PER_BATCH).default(MAX_MOVEMENTS_PER_BATCH),
  have: z
    .string()
    .regex(new RegExp(`^([a-z0-9]{4,32}:\\d{1,15})(,[a-z0-9]{4,32}:\\d{1,15}){0,${MAX_ORIGINS_PER_ACCOUNT - 1}}$`), {
      error: `have is origin:seq pairs separated by commas (at most ${MAX_ORIGINS_PER_ACCOUNT}).`,
    })
    .transform(
      (text) =>
        Object.fromEntries(text.split(',').map((pair) => [pair.split(':')[0]!, Number(pair.split(':')[1])])) as Record<string, number>,
    )
    .optional()
    .describe(
      "What the caller already holds, `origin:seq,…` (its highest sequence of each origin): those movements are left out of the page (an instance's own, just pushed, do not come back), and `next_cursor` still moves past them.",
    ),
});

export const followerRegistrationSchema = z
  .strictObject({
    instance: instanceIdSchema.describe("The follower's instance id: the `origin` of the movements it makes."),
    label: safeTextSchema(MAX_FOLLOWER_LABEL_LENGTH).describe('A name its owner chose ("Laptop 2"), for people.'),
  })
  .meta({ id: 'SyncFollower' });
export type FollowerRegistrationBody = z.infer<typeof followerRegistrationSchema>;

export const followerRegisteredSchema = z
  .strictObject({
    instance: instanceIdSchema,
    label: z.string(),
    registered_at: z.string().describe('When it first registered here.'),
  })
  .meta({ id: 'SyncFollowerRegistered' });
export type FollowerRegistered = z.infer<typeof followerRegisteredSchema>;

export const pullPageSchema = z
  .strictObject({
    movements: z.array(syncMovementSchema).describe("In the order this instance recorded them: each origin's in sequence."),
    next_cursor: z.number().int().describe('Pass as `after` for the next page; the same value when there was nothing new.'),
    more: z.boolean(),
    now: z.number().int(),
  })
  .meta({ id: 'SyncPullPage' });
export type PullPage = z.infer<typeof pullPageSchema>;

export const syncStateSchema = z
  .strictObject({
    instance: instanceIdSchema,
    now: z.number().int().describe("This instance's clock (ms since 1970)."),
    account: z.string(),
    warehouses_enabled: z.boolean(),
    catalogue_version: z.number().int(),
    vector: versionVectorSchema.describe('The highest sequence this instance holds per origin (itself included).'),
  })
  .meta({ id: 'SyncState' });
export type SyncState = z.infer<typeof syncStateSchema>;

/**
 * Why a link's last round failed, for a program (the status's `problem.code`): the scanner UI says
 * each in a shop worker's words in its language, never by reading the English `detail`. Stable: a new
 * one may be added, none is renamed.
 */
export const syncProblemCodes = {
  upstream_unreachable: 'The upstream did not answer: nothing listens there, the network or its name is down, or it took too long.',
  upstream_certificate: "The upstream's TLS certificate is not trusted on this computer.",
  token_refused: 'The upstream refused the token: revoked, unknown, or expired after days unused.',
  token_not_for_sync: 'The token is not a sync token (its role may not sync).',
  registration_refused:
    'The upstream refused this instance as a follower: another computer registered this instance or this token, or it is the upstream itself.',
  origin_refused: "The upstream refused movements this instance passes on for another (another follower's, or past the bound on origins).",
  movement_refused: 'The upstream refused movements made or held here (their values, text or sequence); they wait here.',
  forged_own_movements: "The upstream holds movements said to be made here that this instance never made (the follower's alarm).",
  wrong_account: 'The upstream holds another account, or another warehouse set-up, than the one linked here.',
  upstream_incompatible: 'The upstream answered what this version does not understand (another version, or not barcode-inventory).',
  upstream_failed: 'The upstream failed with an error of its own (5xx).',
  local_failure: 'This instance failed to read or write its own database during the round.',
  unknown: 'Another failure; `detail` says it.',
} as const;
export type SyncProblemCode = keyof typeof syncProblemCodes;
export const SYNC_PROBLEM_CODES = Object.keys(syncProblemCodes) as [SyncProblemCode, ...SyncProblemCode[]];

export const syncProblemSchema = z
  .strictObject({
    code: z.enum(SYNC_PROBLEM_CODES).describe('What went wrong, for a program (docs/SYNC.md, "Problems").'),
    detail: z.string().describe('What went wrong, in English, with the technical detail: for a person who sets sync up.'),
  })
  .meta({ id: 'SyncProblem' });
export type SyncProblem = z.infer<typeof syncProblemSchema>;

export const syncStatusSchema = z
  .strictObject({
    linked: z.boolean(),
    instance: instanceIdSchema.describe('This instance: the `origin` of the movements made here.'),
    upstream: z.string().nullable(),
    upstream_instance: instanceIdSchema
      .nullable()
      .describe('The upstream instance, once a round has reached it: the `origin` of its movements.'),
    state: z.enum(['unlinked', 'in_sync', 'waiting', 'offline', 'error']),
    last_success_at: z.string().nullable(),
    offline_since: z.string().nullable(),
    last_error: z.string().nullable(),
    problem: syncProblemSchema
      .nullable()
      .describe('Why the last round failed, while the state is `offline` or `error`: a code to decide by and the detail; else null.'),
    pending: z.number().int().describe('Movements made or received here that the upstream has not confirmed yet.'),
    conflicts: z
      .number()
      .int()
      .describe(
        `Open conflicts (groups) of the account, counted up to ${MAX_COUNTED_CONFLICTS + 1}: that many means more than ${MAX_COUNTED_CONFLICTS}.`,
      ),
    clock_skew_ms: z.number().int().nullable().describe("The upstream's clock minus this one's, at the last round."),
    clock_warning: z.string().nullable(),
  })
  .meta({ id: 'SyncStatus' });
export type SyncStatus = z.infer<typeof syncStatusSchema>;

export const syncNowAnswerSchema = z
  .strictObject({
    joined: z
      .boolean()
      .describe('A round of this link was running already: the answer is its end (a second press starts no second round).'),
    result: z
      .strictObject({
        pushed: z.number().int().describe('Movements the upstream took from this instance.'),
        pulled: z.number().int().describe('Movements this instance took from the upstream.'),
        catalogue_copied: z.boolean(),
      })
      .nullable()
      .describe('What the round did; null when it failed (`status.problem` says why).'),
    status: syncStatusSchema.describe('The status after the round.'),
  })
  .meta({ id: 'SyncNow' });
export type SyncNowAnswer = z.infer<typeof syncNowAnswerSchema>;

export const conflictSideSchema = z.strictObject({
  movement: z.string(),
  kind: movementKindSchema,
  value: z.number().int(),
  origin: z.string(),
  origin_label: originLabelSchema,
  occurred_at: z.string(),
  source: z.string(),
  reference: z.string().nullable(),
  actor: z.string().nullable().describe('Who made it, as its origin recorded it (a person, a token label); null from before actors.'),
});

export const conflictSchema = z
  .strictObject({
    id: z.number().int(),
    barcode: z.string(),
    item: z.number().int(),
    liquid_stock: z.number().int().nullable(),
    warehouse: z.number().int().nullable(),
    warehouse_name: z.string().nullable(),
    first: conflictSideSchema.describe("The group's first set or count made without seeing what it overrode."),
    later: conflictSideSchema.describe("The group's last one: the set or count the fold keeps for now; made without seeing `earlier`."),
    earlier: conflictSideSchema.describe(
      'What `later` overrode without seeing it: the set or count before it when they raced, else the latest sale or delivery it had not seen.',
    ),
    movements: z
      .number()
      .int()
      .describe('How many sets and counts of the group were made without seeing what they overrode (1: `later` alone).'),
    racing: z.boolean().describe('Some of them raced the set or count before them: absolute quantities made without seeing each other.'),
    quantity: z.number().int().nullable().describe('The quantity now.'),
    resolved: z.boolean().describe('A later set or count was made by an instance that had seen every movement of the group.'),
    detected_at: z.string(),
  })
  .meta({ id: 'StockConflict' });
export type Conflict = z.infer<typeof conflictSchema>;

export const conflictsQuerySchema = z.object({
  state: z.enum(['open', 'all']).default('open').describe('open (the default) or all, resolved included.'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const conflictListSchema = z.array(conflictSchema);
