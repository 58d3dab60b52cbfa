// Applying a batch of another instance's movements (a push received, a page pulled): checked, each
// exactly once and in its origin's order, folded in at its time by the movement log.
import { MAX_CLOCK_AHEAD_MS, type SyncMovement, type VersionVector, syncMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import { type Param, type Queries, inList, statement } from '../engine.ts';
import { isAbsolute } from '../movements/fold.ts';
import { type Hlc, hlcKey, parseHlc } from '../movements/hlc.ts';
import type { MovementLog, MovementUnit } from '../movements/movement-log.ts';
import { NO_WAREHOUSE } from '../schema.ts';
import { draggedAtMost } from './clock-bound.ts';
import { heldOf } from './held-vector.ts';

const storedMovement = statement('sync.storedMovement', (k, p: Param<{ accountId: number; origin: string; seq: number }>) =>
  k
    .selectFrom('stock_history')
    .select(['kind', 'value', 'hlc', 'unit_id', 'warehouse_id'])
    .where('account_id', '=', p('accountId'))
    .where('origin', '=', p('origin'))
    .where('seq', '=', p('seq')),
);

const unitKey = (item: number, variant: number | null) => `${item}/${variant ?? ''}`;

/** The movements of an account stored at some of the given order keys (the timestamps' hlcKey). */
const movementsAtKeys = statement('sync.movementsAtKeys', (k, p: Param<{ accountId: number; keys: number[] }>) =>
  k
    .selectFrom('stock_history')
    .select(['origin', 'seq', 'hlc'])
    .where('account_id', '=', p('accountId'))
    .where('hlc_key', 'in', p.list('keys')),
);

/**
 * Refuses (422) a new movement whose timestamp its origin already gave another movement: in this
 * batch, or stored here. An instance's clock never gives one timestamp twice (hlc.ts, tick), so only
 * a forged or corrupt batch does; and since a timestamp names its origin, two movements with one
 * timestamp would be the only tie in the fold's order, which each instance would break by the order
 * its database happens to return them in: their place could end with different quantities on
 * different instances. `fresh`: the batch's movements this instance does not hold yet.
 */
async function refuseReusedTimestamps(
  q: Queries,
  accountId: number,
  fresh: readonly SyncMovement[],
  refuse: (movement: SyncMovement, why: string) => Error,
): Promise<void> {
  const byTime = new Map<string, SyncMovement>();
  for (const movement of fresh) {
    const other = byTime.get(movement.hlc);
    if (other !== undefined && other.seq !== movement.seq) throw refuse(movement, syncMessages.timestampReused(other.id));
    byTime.set(movement.hlc, movement);
  }
  // One statement for a whole batch (as the batch's other reads: lists padded by inList), an index
  // seek per timestamp on (account, order key): 0.3-2 ms for a push of 500 in the sync bench.
  const keys = [...new Set(fresh.map((m) => hlcKey(m.hlc)))];
  for (let i = 0; i < keys.length; i += 500) {
    for (const stored of await q.all(movementsAtKeys, { accountId, keys: inList(keys.slice(i, i + 500)) })) {
      const movement = byTime.get(stored.hlc);
      if (movement !== undefined && movement.seq !== stored.seq)
        throw refuse(movement, syncMessages.timestampReused(`${stored.origin}-${stored.seq}`));
    }
  }
}

/**
 * Applies a batch of movements of other instances in the caller's transaction, all or nothing: each
 * origin's movements in sequence — one the instance already holds is skipped (a batch sent again
 * after a cut), one that would leave a gap refuses the batch with 409 and where to resume — and
 * each folded in at its time. Refused with 422 (nothing applied): a movement of a unit or warehouse
 * the account does not have, stamped further ahead of this clock than MAX_CLOCK_AHEAD_MS, or whose
 * fold would leave a quantity outside MIN_QUANTITY … MAX_QUANTITY (the movement log's check).
 */
export async function applyMovements(
  log: MovementLog,
  account: Account,
  movements: readonly SyncMovement[],
  now: number,
): Promise<{ applied: number; duplicates: number }> {
  const { q } = log;
  const refuse = (movement: SyncMovement, why: string) =>
    apiError(422, syncMessages.movementRefused(movement.id, why), { code: 'sync_movement_refused' });
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
        .where('item_id', 'in', inList(itemIds.slice(i, i + 500))),
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
  // each, in one statement; not the whole history's vector).
  const held: VersionVector = await heldOf(q, account.id, new Set(movements.map((m) => m.origin)));
  const fresh = movements.filter((m) => m.seq > (held[m.origin] ?? 0));
  if (fresh.length > 0) {
    await refuseReusedTimestamps(q, account.id, fresh, refuse);
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
        throw apiError(409, syncMessages.sameIdOtherMovement(movement.id), { code: 'sync_same_id_other_movement' });
      }
      duplicates++;
      continue;
    }
    if (movement.seq !== holds + 1) {
      throw apiError(409, syncMessages.gap(movement.id, movement.origin, holds + 1), {
        code: 'sync_gap',
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
      createdMs: Date.parse(movement.created_at),
      // Who made it travels with it (a follower of an older version sends none).
      actor: movement.actor ?? null,
    };
    if (!log.applyRemoteOnTop(account.id, unit, record, seenVector)) await log.applyRemote(account.id, unit, record, seenVector);
    held[movement.origin] = movement.seq;
    if (latest < 0 || movement.hlc > movements[latest]!.hlc) latest = i;
    applied++;
  }
  if (latest >= 0) log.saw(draggedAtMost(hlcs[latest]!, now));
  // The places where movements landed in the past folded again (once each), the conflict groups
  // written; a quantity out of range refuses the batch here (422, naming the movement).
  await log.finishBatch(account.id);
  return { applied, duplicates };
}
