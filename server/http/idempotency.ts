// The HTTP side of safe retries (docs/POS.md, "Safe retries"): the optional `Idempotency-Key`
// header is checked (400), a key already in flight for the same account is refused (409) until its
// request has been answered, and the request is hashed (method, path, canonical JSON body) so the
// store can tell a replay from a reuse of the key with another request (store/idempotent-answers.ts).
// "In flight" is the time between the request's arrival and its answer, mostly spent reading the
// body. Claims live in memory: a restarted process has none, and two processes on one database still
// apply a key once, because the store's transaction serialises them and the second finds the answer.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, idempotencyMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';

const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

/** The request's key (validated), or undefined when it sent none. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  if (ctx.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] === undefined) return undefined;
  const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
  if (!KEY_PATTERN.test(key))
    throw apiError(400, idempotencyMessages.invalidKey(MAX_IDEMPOTENCY_KEY_LENGTH), { code: 'invalid_idempotency_key' });
  return key;
}

/** Keys in flight ("<account id> <key>"), per server. */
export class InFlightKeys {
  private readonly claims = new Set<string>();

  /** Claims the key until `work` has finished; a key already claimed is refused with 409. */
  async hold<T>(accountId: number, key: string, work: () => Promise<T>): Promise<T> {
    const claim = `${accountId} ${key}`;
    if (this.claims.has(claim)) throw apiError(409, idempotencyMessages.inFlight, { code: 'idempotency_key_in_flight' });
    this.claims.add(claim);
    try {
      return await work();
    } finally {
      this.claims.delete(claim);
    }
  }

  get size(): number {
    return this.claims.size;
  }
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
