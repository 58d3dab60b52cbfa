// API tokens: created for an account with a role, stored only as a SHA-256 hash, listed, revoked,
// given another role, and resolved to the calling account and role on every request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Role, type TokenRole, isRole } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { type Account, findAccountByName } from './accounts.ts';
import { actFor, clientLine, tokenLine } from './acting-account.ts';
import { type Engine, type Param, type Queries, statement } from './engine.ts';
import { hashSecret } from './secret-hash.ts';

const KEY_PREFIX = 'bi_';
const PREFIX_SHOWN = KEY_PREFIX.length + 6;

export interface TokenInfo {
  id: number;
  account: string;
  label: string | null;
  /** What the token may call (shared/roles.ts); null for a stored value that is no role (the token is refused). */
  role: Role | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  /** Recorded for tokens that expire when idle (at most every TOUCH_EVERY_MS); null otherwise or before first use. */
  lastUsedAt: string | null;
  /** Seconds without use after which the token is refused; null: it never expires. */
  idleExpirySeconds: number | null;
  /** When it expires if unused until then (or expired); null when it never does. */
  expiresAt: string | null;
}

/** How often a token that expires when idle records its use: an expiry is exact to within this. */
export const TOUCH_EVERY_MS = 3600_000;

/** When a token of `idleSeconds` last used (or created) at `since` expires; null when it never does. */
function idleExpiry(since: string, idleSeconds: number | null): string | null {
  return idleSeconds === null ? null : new Date(Date.parse(since) + idleSeconds * 1000).toISOString();
}

/** The account a request acts for, the token it used (recorded in the stock history) and that token's role. */
export interface Caller extends Account {
  tokenId: number;
  /** The token's label: how the audit log names a caller that is no person. */
  tokenLabel?: string | null;
  role: Role;
  /** The person signed in with this token on a shared scanner (docs/API.md, "People"); null otherwise. */
  person?: { id: number; name: string } | null;
}

/** Marked `unknownAccount`, so a command can say which database it looked in (cli/database-option.ts). */
export const noSuchAccount = (name: string) =>
  Object.assign(badRequest(`No account named "${name}". Import a catalogue that defines it first.`), { unknownAccount: true });

/** Creates a token inside the transaction `q`; the returned key is shown once and never stored. */
export async function insertToken(
  q: Queries,
  account: Account,
  label: string | null,
  role: Role,
  idleExpirySeconds: number | null = null,
  personId: number | null = null,
): Promise<{ id: number; key: string }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const row = await q.first(
    q.k
      .insertInto('api_tokens')
      .values({
        account_id: account.id,
        label,
        key_hash: hashSecret(key),
        key_prefix: key.slice(0, PREFIX_SHOWN),
        created_at: new Date().toISOString(),
        idle_expiry_seconds: idleExpirySeconds,
        role,
        person_id: personId,
      })
      .returning('id'),
  );
  return { id: row!.id, key };
}

export async function createToken(
  q: Queries,
  accountName: string,
  label: string | null,
  role: TokenRole,
): Promise<{ id: number; key: string }> {
  const account = await findAccountByName(q, accountName);
  if (!account) throw noSuchAccount(accountName);
  return insertToken(q, account, label, role);
}

export async function listTokens(q: Queries, accountName?: string): Promise<TokenInfo[]> {
  let query = q.k
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select([
      't.id',
      'a.name as account',
      't.label',
      't.role',
      't.key_prefix',
      't.created_at',
      't.revoked_at',
      't.last_used_at',
      't.idle_expiry_seconds',
    ])
    // A person's sign-ins on shared scanners are theirs (`person list` counts them), not tokens to manage.
    .where('t.person_id', 'is', null)
    .orderBy('t.id');
  if (accountName !== undefined) query = query.where('a.name', '=', accountName);
  return (await q.all(query)).map((row) => ({
    id: row.id,
    account: row.account,
    label: row.label,
    role: isRole(row.role) ? row.role : null,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    idleExpirySeconds: row.idle_expiry_seconds,
    expiresAt: idleExpiry(row.last_used_at ?? row.created_at, row.idle_expiry_seconds),
  }));
}

/** Revokes a token by id; false when there is no such token or it was already revoked. */
export async function revokeToken(q: Queries, id: number): Promise<boolean> {
  const { changes } = await q.run(
    q.k.updateTable('api_tokens').set({ revoked_at: new Date().toISOString() }).where('id', '=', id).where('revoked_at', 'is', null),
  );
  return changes === 1;
}

/** Gives a token another role (never `full`); false when there is no such token or it is revoked. */
export async function setTokenRole(q: Queries, id: number, role: TokenRole): Promise<boolean> {
  const { changes } = await q.run(q.k.updateTable('api_tokens').set({ role }).where('id', '=', id).where('revoked_at', 'is', null));
  return changes === 1;
}

/** Revokes a token again at the time it was first revoked (a restore keeping revocations made since the backup). */
export async function reapplyRevocation(q: Queries, id: number, prefix: string, revokedAt: string): Promise<boolean> {
  const { changes } = await q.run(
    q.k
      .updateTable('api_tokens')
      .set({ revoked_at: revokedAt })
      .where('id', '=', id)
      .where('key_prefix', '=', prefix)
      .where('revoked_at', 'is', null),
  );
  return changes === 1;
}

const tokenByHash = statement('tokens.byHash', (k, p: Param<{ hash: string }>) =>
  k
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('people as p', 'p.id', 't.person_id')
    .select([
      't.id as token_id',
      't.label',
      't.person_id',
      'p.name as person_name',
      't.key_hash',
      't.revoked_at',
      't.created_at',
      't.last_used_at',
      't.idle_expiry_seconds',
      't.role',
      'a.id',
      'a.name',
      'a.warehouses_enabled',
      'a.gtin_equivalence',
      'a.person_idle_minutes',
    ])
    .where('t.key_hash', '=', p('hash')),
);

const touchToken = statement('tokens.touch', (k, p: Param<{ id: number; at: string }>) =>
  k
    .updateTable('api_tokens')
    .set({ last_used_at: p('at') })
    .where('id', '=', p('id')),
);

interface KnownToken {
  caller: Caller;
  /** Milliseconds since the epoch of the last recorded use (or creation). */
  usedAt: number;
  idleMs: number | null;
}

/** The most tokens TokenLines remembers; past it, it starts again (a token then waits once in its client's line). */
const REMEMBERED_TOKENS = 10_000;

/**
 * Which line a token's look-up waits in (PostgreSQL's connections: acting-account.ts): it is made
 * before any account is known, and on a busy server most look-ups go to the database, as any write
 * drops what engine.kept keeps. A token that authenticated before waits in a line of its own; any
 * other token in its client's line. In one line for all, one account's burst of 40 held another's
 * scanner to 18th-19th of 41; in a line per token, a client making up tokens would get as many lines
 * as it made up.
 */
export class TokenLines {
  private readonly valid = new Set<string>();

  lineOf(hash: string, client: string | undefined): number {
    return client === undefined || this.valid.has(hash) ? tokenLine(hash) : clientLine(client);
  }

  authenticated(hash: string): void {
    if (this.valid.has(hash)) return;
    if (this.valid.size >= REMEMBERED_TOKENS) this.valid.clear();
    this.valid.add(hash);
  }
}

/** The token stored under `hash`, with its account, or undefined when it lets nothing in. */
async function lookUpToken(q: Queries, hash: string): Promise<KnownToken | undefined> {
  const row = await q.first(tokenByHash, { hash });
  // The lookup is by hash, so timing says nothing about the key; compare once more in constant time.
  // A stored role this version does not know (or none) lets nothing in.
  if (!row || row.revoked_at !== null || !isRole(row.role)) return undefined;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  const caller = Object.freeze({
    id: row.id,
    name: row.name,
    warehousesEnabled: row.warehouses_enabled === 1,
    gtinEquivalence: row.gtin_equivalence === 1,
    personIdleMinutes: row.person_idle_minutes,
    tokenId: row.token_id,
    tokenLabel: row.label,
    role: row.role,
    person: row.person_id === null ? null : { id: row.person_id, name: row.person_name ?? `person ${row.person_id}` },
  });
  return {
    caller,
    usedAt: Date.parse(row.last_used_at ?? row.created_at),
    idleMs: row.idle_expiry_seconds === null ? null : row.idle_expiry_seconds * 1000,
  };
}

/**
 * Resolves a presented key to its account and role, or undefined for an unknown, revoked or idle-expired
 * key (or one whose stored role is no role).
 * Runs on every request, so the lookup is kept until the database changes in any way (engine.kept):
 * a token revoked from the command line (another process) is refused at once. Expiry depends on the
 * clock, so it is checked outside what is kept. A token that expires when idle records its use at
 * most every TOUCH_EVERY_MS (one small write an hour per token); if that write cannot be made right
 * now (disk full, read-only, busy) the request goes on, and the use is recorded next time.
 */
export async function authenticate(
  engine: Engine,
  key: string,
  lines: TokenLines,
  client: string | undefined,
  now = Date.now(),
): Promise<Caller | undefined> {
  const hash = hashSecret(key);
  const known = await actFor(lines.lineOf(hash, client), () => engine.kept(`token:${hash}`, (q) => lookUpToken(q, hash)));
  if (!known) return undefined;
  if (known.idleMs !== null) {
    if (now - known.usedAt >= known.idleMs) return undefined;
    if (now - known.usedAt >= Math.min(TOUCH_EVERY_MS, known.idleMs / 10)) {
      await engine.write((q) => q.run(touchToken, { id: known.caller.tokenId, at: new Date(now).toISOString() })).catch(() => undefined);
    }
  }
  lines.authenticated(hash);
  return known.caller;
}
