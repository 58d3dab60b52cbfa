// People of an account on shared scanner PCs (docs/API.md, "People"): added with a role, signing in
// with a badge (a Code 128 of a random secret, stored only as its SHA-256) and/or a PIN (stored only as
// a salted scrypt hash, secret-hash.ts). A sign-in is a token of the person (`api_tokens.person_id`)
// with the person's role that expires after the account's idle minutes unused. Revoking a person or a
// badge ends the person's sign-ins at once. Every change is written to the audit log in the same
// transaction.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  BADGE_PREFIX,
  BADGE_SECRET_LENGTH,
  type Person,
  type PersonRole,
  type SignInPerson,
  isPersonRole,
  peopleMessages,
} from '../../shared/index.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Account } from './accounts.ts';
import { type Actor, recordAudit } from './audit.ts';
import type { Queries } from './engine.ts';
import type { PersonTable } from './schema.ts';
import { hashSecret } from './secret-hash.ts';
import { insertToken } from './tokens.ts';

/**
 * A new badge: the prefix that tells it from a barcode, then BADGE_SECRET_LENGTH random digits (80
 * bits), from 128 random bits: the remainder's bias is below 2^-48.
 */
export function newBadge(): string {
  const random = BigInt(`0x${randomBytes(16).toString('hex')}`) % 10n ** BigInt(BADGE_SECRET_LENGTH);
  return BADGE_PREFIX + random.toString().padStart(BADGE_SECRET_LENGTH, '0');
}

/** A PIN as stored: its scrypt hash and salt (computed outside the transaction), or null for none. */
export interface StoredPin {
  hash: string;
  salt: string;
}

type PersonRow = Selectable<PersonTable>;

/** Sign-ins of the person that have not been revoked and have not gone idle past their expiry. */
async function signedInCounts(q: Queries, accountId: number, now: number): Promise<Map<number, number>> {
  const rows = await q.all(
    q.k
      .selectFrom('api_tokens')
      .select(['person_id', 'created_at', 'last_used_at', 'idle_expiry_seconds'])
      .where('account_id', '=', accountId)
      .where('person_id', 'is not', null)
      .where('revoked_at', 'is', null),
  );
  const counts = new Map<number, number>();
  for (const row of rows) {
    const since = Date.parse(row.last_used_at ?? row.created_at);
    if (row.idle_expiry_seconds !== null && now - since >= row.idle_expiry_seconds * 1000) continue;
    counts.set(row.person_id!, (counts.get(row.person_id!) ?? 0) + 1);
  }
  return counts;
}

function toPerson(row: PersonRow, signedIn: number): Person {
  return {
    id: row.id,
    name: row.name,
    role: isPersonRole(row.role) ? row.role : 'counter',
    badge: row.badge_hash !== null,
    pin: row.pin_hash !== null,
    signed_in: row.revoked_at === null ? signedIn : 0,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export async function listPeople(q: Queries, accountId: number, now = Date.now()): Promise<Person[]> {
  const rows = await q.all(q.k.selectFrom('people').selectAll().where('account_id', '=', accountId).orderBy('id'));
  const counts = await signedInCounts(q, accountId, now);
  return rows.map((row) => toPerson(row, counts.get(row.id) ?? 0));
}

async function personRow(q: Queries, accountId: number, id: number): Promise<PersonRow> {
  const row = await q.first(q.k.selectFrom('people').selectAll().where('account_id', '=', accountId).where('id', '=', id));
  if (!row) throw notFound(peopleMessages.noSuchPerson(id), 'person_not_found');
  return row;
}

async function activePersonRow(q: Queries, accountId: number, id: number): Promise<PersonRow> {
  const row = await personRow(q, accountId, id);
  if (row.revoked_at !== null) throw badRequest(peopleMessages.personRevoked(row.name), 'person_revoked');
  return row;
}

async function readPerson(q: Queries, accountId: number, id: number): Promise<Person> {
  const row = await personRow(q, accountId, id);
  return toPerson(row, (await signedInCounts(q, accountId, Date.now())).get(id) ?? 0);
}

/** Ends every sign-in of the person (a revoked person or badge, a new badge): their tokens are revoked. */
async function endSignIns(q: Queries, personId: number, at: string): Promise<number> {
  const { changes } = await q.run(
    q.k.updateTable('api_tokens').set({ revoked_at: at }).where('person_id', '=', personId).where('revoked_at', 'is', null),
  );
  return changes;
}

const subjectOf = (row: { id: number; name: string }) => `person ${row.id} (${row.name})`;

export interface NewPerson {
  name: string;
  role: PersonRole;
  pin?: StoredPin | undefined;
  badge: boolean;
}

/** Adds a person; the badge (when asked for) is answered this once, to be printed. */
export async function addPerson(
  q: Queries,
  account: Account,
  actor: Actor,
  person: NewPerson,
): Promise<{ person: Person; badge: string | null }> {
  const clash = await q.first(
    q.k
      .selectFrom('people')
      .select('id')
      .where('account_id', '=', account.id)
      .where('name', '=', person.name)
      .where('revoked_at', 'is', null),
  );
  if (clash) throw badRequest(peopleMessages.nameTaken(person.name), 'person_name_taken');
  const badge = person.badge ? newBadge() : null;
  const row = await q.first(
    q.k
      .insertInto('people')
      .values({
        account_id: account.id,
        name: person.name,
        role: person.role,
        badge_hash: badge === null ? null : hashSecret(badge),
        pin_hash: person.pin?.hash ?? null,
        pin_salt: person.pin?.salt ?? null,
        created_at: new Date().toISOString(),
        revoked_at: null,
      })
      .returning('id'),
  );
  const id = row!.id;
  await recordAudit(q, account.id, actor, {
    action: 'person.add',
    subject: subjectOf({ id, name: person.name }),
    detail: { role: person.role, badge: badge !== null, pin: person.pin !== undefined },
  });
  return { person: await readPerson(q, account.id, id), badge };
}

/** Prints a new badge for the person: the old one stops working, and so do the sign-ins made so far. */
export async function replaceBadge(q: Queries, account: Account, actor: Actor, id: number): Promise<{ person: Person; badge: string }> {
  const row = await activePersonRow(q, account.id, id);
  const badge = newBadge();
  const at = new Date().toISOString();
  await q.run(
    q.k
      .updateTable('people')
      .set({ badge_hash: hashSecret(badge) })
      .where('id', '=', id),
  );
  const ended = await endSignIns(q, id, at);
  await recordAudit(q, account.id, actor, {
    action: 'person.badge',
    subject: subjectOf(row),
    detail: { replaced: row.badge_hash !== null, signed_out: ended },
  });
  return { person: await readPerson(q, account.id, id), badge };
}

/** A lost badge: it stops working at once, and the sign-ins made so far end (someone may have used it). */
export async function revokeBadge(q: Queries, account: Account, actor: Actor, id: number): Promise<Person> {
  const row = await personRow(q, account.id, id);
  if (row.badge_hash === null) throw badRequest(peopleMessages.noBadge(row.name), 'person_has_no_badge');
  await q.run(q.k.updateTable('people').set({ badge_hash: null }).where('id', '=', id));
  const ended = await endSignIns(q, id, new Date().toISOString());
  await recordAudit(q, account.id, actor, { action: 'person.badge_revoke', subject: subjectOf(row), detail: { signed_out: ended } });
  return readPerson(q, account.id, id);
}

export interface PersonChange {
  role?: PersonRole | undefined;
  /** A new PIN, or null to remove it. */
  pin?: StoredPin | null | undefined;
}

/** A new role (applied to the person's sign-ins at their next request) and/or a new or no PIN. */
export async function changePerson(q: Queries, account: Account, actor: Actor, id: number, change: PersonChange): Promise<Person> {
  const row = await activePersonRow(q, account.id, id);
  if (change.role !== undefined && change.role !== row.role) {
    await q.run(q.k.updateTable('people').set({ role: change.role }).where('id', '=', id));
    await q.run(q.k.updateTable('api_tokens').set({ role: change.role }).where('person_id', '=', id).where('revoked_at', 'is', null));
    await recordAudit(q, account.id, actor, {
      action: 'person.role',
      subject: subjectOf(row),
      detail: { from: row.role, to: change.role },
    });
  }
  if (change.pin !== undefined) {
    await q.run(
      q.k
        .updateTable('people')
        .set({ pin_hash: change.pin?.hash ?? null, pin_salt: change.pin?.salt ?? null })
        .where('id', '=', id),
    );
    await recordAudit(q, account.id, actor, { action: 'person.pin', subject: subjectOf(row), detail: { pin: change.pin !== null } });
  }
  return readPerson(q, account.id, id);
}

/** The person can no longer sign in (badge and PIN), and is signed out everywhere; their name stays in the history. */
export async function revokePerson(q: Queries, account: Account, actor: Actor, id: number): Promise<Person> {
  const row = await personRow(q, account.id, id);
  if (row.revoked_at !== null) return toPerson(row, 0);
  const at = new Date().toISOString();
  await q.run(q.k.updateTable('people').set({ revoked_at: at, badge_hash: null, pin_hash: null, pin_salt: null }).where('id', '=', id));
  const ended = await endSignIns(q, id, at);
  await recordAudit(q, account.id, actor, { action: 'person.revoke', subject: subjectOf(row), detail: { signed_out: ended } });
  return readPerson(q, account.id, id);
}

/** The people who can sign in on a shared scanner of the account, and whether each has a PIN. */
export async function signInPeople(q: Queries, accountId: number): Promise<SignInPerson[]> {
  const rows = await q.all(
    q.k
      .selectFrom('people')
      .select(['id', 'name', 'pin_hash'])
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('name')
      .orderBy('id'),
  );
  return rows.map((row) => ({ id: row.id, name: row.name, pin: row.pin_hash !== null }));
}

/** The active person of the account whose badge this is (by hash), if any: another account's badge is nobody here. */
export async function personByBadge(q: Queries, accountId: number, badgeHash: string): Promise<PersonRow | undefined> {
  return q.first(
    q.k
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('badge_hash', '=', badgeHash)
      .where('revoked_at', 'is', null),
  );
}

/** The active person of the account with this id, with their PIN's hash, for checking a PIN outside the transaction. */
export async function personForPin(q: Queries, accountId: number, id: number): Promise<PersonRow | undefined> {
  return q.first(
    q.k.selectFrom('people').selectAll().where('account_id', '=', accountId).where('id', '=', id).where('revoked_at', 'is', null),
  );
}

export interface PersonSignIn {
  person: { id: number; name: string };
  role: PersonRole;
  token: string;
  idleMinutes: number;
}

/**
 * Signs the person in on a shared scanner: a new token of theirs with their role, expiring after the
 * account's idle minutes unused. `expected` is the row read before the PIN was checked (or found by
 * the badge): if the person was revoked or their PIN changed meanwhile, nobody is signed in.
 */
export async function signInPerson(q: Queries, account: Account, expected: PersonRow): Promise<PersonSignIn | undefined> {
  const row = await personForPin(q, account.id, expected.id);
  if (!row || row.pin_hash !== expected.pin_hash || !isPersonRole(row.role)) return undefined;
  const minutes = (await q.first(q.k.selectFrom('accounts').select('person_idle_minutes').where('id', '=', account.id)))!
    .person_idle_minutes;
  const { key } = await insertToken(q, account, `${row.name} (shared scanner)`, row.role, minutes * 60, row.id);
  return { person: { id: row.id, name: row.name }, role: row.role, token: key, idleMinutes: minutes };
}

/** How long a shared scanner keeps its person signed in without use; applies to the sign-ins already made too. */
export async function setPersonIdleMinutes(q: Queries, account: Account, actor: Actor, minutes: number): Promise<void> {
  const before = (await q.first(q.k.selectFrom('accounts').select('person_idle_minutes').where('id', '=', account.id)))!
    .person_idle_minutes;
  await q.run(q.k.updateTable('accounts').set({ person_idle_minutes: minutes }).where('id', '=', account.id));
  const people = q.k.selectFrom('people').select('id').where('account_id', '=', account.id);
  await q.run(
    q.k
      .updateTable('api_tokens')
      .set({ idle_expiry_seconds: minutes * 60 })
      .where('person_id', 'in', people)
      .where('revoked_at', 'is', null),
  );
  if (before !== minutes)
    await recordAudit(q, account.id, actor, {
      action: 'account.settings',
      subject: `account ${account.name}`,
      detail: { person_idle_minutes: { from: before, to: minutes } },
    });
}
