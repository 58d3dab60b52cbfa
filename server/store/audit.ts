// The audit log (docs/API.md, "Audit log"): one entry per change that is not a movement of stock (the
// stock history has those), with who made it. Append-only: written in the transaction of the change
// it records, read in pages; nothing here updates or deletes an entry, and no endpoint writes one.
import { hostname, userInfo } from 'node:os';
import type { AuditAction, AuditEntry, AuditPage, AuditQuery } from '../../shared/index.ts';
import { AUDIT_PATH, MAX_ACTOR_LENGTH, actorText, commandLineActorName, tokenActorName } from '../../shared/index.ts';
import type { Queries } from './engine.ts';

/** Who did something: a person on a shared scanner, a token, or the command line on the server computer. */
export interface Actor {
  name: string;
  personId?: number | null;
  tokenId?: number | null;
}

/** What a caller of the API is called in the audit log: the person, else the token's label, else `token <id>`. */
export function actorOf(caller: { tokenId: number; tokenLabel?: string | null; person?: { id: number; name: string } | null }): Actor {
  if (caller.person) return { name: actorText(caller.person.name, MAX_ACTOR_LENGTH), personId: caller.person.id, tokenId: caller.tokenId };
  return { name: actorText(caller.tokenLabel || tokenActorName(caller.tokenId), MAX_ACTOR_LENGTH), tokenId: caller.tokenId };
}

/** The command line on the server computer, by the operating system's user who ran it. */
export function commandLineActor(): Actor {
  let user = 'unknown user';
  try {
    user = userInfo().username;
  } catch {
    // No user name (a container without one): the host still says where.
  }
  return { name: actorText(commandLineActorName(`${user}@${hostname()}`), MAX_ACTOR_LENGTH) };
}

export interface AuditRecord {
  action: AuditAction;
  subject: string;
  detail?: Record<string, unknown>;
}

/** Appends one entry, inside the transaction of the change it records. */
export async function recordAudit(q: Queries, accountId: number, actor: Actor, record: AuditRecord, at = new Date()): Promise<void> {
  await q.run(
    q.k.insertInto('audit_log').values({
      account_id: accountId,
      at: at.toISOString(),
      actor: actor.name,
      person_id: actor.personId ?? null,
      token_id: actor.tokenId ?? null,
      action: record.action,
      subject: record.subject,
      detail: record.detail === undefined ? null : JSON.stringify(record.detail),
    }),
  );
}

/** One page of the account's entries, newest first, before the entry `before`. */
export async function readAudit(q: Queries, accountId: number, query: AuditQuery): Promise<AuditPage> {
  let select = q.k
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(query.limit + 1);
  if (query.before !== undefined) select = select.where('id', '<', query.before);
  if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
  if (query.action !== undefined) select = select.where('action', '=', query.action);
  // Instants are compared as ISO text in UTC, as they are stored.
  if (query.since !== undefined) select = select.where('at', '>=', new Date(query.since).toISOString());
  if (query.until !== undefined) select = select.where('at', '<', new Date(query.until).toISOString());
  const rows = await q.all(select);
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  const results: AuditEntry[] = page.map((row) => ({
    id: row.id,
    at: row.at,
    actor: row.actor,
    person: row.person_id,
    token: row.token_id,
    action: row.action as AuditAction,
    subject: row.subject,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  }));
  const nextCursor = more ? page.at(-1)!.id : null;
  let next: string | null = null;
  if (nextCursor !== null) {
    const params = new URLSearchParams();
    for (const key of ['actor', 'action', 'since', 'until'] as const) if (query[key] !== undefined) params.set(key, String(query[key]));
    params.set('limit', String(query.limit));
    params.set('before', String(nextCursor));
    next = `${AUDIT_PATH}?${params.toString()}`;
  }
  return { results, next_cursor: nextCursor, next };
}
