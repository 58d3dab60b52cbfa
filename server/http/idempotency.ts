// Safe retries for every write (docs/POS.md, "Safe retries"): an optional `Idempotency-Key` header,
// remembered per account for IDEMPOTENCY_KEY_TTL_HOURS together with a hash of the request (method,
// path, canonical JSON body) and the first answer (status and body).
//
// Use on any write route, after authentication:
//
//   router.post(path, auth, idempotencyKey(db), async (ctx) => {
//     const body = await readJsonBody(ctx);
//     respondOnce(db, ctx, body, () => ({ status: 200, body: doTheWrite(body) }));
//   });
//
// - same key, same request → the stored answer again (header `Idempotent-Replayed: true`), nothing
//   applied again; same key, another request → 422; same key while the first is in flight → 409.
// - The answer is stored in the same transaction as the write, so it is stored if and only if the
//   write committed: a crash in between leaves neither, and the retry applies the write once.
// - "In flight" is the time between the request's arrival and its answer, mostly spent reading the
//   body (the store itself is synchronous). Claims live in memory: they end with the request, and a
//   restarted process has none. Two processes on one file still apply a key once: the transaction
//   serialises them, and the second finds the first's answer.
// - Request-level refusals (400, 413, 415) and failed writes store nothing: the write did not happen,
//   so the client may fix the request and send it again under the same key.
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_TTL_HOURS,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  idempotencyMessages,
} from '../../shared/index.ts';
import type { Database } from '../store/database.ts';
import { findStoredAnswer, purgeStoredAnswers, storeAnswer } from '../store/idempotency-keys.ts';
import type { CallerState } from './authenticate.ts';
import { HttpError } from './http-error.ts';

const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);
const TTL_MS = IDEMPOTENCY_KEY_TTL_HOURS * 3600_000;
/** Expired keys are purged at most this often, inside a write that stores a key. */
const PURGE_INTERVAL_MS = 10 * 60_000;

export interface IdempotencyState extends CallerState {
  /** The validated key of this request, claimed until the answer is ready; absent without the header. */
  idempotencyKey?: string;
}

/** Per database: keys in flight ("<account id> <key>") and when expired keys were last purged. */
interface Registry {
  inFlight: Set<string>;
  lastPurge: number;
}
const registries = new WeakMap<Database, Registry>();

function registryOf(db: Database): Registry {
  let registry = registries.get(db);
  if (!registry) registries.set(db, (registry = { inFlight: new Set(), lastPurge: 0 }));
  return registry;
}

/**
 * Validates the `Idempotency-Key` header (400), refuses a key of the same account already in flight
 * (409) and claims it until the route has answered. Without the header it does nothing.
 */
export function idempotencyKey(db: Database): Middleware<IdempotencyState> {
  const { inFlight } = registryOf(db);
  return async (ctx, next) => {
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (ctx.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] === undefined) return next();
    if (!KEY_PATTERN.test(key)) throw new HttpError(400, idempotencyMessages.invalidKey(MAX_IDEMPOTENCY_KEY_LENGTH));
    const claim = `${ctx.state.caller.id} ${key}`;
    if (inFlight.has(claim)) throw new HttpError(409, idempotencyMessages.inFlight);
    inFlight.add(claim);
    ctx.state.idempotencyKey = key;
    try {
      await next();
    } finally {
      inFlight.delete(claim);
    }
  };
}

/** How many keys are in flight on this database now (for tests and diagnostics). */
export function keysInFlight(db: Database): number {
  return registryOf(db).inFlight.size;
}

/** JSON with object keys sorted, so that key order and white space do not change a request's hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of method, path (trailing slash ignored) and canonical body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path.replace(/\/+$/, '')}\n${canonicalJson(body)}`, 'utf8')
    .digest('hex');
}

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * Answers a write at most once per Idempotency-Key: runs `write` (synchronous, its database work
 * joins this transaction) and stores its answer in the same transaction, or answers a replay from
 * the stored answer without running `write`. Without a key (no `idempotencyKey` middleware or no
 * header) it just runs `write` in a transaction.
 */
export function respondOnce(db: Database, ctx: Context, body: unknown, write: () => Answer): void {
  const state = ctx.state as IdempotencyState;
  const key = state.idempotencyKey;
  const answer = db.transaction((): Answer & { replayed: boolean } => {
    if (key === undefined) return { ...write(), replayed: false };
    const accountId = state.caller.id;
    const now = Date.now();
    const registry = registryOf(db);
    if (now - registry.lastPurge >= PURGE_INTERVAL_MS) {
      purgeStoredAnswers(db, new Date(now - TTL_MS).toISOString());
      registry.lastPurge = now;
    }
    const hash = requestHash(ctx.method, ctx.path, body);
    const stored = findStoredAnswer(db, accountId, key, new Date(now - TTL_MS).toISOString());
    if (stored) {
      if (stored.requestHash !== hash) throw new HttpError(422, idempotencyMessages.reusedWithOtherRequest);
      return { status: stored.status, body: JSON.parse(stored.body), replayed: true };
    }
    const fresh = write();
    storeAnswer(db, accountId, key, { requestHash: hash, status: fresh.status, body: JSON.stringify(fresh.body) }, new Date(now).toISOString());
    return { ...fresh, replayed: false };
  });
  ctx.status = answer.status;
  ctx.body = answer.body;
  if (answer.replayed) ctx.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
}
