// Stored answers of writes sent with an Idempotency-Key (docs/POS.md, "Safe retries"): remembered
// per account for IDEMPOTENCY_KEY_TTL_HOURS with a hash of the request (method, path, canonical
// JSON body) and the first answer. answerOnce runs in the write's own transaction, so an answer is
// stored if and only if its write committed: a crash in between leaves neither, and the retry
// applies the write once.
//
// What one account may keep is capped (docs/POS.md): each answer at MAX_STORED_ANSWER_BYTES (a
// larger one is refused with 413 and its write rolled back), and all of them within the window at
// MAX_STORED_ANSWERS_PER_ACCOUNT answers or MAX_STORED_ANSWER_BYTES_PER_ACCOUNT bytes (a new key is
// then refused with 429 and Retry-After until the oldest expires; replays are still answered).
import {
  IDEMPOTENCY_KEY_TTL_HOURS,
  MAX_STORED_ANSWERS_PER_ACCOUNT,
  MAX_STORED_ANSWER_BYTES,
  MAX_STORED_ANSWER_BYTES_PER_ACCOUNT,
  idempotencyMessages,
} from '../../shared/index.ts';
import { apiError } from '../errors.ts';
import { type Param, type Queries, statement } from './engine.ts';

const TTL_MS = IDEMPOTENCY_KEY_TTL_HOURS * 3600_000;
/** Expired keys are purged at most this often per database, inside a write that stores a key. */
const PURGE_INTERVAL_MS = 10 * 60_000;
const lastPurge = new WeakMap<object, number>();

/** An account's stored answers within the window: read from the index idempotency_keys_account_usage alone. */
const storedUsage = statement('idempotency.usage', (k, p: Param<{ accountId: number; notBefore: string }>) =>
  k
    .selectFrom('idempotency_keys')
    .select((eb) => [
      eb.fn.countAll<number>().as('answers'),
      eb.fn.coalesce(eb.fn.sum<number>('response_bytes'), eb.lit(0)).as('bytes'),
      eb.fn.min<string>('created_at').as('oldest'),
    ])
    .where('account_id', '=', p('accountId'))
    .where('created_at', '>=', p('notBefore')),
);

/** Refuses a new key when the account keeps as many answers (or bytes) as it may. */
async function checkRoom(q: Queries, accountId: number, notBefore: string, now: number): Promise<void> {
  const usage = await q.first(storedUsage, { accountId, notBefore });
  const answers = Number(usage?.answers ?? 0);
  const bytes = Number(usage?.bytes ?? 0);
  if (answers < MAX_STORED_ANSWERS_PER_ACCOUNT && bytes < MAX_STORED_ANSWER_BYTES_PER_ACCOUNT) return;
  const oldest = usage?.oldest ? Date.parse(usage.oldest) : now;
  const seconds = Math.max(1, Math.ceil((oldest + TTL_MS - now) / 1000));
  throw apiError(
    429,
    idempotencyMessages.storedAnswersFull(
      answers,
      bytes,
      IDEMPOTENCY_KEY_TTL_HOURS,
      MAX_STORED_ANSWERS_PER_ACCOUNT,
      MAX_STORED_ANSWER_BYTES_PER_ACCOUNT,
      seconds,
    ),
    { code: 'idempotency_answers_full', headers: { 'Retry-After': String(seconds) } },
  );
}

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
export async function answerOnce<T>(
  q: Queries,
  accountId: number,
  once: OnceKey | undefined,
  work: () => Promise<{ status: number; body: T }>,
): Promise<Answer<T>> {
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
    if (stored.request_hash !== once.requestHash)
      throw apiError(422, idempotencyMessages.reusedWithOtherRequest, { code: 'idempotency_key_reused' });
    return { status: stored.status, body: JSON.parse(stored.response_body) as T, replayed: true };
  }
  await checkRoom(q, accountId, notBefore, now);
  const fresh = await work();
  const body = JSON.stringify(fresh.body);
  const bytes = Buffer.byteLength(body, 'utf8');
  // Thrown inside the write's transaction: the write is rolled back with it.
  if (bytes > MAX_STORED_ANSWER_BYTES)
    throw apiError(413, idempotencyMessages.answerTooLarge(MAX_STORED_ANSWER_BYTES), { code: 'idempotent_answer_too_large' });
  const values = {
    request_hash: once.requestHash,
    status: fresh.status,
    response_body: body,
    response_bytes: bytes,
    created_at: new Date(now).toISOString(),
  };
  // An expired entry under the same key (not yet purged) is replaced.
  await q.run(
    q.k
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key: once.key, ...values })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet(values)),
  );
  return { ...fresh, replayed: false };
}
