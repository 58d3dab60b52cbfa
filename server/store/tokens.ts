// API tokens: created for an account, stored only as a SHA-256 hash, listed, revoked, and resolved
// to the calling account on every request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.ts';
import { type Account, findAccountByName } from './accounts.ts';
import { type Engine, type Param, type Queries, statement } from './engine.ts';
import { hashSecret } from './secret-hash.ts';

const KEY_PREFIX = 'bi_';
const PREFIX_SHOWN = KEY_PREFIX.length + 6;

export interface TokenInfo {
  id: number;
  account: string;
  label: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The account a request acts for, and the token it used (recorded in the stock history). */
export interface Caller extends Account {
  tokenId: number;
}

export const noSuchAccount = (name: string) => badRequest(`No account named "${name}". Import a catalogue that defines it first.`);

/** Creates a token inside the transaction `q`; the returned key is shown once and never stored. */
export async function insertToken(q: Queries, account: Account, label: string | null): Promise<{ id: number; key: string }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const row = await q.first(
    q.k
      .insertInto('api_tokens')
      .values({ account_id: account.id, label, key_hash: hashSecret(key), key_prefix: key.slice(0, PREFIX_SHOWN), created_at: new Date().toISOString() })
      .returning('id'),
  );
  return { id: row!.id, key };
}

export async function createToken(q: Queries, accountName: string, label: string | null): Promise<{ id: number; key: string }> {
  const account = await findAccountByName(q, accountName);
  if (!account) throw noSuchAccount(accountName);
  return insertToken(q, account, label);
}

export async function listTokens(q: Queries, accountName?: string): Promise<TokenInfo[]> {
  let query = q.k
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 'a.name as account', 't.label', 't.key_prefix', 't.created_at', 't.revoked_at'])
    .orderBy('t.id');
  if (accountName !== undefined) query = query.where('a.name', '=', accountName);
  return (await q.all(query)).map((row) => ({
    id: row.id,
    account: row.account,
    label: row.label,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

/** Revokes a token by id; false when there is no such token or it was already revoked. */
export async function revokeToken(q: Queries, id: number): Promise<boolean> {
  const { changes } = await q.run(q.k.updateTable('api_tokens').set({ revoked_at: new Date().toISOString() }).where('id', '=', id).where('revoked_at', 'is', null));
  return changes === 1;
}

const tokenByHash = statement('tokens.byHash', (k, p: Param<{ hash: string }>) =>
  k
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id as token_id', 't.key_hash', 't.revoked_at', 'a.id', 'a.name', 'a.warehouses_enabled', 'a.gtin_equivalence'])
    .where('t.key_hash', '=', p('hash')),
);

/**
 * Resolves a presented key to its account, or undefined for an unknown or revoked key. Runs on every
 * request, so the answer is kept until the database changes in any way (engine.kept): a token
 * revoked from the command line (another process) is refused at once.
 */
export async function authenticate(engine: Engine, key: string): Promise<Caller | undefined> {
  const hash = hashSecret(key);
  return engine.kept(`token:${hash}`, async (q) => {
    const row = await q.first(tokenByHash, { hash });
    // The lookup is by hash, so timing says nothing about the key; compare once more in constant time.
    if (!row || row.revoked_at !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    return Object.freeze({ id: row.id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1, gtinEquivalence: row.gtin_equivalence === 1, tokenId: row.token_id });
  });
}
