// The movement log (docs/SYNC.md). Every change of a quantity, made here or by another instance, is
// an immutable movement: `set` (absolute), `count` (a stocktake line: there were N at time T) or
// `adjust` (a delta), with a global identity (origin instance + that instance's gapless sequence for
// the account) and a hybrid logical clock timestamp. The quantity of a unit in a warehouse is the
// fold of its movements in timestamp order — set and count replace, adjust adds — kept in `stock`.
// A movement later than everything of its unit and warehouse is applied on top; one that lands in
// the past (a laptop that was offline, a stocktake line counted before sales were recorded) is
// inserted at its place and only that unit and warehouse is folded again, from the last set or count
// before it.
//
// One MovementLog serves one write transaction: it reads the instance's clock and sequences once,
// hands out timestamps and sequence numbers, and writes the clock back when the transaction ends.
import { type Hlc, formatHlc, parseHlc, receive, tick } from './hlc.ts';
import { type Param, type Queries, statement } from './engine.ts';

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

const isAbsolute = (kind: string) => kind === 'set' || kind === 'count';

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

const lastSeq = statement('movements.lastSeq', (k, p: Param<{ accountId: number; origin: string }>) =>
  k.selectFrom('stock_history').select((eb) => eb.fn.max('seq').as('seq')).where('account_id', '=', p('accountId')).where('origin', '=', p('origin')),
);

export class MovementLog {
  readonly q: Queries;
  readonly instance: string;
  private readonly clock: StoreClock;
  private last: Hlc | undefined;
  private lastChanged = false;
  private readonly nextSeqs = new Map<number, number>();
  private readonly seenVectors = new Map<number, number | null>();
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

  /** Moves the clock past a timestamp of another instance. */
  private saw(hlc: Hlc): void {
    this.last = receive(this.last, hlc, this.clock.now(), this.instance);
    this.lastChanged = true;
  }

  /** Writes the clock back; the transaction's last step. */
  async close(): Promise<void> {
    if (this.lastChanged && this.last) await this.q.run(this.q.k.updateTable('instance').set({ last_hlc: formatHlc(this.last) }).where('id', '=', this.instance));
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
    const hlc = options.hlc ?? this.nextHlc();
    const seq = await this.nextSeq(accountId);
    const seenVector = isAbsolute(kind) ? await this.seenVector(accountId) : null;
    const late = options.hlc !== undefined && (await this.isLate(unit.id, warehouseId, hlc));
    let applied: Applied;
    if (options.applied) applied = options.applied;
    else if (late) applied = { oldQuantity: null, newQuantity: value }; // refolded below
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
   * Applies a movement of another instance. The caller has checked that it is new here and next in
   * its origin's sequence (sync.ts, applyMovements), so it is applied exactly once.
   */
  async applyRemote(accountId: number, unit: MovementUnit, movement: MovementRecord, seenVector: number | null): Promise<void> {
    this.saw(parseHlc(movement.hlc)!);
    const late = await this.isLate(unit.id, movement.warehouseId, movement.hlc);
    const applied = late ? { oldQuantity: null, newQuantity: movement.value } : await this.applyOnTop(unit.id, movement.warehouseId, movement.kind, movement.value);
    await this.q.run(insertMovement, {
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
    });
    if (late) await this.refold(unit.id, movement.warehouseId, movement.hlc, { origin: movement.origin, seq: movement.seq });
    await this.detectConflicts(accountId, unit.id, movement.warehouseId, { ...movement, seenVector });
  }

  /** True when some movement of the unit and warehouse is later than `hlc`. */
  private async isLate(unitId: number, warehouseId: number, hlc: string): Promise<boolean> {
    const latest = await this.q.first(latestOfUnit, { unitId, warehouseId });
    return latest !== undefined && latest.hlc > hlc;
  }

  /** The newest step of the fold: a set or count replaces, an adjust adds. */
  /** `current`: the stored quantity when the caller has just read it (or knows there is none). */
  private async applyOnTop(unitId: number, warehouseId: number, kind: string, value: number, current?: number | null): Promise<Applied> {
    const oldQuantity = current !== undefined ? current : await this.quantity(unitId, warehouseId);
    const newQuantity = isAbsolute(kind) ? value : (oldQuantity ?? 0) + value;
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
        .where('kind', 'in', ['set', 'count'])
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
    let quantity: number | null = base ? base.new_quantity : null;
    let result: Applied = { oldQuantity: null, newQuantity: 0 };
    for (const row of await q.all(query)) {
      const oldQuantity = quantity;
      quantity = isAbsolute(row.kind) ? row.value : (quantity ?? 0) + row.value;
      if (row.old_quantity !== oldQuantity || row.new_quantity !== quantity) {
        await q.run(q.k.updateTable('stock_history').set({ old_quantity: oldQuantity, new_quantity: quantity }).where('id', '=', row.id));
      }
      if (row.origin === mine.origin && row.seq === mine.seq) result = { oldQuantity, newQuantity: quantity };
    }
    if (quantity !== null) await q.run(upsertQuantity, { unitId, warehouseId, quantity });
    return result;
  }

  /**
   * Lists the conflicts `movement` takes part in (docs/SYNC.md, "Conflicts"): as the later one, a set
   * made without seeing an earlier movement of another instance (for a count, only an earlier set or
   * count: the shelf it counted already reflected the sales before it); as the earlier one, every
   * later set or count of another instance that had not seen it.
   */
  private async detectConflicts(
    accountId: number,
    unitId: number,
    warehouseId: number,
    movement: { origin: string; seq: number; kind: string; hlc: string; seenVector: number | null },
  ): Promise<void> {
    const { q } = this;
    const vectors = new Map<number | null, Record<string, number>>();
    const vectorOf = async (id: number | null) => {
      if (!vectors.has(id)) {
        const body = id === null ? undefined : (await q.first(q.k.selectFrom('sync_vectors').select('body').where('id', '=', id)))?.body;
        vectors.set(id, body ? (JSON.parse(body) as Record<string, number>) : {});
      }
      return vectors.get(id)!;
    };
    const pairs: { later: { origin: string; seq: number }; earlier: { origin: string; seq: number } }[] = [];
    if (isAbsolute(movement.kind)) {
      const seen = await vectorOf(movement.seenVector);
      let earlier = q.k
        .selectFrom('stock_history')
        .select(['origin', 'seq'])
        .where('unit_id', '=', unitId)
        .where('warehouse_id', '=', warehouseId)
        .where('hlc', '<', movement.hlc)
        .where('origin', '!=', movement.origin);
      if (movement.kind === 'count') earlier = earlier.where('kind', 'in', ['set', 'count']);
      for (const row of await q.all(earlier)) {
        if ((seen[row.origin] ?? 0) < row.seq) pairs.push({ later: movement, earlier: row });
      }
    }
    const later = q.k
      .selectFrom('stock_history')
      .select(['origin', 'seq', 'kind', 'seen_vector'])
      .where('unit_id', '=', unitId)
      .where('warehouse_id', '=', warehouseId)
      .where('hlc', '>', movement.hlc)
      .where('origin', '!=', movement.origin)
      .where('kind', 'in', isAbsolute(movement.kind) ? ['set', 'count'] : ['set']);
    for (const row of await q.all(later)) {
      if (((await vectorOf(row.seen_vector))[movement.origin] ?? 0) < movement.seq) pairs.push({ later: row, earlier: movement });
    }
    for (const { later: l, earlier: e } of pairs) {
      await q.run(
        q.k
          .insertInto('stock_conflicts')
          .values({
            account_id: accountId,
            unit_id: unitId,
            warehouse_id: warehouseId,
            later_origin: l.origin,
            later_seq: l.seq,
            earlier_origin: e.origin,
            earlier_seq: e.seq,
            detected_at: this.at,
          })
          .onConflict((oc) => oc.columns(['account_id', 'later_origin', 'later_seq', 'earlier_origin', 'earlier_seq']).doNothing()),
      );
    }
  }

  /** The id of a vector (interned per account). */
  async internVector(accountId: number, vector: Record<string, number> | null): Promise<number | null> {
    if (!vector || Object.keys(vector).length === 0) return null;
    const body = vectorBody(vector);
    const { q } = this;
    await q.run(q.k.insertInto('sync_vectors').values({ account_id: accountId, body }).onConflict((oc) => oc.columns(['account_id', 'body']).doNothing()));
    return (await q.first(q.k.selectFrom('sync_vectors').select('id').where('account_id', '=', accountId).where('body', '=', body)))!.id;
  }

  /** After movements of other instances arrived: what this instance has seen of them now, for the sets and counts it makes next. */
  async refreshSeenVector(accountId: number): Promise<Record<string, number>> {
    const { q } = this;
    const rows = await q.all(
      q.k
        .selectFrom('stock_history')
        .select(['origin', (eb) => eb.fn.max('seq').as('seq')])
        .where('account_id', '=', accountId)
        .where('origin', '!=', this.instance)
        .groupBy('origin'),
    );
    const vector = Object.fromEntries(rows.map((r) => [r.origin, Number(r.seq)]));
    const id = await this.internVector(accountId, vector);
    await q.run(q.k.updateTable('accounts').set({ seen_vector: id }).where('id', '=', accountId));
    this.seenVectors.set(accountId, id);
    return vector;
  }
}
