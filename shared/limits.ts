// Limits of the API (docs/API.md), shared by server and UI.
export const MAX_BARCODES_PER_READ = 50;
export const MAX_ROWS_PER_UPDATE = 50;
export const MAX_BARCODE_LENGTH = 128;
export const MIN_QUANTITY = -1_000_000_000;
export const MAX_QUANTITY = 1_000_000_000;
export const MAX_BODY_BYTES = 1024 * 1024;
/** Open sync conflicts are counted up to one more than this (docs/SYNC.md): more reads as "10000+". */
export const MAX_COUNTED_CONFLICTS = 10_000;

// Point-of-sale integration (docs/POS.md).
/** An adjustment may move a quantity across the whole allowed range, e.g. from -1e9 to 1e9. */
export const MAX_DELTA = MAX_QUANTITY - MIN_QUANTITY;
export const MIN_DELTA = -MAX_DELTA;
export const MAX_REASON_LENGTH = 32;
export const MAX_REFERENCE_LENGTH = 128;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long an Idempotency-Key is remembered; older keys are purged lazily. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** Largest answer kept for a request sent with an Idempotency-Key (JSON, bytes); a 50-row answer stays far below it. */
export const MAX_STORED_ANSWER_BYTES = 256 * 1024;
/** Stored answers an account may have within IDEMPOTENCY_KEY_TTL_HOURS: how many, and how many bytes together. */
export const MAX_STORED_ANSWERS_PER_ACCOUNT = 10_000;
export const MAX_STORED_ANSWER_BYTES_PER_ACCOUNT = 64 * 1024 * 1024;
/** Longest actor a movement or an audit entry records (a person's name, a token's label, the command line). */
export const MAX_ACTOR_LENGTH = 200;
