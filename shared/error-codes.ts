// The machine-readable `code` of every request-level error (`{"detail": …, "code": …}`), beside its
// human `detail`: a client decides and translates by the code, never by comparing the English text
// (which may be reworded). Codes are stable: a new one may be added, none is renamed or reused.
// Row errors of the spec's writes keep their own shape (`{"barcode": "No items…"}`): no code there.

export const errorCodes = {
  // 400
  invalid_body: 'The body does not have the shape or values the endpoint takes; `detail` names the fields.',
  invalid_query: 'A query parameter is missing or wrong; `detail` says which.',
  invalid_barcodes: 'The `barcodes` query parameter is missing or empty, holds too many barcodes, or one with a control character.',
  invalid_json: 'The body is not JSON, is not UTF-8, or nests deeper than 64 levels.',
  body_unreadable: 'The body could not be read (the connection broke, a wrong length).',
  invalid_idempotency_key: 'The Idempotency-Key header is not 1 to 255 visible ASCII characters.',
  signin_code_invalid: 'The sign-in code was already used, has expired, or is mistyped.',
  resolution_of_known_barcode: 'A resolution (ignored, kept) was given for a line of a known barcode.',
  catalogue_refused: 'The catalogue has problems; `detail` says how many and lists the first 1,000; nothing was written.',
  badge_malformed: 'The badge sent to sign a person in is not whole (a scan cut short): scan it again.',
  badge_unknown: "The badge works nowhere here: replaced, revoked, or another account's.",
  pin_wrong: 'The PIN is not the chosen person’s.',
  pin_none: 'The chosen person has no PIN: a badge signs them in.',
  person_not_here: 'The chosen person cannot sign in on this device (revoked, or not of its account).',
  person_revoked: 'The person was revoked: nothing more can be changed of them but their name in the history.',
  person_name_taken: 'Another active person of the account has this name.',
  person_has_no_badge: 'The person has no badge that works (to revoke).',
  bad_request: 'Another refusal of the request (the text says it).',
  // 401
  not_authenticated: 'No credentials were sent.',
  invalid_token: 'The token is unknown, revoked, or expired after days unused.',
  // 403
  host_not_allowed: 'The Host header names a host this server does not answer to.',
  origin_not_allowed: 'The Origin header names a site that may not call this API.',
  cross_site_refused: 'The browser says the request comes from another site (Sec-Fetch-Site).',
  follower_not_registered: 'The sync token registered no follower: link again (barcode-inventory sync link).',
  origin_not_owned:
    "A pushed movement's origin is not the pushing follower's (this instance's own, another follower's, or one this instance's upstream sends); `origin` names it.",
  role_forbidden: "The token's role may not call this endpoint; `roles` lists those that may (docs/SECURITY.md).",
  forbidden: 'Another refusal of what the caller may do.',
  // 404
  not_found: 'No such path, or no such record of the account.',
  stocktake_not_found: 'No stocktake with this id in the account.',
  person_not_found: 'No person with this id in the account.',
  stocktake_line_not_found: 'No line with this id in the stocktake.',
  // 405
  method_not_allowed: 'The path is known, the method is not; `Allow` lists those it takes.',
  // 409
  conflict: 'Another conflict with the state of the server (the text says it).',
  stocktake_committing: 'The stocktake is being committed: counting is closed; send the commit again to resume it.',
  stocktake_read_only: 'The stocktake is committed: it is read-only.',
  scan_id_reused: 'The scan_id was already used for another barcode or amount in this stocktake.',
  nothing_to_undo: 'The terminal has no scan left to undo in this stocktake.',
  zero_option_changed: "A resumed commit asked for another zero_uncounted than the commit's start.",
  idempotency_key_in_flight: 'A request with this Idempotency-Key is still being processed.',
  instance_registered: 'Another token that still works registered this instance as a follower.',
  token_registered_for_another: 'This sync token registered another instance as its follower.',
  sync_same_id_other_movement: 'A pushed movement has the id of another one recorded here (two databases share an instance id).',
  catalogue_from_upstream: 'The account follows an upstream: its catalogue (reorder points too) is changed there and comes down with sync.',
  sync_gap: "A pushed batch would leave a gap in an origin's movements; `detail` says where to resume.",
  sync_not_linked: 'The account follows no upstream on this instance: there is no round to run.',
  // 413
  body_too_large: 'The body is larger than 1 MiB.',
  idempotent_answer_too_large: 'The answer would be larger than what is kept for an Idempotency-Key; nothing was written.',
  // 415
  unsupported_media_type: 'The body is not sent as JSON (Content-Type).',
  // 422
  idempotency_key_reused: 'The Idempotency-Key was used before with another request.',
  follower_is_this_instance: "A follower may not register the answering instance's own id.",
  origin_limit: 'The push would bring the account more origins than it may have (10,000); `origin` names the first over.',
  sync_movement_refused: 'A pushed movement was refused; `detail` says which and why; nothing of the batch was applied.',
  unprocessable: 'Another request the server understood and cannot carry out (the text says it).',
  // 429
  too_many_auth_failures: 'Too many failed authentications from this address; `Retry-After` says when to try again.',
  idempotency_answers_full: 'The account keeps as many answers of Idempotency-Key requests as it may; `Retry-After` says when one expires.',
  pin_slowed:
    'Too many wrong PINs for this person just now; `Retry-After` says when to try again (their badge, and everyone else, still work).',
  too_many_requests: 'Too many requests (the text says which).',
  // 500
  internal: 'An error of the server; it is logged, with no detail in the answer.',
  // 503
  storage_unavailable:
    'The database cannot be used right now (disk full, read-only, busy); nothing was written; retry after `Retry-After`.',
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** The code of an error raised without one of its own: the general code of its status. */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'not_authenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 413:
      return 'body_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'unprocessable';
    case 429:
      return 'too_many_requests';
    case 503:
      return 'storage_unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}
