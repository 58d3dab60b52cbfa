// API tokens: created for an account, stored only as a SHA-256 hash, listed, revoked, and resolved
// to the calling account on every request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from './secret-hash.ts';
import type { Account } from './accounts.ts';
import { findAccountByName } from './accounts.ts';
import type { Database } from './database.ts';

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

export class TokenError extends Error {}

/** Creates a token; the returned key is shown once and never stored. */
export function createToken(db: Database, accountName: string, label: string | null): { id: number; key: string } {
  const account = findAccountByName(db, accountName);
  if (!account) throw new TokenError(`No account named "${accountName}". Import a catalogue that defines it first.`);
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const result = db.run(
    db.kysely.insertInto('api_tokens').values({
      account_id: account.id,
      label,
      key_hash: hashSecret(key),
      key_prefix: key.slice(0, PREFIX_SHOWN),
      created_at: new Date().toISOString(),
    }),
  );
  return { id: Number(result.lastInsertRowid), key };
}

export function listTokens(db: Database, accountName?: string): TokenInfo[] {
  let query = db.kysely
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 'a.name as account', 't.label', 't.key_prefix', 't.created_at', 't.revoked_at'])
    .orderBy('t.id');
  if (accountName !== undefined) query = query.where('a.name', '=', accountName);
  return db.all(query).map((row) => ({
    id: row.id,
    account: row.account,
    label: row.label,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

/** Revokes a token by id; false when there is no such token or it was already revoked. */
export function revokeToken(db: Database, id: number): boolean {
  const result = db.run(
    db.kysely
      .updateTable('api_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null),
  );
  return result.changes === 1;
}

/** Resolves a presented key to its account, or undefined for an unknown or revoked key. */
export function authenticate(db: Database, key: string): Caller | undefined {
  const hash = hashSecret(key);
  // Runs on every request: compiled once, and the answer kept until the database changes in any
  // way (db.kept), so a token revoked from the command line (another process) is refused at once.
  return db.kept(`token:${hash}`, () => lookUp(db, hash));
}

function lookUp(db: Database, hash: string): Caller | undefined {
  const row = db
    .prepared('tokens.byHash', () =>
      db.kysely
        .selectFrom('api_tokens as t')
        .innerJoin('accounts as a', 'a.id', 't.account_id')
        .select(['t.id as token_id', 't.key_hash', 't.revoked_at', 'a.id', 'a.name', 'a.warehouses_enabled'])
        .where('t.key_hash', '=', ''),
    )
    .get(hash);
  // The lookup is by hash, so timing says nothing about the key; compare once more in constant time.
  if (!row || row.revoked_at !== null) return undefined;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  return Object.freeze({ id: row.id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1, tokenId: row.token_id });
}
