// Stored answers of writes sent with an Idempotency-Key (docs/POS.md, "Safe retries"): remembered
// per account for IDEMPOTENCY_KEY_TTL_HOURS with a hash of the request (method, path, canonical
// JSON body) and the first answer. answerOnce runs in the write's own transaction, so an answer is
// stored if and only if its write committed: a crash in between leaves neither, and the retry
// applies the write once.
import { IDEMPOTENCY_KEY_TTL_HOURS, idempotencyMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';
import type { Queries } from './engine.ts';

const TTL_MS = IDEMPOTENCY_KEY_TTL_HOURS * 3600_000;
/** Expired keys are purged at most this often per database, inside a write that stores a key. */
const PURGE_INTERVAL_MS = 10 * 60_000;
const lastPurge = new WeakMap<object, number>();

/** The key a client sent and the hash of the request it came with. */
export interface OnceKey {
  key: string;
  requestHash: string;
}

/** An answer to a write: fresh, or the stored first answer of a replayed key. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * Answers a write at most once per key: runs `work` and stores its answer, or answers a replay from
 * the stored answer without running `work` (same key with another request: 422). Without a key it
 * just runs `work`. Runs in the caller's write transaction.
 */
export async function answerOnce<T>(q: Queries, accountId: number, once: OnceKey | undefined, work: () => Promise<{ status: number; body: T }>): Promise<Answer<T>> {
  if (once === undefined) return { ...(await work()), replayed: false };
  const now = Date.now();
  const notBefore = new Date(now - TTL_MS).toISOString();
  if (now - (lastPurge.get(q.k) ?? 0) >= PURGE_INTERVAL_MS) {
    await q.run(q.k.deleteFrom('idempotency_keys').where('created_at', '<', notBefore));
    lastPurge.set(q.k, now);
  }
  const stored = await q.first(
    q.k
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response_body'])
      .where('account_id', '=', accountId)
      .where('key', '=', once.key)
      .where('created_at', '>=', notBefore),
  );
  if (stored) {
    if (stored.request_hash !== once.requestHash) throw apiError(422, idempotencyMessages.reusedWithOtherRequest);
    return { status: stored.status, body: JSON.parse(stored.response_body) as T, replayed: true };
  }
  const fresh = await work();
  const values = { request_hash: once.requestHash, status: fresh.status, response_body: JSON.stringify(fresh.body), created_at: new Date(now).toISOString() };
  // An expired entry under the same key (not yet purged) is replaced.
  await q.run(q.k.insertInto('idempotency_keys').values({ account_id: accountId, key: once.key, ...values }).onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet(values)));
  return { ...fresh, replayed: false };
}
