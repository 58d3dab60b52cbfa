// Stored answers of writes sent with an Idempotency-Key (docs/POS.md, "Safe retries"). Callers run
// these inside the write's own transaction, so the answer is stored if and only if the write commits.
import type { Database } from './database.ts';

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: string;
}

/** The stored answer of `key` in an account, unless it is older than `notBefore` (ISO time). */
export function findStoredAnswer(db: Database, accountId: number, key: string, notBefore: string): StoredAnswer | undefined {
  const row = db.first(
    db.kysely
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response_body'])
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('created_at', '>=', notBefore),
  );
  return row && { requestHash: row.request_hash, status: row.status, body: row.response_body };
}

/** Stores an answer; an expired entry under the same key (not yet purged) is replaced. */
export function storeAnswer(db: Database, accountId: number, key: string, answer: StoredAnswer, at: string): void {
  const values = { request_hash: answer.requestHash, status: answer.status, response_body: answer.body, created_at: at };
  db.run(
    db.kysely
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key, ...values })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet(values)),
  );
}

/** Deletes the answers stored before `before` (ISO time), of every account; returns how many. */
export function purgeStoredAnswers(db: Database, before: string): number {
  return Number(db.run(db.kysely.deleteFrom('idempotency_keys').where('created_at', '<', before)).changes);
}
