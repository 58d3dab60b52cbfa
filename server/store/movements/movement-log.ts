// The movement log (docs/SYNC.md). Every change of a quantity, made here or by another instance, is
// an immutable movement: `set` (absolute), `count` (a stocktake line: there were N at time T) or
// `adjust` (a delta), with a global identity (origin instance + that instance's gapless sequence for
// the account) and a hybrid logical clock timestamp (movements/hlc.ts). The quantity of a unit in a
// warehouse is the fold of its movements in timestamp order, kept in `stock`; the fold and the
// conflict rules are movements/fold.ts.
// A movement later than everything of its unit and warehouse is applied on top; one that lands in
// the past (a laptop that was offline, a stocktake line counted before sales were recorded) is
// inserted at its place and only that unit and warehouse is folded again, from the last set or count
// before it.
//
// One MovementLog serves one write transaction: it reads the instance's clock and sequences once,
// hands out timestamps and sequence numbers, and writes the clock back when the transaction ends.
import { ABSOLUTE_KINDS, foldFrom, foldStep, isAbsolute, isConflict, kindsConflict, missesHeld } from './fold.ts';
import { type Hlc, formatHlc, parseHlc, receive, tick } from './hlc.ts';
import { type Param, type Queries, statement } from '../engine.ts';

export type MovementKind = 'set' | 'count' | 'adjust';

/** The wall clock the store stamps movements with (an offset for tests that skew instances' clocks). */
export interface StoreClock {
  now(): number;
}

export const systemClock: StoreClock = { now: () => Date.now() };

/** What a barcode names in an account, with the catalogue ids every instance shares. */
export interface MovementUnit {
  id: number;
  itemId: number;
  variantId: number | null;
}

/** Who or what made a movement, recorded with it. */
export interface MovementSource {
  source: string;
  tokenId?: number | null;
  reason?: string | null;
  reference?: string | null;
}

/** A movement as instances exchange it (and as the history shows it). */
export interface MovementRecord {
  origin: string;
  seq: number;
  kind: MovementKind;
  value: number;
  hlc: string;
  warehouseId: number;
  /** For set and count: what the origin had seen of other instances, `{origin: highest seq}`. */
  seen: Record<string, number> | null;
  source: string;
  reason: string | null;
  reference: string | null;
  createdAt: string;
}

export interface Applied {
  oldQuantity: number | null;
  newQuantity: number;
}

function sameVector(a: Record<string, number>, b: Record<string, number>): boolean {
  let keys = 0;
  for (const origin in b) {
    if (a[origin] !== b[origin]) return false;
    keys++;
  }
  for (const _ in a) keys--; // counted, not listed: this runs for every movement of a batch
  return keys === 0;
}

/** `{origin: seq}` with sorted keys: one text per vector, so equal vectors intern to one row. */
export function vectorBody(vector: Record<string, number>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(vector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

const latestOfUnit = statement('movements.latest', (k, p: Param<{ unitId: number; warehouseId: number }>) =>
  k
    .selectFrom('stock_history')
    .select('hlc')
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .orderBy('hlc', 'desc')
    .limit(1),
);

const latestOfAccount = statement('movements.latestOfAccount', (k, p: Param<{ accountId: number }>) =>
  k
    .selectFrom('stock_history')
    .select((eb) => eb.fn.max('hlc').as('hlc'))
    .where('account_id', '=', p('accountId')),
);

const quantityOf = statement('movements.quantity', (k, p: Param<{ unitId: number; warehouseId: number }>) =>
  k.selectFrom('stock').select('quantity').where('unit_id', '=', p('unitId')).where('warehouse_id', '=', p('warehouseId')),
);

const upsertQuantity = statement('movements.upsertQuantity', (k, p: Param<{ unitId: number; warehouseId: number; quantity: number }>) =>
  k
    .insertInto('stock')
    .values({ unit_id: p('unitId'), warehouse_id: p('warehouseId'), quantity: p('quantity') })
    .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doUpdateSet({ quantity: p('quantity') })),
);

type InsertParams = {
  accountId: number;
  unitId: number;
  itemId: number;
  variantId: number | null;
  warehouseId: number;
  origin: string;
  seq: number;
  kind: string;
  value: number;
  hlc: string;
  seenVector: number | null;
  oldQuantity: number | null;
  newQuantity: number;
  source: string;
  tokenId: number | null;
  reason: string | null;
  reference: string | null;
  createdAt: string;
};

const insertMovement = statement('movements.insert', (k, p: Param<InsertParams>) =>
  k.insertInto('stock_history').values({
    account_id: p('accountId'),
    unit_id: p('unitId'),
    item_id: p('itemId'),
    variant_id: p('variantId'),
    warehouse_id: p('warehouseId'),
    origin: p('origin'),
    seq: p('seq'),
    kind: p('kind'),
    value: p('value'),
    hlc: p('hlc'),
    seen_vector: p('seenVector'),
    old_quantity: p('oldQuantity'),
    new_quantity: p('newQuantity'),
    source: p('source'),
    token_id: p('tokenId'),
    reason: p('reason'),
    reference: p('reference'),
    created_at: p('createdAt'),
  }),
);

/** Column by column, for `insertMovements`: one list per column, element i of each is row i. */
type InsertColumns = { [K in keyof InsertParams]: InsertParams[K][] };

/** Several movements in one INSERT (compiled once per chunk length: see CHUNK_LENGTHS). */
const insertMovements = statement('movements.insertMany', (k, p: Param<InsertColumns>) => {
  const column = <K extends keyof InsertParams>(name: K) => p.list(name) as unknown as InsertParams[K][];
  const c = {
    accountId: column('accountId'),
    unitId: column('unitId'),
    itemId: column('itemId'),
    variantId: column('variantId'),
    warehouseId: column('warehouseId'),
    origin: column('origin'),
    seq: column('seq'),
    kind: column('kind'),
    value: column('value'),
    hlc: column('hlc'),
    seenVector: column('seenVector'),
    oldQuantity: column('oldQuantity'),
    newQuantity: column('newQuantity'),
    source: column('source'),
    tokenId: column('tokenId'),
    reason: column('reason'),
    reference: column('reference'),
    createdAt: column('createdAt'),
  };
  return k.insertInto('stock_history').values(
    c.accountId.map((_, i) => ({
      account_id: c.accountId[i]!,
      unit_id: c.unitId[i]!,
      item_id: c.itemId[i]!,
      variant_id: c.variantId[i]!,
      warehouse_id: c.warehouseId[i]!,
      origin: c.origin[i]!,
      seq: c.seq[i]!,
      kind: c.kind[i]!,
      value: c.value[i]!,
      hlc: c.hlc[i]!,
      seen_vector: c.seenVector[i]!,
      old_quantity: c.oldQuantity[i]!,
      new_quantity: c.newQuantity[i]!,
      source: c.source[i]!,
      token_id: c.tokenId[i]!,
      reason: c.reason[i]!,
      reference: c.reference[i]!,
      created_at: c.createdAt[i]!,
    })),
  );
});

type StockColumns = { unitId: number[]; warehouseId: number[]; quantity: number[] };

/** Several quantities in one upsert; each unit and warehouse at most once (PostgreSQL refuses a row changed twice). */
const upsertQuantities = statement('movements.upsertQuantities', (k, p: Param<StockColumns>) => {
  const unitIds = p.list('unitId') as unknown as number[];
  const warehouseIds = p.list('warehouseId') as unknown as number[];
  const quantities = p.list('quantity') as unknown as number[];
  return k
    .insertInto('stock')
    .values(unitIds.map((_, i) => ({ unit_id: unitIds[i]!, warehouse_id: warehouseIds[i]!, quantity: quantities[i]! })))
    .onConflict((oc) => oc.columns(['unit_id', 'warehouse_id']).doUpdateSet((eb) => ({ quantity: eb.ref('excluded.quantity') })));
});

/**
 * Rows go out in chunks of these lengths (37 rows as 16 + 16 + 4 + 1): each length is its own
 * compiled statement, so four of them serve every batch. Not longer: building and preparing a
 * statement of 256 rows made a process's first batch 20-40 ms slower, for no gain after it.
 */
const CHUNK_LENGTHS = [64, 16, 4, 1];

function chunkLength(left: number): number {
  return CHUNK_LENGTHS.find((length) => length <= left)!;
}

/** Element `from` to `from + length` of every column of `rows`. */
function columnsOf<R extends Record<string, unknown>>(rows: readonly R[], from: number, length: number): { [K in keyof R]: R[K][] } {
  const columns = {} as { [K in keyof R]: R[K][] };
  for (const name of Object.keys(rows[from]!) as (keyof R)[]) {
    const values = new Array<R[keyof R]>(length);
    for (let i = 0; i < length; i++) values[i] = rows[from + i]![name];
    columns[name] = values;
  }
  return columns;
}

const othersBefore = statement(
  'movements.othersBefore',
  (k, p: Param<{ unitId: number; warehouseId: number; hlc: string; origin: string }>) =>
    k
      .selectFrom('stock_history')
      .select(['origin', 'seq', 'kind'])
      .where('unit_id', '=', p('unitId'))
      .where('warehouse_id', '=', p('warehouseId'))
      .where('hlc', '<', p('hlc'))
      .where('origin', '!=', p('origin')),
);

const othersAfter = statement(
  'movements.othersAfter',
  (k, p: Param<{ unitId: number; warehouseId: number; hlc: string; origin: string }>) =>
    k
      .selectFrom('stock_history')
      .select(['origin', 'seq', 'kind', 'seen_vector'])
      .where('unit_id', '=', p('unitId'))
      .where('warehouse_id', '=', p('warehouseId'))
      .where('hlc', '>', p('hlc'))
      .where('origin', '!=', p('origin')),
);

const vectorById = statement('movements.vectorById', (k, p: Param<{ id: number }>) =>
  k.selectFrom('sync_vectors').select('body').where('id', '=', p('id')),
);

const vectorByBody = statement('movements.vectorByBody', (k, p: Param<{ accountId: number; body: string }>) =>
  k.selectFrom('sync_vectors').select('id').where('account_id', '=', p('accountId')).where('body', '=', p('body')),
);

const insertVector = statement('movements.insertVector', (k, p: Param<{ accountId: number; body: string }>) =>
  k
    .insertInto('sync_vectors')
    .values({ account_id: p('accountId'), body: p('body') })
    .onConflict((oc) => oc.columns(['account_id', 'body']).doNothing()),
);

const insertConflict = statement(
  'movements.insertConflict',
  (
    k,
    p: Param<{
      accountId: number;
      unitId: number;
      warehouseId: number;
      laterOrigin: string;
      laterSeq: number;
      earlierOrigin: string;
      earlierSeq: number;
      at: string;
    }>,
  ) =>
    k
      .insertInto('stock_conflicts')
      .values({
        account_id: p('accountId'),
        unit_id: p('unitId'),
        warehouse_id: p('warehouseId'),
        later_origin: p('laterOrigin'),
        later_seq: p('laterSeq'),
        earlier_origin: p('earlierOrigin'),
        earlier_seq: p('earlierSeq'),
        detected_at: p('at'),
      })
      .onConflict((oc) => oc.columns(['account_id', 'later_origin', 'later_seq', 'earlier_origin', 'earlier_seq']).doNothing()),
);

const lastSeq = statement('movements.lastSeq', (k, p: Param<{ accountId: number; origin: string }>) =>
  k
    .selectFrom('stock_history')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('account_id', '=', p('accountId'))
    .where('origin', '=', p('origin')),
);

/** A unit in a warehouse as preload read it: latest timestamp and stored quantity. */
interface PlaceState {
  latest: string | undefined;
  quantity: number | null;
}

/** True when a movement at `hlc` comes after everything of the place: the fold's next step. */
const landsOnTop = (place: PlaceState, hlc: string) => place.latest === undefined || place.latest <= hlc;

export class MovementLog {
  readonly q: Queries;
  readonly instance: string;
  private readonly clock: StoreClock;
  private last: Hlc | undefined;
  private lastChanged = false;
  private readonly nextSeqs = new Map<number, number>();
  private readonly seenVectors = new Map<number, number | null>();
  /** Vectors this transaction has read or interned: by id (parsed), and ids by account and body. */
  private readonly vectorBodies = new Map<number, Record<string, number>>();
  private readonly vectorIds = new Map<string, number>();
  private lastInterned: { accountId: number; vector: Record<string, number>; id: number } | undefined;
  /** See preload. */
  private readonly loadedUnits = new Set<number>();
  private readonly places = new Map<string, PlaceState>();
  private readonly stale = new Set<string>();
  /** Units whose movements all came after the account's latest timestamp: that timestamp, see preload. */
  private readonly latestBound = new Map<number, string>();
  /** Per account: the highest sequence held of every origin, once preload read it. */
  private readonly held = new Map<number, Record<string, number>>();
  /**
   * Movements of other instances applied on top of everything (the common case of a sync batch):
   * their history rows and the quantities they leave, written together by `flush` — several rows
   * per statement, each unit and warehouse's quantity once — before anything reads the history or
   * the stock again.
   */
  private readonly unwrittenMovements: InsertParams[] = [];
  private readonly unwrittenQuantities = new Map<string, { unitId: number; warehouseId: number; quantity: number }>();
  /** When this transaction records its movements (`created_at`). */
  readonly at: string;

  private constructor(q: Queries, instance: string, last: Hlc | undefined, clock: StoreClock) {
    this.q = q;
    this.instance = instance;
    this.last = last;
    this.clock = clock;
    this.at = new Date(clock.now()).toISOString();
  }

  /** Opens the log of the transaction `q`: the instance's identity and clock as the database holds them. */
  static async open(q: Queries, clock: StoreClock): Promise<MovementLog> {
    const row = await q.first(q.k.selectFrom('instance').select(['id', 'last_hlc']));
    if (!row) throw new Error('this database has no instance identity (migration 0007_movements did not run)');
    return new MovementLog(q, row.id, row.last_hlc ? parseHlc(row.last_hlc) : undefined, clock);
  }

  /** The next timestamp of this instance: later than everything it has made or seen. */
  nextHlc(): string {
    this.last = tick(this.last, this.clock.now(), this.instance);
    this.lastChanged = true;
    return formatHlc(this.last);
  }

  /**
   * Moves the clock past a timestamp of other instances: once per batch of their movements, with its
   * latest (sync/apply-movements.ts). A batch is one message: receiving each of its movements in
   * turn would only run the counter up, by one for each.
   */
  saw(hlc: Hlc): void {
    this.last = receive(this.last, hlc, this.clock.now(), this.instance);
    this.lastChanged = true;
  }

  /** Writes the clock back; the transaction's last step. */
  async close(): Promise<void> {
    await this.flush();
    if (this.lastChanged && this.last)
      await this.q.run(
        this.q.k
          .updateTable('instance')
          .set({ last_hlc: formatHlc(this.last) })
          .where('id', '=', this.instance),
      );
  }

  private async nextSeq(accountId: number): Promise<number> {
    let next = this.nextSeqs.get(accountId);
    if (next === undefined) next = Number((await this.q.first(lastSeq, { accountId, origin: this.instance }))?.seq ?? 0) + 1;
    this.nextSeqs.set(accountId, next + 1);
    return next;
  }

  /** What this instance has seen of other instances for the account (the vector its own sets and counts carry). */
  private async seenVector(accountId: number): Promise<number | null> {
    if (!this.seenVectors.has(accountId)) {
      const row = await this.q.first(this.q.k.selectFrom('accounts').select('seen_vector').where('id', '=', accountId));
      this.seenVectors.set(accountId, row?.seen_vector ?? null);
    }
    return this.seenVectors.get(accountId)!;
  }

  /** The stored quantity of a unit in a warehouse; null without a stock definition. */
  async quantity(unitId: number, warehouseId: number): Promise<number | null> {
    await this.flush();
    return (await this.q.first(quantityOf, { unitId, warehouseId }))?.quantity ?? null;
  }

  /**
   * Records a movement made here (`options.current`: the stored quantity, when the caller has just
   * read it). `set` and `adjust` happen now (the fold's newest step; an adjust is
   * added in SQL by the caller through `applyAdjust`); `count` may carry the earlier time it was
   * counted at (`hlc`), and is then folded in at that place.
   */
  async record(
    accountId: number,
    unit: MovementUnit,
    warehouseId: number,
    kind: MovementKind,
    value: number,
    source: MovementSource,
    options: { hlc?: string; applied?: Applied; current?: number | null } = {},
  ): Promise<Applied> {
    await this.flush();
    const hlc = options.hlc ?? this.nextHlc();
    const seq = await this.nextSeq(accountId);
    this.forget(unit.id, warehouseId);
    const held = this.held.get(accountId);
    if (held) held[this.instance] = Math.max(held[this.instance] ?? 0, seq);
    const seenVector = isAbsolute(kind) ? await this.seenVector(accountId) : null;
    const late = options.hlc !== undefined && (await this.isLate(unit.id, warehouseId, hlc));
    let applied: Applied;
    if (options.applied) applied = options.applied;
    else if (late)
      applied = { oldQuantity: null, newQuantity: value }; // refolded below
    else applied = await this.applyOnTop(unit.id, warehouseId, kind, value, options.current);
    await this.q.run(insertMovement, {
      accountId,
      unitId: unit.id,
      itemId: unit.itemId,
      variantId: unit.variantId,
      warehouseId,
      origin: this.instance,
      seq,
      kind,
      value,
      hlc,
      seenVector,
      oldQuantity: applied.oldQuantity,
      newQuantity: applied.newQuantity,
      source: source.source,
      tokenId: source.tokenId ?? null,
      reason: source.reason ?? null,
      reference: source.reference ?? null,
      createdAt: this.at,
    });
    if (late) {
      applied = await this.refold(unit.id, warehouseId, hlc, { origin: this.instance, seq });
      await this.detectConflicts(accountId, unit.id, warehouseId, { origin: this.instance, seq, kind, hlc, seenVector });
    }
    return applied;
  }

  /**
   * Applies a movement of another instance without waiting on the database, when it can: it lands on
   * top of what preload read, and cannot be in a conflict (see applyRemote). Then its rows are left
   * for `flush` and it returns true; otherwise it changes nothing and returns false, and the caller
   * awaits applyRemote. A sync batch is mostly such movements: no promise, no query for them. The
   * caller moves the clock past the batch (`saw`).
   */
  applyRemoteOnTop(accountId: number, unit: MovementUnit, movement: MovementRecord, seenVector: number | null): boolean {
    const held = this.held.get(accountId);
    const place = held && this.place(unit.id, movement.warehouseId);
    if (!place || !landsOnTop(place, movement.hlc)) return false;
    const seen = seenVector === null ? undefined : this.vectorBodies.get(seenVector);
    if (seenVector !== null && seen === undefined) return false; // not read yet in this transaction
    if (isAbsolute(movement.kind) && missesHeld(held!, movement.origin, seen)) return false;
    this.foldOnTop(accountId, unit, place, held!, movement, seenVector);
    return true;
  }

  /**
   * The fold's next step for a movement that lands on top of what preload read: its rows are left
   * for `flush`, and what preload read moves up to it.
   */
  private foldOnTop(
    accountId: number,
    unit: MovementUnit,
    place: PlaceState,
    held: Record<string, number>,
    movement: MovementRecord,
    seenVector: number | null,
  ): void {
    const oldQuantity = place.quantity;
    const newQuantity = foldStep(oldQuantity, movement.kind, movement.value);
    if (newQuantity !== oldQuantity)
      this.unwrittenQuantities.set(`${unit.id}/${movement.warehouseId}`, {
        unitId: unit.id,
        warehouseId: movement.warehouseId,
        quantity: newQuantity,
      });
    this.unwrittenMovements.push(this.remoteRow(accountId, unit, movement, seenVector, { oldQuantity, newQuantity }));
    if (movement.seq > (held[movement.origin] ?? 0)) held[movement.origin] = movement.seq;
    place.latest = movement.hlc;
    place.quantity = newQuantity;
  }

  /**
   * Applies a movement of another instance. The caller has checked that it is new here and next in
   * its origin's sequence (sync/apply-movements.ts), so it is applied exactly once; it moves the
   * clock past the batch (`saw`).
   */
  async applyRemote(accountId: number, unit: MovementUnit, movement: MovementRecord, seenVector: number | null): Promise<void> {
    const held = this.held.get(accountId);
    const place = held && this.place(unit.id, movement.warehouseId);
    if (place && landsOnTop(place, movement.hlc)) {
      // On top of everything: no later movement can conflict with it, and an earlier one only when
      // this instance holds movements of another origin the movement had not seen (the query then
      // says whether any is of this unit and warehouse).
      const unseen = isAbsolute(movement.kind) && missesHeld(held!, movement.origin, await this.vector(seenVector));
      this.foldOnTop(accountId, unit, place, held!, movement, seenVector);
      if (unseen) {
        await this.flush();
        await this.detectConflicts(accountId, unit.id, movement.warehouseId, { ...movement, seenVector });
      }
      return;
    }
    await this.flush();
    const late = place ? true : await this.isLate(unit.id, movement.warehouseId, movement.hlc);
    const applied = late
      ? { oldQuantity: null, newQuantity: movement.value }
      : await this.applyOnTop(unit.id, movement.warehouseId, movement.kind, movement.value);
    await this.q.run(insertMovement, this.remoteRow(accountId, unit, movement, seenVector, applied));
    if (late) await this.refold(unit.id, movement.warehouseId, movement.hlc, { origin: movement.origin, seq: movement.seq });
    this.forget(unit.id, movement.warehouseId);
    if (held) held[movement.origin] = Math.max(held[movement.origin] ?? 0, movement.seq);
    await this.detectConflicts(accountId, unit.id, movement.warehouseId, { ...movement, seenVector });
  }

  /** The history row of a movement of another instance. */
  private remoteRow(
    accountId: number,
    unit: MovementUnit,
    movement: MovementRecord,
    seenVector: number | null,
    applied: Applied,
  ): InsertParams {
    return {
      accountId,
      unitId: unit.id,
      itemId: unit.itemId,
      variantId: unit.variantId,
      warehouseId: movement.warehouseId,
      origin: movement.origin,
      seq: movement.seq,
      kind: movement.kind,
      value: movement.value,
      hlc: movement.hlc,
      seenVector,
      oldQuantity: applied.oldQuantity,
      newQuantity: applied.newQuantity,
      source: movement.source,
      tokenId: null,
      reason: movement.reason,
      reference: movement.reference,
      createdAt: movement.createdAt,
    };
  }

  /** Writes what applyRemote left unwritten (see `unwrittenMovements`). */
  async flush(): Promise<void> {
    const rows = this.unwrittenMovements;
    for (let from = 0; from < rows.length;) {
      const length = chunkLength(rows.length - from);
      await this.q.run(insertMovements, columnsOf(rows, from, length));
      from += length;
    }
    rows.length = 0;
    const quantities = [...this.unwrittenQuantities.values()];
    for (let from = 0; from < quantities.length;) {
      const length = chunkLength(quantities.length - from);
      await this.q.run(upsertQuantities, columnsOf(quantities, from, length));
      from += length;
    }
    this.unwrittenQuantities.clear();
  }

  /**
   * Reads, for a batch of movements of other instances about to be applied (sync/apply-movements.ts),
   * what applyRemote would otherwise ask of every movement of these units: the latest timestamp of
   * each unit and warehouse and its stored quantity; and what this instance holds
   * of every origin (its seen vector and its own highest sequence). Kept up to date as movements are
   * applied on top; a unit and warehouse that takes one in the past (refolded) or a movement made
   * here goes back to queries.
   *
   * `earliest`: per unit, the earliest timestamp of the batch's movements. Nothing held here is
   * later than the account's latest timestamp, so a unit whose movements all come after it needs no
   * look at its history (the common case: movements newer than anything this instance has); that
   * latest timestamp then stands in for its own.
   */
  async preload(accountId: number, earliest: ReadonlyMap<number, string>): Promise<void> {
    const { q } = this;
    await this.flush();
    if (!this.held.has(accountId)) {
      const own = Number((await q.first(lastSeq, { accountId, origin: this.instance }))?.seq ?? 0);
      this.held.set(accountId, { ...(await this.vector(await this.seenVector(accountId))), ...(own > 0 ? { [this.instance]: own } : {}) });
    }
    const accountLatest = (await q.first(latestOfAccount, { accountId }))?.hlc ?? undefined;
    const unitIds = [...earliest.keys()];
    for (let i = 0; i < unitIds.length; i += 500) {
      const ids = unitIds.slice(i, i + 500).filter((id) => !this.loadedUnits.has(id));
      if (ids.length === 0) continue;
      const exact = ids.filter((id) => accountLatest !== undefined && earliest.get(id)! <= accountLatest);
      for (const id of ids) if (accountLatest !== undefined && earliest.get(id)! > accountLatest) this.latestBound.set(id, accountLatest);
      if (exact.length > 0) {
        // stock_history_unit_hlc answers this alone.
        const latest = await q.all(
          q.k
            .selectFrom('stock_history')
            .select(['unit_id', 'warehouse_id', (eb) => eb.fn.max('hlc').as('hlc')])
            .where('unit_id', 'in', exact)
            .groupBy(['unit_id', 'warehouse_id']),
        );
        for (const row of latest) this.placeState(row.unit_id, row.warehouse_id).latest = row.hlc;
      }
      for (const row of await q.all(q.k.selectFrom('stock').select(['unit_id', 'warehouse_id', 'quantity']).where('unit_id', 'in', ids))) {
        this.placeState(row.unit_id, row.warehouse_id).quantity = row.quantity;
      }
      for (const id of ids) this.loadedUnits.add(id);
    }
  }

  /** What preload knows of a unit in a warehouse; undefined when it was not read or no longer holds. */
  private place(unitId: number, warehouseId: number): PlaceState | undefined {
    if (!this.loadedUnits.has(unitId) || this.stale.has(`${unitId}/${warehouseId}`)) return undefined;
    return this.placeState(unitId, warehouseId);
  }

  private placeState(unitId: number, warehouseId: number): PlaceState {
    const key = `${unitId}/${warehouseId}`;
    let place = this.places.get(key);
    if (!place) this.places.set(key, (place = { latest: this.latestBound.get(unitId), quantity: null }));
    return place;
  }

  private forget(unitId: number, warehouseId: number): void {
    if (this.loadedUnits.has(unitId)) this.stale.add(`${unitId}/${warehouseId}`);
  }

  /** True when some movement of the unit and warehouse is later than `hlc`. */
  private async isLate(unitId: number, warehouseId: number, hlc: string): Promise<boolean> {
    const latest = await this.q.first(latestOfUnit, { unitId, warehouseId });
    return latest !== undefined && latest.hlc > hlc;
  }

  /**
   * The newest step of the fold (foldStep). `current`: the stored quantity when the caller has just
   * read it (or knows there is none).
   */
  private async applyOnTop(unitId: number, warehouseId: number, kind: string, value: number, current?: number | null): Promise<Applied> {
    const oldQuantity = current !== undefined ? current : await this.quantity(unitId, warehouseId);
    const newQuantity = foldStep(oldQuantity, kind, value);
    if (newQuantity !== oldQuantity) await this.q.run(upsertQuantity, { unitId, warehouseId, quantity: newQuantity });
    return { oldQuantity, newQuantity };
  }

  /**
   * Folds a unit in a warehouse again from the last set or count before `hlc` (or from the start),
   * rewriting the before/after quantities of the movements that changed and the stored quantity.
   * Returns what the movement `mine` ended up with.
   */
  private async refold(unitId: number, warehouseId: number, hlc: string, mine: { origin: string; seq: number }): Promise<Applied> {
    const { q } = this;
    const base = await q.first(
      q.k
        .selectFrom('stock_history')
        .select(['hlc', 'new_quantity'])
        .where('unit_id', '=', unitId)
        .where('warehouse_id', '=', warehouseId)
        .where('hlc', '<', hlc)
        .where('kind', 'in', ABSOLUTE_KINDS)
        .orderBy('hlc', 'desc')
        .limit(1),
    );
    let query = q.k
      .selectFrom('stock_history')
      .select(['id', 'origin', 'seq', 'kind', 'value', 'old_quantity', 'new_quantity'])
      .where('unit_id', '=', unitId)
      .where('warehouse_id', '=', warehouseId)
      .orderBy('hlc');
    if (base) query = query.where('hlc', '>', base.hlc);
    const rewritten: { id: number; oldQuantity: number | null; newQuantity: number }[] = [];
    let result: Applied = { oldQuantity: null, newQuantity: 0 };
    const { quantity } = foldFrom(base ? base.new_quantity : null, await q.all(query), (row, oldQuantity, newQuantity) => {
      if (row.old_quantity !== oldQuantity || row.new_quantity !== newQuantity) rewritten.push({ id: row.id, oldQuantity, newQuantity });
      if (row.origin === mine.origin && row.seq === mine.seq) result = { oldQuantity, newQuantity };
    });
    for (const row of rewritten) {
      await q.run(
        q.k.updateTable('stock_history').set({ old_quantity: row.oldQuantity, new_quantity: row.newQuantity }).where('id', '=', row.id),
      );
    }
    if (quantity !== null) await q.run(upsertQuantity, { unitId, warehouseId, quantity });
    return result;
  }

  /**
   * Lists the conflicts `movement` takes part in (docs/SYNC.md, "Conflicts"; the rule is isConflict
   * of movements/fold.ts): as the later one, with the earlier movements of other instances; as the
   * earlier one, with the later ones.
   */
  private async detectConflicts(
    accountId: number,
    unitId: number,
    warehouseId: number,
    movement: { origin: string; seq: number; kind: string; hlc: string; seenVector: number | null },
  ): Promise<void> {
    const { q } = this;
    const vectorOf = (id: number | null) => this.vector(id);
    const pairs: { later: { origin: string; seq: number }; earlier: { origin: string; seq: number } }[] = [];
    const where = { unitId, warehouseId, hlc: movement.hlc, origin: movement.origin };
    if (isAbsolute(movement.kind)) {
      // An adjust is never the later one of a conflict.
      const seen = await vectorOf(movement.seenVector);
      for (const row of await q.all(othersBefore, where))
        if (isConflict(movement, seen, row)) pairs.push({ later: movement, earlier: row });
    }
    for (const row of await q.all(othersAfter, where)) {
      if (!kindsConflict(row.kind, movement.kind)) continue; // its vector is read only when it may matter
      if (isConflict(row, await vectorOf(row.seen_vector), movement)) pairs.push({ later: row, earlier: movement });
    }
    for (const { later: l, earlier: e } of pairs) {
      await q.run(insertConflict, {
        accountId,
        unitId,
        warehouseId,
        laterOrigin: l.origin,
        laterSeq: l.seq,
        earlierOrigin: e.origin,
        earlierSeq: e.seq,
        at: this.at,
      });
    }
  }

  /** A stored vector, parsed (`{}` for none); read once per transaction. */
  private async vector(id: number | null): Promise<Record<string, number>> {
    if (id === null) return {};
    let vector = this.vectorBodies.get(id);
    if (!vector) {
      const body = (await this.q.first(vectorById, { id }))?.body;
      vector = body ? (JSON.parse(body) as Record<string, number>) : {};
      this.vectorBodies.set(id, vector);
    }
    return vector;
  }

  /** The id of a vector when this transaction has it already (null for none), else undefined: then await internVector. */
  knownVector(accountId: number, vector: Record<string, number> | null): number | null | undefined {
    if (!vector || Object.keys(vector).length === 0) return null;
    // A batch's movements mostly carry the vector of the one before: no sorting and writing it out again.
    const last = this.lastInterned;
    return last && last.accountId === accountId && sameVector(last.vector, vector) ? last.id : undefined;
  }

  /** The id of a vector (interned per account). */
  async internVector(accountId: number, vector: Record<string, number> | null): Promise<number | null> {
    const known = this.knownVector(accountId, vector);
    if (known !== undefined || !vector) return known ?? null;
    const body = vectorBody(vector);
    const key = `${accountId} ${body}`;
    let id = this.vectorIds.get(key);
    if (id === undefined) {
      await this.q.run(insertVector, { accountId, body });
      id = (await this.q.first(vectorByBody, { accountId, body }))!.id;
      this.vectorIds.set(key, id);
    }
    const copy = { ...vector }; // the caller may change its object later
    this.lastInterned = { accountId, vector: copy, id };
    if (!this.vectorBodies.has(id)) this.vectorBodies.set(id, copy);
    return id;
  }

  /**
   * After movements of other instances arrived: what this instance has seen of them now, for the sets
   * and counts it makes next. With `arrived` (the highest sequence now held of each origin of a batch
   * just applied), the stored vector is moved up to it; without, it is read from the whole history.
   */
  async refreshSeenVector(accountId: number, arrived?: Record<string, number>): Promise<Record<string, number>> {
    const { q } = this;
    let vector: Record<string, number>;
    if (arrived) {
      vector = { ...(await this.vector(await this.seenVector(accountId))) };
      for (const [origin, seq] of Object.entries(arrived))
        if (origin !== this.instance && seq > (vector[origin] ?? 0)) vector[origin] = seq;
    } else {
      await this.flush();
      const rows = await q.all(
        q.k
          .selectFrom('stock_history')
          .select(['origin', (eb) => eb.fn.max('seq').as('seq')])
          .where('account_id', '=', accountId)
          .where('origin', '!=', this.instance)
          .groupBy('origin'),
      );
      vector = Object.fromEntries(rows.map((r) => [r.origin, Number(r.seq)]));
    }
    const id = await this.internVector(accountId, vector);
    await q.run(q.k.updateTable('accounts').set({ seen_vector: id }).where('id', '=', accountId));
    this.seenVectors.set(accountId, id);
    return vector;
  }
}
