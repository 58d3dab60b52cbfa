// One-time sign-in codes of the scanner UI (docs/UI.md, "Signing in"). A code is printed in a link by
// the CLI or the launcher, stored only as a hash, expires after a few minutes and can be exchanged
// once for a fresh API token of its account, so a browser never has to be typed a long token.
import { randomBytes } from 'node:crypto';
import { hashSecret } from './secret-hash.ts';
import { type Account, findAccountByName } from './accounts.ts';
import type { Database } from './database.ts';
import { TokenError, createToken } from './tokens.ts';

/** How long a sign-in link works when nothing else is asked for. */
export const DEFAULT_SIGNIN_TTL_MS = 15 * 60 * 1000;
/** Label of the tokens that sign-in links create, as `token list` shows them. */
export const SIGNIN_TOKEN_LABEL = 'scanner UI (sign-in link)';

export interface SignInCode {
  code: string;
  account: string;
  expiresAt: string;
}

export function createSignInCode(db: Database, accountName: string, ttlMs = DEFAULT_SIGNIN_TTL_MS, now = new Date()): SignInCode {
  const account = findAccountByName(db, accountName);
  if (!account) throw new TokenError(`No account named "${accountName}". Import a catalogue that defines it first.`);
  const code = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  db.run(
    db.kysely.insertInto('signin_codes').values({
      account_id: account.id,
      code_hash: hashSecret(code),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    }),
  );
  return { code, account: account.name, expiresAt };
}

export interface RedeemedSignIn {
  account: Account;
  token: string;
}

/**
 * Exchanges a code for a new token of its account, at most once: the code is marked used in the same
 * transaction that creates the token. Unknown, used and expired codes give undefined alike.
 */
export function redeemSignInCode(db: Database, code: string, now = new Date()): RedeemedSignIn | undefined {
  const at = now.toISOString();
  return db.transaction(() => {
    const row = db.first(
      db.kysely
        .selectFrom('signin_codes as c')
        .innerJoin('accounts as a', 'a.id', 'c.account_id')
        .select(['c.id', 'c.expires_at', 'c.used_at', 'a.id as account_id', 'a.name', 'a.warehouses_enabled'])
        .where('c.code_hash', '=', hashSecret(code)),
    );
    if (!row || row.used_at !== null || row.expires_at <= at) return undefined;
    db.run(db.kysely.updateTable('signin_codes').set({ used_at: at }).where('id', '=', row.id).where('used_at', 'is', null));
    const { key } = createToken(db, row.name, SIGNIN_TOKEN_LABEL);
    return { account: { id: row.account_id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1 }, token: key };
  });
}
