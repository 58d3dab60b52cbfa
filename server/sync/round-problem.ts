// Why a round failed, for a program (shared/sync-schemas.ts, syncProblemCodes): the code the link
// records beside the words, which the status answers and the scanner UI says in a shop worker's words.
// Decided from what failed (the upstream's status and its own code, what the client made of the
// network), never from the English text.
import type { SyncProblemCode } from '../../shared/index.ts';
import { ForgedOwnMovements } from '../store/sync/followers.ts';
import { UpstreamError } from './upstream-client.ts';

/** A round stopped by what it found (the upstream holds another account, movements never made here): its code says which. */
export class RoundProblem extends Error {
  readonly code: SyncProblemCode;
  constructor(code: SyncProblemCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The upstream's own codes (shared/error-codes.ts) of a refusal, by the problem they are for this side. */
const REFUSALS: Record<string, SyncProblemCode> = {
  invalid_token: 'token_refused',
  not_authenticated: 'token_refused',
  role_forbidden: 'token_not_for_sync',
  follower_not_registered: 'registration_refused',
  instance_registered: 'registration_refused',
  token_registered_for_another: 'registration_refused',
  follower_is_this_instance: 'registration_refused',
  origin_not_owned: 'origin_refused',
  origin_limit: 'origin_refused',
  sync_movement_refused: 'movement_refused',
  sync_same_id_other_movement: 'movement_refused',
  sync_gap: 'movement_refused',
  invalid_body: 'movement_refused',
  body_too_large: 'movement_refused',
};

export function problemOf(error: unknown): SyncProblemCode {
  if (error instanceof RoundProblem) return error.code;
  if (error instanceof ForgedOwnMovements) return 'forged_own_movements';
  if (error instanceof UpstreamError) {
    if (error.problem) return error.problem;
    if (error.status === 0) return 'upstream_unreachable';
    const code = typeof error.answer.code === 'string' ? error.answer.code : undefined;
    if (code !== undefined && Object.hasOwn(REFUSALS, code)) return REFUSALS[code]!;
    if (error.status === 401) return 'token_refused';
    if (error.status === 404) return 'upstream_incompatible'; // no sync endpoints there: not barcode-inventory, or too old
    if (error.status >= 500) return 'upstream_failed';
    return 'unknown';
  }
  // This side's own store refused or failed (its database, a catalogue it cannot write).
  if (typeof (error as { status?: unknown }).status === 'number') return 'local_failure';
  return 'unknown';
}
