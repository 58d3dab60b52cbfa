// The store's side of sync between instances (docs/SYNC.md): what an instance holds (its version
// vector), pages of its movements for a downstream instance to pull, applying a batch of another
// instance's movements exactly once and in order, the catalogue it hands down, its links to an
// upstream, and the conflicts it has seen.
import {
  CLOCK_WARNING_MS,
  type Conflict,
  MAX_CLOCK_AHEAD_MS,
  type MovementKind,
  type SyncMovement,
  type SyncStatus,
  type VersionVector,
  syncMessages,
} from '../../shared/index.ts';
import { apiError } from '../errors.ts';
import type { Account } from './accounts.ts';
import { type Param, type Queries, statement } from './engine.ts';
import { ABSOLUTE_KINDS, isAbsolute, resolvesConflict } from './movements/fold.ts';
import { type Hlc, parseHlc } from './movements/hlc.ts';
import type { MovementLog, MovementUnit } from './movements.ts';
import { NO_WAREHOUSE } from './schema.ts';

/**
 * The highest sequence this instance holds per origin, for an account (itself included). A skip
 * scan of the (account, origin, seq) index: one seek per origin, however long the history (a
 * GROUP BY read every movement of the account, on every push answer).
 */
const heldVectorQuery = statement('sync.heldVector', (k, p: Param<{ accountId: number }>) =>
  k
    .withRecursive('origins(origin)', (db) =>
      db
        .selectFrom('stock_history')
        .select((eb) => eb.fn.min<string | null>('origin').as('origin'))
        .where('account_id', '=', p('accountId'))
        .unionAll((db) =>
          db
            .selectFrom('origins')
            .select((eb) =>
              eb
                .selectFrom('stock_history as h')
                .select((eb) => eb.fn.min('h.origin').as('next'))
                .where('h.account_id', '=', p('accountId'))
                .whereRef('h.origin', '>', 'origins.origin')
                .as('origin'),
            )
            .where('origins.origin', 'is not', null),
        ),
    )
    .selectFrom('origins')
    .select([
      'origins.origin',
      (eb) =>
        eb
          .selectFrom('stock_history as h')
          .select((eb) => eb.fn.max('h.seq').as('top'))
          .where('h.account_id', '=', p('accountId'))
          .whereRef('h.origin', '=', 'origins.origin')
          .as('seq'),
    ])
    .where('origins.origin', 'is not', null),
);

export async function heldVector(q: Queries, accountId: number): Promise<VersionVector> {
  const rows = await q.all(heldVectorQuery, { accountId });
  return Object.fromEntries(rows.map((r) => [r.origin as string, Number(r.seq)]));
}

export async function instanceId(q: Queries): Promise<string> {
  return (await q.first(q.k.selectFrom('instance').select('id')))!.id;
}

/** A page of the account's movements in the order they were recorded here, after `after`. */
export async function readMovements(
  q: Queries,
  accountId: number,
  where: { after?: number; pending?: VersionVector },
  limit: number,
): Promise<(SyncMovement & { arrival: number })[]> {
  let query = q.k
    .selectFrom('stock_history as h')
    .innerJoin('stock_units as u', 'u.id', 'h.unit_id')
    .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
    .select([
      'h.id',
      'h.origin',
      'h.seq',
      'h.kind',
      'h.value',
      'h.hlc',
      'h.item_id',
      'h.variant_id',
      'h.warehouse_id',
      'u.barcode',
      'v.body as seen',
      'h.source',
      'h.reason',
      'h.reference',
      'h.created_at',
    ])
    .where('h.account_id', '=', accountId)
    .orderBy('h.id')
    .limit(limit);
  if (where.after !== undefined) query = query.where('h.id', '>', where.after);
  if (where.pending !== undefined) {
    // Every origin's movements past what the upstream holds of it (all of an origin it has none of).
    const known = Object.entries(where.pending);
    query = query.where((eb) =>
      eb.or([
        ...known.map(([origin, seq]) => eb.and([eb('h.origin', '=', origin), eb('h.seq', '>', seq)])),
        ...(known.length > 0
          ? [
              eb(
                'h.origin',
                'not in',
                known.map(([origin]) => origin),
              ),
            ]
          : [eb.lit(true)]),
      ]),
    );
  }
  // Movements of one batch mostly carry the same seen vector: each text is parsed once.
  const vectors = new Map<string, VersionVector>();
  const parsed = (body: string) => {
    let vector = vectors.get(body);
    if (!vector) vectors.set(body, (vector = JSON.parse(body) as VersionVector));
    return vector;
  };
  return (await q.all(query)).map((row) => ({
    arrival: row.id,
    id: `${row.origin}-${row.seq}`,
    origin: row.origin,
    seq: row.seq,
    kind: row.kind as MovementKind,
    value: row.value,
    hlc: row.hlc,
    item: row.item_id,
    liquid_stock: row.variant_id,
    warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
    barcode: row.barcode,
    seen: row.seen ? parsed(row.seen) : null,
    source: row.source,
    reason: row.reason,
    reference: row.reference,
    created_at: row.created_at,
  }));
}

/** The arrival number of the account's newest movement here (0 without any). */
export async function lastArrival(q: Queries, accountId: number): Promise<number> {
  const row = await q.first(
    q.k
      .selectFrom('stock_history')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('account_id', '=', accountId),
  );
  return Number(row?.id ?? 0);
}

/** How many of the account's movements the upstream does not hold yet. */
export async function countPending(q: Queries, accountId: number, upstream: VersionVector): Promise<number> {
  const known = Object.entries(upstream);
  const row = await q.first(
    q.k
      .selectFrom('stock_history as h')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('h.account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          ...known.map(([origin, seq]) => eb.and([eb('h.origin', '=', origin), eb('h.seq', '>', seq)])),
          ...(known.length > 0
            ? [
                eb(
                  'h.origin',
                  'not in',
                  known.map(([origin]) => origin),
                ),
              ]
            : [eb.lit(true)]),
        ]),
      ),
  );
  return Number(row?.n ?? 0);
}

const storedMovement = statement('sync.storedMovement', (k, p: Param<{ accountId: number; origin: string; seq: number }>) =>
  k
    .selectFrom('stock_history')
    .select(['kind', 'value', 'hlc', 'unit_id', 'warehouse_id'])
    .where('account_id', '=', p('accountId'))
    .where('origin', '=', p('origin'))
    .where('seq', '=', p('seq')),
);

const highestSeq = statement('sync.highestSeq', (k, p: Param<{ accountId: number; origin: string }>) =>
  k
    .selectFrom('stock_history')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('account_id', '=', p('accountId'))
    .where('origin', '=', p('origin')),
);

const unitKey = (item: number, variant: number | null) => `${item}/${variant ?? ''}`;

/**
 * Applies a batch of movements of other instances in the caller's transaction, all or nothing: each
 * origin's movements in sequence — one the instance already holds is skipped (a batch sent again
 * after a cut), one that would leave a gap refuses the batch with 409 and where to resume — and
 * each folded in at its time. Refused with 422 (nothing applied): a movement of a unit or warehouse
 * the account does not have, or stamped further ahead of this clock than MAX_CLOCK_AHEAD_MS.
 */
export async function applyMovements(
  log: MovementLog,
  account: Account,
  movements: readonly SyncMovement[],
  now: number,
): Promise<{ applied: number; duplicates: number }> {
  const { q } = log;
  const refuse = (movement: SyncMovement, why: string) => apiError(422, syncMessages.movementRefused(movement.id, why));
  const hlcs: Hlc[] = [];
  for (const movement of movements) {
    const hlc = parseHlc(movement.hlc);
    if (!hlc || hlc.instance !== movement.origin) throw refuse(movement, syncMessages.hlcNotOfOrigin);
    hlcs.push(hlc);
    if (hlc.wall > now + MAX_CLOCK_AHEAD_MS)
      throw refuse(movement, syncMessages.tooFarAhead(MAX_CLOCK_AHEAD_MS / 3600_000, new Date(hlc.wall).toISOString()));
    if (movement.id !== `${movement.origin}-${movement.seq}`) throw refuse(movement, syncMessages.idMismatch);
    if (!isAbsolute(movement.kind) && movement.seen !== null) throw refuse(movement, syncMessages.seenOnAdjust);
  }

  // The units and warehouses named must be the account's.
  const unitKeys = movements.map((m) => unitKey(m.item, m.liquid_stock));
  const wanted = new Map(movements.map((m, i) => [unitKeys[i]!, m]));
  const units = new Map<string, MovementUnit>();
  // By item (a variant's movement names its item too): a seek per item on (account, item, variant),
  // where asking by variant id scanned every unit of the account. Other variants of an item come
  // along and are not used.
  const itemIds = [...new Set(movements.map((m) => m.item))];
  for (let i = 0; i < itemIds.length; i += 500) {
    const rows = await q.all(
      q.k
        .selectFrom('stock_units')
        .select(['id', 'item_id', 'variant_id'])
        .where('account_id', '=', account.id)
        .where('item_id', 'in', itemIds.slice(i, i + 500)),
    );
    for (const row of rows) units.set(unitKey(row.item_id, row.variant_id), { id: row.id, itemId: row.item_id, variantId: row.variant_id });
  }
  for (const [key, movement] of wanted)
    if (!units.has(key)) throw refuse(movement, syncMessages.unknownUnit(movement.item, movement.liquid_stock, account.name));
  const warehouses = new Set(
    account.warehousesEnabled
      ? (await q.all(q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id))).map((w) => w.id)
      : [],
  );
  for (const movement of movements) {
    if (account.warehousesEnabled ? movement.warehouse === null || !warehouses.has(movement.warehouse) : movement.warehouse !== null) {
      throw refuse(movement, syncMessages.unknownWarehouse(movement.warehouse, account.name));
    }
  }

  // Each origin in sequence, from what this instance holds of the batch's origins (an index seek
  // each, not the whole history's vector).
  const held: VersionVector = {};
  for (const origin of new Set(movements.map((m) => m.origin)))
    held[origin] = Number((await q.first(highestSeq, { accountId: account.id, origin }))?.seq ?? 0);
  if (movements.some((m) => m.seq > (held[m.origin] ?? 0))) {
    const earliest = new Map<number, string>();
    for (let i = 0; i < movements.length; i++) {
      const m = movements[i]!;
      const unitId = units.get(unitKeys[i]!)!.id;
      const before = earliest.get(unitId);
      if (before === undefined || m.hlc < before) earliest.set(unitId, m.hlc);
    }
    await log.preload(account.id, earliest);
  }
  let applied = 0;
  let duplicates = 0;
  let latest = -1; // the latest of the movements applied (text order is time order): the clock moves past it
  for (let i = 0; i < movements.length; i++) {
    const movement = movements[i]!;
    const holds = held[movement.origin] ?? 0;
    const unit = units.get(unitKeys[i]!)!;
    const warehouseId = movement.warehouse ?? NO_WAREHOUSE;
    if (movement.seq <= holds) {
      await log.flush(); // the same movement twice in this batch: its row may not be written yet
      const stored = await q.first(storedMovement, { accountId: account.id, origin: movement.origin, seq: movement.seq });
      // The same id with other content: two databases claim to be one instance (a restored copy kept running).
      if (
        !stored ||
        stored.kind !== movement.kind ||
        stored.value !== movement.value ||
        stored.hlc !== movement.hlc ||
        stored.unit_id !== unit.id ||
        stored.warehouse_id !== warehouseId
      ) {
        throw apiError(409, syncMessages.sameIdOtherMovement(movement.id));
      }
      duplicates++;
      continue;
    }
    if (movement.seq !== holds + 1) {
      throw apiError(409, syncMessages.gap(movement.id, movement.origin, holds + 1), {
        more: { resume: { [movement.origin]: holds + 1 } },
      });
    }
    const seenVector =
      log.knownVector(account.id, movement.seen) ?? (movement.seen ? await log.internVector(account.id, movement.seen) : null);
    const record = {
      origin: movement.origin,
      seq: movement.seq,
      kind: movement.kind,
      value: movement.value,
      hlc: movement.hlc,
      warehouseId,
      seen: movement.seen,
      source: movement.source,
      reason: movement.reason,
      reference: movement.reference,
      createdAt: movement.created_at,
    };
    if (!log.applyRemoteOnTop(account.id, unit, record, seenVector)) await log.applyRemote(account.id, unit, record, seenVector);
    held[movement.origin] = movement.seq;
    if (latest < 0 || movement.hlc > movements[latest]!.hlc) latest = i;
    applied++;
  }
  if (latest >= 0) log.saw(hlcs[latest]!);
  await log.flush();
  if (applied > 0) await log.refreshSeenVector(account.id, held);
  return { applied, duplicates };
}

/** The account's catalogue as an import document (warehouses, items, variants, barcodes; no stock: that flows as movements). */
export async function catalogueDocument(q: Queries, account: Account): Promise<{ version: number; catalogue: unknown }> {
  const version = (await q.first(q.k.selectFrom('accounts').select('catalogue_version').where('id', '=', account.id)))!.catalogue_version;
  const warehouses = await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id).orderBy('id'));
  const rows = await q.all(
    q.k
      .selectFrom('stock_units as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.item_id', 'i.name as item_name', 'u.variant_id', 'v.name as variant_name', 'u.barcode'])
      .where('u.account_id', '=', account.id)
      .orderBy('u.item_id')
      .orderBy('u.variant_id'),
  );
  const items: { id: number; name: string; barcode?: string; variants?: { id: number; name: string; barcode: string }[] }[] = [];
  for (const row of rows) {
    const last = items.at(-1);
    if (row.variant_id === null) items.push({ id: row.item_id, name: row.item_name, barcode: row.barcode });
    else if (last && last.id === row.item_id && last.variants)
      last.variants.push({ id: row.variant_id, name: row.variant_name!, barcode: row.barcode });
    else
      items.push({
        id: row.item_id,
        name: row.item_name,
        variants: [{ id: row.variant_id, name: row.variant_name!, barcode: row.barcode }],
      });
  }
  return {
    version,
    catalogue: {
      accounts: [
        { name: account.name, warehouses_enabled: account.warehousesEnabled, ...(account.warehousesEnabled ? { warehouses } : {}), items },
      ],
    },
  };
}

// --- Links: this instance following an upstream ---

export interface Link {
  accountId: number;
  account: string;
  warehousesEnabled: boolean;
  upstreamUrl: string;
  token: string;
  upstreamInstance: string | null;
  pullCursor: number;
  catalogueVersion: number | null;
  linkedAt: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  offlineSince: string | null;
  clockSkewMs: number | null;
  upstreamVector: VersionVector;
}

function selectLinks(q: Queries) {
  return q.k
    .selectFrom('sync_links as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select([
      'l.account_id',
      'a.name',
      'a.warehouses_enabled',
      'l.upstream_url',
      'l.token',
      'l.upstream_instance',
      'l.pull_cursor',
      'l.catalogue_version',
      'l.linked_at',
      'l.last_attempt_at',
      'l.last_success_at',
      'l.last_error',
      'l.offline_since',
      'l.clock_skew_ms',
      'l.upstream_vector',
    ]);
}

function toLink(row: Awaited<ReturnType<ReturnType<typeof selectLinks>['execute']>>[number]): Link {
  return {
    accountId: row.account_id,
    account: row.name,
    warehousesEnabled: row.warehouses_enabled === 1,
    upstreamUrl: row.upstream_url,
    token: row.token,
    upstreamInstance: row.upstream_instance,
    pullCursor: row.pull_cursor,
    catalogueVersion: row.catalogue_version,
    linkedAt: row.linked_at,
    lastAttemptAt: row.last_attempt_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    offlineSince: row.offline_since,
    clockSkewMs: row.clock_skew_ms,
    upstreamVector: row.upstream_vector ? (JSON.parse(row.upstream_vector) as VersionVector) : {},
  };
}

export async function listLinks(q: Queries): Promise<Link[]> {
  return (await q.all(selectLinks(q).orderBy('l.account_id'))).map(toLink);
}

export async function linkOfAccount(q: Queries, accountId: number): Promise<Link | undefined> {
  const row = await q.first(selectLinks(q).where('l.account_id', '=', accountId));
  return row && toLink(row);
}

export async function createLink(q: Queries, accountId: number, upstreamUrl: string, token: string, at: string): Promise<void> {
  await q.run(q.k.insertInto('sync_links').values({ account_id: accountId, upstream_url: upstreamUrl, token, linked_at: at }));
}

export async function removeLink(q: Queries, accountId: number): Promise<boolean> {
  return (await q.run(q.k.deleteFrom('sync_links').where('account_id', '=', accountId))).changes === 1;
}

/** What a round learnt or how it failed, written on the link. */
export async function recordRound(
  q: Queries,
  accountId: number,
  round: { at: string } & (
    | {
        ok: true;
        upstreamInstance: string;
        clockSkewMs: number;
        upstreamVector: VersionVector;
        pullCursor?: number;
        catalogueVersion?: number;
      }
    | { ok: false; error: string }
  ),
): Promise<void> {
  const update = round.ok
    ? {
        last_attempt_at: round.at,
        last_success_at: round.at,
        last_error: null,
        offline_since: null,
        upstream_instance: round.upstreamInstance,
        clock_skew_ms: round.clockSkewMs,
        upstream_vector: JSON.stringify(round.upstreamVector),
        ...(round.catalogueVersion !== undefined ? { catalogue_version: round.catalogueVersion } : {}),
      }
    : { last_attempt_at: round.at, last_error: round.error.slice(0, 500) };
  await q.run(q.k.updateTable('sync_links').set(update).where('account_id', '=', accountId));
  if (round.ok && round.pullCursor !== undefined) await advanceLink(q, accountId, round.pullCursor);
  if (!round.ok) {
    await q.run(
      q.k.updateTable('sync_links').set({ offline_since: round.at }).where('account_id', '=', accountId).where('offline_since', 'is', null),
    );
  }
}

/**
 * The upstream answered at the start of a round: the link is no longer offline, even while the round
 * still pushes and pulls (a long backlog then shows as movements waiting, not as offline).
 */
export async function recordReachable(q: Queries, accountId: number, upstreamInstance: string): Promise<void> {
  await q.run(
    q.k.updateTable('sync_links').set({ offline_since: null, upstream_instance: upstreamInstance }).where('account_id', '=', accountId),
  );
}

/**
 * Moves a link's pull cursor forward (never back: two rounds may run at once, `sync now` beside the
 * background loop), in the transaction that applied the page, or with the round's record when the
 * pages held nothing new.
 */
export async function advanceLink(q: Queries, accountId: number, pullCursor: number): Promise<void> {
  await q.run(
    q.k
      .updateTable('sync_links')
      .set({ pull_cursor: pullCursor })
      .where('account_id', '=', accountId)
      .where('pull_cursor', '<', pullCursor),
  );
}

export async function setUpstreamVector(q: Queries, accountId: number, vector: VersionVector): Promise<void> {
  await q.run(
    q.k
      .updateTable('sync_links')
      .set({ upstream_vector: JSON.stringify(vector) })
      .where('account_id', '=', accountId),
  );
}

export async function linkStatus(q: Queries, account: Account, now: number): Promise<SyncStatus> {
  const conflicts = await countOpenConflicts(q, account.id);
  const link = await linkOfAccount(q, account.id);
  const instance = await instanceId(q);
  if (!link) {
    return {
      linked: false,
      instance,
      upstream: null,
      upstream_instance: null,
      state: 'unlinked',
      last_success_at: null,
      offline_since: null,
      last_error: null,
      pending: 0,
      conflicts,
      clock_skew_ms: null,
      clock_warning: null,
    };
  }
  const pending = await countPending(q, account.id, link.upstreamVector);
  const skew = link.clockSkewMs;
  const warning = skew !== null && Math.abs(skew) > CLOCK_WARNING_MS ? syncMessages.clockWarning(skew) : null;
  const state = link.offlineSince !== null ? 'offline' : link.lastSuccessAt === null ? 'waiting' : pending > 0 ? 'waiting' : 'in_sync';
  void now;
  return {
    linked: true,
    instance,
    upstream: link.upstreamUrl,
    upstream_instance: link.upstreamInstance,
    state,
    last_success_at: link.lastSuccessAt,
    offline_since: link.offlineSince,
    last_error: link.lastError,
    pending,
    conflicts,
    clock_skew_ms: skew,
    clock_warning: warning,
  };
}

// --- Conflicts ---

async function countOpenConflicts(q: Queries, accountId: number): Promise<number> {
  return (await listConflicts(q, accountId, 'open', 10_000)).length;
}

/**
 * The account's conflicts, newest first. One is resolved once a later set or count of the same unit
 * and warehouse was made by an instance that had seen both movements (a person who looked at both
 * recorded the quantity again).
 */
export async function listConflicts(q: Queries, accountId: number, state: 'open' | 'all', limit: number): Promise<Conflict[]> {
  const rows = await q.all(
    q.k
      .selectFrom('stock_conflicts as c')
      .innerJoin('stock_units as u', 'u.id', 'c.unit_id')
      .leftJoin('warehouses as w', 'w.id', 'c.warehouse_id')
      .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'c.unit_id').onRef('s.warehouse_id', '=', 'c.warehouse_id'))
      .innerJoin('stock_history as l', (join) =>
        join.onRef('l.account_id', '=', 'c.account_id').onRef('l.origin', '=', 'c.later_origin').onRef('l.seq', '=', 'c.later_seq'),
      )
      .innerJoin('stock_history as e', (join) =>
        join.onRef('e.account_id', '=', 'c.account_id').onRef('e.origin', '=', 'c.earlier_origin').onRef('e.seq', '=', 'c.earlier_seq'),
      )
      .select([
        'c.id',
        'c.unit_id',
        'c.warehouse_id',
        'c.detected_at',
        'u.barcode',
        'u.item_id',
        'u.variant_id',
        'w.name as warehouse_name',
        's.quantity',
        'l.origin as l_origin',
        'l.seq as l_seq',
        'l.kind as l_kind',
        'l.value as l_value',
        'l.hlc as l_hlc',
        'l.source as l_source',
        'l.reference as l_reference',
        'e.origin as e_origin',
        'e.seq as e_seq',
        'e.kind as e_kind',
        'e.value as e_value',
        'e.hlc as e_hlc',
        'e.source as e_source',
        'e.reference as e_reference',
      ])
      .where('c.account_id', '=', accountId)
      .orderBy('c.id', 'desc'),
  );
  const conflicts: Conflict[] = [];
  for (const row of rows) {
    const resolved = await isResolved(
      q,
      row.unit_id,
      row.warehouse_id,
      { origin: row.l_origin, seq: row.l_seq, hlc: row.l_hlc },
      { origin: row.e_origin, seq: row.e_seq },
    );
    if (state === 'open' && resolved) continue;
    const side = (p: 'l' | 'e') => ({
      movement: `${row[`${p}_origin`]}-${row[`${p}_seq`]}`,
      kind: row[`${p}_kind`] as MovementKind,
      value: row[`${p}_value`],
      origin: row[`${p}_origin`],
      occurred_at: new Date(parseHlc(row[`${p}_hlc`])?.wall ?? 0).toISOString(),
      source: row[`${p}_source`],
      reference: row[`${p}_reference`],
    });
    conflicts.push({
      id: row.id,
      barcode: row.barcode,
      item: row.item_id,
      liquid_stock: row.variant_id,
      warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
      warehouse_name: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_name,
      later: side('l'),
      earlier: side('e'),
      racing: isAbsolute(row.e_kind),
      quantity: row.quantity ?? null,
      resolved,
      detected_at: row.detected_at,
    });
    if (conflicts.length >= limit) break;
  }
  return conflicts;
}

async function isResolved(
  q: Queries,
  unitId: number,
  warehouseId: number,
  later: { origin: string; seq: number; hlc: string },
  earlier: { origin: string; seq: number },
): Promise<boolean> {
  const candidates = await q.all(
    q.k
      .selectFrom('stock_history as h')
      .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
      .select(['h.origin', 'h.seq', 'v.body'])
      .where('h.unit_id', '=', unitId)
      .where('h.warehouse_id', '=', warehouseId)
      .where('h.hlc', '>', later.hlc)
      .where('h.kind', 'in', ABSOLUTE_KINDS),
  );
  return candidates.some((c) => resolvesConflict(c, c.body ? (JSON.parse(c.body) as VersionVector) : {}, later, earlier));
}
