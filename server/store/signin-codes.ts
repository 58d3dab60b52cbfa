// One-time sign-in codes of the scanner UI (docs/UI.md, "Signing in"). A code is printed in a link by
// the CLI or the launcher, stored only as a hash, expires after a few minutes and can be exchanged
// once for a fresh API token of its account, so a browser never has to be typed a long token.
import { randomBytes } from 'node:crypto';
import { DEFAULT_SIGNIN_ROLE, SIGNIN_ROLES, SIGNIN_TOKEN_LABEL, type SignInRole, isRole } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import { findAccountByName } from './accounts.ts';
import type { Queries } from './engine.ts';
import { hashSecret } from './secret-hash.ts';
import { insertToken, noSuchAccount } from './tokens.ts';

/** How long a sign-in link works when nothing else is asked for. */
export const DEFAULT_SIGNIN_TTL_MS = 15 * 60 * 1000;
/** Label of the tokens that sign-in links create, as `token list` shows them. */
/** How long a token made by a sign-in link may go unused before it is refused (docs/UI.md). */
export const DEFAULT_SIGNIN_TOKEN_IDLE_DAYS = 30;
const DAY_SECONDS = 24 * 3600;

export interface SignInCode {
  code: string;
  account: string;
  expiresAt: string;
  role: SignInRole;
}

/**
 * A new one-time code of `accountName`, working for `ttlMs`; the token it is exchanged for has `role`
 * and expires after `tokenIdleDays` without use (0: never).
 */
export async function createSignInCode(
  q: Queries,
  accountName: string,
  ttlMs = DEFAULT_SIGNIN_TTL_MS,
  now = new Date(),
  tokenIdleDays = DEFAULT_SIGNIN_TOKEN_IDLE_DAYS,
  role: SignInRole = DEFAULT_SIGNIN_ROLE,
): Promise<SignInCode> {
  const account = await findAccountByName(q, accountName);
  if (!account) throw noSuchAccount(accountName);
  const code = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  await q.run(
    q.k.insertInto('signin_codes').values({
      account_id: account.id,
      code_hash: hashSecret(code),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      // 0 is stored as such (never expires); null only on codes made before idle expiry existed.
      token_idle_expiry_seconds: Math.round(tokenIdleDays * DAY_SECONDS),
      token_role: role,
    }),
  );
  return { code, account: account.name, expiresAt, role };
}

function isSignInRole(value: unknown): value is SignInRole {
  return isRole(value) && (SIGNIN_ROLES as readonly string[]).includes(value);
}

export interface RedeemedSignIn {
  account: Account;
  token: string;
  role: SignInRole;
}

/**
 * Exchanges a code for a new token of its account, at most once: the code is marked used in the same
 * transaction that creates the token. Unknown, used and expired codes give undefined alike.
 */
export async function redeemSignInCode(q: Queries, code: string, now = new Date()): Promise<RedeemedSignIn | undefined> {
  const at = now.toISOString();
  const row = await q.first(
    q.k
      .selectFrom('signin_codes as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .select([
        'c.id',
        'c.expires_at',
        'c.used_at',
        'c.token_idle_expiry_seconds',
        'c.token_role',
        'a.id as account_id',
        'a.name',
        'a.warehouses_enabled',
      ])
      .where('c.code_hash', '=', hashSecret(code)),
  );
  if (!row || row.used_at !== null || row.expires_at <= at) return undefined;
  const { changes } = await q.run(
    q.k.updateTable('signin_codes').set({ used_at: at }).where('id', '=', row.id).where('used_at', 'is', null),
  );
  if (changes !== 1) return undefined;
  const account = { id: row.account_id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1 };
  const idle = row.token_idle_expiry_seconds ?? DEFAULT_SIGNIN_TOKEN_IDLE_DAYS * DAY_SECONDS;
  // Codes made before roles (null) sign in as the scanner UI did then: a manager.
  const role = isSignInRole(row.token_role) ? row.token_role : DEFAULT_SIGNIN_ROLE;
  const { key } = await insertToken(q, account, SIGNIN_TOKEN_LABEL, role, idle === 0 ? null : idle);
  return { account, token: key, role };
}
