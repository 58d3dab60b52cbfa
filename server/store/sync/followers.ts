// Who may speak for an origin (docs/SYNC.md, "Who may speak for an origin"): the followers registered
// with this instance, which of them owns each origin it was brought, the account's bound on origins,
// and, on the follower's side, the origins a pulled page may carry. Checked before a batch is
// applied, in its transaction: a refusal applies nothing, and a claim made by a batch that is then
// refused is rolled back with it.
import { MAX_ORIGINS_PER_ACCOUNT, type SyncMovement, syncMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import { type Param, type Queries, statement } from '../engine.ts';
import type { Caller } from '../tokens.ts';
import { heldOf, valuesList } from './held-vector.ts';

export interface FollowerRegistration {
  instance: string;
  label: string;
  registered_at: string;
}

const followerOfToken = statement('sync.followerOfToken', (k, p: Param<{ accountId: number; tokenId: number }>) =>
  k
    .selectFrom('sync_followers')
    .select(['instance', 'label'])
    .where('account_id', '=', p('accountId'))
    .where('token_id', '=', p('tokenId')),
);

/** The owner of an origin this instance's upstream sends it (sync_origins.owner). */
export const UPSTREAM = '(upstream)';
/** The owner of an origin held from before owners were kept: the first follower to push it claims it. */
export const UNOWNED = '(unowned)';

/**
 * The owners of the origins listed that have one. Joined from the list as a VALUES table, as heldOf
 * reads: PostgreSQL's plan for a prepared `origin IN (…500 parameters)` compared every row of the
 * table with every parameter once it had thousands of rows (300 ms a push in a flood of origins).
 */
const originOwners = statement('sync.originOwners', (k, p: Param<{ accountId: number; origins: string[] }>) =>
  k
    .selectFrom(valuesList(p.list('origins')).as('o'))
    .innerJoin('sync_origins as s', (join) => join.onRef('s.origin', '=', 'o.column1').on('s.account_id', '=', p('accountId')))
    .select(['s.origin', 's.owner']),
);

const followersAmong = statement('sync.followersAmong', (k, p: Param<{ accountId: number; instances: string[] }>) =>
  k
    .selectFrom('sync_followers')
    .select(['instance', 'label'])
    .where('account_id', '=', p('accountId'))
    .where('instance', 'in', p.list('instances')),
);

const originCount = statement('sync.originCount', (k, p: Param<{ accountId: number }>) =>
  k
    .selectFrom('sync_origins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', p('accountId')),
);

const upstreamOfAccount = statement('sync.upstreamOfAccount', (k, p: Param<{ accountId: number }>) =>
  k.selectFrom('sync_links').select('upstream_instance').where('account_id', '=', p('accountId')),
);

/** Whether a token still works: not revoked, and not expired for want of use. */
async function tokenValid(q: Queries, tokenId: number, now: number): Promise<boolean> {
  const row = await q.first(
    q.k.selectFrom('api_tokens').select(['revoked_at', 'created_at', 'last_used_at', 'idle_expiry_seconds']).where('id', '=', tokenId),
  );
  if (!row || row.revoked_at !== null) return false;
  return row.idle_expiry_seconds === null || now - Date.parse(row.last_used_at ?? row.created_at) < row.idle_expiry_seconds * 1000;
}

/**
 * Registers the calling token's follower `instance` under `label`. The same token again updates the
 * label. Refused: this instance's own id (422); an instance registered by another token that still
 * works (409: a replaced computer's token is revoked first); a token that registered another instance
 * (409: a token speaks for one follower, so a push is told apart by its token).
 */
export async function registerFollower(
  q: Queries,
  caller: Caller,
  instance: string,
  label: string,
  own: string,
  now: number,
): Promise<FollowerRegistration> {
  if (instance === own) throw apiError(422, syncMessages.followerOfItself(instance), { code: 'follower_is_this_instance' });
  const at = new Date(now).toISOString();
  const ofToken = await q.first(followerOfToken, { accountId: caller.id, tokenId: caller.tokenId });
  if (ofToken && ofToken.instance !== instance)
    throw apiError(409, syncMessages.tokenTaken(ofToken.instance, ofToken.label), { code: 'token_registered_for_another' });
  const existing = await q.first(
    q.k
      .selectFrom('sync_followers')
      .select(['token_id', 'label', 'registered_at'])
      .where('account_id', '=', caller.id)
      .where('instance', '=', instance),
  );
  if (!existing) {
    await q.run(
      q.k.insertInto('sync_followers').values({ account_id: caller.id, instance, label, token_id: caller.tokenId, registered_at: at }),
    );
    return { instance, label, registered_at: at };
  }
  if (existing.token_id !== caller.tokenId && (await tokenValid(q, existing.token_id, now)))
    throw apiError(409, syncMessages.instanceTaken(instance, existing.label), { code: 'instance_registered' });
  await q.run(
    q.k
      .updateTable('sync_followers')
      .set({ label, token_id: caller.tokenId })
      .where('account_id', '=', caller.id)
      .where('instance', '=', instance),
  );
  return { instance, label, registered_at: existing.registered_at };
}

/**
 * Whether the calling token may push the origins of `movements` here, before anything of the batch is
 * applied: it must have registered a follower (403), and each origin must be that follower's — its own
 * instance, or one it brought here first (a shop relaying its laptops). Never this instance's own id,
 * one owned by another follower or another follower's own instance, or one this instance's upstream
 * sends it (403). An origin new here is claimed for the follower, and counts towards
 * MAX_ORIGINS_PER_ACCOUNT (422 naming the first over); one held from before owners were kept is
 * claimed too.
 */
export async function checkPushedOrigins(
  q: Queries,
  caller: Caller,
  movements: readonly SyncMovement[],
  own: string,
  now: number,
): Promise<void> {
  const follower = await q.first(followerOfToken, { accountId: caller.id, tokenId: caller.tokenId });
  if (!follower) throw apiError(403, syncMessages.notRegistered, { code: 'follower_not_registered' });
  // What a movement's origin had seen names instances the account holds: no more of them than it may have.
  for (const movement of movements) {
    if (movement.seen === null) continue;
    let names = 0;
    for (const _ in movement.seen) names++;
    if (names > MAX_ORIGINS_PER_ACCOUNT)
      throw apiError(422, syncMessages.movementRefused(movement.id, syncMessages.seenTooLong(names, MAX_ORIGINS_PER_ACCOUNT)));
  }
  const origins = [...new Set(movements.map((m) => m.origin))];
  const refuse = (origin: string, owner: string) =>
    apiError(403, syncMessages.originOfAnother(origin, owner), { code: 'origin_not_owned', more: { origin } });
  const owners = new Map((await q.all(originOwners, { accountId: caller.id, origins })).map((row) => [row.origin, row.owner]));
  const claimable = origins.filter((origin) => (owners.get(origin) ?? UNOWNED) === UNOWNED && origin !== follower.instance);
  const otherFollowers = new Map(
    claimable.length === 0
      ? []
      : (await q.all(followersAmong, { accountId: caller.id, instances: claimable })).map((row) => [row.instance, row.label]),
  );
  const upstream =
    claimable.length === 0 ? null : ((await q.first(upstreamOfAccount, { accountId: caller.id }))?.upstream_instance ?? null);
  for (const origin of origins) {
    if (origin === own) throw apiError(403, syncMessages.originIsOwn(origin), { code: 'origin_not_owned', more: { origin } });
    const owner = owners.get(origin) ?? UNOWNED;
    if (owner === follower.instance) continue;
    if (owner === UPSTREAM) throw refuse(origin, syncMessages.ownerUpstream);
    if (owner !== UNOWNED) throw refuse(origin, syncMessages.ownerFollower(owner, (await labelOf(q, caller, owner)) ?? owner));
    if (origin === follower.instance) continue;
    if (otherFollowers.has(origin)) throw refuse(origin, syncMessages.ownerFollower(origin, otherFollowers.get(origin)!));
    if (origin === upstream) throw refuse(origin, syncMessages.ownerUpstream);
  }
  // Every origin held here but this instance's own has its row: one without is new to the account.
  const arriving = origins.filter((origin) => !owners.has(origin));
  if (arriving.length > 0) {
    const count = Number((await q.first(originCount, { accountId: caller.id }))?.n ?? 0) + 1; // and this instance's own
    if (count + arriving.length > MAX_ORIGINS_PER_ACCOUNT) {
      const over = arriving[Math.max(0, MAX_ORIGINS_PER_ACCOUNT - count)]!;
      throw apiError(422, syncMessages.originLimit(over, caller.name, MAX_ORIGINS_PER_ACCOUNT), {
        code: 'origin_limit',
        more: { origin: over },
      });
    }
  }
  const at = new Date(now).toISOString();
  const claims = origins.filter((origin) => owners.get(origin) === UNOWNED);
  if (claims.length > 0)
    await q.run(
      q.k
        .updateTable('sync_origins')
        .set({ owner: follower.instance, claimed_at: at })
        .where('account_id', '=', caller.id)
        .where('origin', 'in', claims),
    );
  await insertOrigins(q, caller.id, arriving, follower.instance, at);
}

/** Rows of `origins` owned by `owner`, a hundred per statement. */
async function insertOrigins(q: Queries, accountId: number, origins: readonly string[], owner: string, at: string): Promise<void> {
  for (let i = 0; i < origins.length; i += 100)
    await q.run(
      q.k
        .insertInto('sync_origins')
        .values(origins.slice(i, i + 100).map((origin) => ({ account_id: accountId, origin, owner, claimed_at: at }))),
    );
}

async function labelOf(q: Queries, account: Account, instance: string): Promise<string | undefined> {
  return (
    await q.first(q.k.selectFrom('sync_followers').select('label').where('account_id', '=', account.id).where('instance', '=', instance))
  )?.label;
}

/** Movements of this instance's own origin in a pulled page that it never made (more than it holds of itself). */
export class ForgedOwnMovements extends Error {
  readonly count: number;
  constructor(count: number, message: string) {
    super(message);
    this.count = count;
  }
}

/** Where a pulled page comes from: the upstream by name, and whether this is a link's first round (`takeOwn`). */
export interface PulledFrom {
  upstreamName: string;
  /**
   * The first round after `sync link` takes what the upstream holds of this instance's own
   * movements as its own: a database restored from a backup gets back what it had made after the
   * backup (docs/SYNC.md, "Restoring a backup"). Linking is a person's decision; afterwards, such
   * movements are an alarm.
   */
  takeOwn: boolean;
}

/**
 * A page pulled from the upstream, before it is applied. Movements said to be made here that this
 * instance never made (its own origin, past the highest it holds of itself) are refused, loudly:
 * someone pushed with this instance's id upstream, and applying them would take its next numbers
 * (ForgedOwnMovements); but see PulledFrom.takeOwn. The origins the page brings first, or brings new
 * movements of while nobody owned them, are marked as the upstream's: no follower of this instance
 * may push them here.
 */
export async function checkPulledOrigins(
  q: Queries,
  account: Account,
  movements: readonly SyncMovement[],
  own: string,
  from: PulledFrom,
  now: number,
): Promise<void> {
  const highest = new Map<string, number>();
  for (const m of movements) highest.set(m.origin, Math.max(highest.get(m.origin) ?? 0, m.seq));
  if (highest.has(own) && !from.takeOwn) {
    const mine = (await heldOf(q, account.id, [own]))[own]!;
    const forged = movements.filter((m) => m.origin === own && m.seq > mine).length;
    if (forged > 0) throw new ForgedOwnMovements(forged, syncMessages.forgedOwnMovements(from.upstreamName, forged, own));
  }
  highest.delete(own);
  if (highest.size === 0) return;
  const owners = new Map(
    (await q.all(originOwners, { accountId: account.id, origins: [...highest.keys()] })).map((row) => [row.origin, row.owner]),
  );
  const at = new Date(now).toISOString();
  await insertOrigins(
    q,
    account.id,
    [...highest.keys()].filter((origin) => !owners.has(origin)),
    UPSTREAM,
    at,
  );
  const unowned = [...highest.keys()].filter((origin) => owners.get(origin) === UNOWNED);
  if (unowned.length === 0) return;
  const held = await heldOf(q, account.id, unowned);
  const brought = unowned.filter((origin) => highest.get(origin)! > held[origin]!);
  if (brought.length > 0)
    await q.run(
      q.k
        .updateTable('sync_origins')
        .set({ owner: UPSTREAM, claimed_at: at })
        .where('account_id', '=', account.id)
        .where('origin', 'in', brought),
    );
}
