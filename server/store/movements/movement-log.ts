// The movement log (docs/SYNC.md). Every change of a quantity, made here or by another instance, is
// an immutable movement: `set` (absolute), `count` (a stocktake line: there were N at time T) or
// `adjust` (a delta), with a global identity (origin instance + that instance's gapless sequence for
// the account) and a hybrid logical clock timestamp (movements/hlc.ts). The quantity of a unit in a
// warehouse is the fold of its movements in timestamp order, kept in `stock`; the fold and the
// conflict rules are movements/fold.ts.
// A movement later than everything of its unit and warehouse is applied on top; one that lands in
// the past (a laptop that was offline, a stocktake line counted before sales were recorded) is
// inserted at its place and only that unit and warehouse is folded again, from the last set or count
// before it — once per batch, however many of the batch's movements land there.
// Conflicts are groups per place (docs/SYNC.md, "Conflicts"; the walk is movements/fold.ts): a
// movement on top is judged against its place's latest set or count and the adjusts since, read
// only when it may conflict or the place has an open group; a place folded again has its groups
// walked again from the group open where the batch's movements begin.
//
// One MovementLog serves one write transaction: it reads the instance's clock and sequences once,
// hands out timestamps and sequence numbers, and writes the clock back when the transaction ends.
import { recordAudit } from '../audit.ts';
import { MAX_QUANTITY, MIN_QUANTITY, type MovementSourceName, syncMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import { sql } from 'kysely';
import { type Param, type Queries, type StatementDef, chunkLength, columnsOf, inChunks, inList, statement } from '../engine.ts';
import type { StockConflictGroupTable } from '../schema.ts';
import { heldVector } from '../sync/held-vector.ts';
import {
  ABSOLUTE_KINDS,
  type ConflictGroup,
  ConflictWalk,
  type MovementId,
  type SeenVector,
  foldStep,
  isAbsolute,
  missesHeld,
  type WalkMovement,
} from './fold.ts';
import { type Hlc, formatHlc, hlcCounter, hlcKey, parseHlc, receive, tick } from './hlc.ts';
import { SOURCE_IDS } from './movement-names.ts';
import { vectorBody, vectorHash } from './vector-text.ts';
import { type RowBound, type TimeBound, afterRow, before, newestFirst, oldestFirstById, timeBound } from './time-order.ts';

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
  source: MovementSourceName;
  tokenId?: number | null;
  /** Who made it: the person signed in on a shared scanner, the token's label, the command line (store/audit.ts). */
  actor?: string | null;
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
  source: MovementSourceName;
  reason: string | null;
  reference: string | null;
  /** When its origin recorded it, ms since 1970. */
  createdMs: number;
  /** Who made it, as its origin recorded it; null for movements made before actors. */
  actor: string | null;
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

const latestOfUnit = statement('movements.latest', (k, p: Param<{ unitId: number; warehouseId: number }>) =>
  k
    .selectFrom('stock_history')
    .select('hlc')
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .$call(newestFirst())
    .limit(1),
);

const latestOfAccount = statement('movements.latestOfAccount', (k, p: Param<{ accountId: number }>) =>
  k.selectFrom('stock_history').select('hlc').where('account_id', '=', p('accountId')).$call(newestFirst()).limit(1),
);

const quantityOf = statement('movements.quantity', (k, p: Param<{ unitId: number; warehouseId: number }>) =>
  k.selectFrom('stock').select('quantity').where('unit_id', '=', p('unitId')).where('warehouse_id', '=', p('warehouseId')),
);

/** Every stored quantity of several units (the stock's primary key leads with the unit). */
const quantitiesOfUnits = statement('movements.quantitiesOfUnits', (k, p: Param<{ unitIds: number[] }>) =>
  k.selectFrom('stock').select(['unit_id', 'warehouse_id', 'quantity']).where('unit_id', 'in', p.list('unitIds')),
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
  /** hlcKey(hlc): what the indexes hold. */
  hlcKey: number;
  /** The timestamp's counter: with the key's wall time and the origin, the engine makes the text (`hlc`). */
  hlcCounter: number;
  seenVector: number | null;
  oldQuantity: number | null;
  newQuantity: number;
  /** movement_sources.id (SOURCE_IDS). */
  sourceId: number;
  tokenId: number | null;
  reason: string | null;
  reference: string | null;
  /** ms since 1970. */
  createdMs: number;
  /** movement_actors.id of its actor's name (resolveActors). */
  actorId: number | null;
};

/** A history row waiting for `flush`: its actor still a name, its timestamp still whole (flush stores its key and counter). */
type UnwrittenMovement = Omit<InsertParams, 'actorId' | 'hlcKey' | 'hlcCounter'> & { actor: string | null; hlc: string };

/** Column by column, for `insertMovements`: one list per column, element i of each is row i. */
type InsertColumns = { [K in keyof InsertParams]: InsertParams[K][] };

/** Several movements in one INSERT (compiled once per chunk length: see chunkLength in engine.ts). */
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
    hlcKey: column('hlcKey'),
    hlcCounter: column('hlcCounter'),
    seenVector: column('seenVector'),
    oldQuantity: column('oldQuantity'),
    newQuantity: column('newQuantity'),
    sourceId: column('sourceId'),
    tokenId: column('tokenId'),
    reason: column('reason'),
    reference: column('reference'),
    createdMs: column('createdMs'),
    actorId: column('actorId'),
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
      hlc_key: c.hlcKey[i]!,
      hlc_counter: c.hlcCounter[i]!,
      seen_vector: c.seenVector[i]!,
      old_quantity: c.oldQuantity[i]!,
      new_quantity: c.newQuantity[i]!,
      source_id: c.sourceId[i]!,
      token_id: c.tokenId[i]!,
      reason: c.reason[i]!,
      reference: c.reference[i]!,
      created_ms: c.createdMs[i]!,
      actor_id: c.actorId[i]!,
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

const vectorById = statement('movements.vectorById', (k, p: Param<{ id: number }>) =>
  k.selectFrom('sync_vectors').select('body').where('id', '=', p('id')),
);

const vectorsByHash = statement('movements.vectorsByHash', (k, p: Param<{ accountId: number; hash: string }>) =>
  k.selectFrom('sync_vectors').select(['id', 'body']).where('account_id', '=', p('accountId')).where('hash', '=', p('hash')),
);

const insertVector = statement('movements.insertVector', (k, p: Param<{ accountId: number; hash: string; body: string }>) =>
  k
    .insertInto('sync_vectors')
    .values({ account_id: p('accountId'), hash: p('hash'), body: p('body') })
    .returning('id'),
);

/**
 * What a transaction's movements made here need to know of their account, in one query (a round trip
 * each on PostgreSQL): its seen vector, the highest sequence this instance gave it, its latest
 * timestamp, whether it has an open conflict group, and the id of the first movement's actor's name
 * (null when the name is new or there is none: '' matches none), so a request's movements need no
 * look-up of their own.
 */
const accountState = statement('movements.accountState', (k, p: Param<{ accountId: number; origin: string; actor: string }>) =>
  k
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.seen_vector',
      'a.seen_stale',
      eb
        .selectFrom('stock_history')
        .select((h) => h.fn.max('seq').as('seq'))
        .where('account_id', '=', p('accountId'))
        .where('origin', '=', p('origin'))
        .as('last_seq'),
      eb.selectFrom('stock_history').select('hlc').where('account_id', '=', p('accountId')).$call(newestFirst()).limit(1).as('latest_hlc'),
      eb
        .selectFrom('stock_conflict_groups')
        .select('id')
        .where('account_id', '=', p('accountId'))
        .where('open', '=', 1)
        .limit(1)
        .as('open_group'),
      eb.selectFrom('movement_actors').select('id').where('name', '=', p('actor')).as('actor_id'),
    ])
    .where('a.id', '=', p('accountId')),
);

/** The ids of actors' names (each chunk compiled once per length). */
const actorsNamed = statement('movements.actorsNamed', (k, p: Param<{ names: string[] }>) =>
  k.selectFrom('movement_actors').select(['id', 'name']).where('name', 'in', p.list('names')),
);

/** Names seen for the first time. */
const insertActors = statement('movements.insertActors', (k, p: Param<{ names: string[] }>) =>
  k
    .insertInto('movement_actors')
    .values((p.list('names') as unknown as string[]).map((name) => ({ name })))
    .returning(['id', 'name']),
);

const internedSeen = statement('movements.internedSeen', (k, p: Param<{ accountId: number; id: number }>) =>
  k
    .updateTable('accounts')
    .set({ seen_vector: p('id'), seen_stale: 0 })
    .where('id', '=', p('accountId')),
);

/** Movements of other instances arrived: the next set or count made here interns its seen vector again. */
const seenMoved = statement('movements.seenMoved', (k, p: Param<{ accountId: number }>) =>
  k.updateTable('accounts').set({ seen_stale: 1 }).where('id', '=', p('accountId')).where('seen_stale', '=', 0),
);

type PlaceParams = { unitId: number; warehouseId: number };

/** The latest set or count of a place before `hlc` (pass a timestamp past every other for the latest of all). */
const absoluteBefore = statement('movements.absoluteBefore', (k, p: Param<PlaceParams & TimeBound>) =>
  k
    .selectFrom('stock_history')
    .select(['id', 'origin', 'seq', 'kind', 'value', 'hlc'])
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .$call(before({ hlc: p('hlc'), key: p('key') }))
    .where('kind', 'in', ABSOLUTE_KINDS)
    .$call(newestFirst())
    .limit(1),
);

/**
 * Rows of a place a refold, or a conflict walk, reads in one statement. A refold reads from the set or
 * count before the movements in the past to the end of the place's history, a walk every adjust since
 * the last set or count: 100,000 rows on a place sold from and never counted, which read whole held
 * the event loop (every account's requests) for 228-355 ms (bench/late-movement.ts). A page at a
 * time, the loop turns between pages (sqlite-engine.ts) and a statement holds one page.
 */
export const FOLD_PAGE_ROWS = 1_000;

/** A page of a place's movements after a row (afterRow), in time order, with what each had seen: a refold's and a walk's rows. */
const movementsFromPage = statement('movements.fromPage', (k, p: Param<PlaceParams & RowBound>) =>
  k
    .selectFrom('stock_history as h')
    .leftJoin('sync_vectors as v', 'v.id', 'h.seen_vector')
    .select(['h.id', 'h.origin', 'h.seq', 'h.kind', 'h.value', 'h.hlc', 'h.seen_vector', 'v.body', 'h.old_quantity', 'h.new_quantity'])
    .where('h.unit_id', '=', p('unitId'))
    .where('h.warehouse_id', '=', p('warehouseId'))
    .$call(afterRow({ hlc: p('hlc'), key: p('key'), id: p('id') }, 'h'))
    .$call(oldestFirstById('h'))
    .limit(FOLD_PAGE_ROWS),
);

/** A row of a place as movementsFromPage reads it. */
type FoldRow = typeof movementsFromPage extends StatementDef<infer R, never> ? R : never;

/**
 * An adjust as a conflict walk keeps it in its window until the next set or count: the fields it
 * reads, not the row, since a place may have thousands of adjusts in a row.
 */
const walkAdjust = (row: FoldRow): WalkMovement => ({ origin: row.origin, seq: row.seq, kind: row.kind, hlc: row.hlc });

type Step = { id: number; oldQuantity: number | null; newQuantity: number };

/**
 * The before/after quantities of several history rows in one UPDATE (a CASE on the id; compiled
 * once per chunk length, see chunkLength in engine.ts): a refold rewrites every step after a movement in the
 * past, thousands on a long history, which one statement per row made a PostgreSQL round trip each.
 * The casts type the parameters for PostgreSQL, where a CASE of bare parameters would be text.
 */
const rewriteSteps = statement('movements.rewriteSteps', (k, p: Param<{ [K in keyof Step]: Step[K][] }>) => {
  const ids = p.list('id') as unknown as number[];
  const olds = p.list('oldQuantity') as unknown as (number | null)[];
  const news = p.list('newQuantity') as unknown as number[];
  const byId = (values: readonly (number | null)[]) =>
    sql<number>`case ${sql.ref('id')} ${sql.join(
      ids.map((id, i) => sql`when ${id} then cast(${values[i]} as integer)`),
      sql` `,
    )} end`;
  return k
    .updateTable('stock_history')
    .set({ old_quantity: byId(olds), new_quantity: byId(news) })
    .where('id', 'in', ids);
});

/** The place's latest group that began before `hlc`: the one open there, if it was not resolved before it. */
const groupBefore = statement('movements.groupBefore', (k, p: Param<PlaceParams & { hlc: string }>) =>
  k
    .selectFrom('stock_conflict_groups')
    .select(['first_hlc', 'open', 'resolved_hlc'])
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .where('first_hlc', '<', p('hlc'))
    .orderBy('first_hlc', 'desc')
    .limit(1),
);

const groupsFrom = statement('movements.groupsFrom', (k, p: Param<PlaceParams & { hlc: string }>) =>
  k
    .selectFrom('stock_conflict_groups')
    .select(['id', 'first_origin', 'first_seq'])
    .where('unit_id', '=', p('unitId'))
    .where('warehouse_id', '=', p('warehouseId'))
    .where('first_hlc', '>=', p('hlc')),
);

type GroupParams = {
  lastOrigin: string;
  lastSeq: number;
  earlierOrigin: string;
  earlierSeq: number;
  movements: number;
  racing: number;
  members: string;
  open: number;
  resolvedOrigin: string | null;
  resolvedSeq: number | null;
  resolvedHlc: string | null;
};

const groupColumns = (p: Param<GroupParams>) => ({
  last_origin: p('lastOrigin'),
  last_seq: p('lastSeq'),
  earlier_origin: p('earlierOrigin'),
  earlier_seq: p('earlierSeq'),
  movements: p('movements'),
  racing: p('racing'),
  members: p('members'),
  open: p('open'),
  resolved_origin: p('resolvedOrigin'),
  resolved_seq: p('resolvedSeq'),
  resolved_hlc: p('resolvedHlc'),
});

const insertGroup = statement(
  'movements.insertGroup',
  (k, p: Param<GroupParams & PlaceParams & { accountId: number; firstOrigin: string; firstSeq: number; firstHlc: string; at: string }>) =>
    k.insertInto('stock_conflict_groups').values({
      account_id: p('accountId'),
      unit_id: p('unitId'),
      warehouse_id: p('warehouseId'),
      first_origin: p('firstOrigin'),
      first_seq: p('firstSeq'),
      first_hlc: p('firstHlc'),
      ...groupColumns(p),
      detected_at: p('at'),
    }),
);

const updateGroup = statement('movements.updateGroup', (k, p: Param<GroupParams & { id: number }>) =>
  k.updateTable('stock_conflict_groups').set(groupColumns(p)).where('id', '=', p('id')),
);

const deleteGroup = statement('movements.deleteGroup', (k, p: Param<{ id: number }>) =>
  k.deleteFrom('stock_conflict_groups').where('id', '=', p('id')),
);

/** A set or count made here on top of its place had seen everything this instance holds: it resolves the open group. */
const resolveOpenGroup = statement(
  'movements.resolveOpenGroup',
  (k, p: Param<PlaceParams & { origin: string; seq: number; hlc: string }>) =>
    k
      .updateTable('stock_conflict_groups')
      .set({ open: 0, resolved_origin: p('origin'), resolved_seq: p('seq'), resolved_hlc: p('hlc') })
      .where('unit_id', '=', p('unitId'))
      .where('warehouse_id', '=', p('warehouseId'))
      .where('open', '=', 1),
);

function groupParams(group: ConflictGroup): GroupParams {
  return {
    lastOrigin: group.last.origin,
    lastSeq: group.last.seq,
    earlierOrigin: group.earlier.origin,
    earlierSeq: group.earlier.seq,
    movements: group.movements,
    racing: group.racing ? 1 : 0,
    members: JSON.stringify(group.members),
    open: group.resolvedBy ? 0 : 1,
    resolvedOrigin: group.resolvedBy?.origin ?? null,
    resolvedSeq: group.resolvedBy?.seq ?? null,
    resolvedHlc: group.resolvedBy?.hlc ?? null,
  };
}

/** A unit in a warehouse as this transaction knows it (see preload). */
interface PlaceState {
  accountId: number;
  unitId: number;
  warehouseId: number;
  /** Its latest timestamp (undefined: none), and its quantity (null: no stock definition). */
  latest: string | undefined;
  quantity: number | null;
  /** Its open conflict group as stored (null: none) and the group's id. */
  open: { group: ConflictGroup; id: number } | null;
  /** The conflict walk from its latest set or count on, once a movement needed it (readWalk). */
  walk: ConflictWalk | undefined;
  /** The earliest timestamp of this transaction's movements of the place. */
  earliest: string | undefined;
  /** Set once one of them landed in the past: the place is folded and walked again at the end of the batch. */
  late: boolean;
}

/** True when a movement at `hlc` comes after everything of the place: the fold's next step. */
const landsOnTop = (place: PlaceState, hlc: string) => place.latest === undefined || place.latest <= hlc;

/** Later than every timestamp (`9` sorts after every digit of a wall clock). */
const END_OF_TIME = '9';

/** How many places' quantities a transaction keeps in memory: far more than a request or a sync batch touches. */
const QUANTITIES_KEPT = 10_000;

const NOTHING_SEEN: SeenVector = Object.freeze({});

const idOf = (m: MovementId) => `${m.origin}-${m.seq}`;

/**
 * Quantities the caller read through `MovementLog.q` in the same transaction: every stock row of
 * each unit in `units`, by `unit/warehouse` (a place of those units not in `quantities` has none).
 */
export interface StoredStock {
  units: ReadonlySet<number>;
  quantities: ReadonlyMap<string, number>;
}

/** The instance's clock as the writes of one group transaction leave it (Queries.group). */
interface SharedClock {
  instance: string;
  last: Hlc | undefined;
}
const SHARED_CLOCK = 'movement-log clock';

const writeClock = (q: Queries, instance: string, last: Hlc) =>
  q.run(
    q.k
      .updateTable('instance')
      .set({ last_hlc: formatHlc(last) })
      .where('id', '=', instance),
  );

/** `q`, each statement of which first writes what `log` holds unwritten (see MovementLog.q). */
function flushingFirst(q: Queries, log: MovementLog): Queries {
  const first = <T>(statement: () => Promise<T>): Promise<T> => (log.holdsUnwritten() ? log.flush().then(statement) : statement());
  return {
    k: q.k,
    rowsPerStatement: q.rowsPerStatement,
    group: q.group,
    all: (target: never, params?: never) => first(() => q.all(target, params as never)),
    first: (target: never, params?: never) => first(() => q.first(target, params as never)),
    run: (target: never, params?: never) => first(() => q.run(target, params as never)),
  };
}

export class MovementLog {
  /**
   * The transaction's queries for everything outside the log: each statement first writes what the
   * log holds unwritten (`flush`), so no query of the caller's sees the history or the stock without it.
   */
  readonly q: Queries;
  /** The same transaction, for the log's own statements: each read of the history or the stock flushes first. */
  private readonly db: Queries;
  readonly instance: string;
  private readonly clock: StoreClock;
  private last: Hlc | undefined;
  private lastChanged = false;
  private readonly nextSeqs = new Map<number, number>();
  private readonly seenVectors = new Map<number, number | null>();
  /** Per account: its seen vector as readAccount found it, until seenVector takes it. */
  private readonly seenRows = new Map<number, { seen_vector: number | null; seen_stale: number }>();
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
  /** Per account: its latest timestamp when this transaction first recorded a movement of it (behindAccount). */
  private readonly accountLatest = new Map<number, string>();
  /** Per account: the highest sequence held of every origin, once preload read it. */
  private readonly held = new Map<number, Record<string, number>>();
  /** Per account: whether it has an open conflict group (read once, for the sets and counts made here). */
  private readonly openGroups = new Map<number, boolean>();
  /**
   * Per account: the first sequence this transaction gave a movement made here. Every one made here
   * from it on is this transaction's (sequences are gapless): a refused fold names one of them without
   * a set that grows with an import's million movements.
   */
  private readonly firstSeqs = new Map<number, number>();
  /** The movements of other instances this transaction applied (`origin-seq`): at most a batch of them. */
  private readonly appliedRemote = new Set<string>();
  /**
   * Movements applied on top of everything, recorded here (a request's rows) or of other instances
   * (the common case of a sync batch): their history rows and the quantities they leave, written
   * together by `flush` (several rows per statement, each unit and warehouse's quantity once) before
   * anything reads the history or the stock again, and at the end (`close`).
   */
  private readonly unwrittenMovements: UnwrittenMovement[] = [];
  /** movement_actors ids by name, as read or inserted in this transaction (dropped with it). */
  private readonly actorIds = new Map<string, number>();
  private readonly unwrittenQuantities = new Map<string, { unitId: number; warehouseId: number; quantity: number }>();
  /**
   * Quantities as this transaction leaves them (null: no stock definition), by `unit/warehouse`: read
   * together (`readQuantities`) or one by one, and changed by every movement applied on top. Inside a
   * write transaction the stock changes only through this log (engine.ts: one writer at a time), so
   * what is known here is what the database holds once flushed. A cache, not a record: emptied when
   * it reaches QUANTITIES_KEPT places (an import touches a million), a forgotten one is read again.
   */
  private readonly quantities = new Map<string, number | null>();
  /** When this transaction records its movements (`created_ms`). */
  readonly atMs: number;
  /** The same as text (a conflict group's `detected_at`). */
  readonly at: string;

  private constructor(q: Queries, instance: string, last: Hlc | undefined, clock: StoreClock) {
    this.db = q;
    this.q = flushingFirst(q, this);
    this.instance = instance;
    this.last = last;
    this.clock = clock;
    this.atMs = clock.now();
    this.at = new Date(this.atMs).toISOString();
  }

  /**
   * Opens the log of the transaction `q`: the instance's identity and clock as the database holds
   * them, or, for a later write of a group sharing one transaction, as the writes before it left them.
   */
  static async open(q: Queries, clock: StoreClock): Promise<MovementLog> {
    const shared = q.group?.values.get(SHARED_CLOCK) as SharedClock | undefined;
    if (shared) return new MovementLog(q, shared.instance, shared.last, clock);
    const row = await q.first(q.k.selectFrom('instance').select(['id', 'last_hlc']));
    if (!row) throw new Error('this database has no instance identity (migration 0007_movements did not run)');
    const last = row.last_hlc ? parseHlc(row.last_hlc) : undefined;
    q.group?.values.set(SHARED_CLOCK, { instance: row.id, last } satisfies SharedClock);
    return new MovementLog(q, row.id, last, clock);
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

  /**
   * Writes the clock back; the transaction's last step. In a group sharing one transaction, once
   * before its COMMIT: the clock only moves forward, so a later write's, or one a failed write left,
   * is as good.
   */
  async close(): Promise<void> {
    await this.flush();
    if (!this.lastChanged || !this.last) return;
    const shared = this.db.group?.values.get(SHARED_CLOCK) as SharedClock | undefined;
    if (!shared) return void (await writeClock(this.db, this.instance, this.last));
    shared.last = this.last;
    this.db.group!.beforeCommit(SHARED_CLOCK, (q) => writeClock(q, shared.instance, shared.last!));
  }

  /**
   * Reads what the movements made here need of an account (accountState) the first time one of them
   * needs any of it; what this transaction knows already is kept.
   */
  private async readAccount(accountId: number, actor?: string | null): Promise<void> {
    await this.flush();
    const row = await this.db.first(accountState, { accountId, origin: this.instance, actor: actor ?? '' });
    if (actor && row?.actor_id !== null && row?.actor_id !== undefined) this.actorIds.set(actor, row.actor_id);
    if (!this.nextSeqs.has(accountId)) this.nextSeqs.set(accountId, Number(row?.last_seq ?? 0) + 1);
    if (!this.accountLatest.has(accountId)) this.accountLatest.set(accountId, row?.latest_hlc ?? '');
    if (!this.openGroups.has(accountId)) this.openGroups.set(accountId, row?.open_group !== null && row?.open_group !== undefined);
    if (row && !this.seenVectors.has(accountId)) this.seenRows.set(accountId, { seen_vector: row.seen_vector, seen_stale: row.seen_stale });
  }

  private async nextSeq(accountId: number, actor?: string | null): Promise<number> {
    if (!this.nextSeqs.has(accountId)) await this.readAccount(accountId, actor);
    const next = this.nextSeqs.get(accountId)!;
    this.nextSeqs.set(accountId, next + 1);
    if (!this.firstSeqs.has(accountId)) this.firstSeqs.set(accountId, next);
    return next;
  }

  /**
   * What this instance has seen of other instances for the account: the vector its own sets and
   * counts carry. Interned only here, when one of them needs it and movements of other instances
   * arrived since the last one (`seen_stale`): a push stores no copy of it.
   */
  private async seenVector(accountId: number): Promise<number | null> {
    if (!this.seenVectors.has(accountId)) {
      if (!this.seenRows.has(accountId)) await this.readAccount(accountId);
      const row = this.seenRows.get(accountId);
      this.seenRows.delete(accountId);
      let id = row?.seen_vector ?? null;
      if (row?.seen_stale) {
        await this.flush();
        const vector = await heldVector(this.db, accountId);
        delete vector[this.instance];
        id = await this.internVector(accountId, vector);
        if (id !== null) await this.db.run(internedSeen, { accountId, id });
      }
      this.seenVectors.set(accountId, id);
    }
    return this.seenVectors.get(accountId)!;
  }

  /** The stored quantity of a unit in a warehouse; null without a stock definition. */
  async quantity(unitId: number, warehouseId: number): Promise<number | null> {
    const key = `${unitId}/${warehouseId}`;
    const known = this.quantities.get(key);
    if (known !== undefined) return known;
    await this.flush();
    const quantity = (await this.db.first(quantityOf, { unitId, warehouseId }))?.quantity ?? null;
    this.knowQuantity(key, quantity);
    return quantity;
  }

  /**
   * Reads the quantities of several units and warehouses in one query per 500 units, for the rows of
   * a request about to be applied: `quantity` then answers them (and the rows' guarded sets and range
   * checks) without a query each.
   */
  async readQuantities(places: readonly { unitId: number; warehouseId: number }[], read?: StoredStock): Promise<void> {
    let wanted = places.filter((place) => !this.quantities.has(`${place.unitId}/${place.warehouseId}`));
    if (read) {
      for (const { unitId, warehouseId } of wanted) {
        const key = `${unitId}/${warehouseId}`;
        if (read.units.has(unitId)) this.knowQuantity(key, read.quantities.get(key) ?? null);
      }
      wanted = wanted.filter((place) => !read.units.has(place.unitId));
    }
    if (wanted.length === 0) return;
    await this.flush();
    const unitIds = [...new Set(wanted.map((place) => place.unitId))];
    const stored = new Map<string, number>();
    for (let i = 0; i < unitIds.length; i += 500) {
      for (const row of await this.db.all(quantitiesOfUnits, { unitIds: unitIds.slice(i, i + 500) }))
        stored.set(`${row.unit_id}/${row.warehouse_id}`, row.quantity);
    }
    for (const { unitId, warehouseId } of wanted) {
      const key = `${unitId}/${warehouseId}`;
      this.knowQuantity(key, stored.get(key) ?? null);
    }
  }

  /**
   * Records a movement made here (`options.current`: the stored quantity, when the caller has just
   * read it). `set` and `adjust` happen now (the fold's newest step); `count` may carry the earlier
   * time it was counted at (`hlc`), and is then folded in at that place. A set or count made here
   * had seen everything this instance holds: it conflicts with nothing, and resolves its place's
   * open group. A movement on top is left for `flush` (its history row and the quantity it leaves):
   * a request's rows are written together.
   */
  async record(
    accountId: number,
    unit: MovementUnit,
    warehouseId: number,
    kind: MovementKind,
    value: number,
    source: MovementSource,
    options: { hlc?: string; current?: number | null } = {},
  ): Promise<Applied> {
    const hlc = options.hlc ?? this.nextHlc();
    const seq = await this.nextSeq(accountId, source.actor);
    this.forget(unit.id, warehouseId);
    const held = this.held.get(accountId);
    if (held) held[this.instance] = Math.max(held[this.instance] ?? 0, seq);
    const seenVector = isAbsolute(kind) ? await this.seenVector(accountId) : null;
    const late =
      (options.hlc !== undefined || (await this.behindAccount(accountId, hlc))) && (await this.isLate(unit.id, warehouseId, hlc));
    const applied = late
      ? { oldQuantity: null, newQuantity: value } // refolded below
      : await this.applyOnTop(unit.id, warehouseId, kind, value, options.current);
    this.unwrittenMovements.push({
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
      sourceId: SOURCE_IDS[source.source],
      tokenId: source.tokenId ?? null,
      reason: source.reason ?? null,
      reference: source.reference ?? null,
      createdMs: this.atMs,
      actor: source.actor ?? null,
    });
    if (late) return this.foldAgain({ accountId, unitId: unit.id, warehouseId }, hlc, { origin: this.instance, seq });
    if (isAbsolute(kind) && (await this.hasOpenGroups(accountId))) {
      const { changes } = await this.db.run(resolveOpenGroup, { unitId: unit.id, warehouseId, origin: this.instance, seq, hlc });
      // Deciding a conflict is an act of someone's, recorded in the audit log where it was decided.
      if (changes > 0)
        await recordAudit(
          this.db,
          accountId,
          { name: source.actor ?? source.source, tokenId: source.tokenId ?? null },
          {
            action: 'conflict.resolve',
            subject: `item ${unit.itemId}${unit.variantId === null ? '' : ` variant ${unit.variantId}`}`,
            detail: { movement: `${this.instance}-${seq}`, kind, value, warehouse: warehouseId },
          },
        );
    }
    return applied;
  }

  /** Whether this transaction recorded or applied the movement `id` of the account. */
  private isMine(accountId: number, movement: MovementId, id: string): boolean {
    if (movement.origin !== this.instance) return this.appliedRemote.has(id);
    const first = this.firstSeqs.get(accountId);
    return first !== undefined && movement.seq >= first;
  }

  /** Whether the account has an open conflict group: read once per transaction, so a write where none is open pays one query. */
  private async hasOpenGroups(accountId: number): Promise<boolean> {
    if (!this.openGroups.has(accountId)) await this.readAccount(accountId);
    return this.openGroups.get(accountId)!;
  }

  /**
   * Applies a movement of another instance without waiting on the database, when it can: its place
   * was read by preload and nothing about it needs a query (see applyRemote). Then its rows are left
   * for `flush` and it returns true; otherwise it changes nothing and returns false, and the caller
   * awaits applyRemote. A sync batch is mostly such movements: no promise, no query for them. The
   * caller moves the clock past the batch (`saw`) and ends it with `finishBatch`.
   */
  applyRemoteOnTop(accountId: number, unit: MovementUnit, movement: MovementRecord, seenVector: number | null): boolean {
    const held = this.held.get(accountId);
    const place = held && this.place(accountId, unit.id, movement.warehouseId);
    if (!place) return false;
    const seen = seenVector === null ? NOTHING_SEEN : this.vectorBodies.get(seenVector);
    if (seen === undefined) return false; // not read yet in this transaction
    if (this.needsWalk(place, held!, movement, seen)) return false;
    this.applyAt(accountId, unit, place, held!, movement, seenVector, seen);
    return true;
  }

  /**
   * Applies a movement of another instance. The caller has checked that it is new here and next in
   * its origin's sequence (sync/apply-movements.ts), so it is applied exactly once; it moves the
   * clock past the batch (`saw`) and ends it with `finishBatch`, which folds again the places where
   * movements landed in the past and writes the conflict groups.
   */
  async applyRemote(accountId: number, unit: MovementUnit, movement: MovementRecord, seenVector: number | null): Promise<void> {
    const held = this.held.get(accountId);
    if (!held) throw new Error('applyRemote before preload');
    const place = this.place(accountId, unit.id, movement.warehouseId) ?? (await this.readPlace(accountId, unit.id, movement.warehouseId));
    const seen = await this.vector(seenVector);
    if (this.needsWalk(place, held, movement, seen)) place.walk = await this.readWalk(place);
    this.applyAt(accountId, unit, place, held, movement, seenVector, seen);
  }

  /**
   * Whether a movement on top of its place needs the place's conflict walk read first: a set or count
   * that may conflict (this instance holds a movement of another origin it had not seen) or that may
   * resolve the place's open group. Anything else on top conflicts with nothing and resolves nothing.
   */
  private needsWalk(place: PlaceState, held: Record<string, number>, movement: MovementRecord, seen: SeenVector): boolean {
    return (
      place.walk === undefined &&
      !place.late &&
      landsOnTop(place, movement.hlc) &&
      isAbsolute(movement.kind) &&
      (place.open !== null || missesHeld(held, movement.origin, seen))
    );
  }

  /**
   * The next step of a place for a movement of another instance whose place is read. On top: folded
   * in memory (its rows are left for `flush`) and walked when the place's walk was read. In the past,
   * or after one that was: its row goes in as it is, and `finishBatch` folds and walks the place again.
   */
  private applyAt(
    accountId: number,
    unit: MovementUnit,
    place: PlaceState,
    held: Record<string, number>,
    movement: MovementRecord,
    seenVector: number | null,
    seen: SeenVector,
  ): void {
    const id = idOf(movement);
    this.appliedRemote.add(id);
    if (place.earliest === undefined || movement.hlc < place.earliest) place.earliest = movement.hlc;
    if (movement.seq > (held[movement.origin] ?? 0)) held[movement.origin] = movement.seq;
    if (place.late || !landsOnTop(place, movement.hlc)) {
      place.late = true;
      place.walk = undefined; // walked again from the stored groups at the end
      this.unwrittenMovements.push(
        this.remoteRow(accountId, unit, movement, seenVector, { oldQuantity: null, newQuantity: movement.value }),
      );
      if (place.latest === undefined || movement.hlc > place.latest) place.latest = movement.hlc;
      return;
    }
    const oldQuantity = place.quantity;
    const newQuantity = foldStep(oldQuantity, movement.kind, movement.value);
    if (newQuantity < MIN_QUANTITY || newQuantity > MAX_QUANTITY) throw outOfRange(id, newQuantity);
    place.walk?.step(movement, seen);
    if (newQuantity !== oldQuantity) this.leaveQuantity(unit.id, movement.warehouseId, newQuantity);
    this.unwrittenMovements.push(this.remoteRow(accountId, unit, movement, seenVector, { oldQuantity, newQuantity }));
    place.latest = movement.hlc;
    place.quantity = newQuantity;
  }

  /**
   * Ends a batch of movements of other instances: writes what is left, folds again each place where
   * some landed in the past (once, from the set or count before the earliest of them) and walks its
   * conflict groups again, writes the groups of the places walked on top, and notes that the account's
   * seen vector moved. A fold that would leave a quantity out of range refuses the batch (422).
   */
  async finishBatch(accountId: number): Promise<void> {
    await this.flush();
    let applied = false;
    for (const place of this.places.values()) {
      if (place.accountId !== accountId || place.earliest === undefined) continue;
      applied = true;
      if (place.late) await this.foldAgain(place, place.earliest);
      else if (place.walk)
        await this.writeGroups(place, place.walk.touched, place.open ? new Map([[place.open.group, place.open.id]]) : new Map());
      place.earliest = undefined;
      place.late = false;
      place.walk = undefined;
      this.stale.add(`${place.unitId}/${place.warehouseId}`);
    }
    if (applied) {
      await this.db.run(seenMoved, { accountId });
      this.seenVectors.delete(accountId);
      this.seenRows.delete(accountId);
    }
  }

  /** The history row of a movement of another instance. */
  private remoteRow(
    accountId: number,
    unit: MovementUnit,
    movement: MovementRecord,
    seenVector: number | null,
    applied: Applied,
  ): UnwrittenMovement {
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
      sourceId: SOURCE_IDS[movement.source],
      tokenId: null,
      reason: movement.reason,
      reference: movement.reference,
      createdMs: movement.createdMs,
      actor: movement.actor,
    };
  }

  /** Whether some movement or quantity waits for `flush`. */
  holdsUnwritten(): boolean {
    return this.unwrittenMovements.length > 0 || this.unwrittenQuantities.size > 0;
  }

  /** Writes the movements and quantities left unwritten (see `unwrittenMovements`). */
  async flush(): Promise<void> {
    // Taken out before the first await: what is left unwritten meanwhile waits for the next flush.
    const unwritten = this.unwrittenMovements.splice(0);
    const quantities = [...this.unwrittenQuantities.values()];
    this.unwrittenQuantities.clear();
    await this.resolveActors(unwritten);
    // Each field spelled out, not `{ ...row }` after a rest: that copied every row twice, 2-3% of a
    // large import's time (bench/NOTES.md).
    const rows: InsertParams[] = unwritten.map((m) => ({
      accountId: m.accountId,
      unitId: m.unitId,
      itemId: m.itemId,
      variantId: m.variantId,
      warehouseId: m.warehouseId,
      origin: m.origin,
      seq: m.seq,
      kind: m.kind,
      value: m.value,
      hlcKey: hlcKey(m.hlc),
      hlcCounter: hlcCounter(m.hlc),
      seenVector: m.seenVector,
      oldQuantity: m.oldQuantity,
      newQuantity: m.newQuantity,
      sourceId: m.sourceId,
      tokenId: m.tokenId,
      reason: m.reason,
      reference: m.reference,
      createdMs: m.createdMs,
      actorId: m.actor === null ? null : this.actorIds.get(m.actor)!,
    }));
    for (let from = 0; from < rows.length;) {
      const length = chunkLength(rows.length - from, this.db);
      await this.db.run(insertMovements, columnsOf(rows, from, length));
      from += length;
    }
    for (let from = 0; from < quantities.length;) {
      const length = chunkLength(quantities.length - from, this.db);
      await this.db.run(upsertQuantities, columnsOf(quantities, from, length));
      from += length;
    }
  }

  /** Makes sure every actor's name of `rows` has its id in `actorIds`: read, or inserted when new. */
  private async resolveActors(rows: readonly UnwrittenMovement[]): Promise<void> {
    const unknown = new Set<string>();
    for (const row of rows) if (row.actor !== null && !this.actorIds.has(row.actor)) unknown.add(row.actor);
    if (unknown.size === 0) return;
    await inChunks(this.db, [...unknown], async (names) => {
      for (const { id, name } of await this.db.all(actorsNamed, { names })) this.actorIds.set(name, id);
    });
    await inChunks(
      this.db,
      [...unknown].filter((name) => !this.actorIds.has(name)),
      async (names) => {
        for (const { id, name } of await this.db.all(insertActors, { names })) this.actorIds.set(name, id);
      },
    );
  }

  /**
   * Reads, for a batch of movements of other instances about to be applied (sync/apply-movements.ts),
   * what applyRemote would otherwise ask of every movement of these units: the latest timestamp of
   * each unit and warehouse, its stored quantity and its open conflict group; and what this instance
   * holds of every origin (its highest sequence of each). Kept up to date as movements are applied;
   * a unit and warehouse that takes a movement made here goes back to queries.
   *
   * `earliest`: per unit, the earliest timestamp of the batch's movements. Nothing held here is
   * later than the account's latest timestamp, so a unit whose movements all come after it needs no
   * look at its history (the common case: movements newer than anything this instance has); that
   * latest timestamp then stands in for its own.
   */
  async preload(accountId: number, earliest: ReadonlyMap<number, string>): Promise<void> {
    const q = this.db;
    await this.flush();
    if (!this.held.has(accountId)) this.held.set(accountId, await heldVector(q, accountId));
    const accountLatest = (await q.first(latestOfAccount, { accountId }))?.hlc ?? undefined;
    const unitIds = [...earliest.keys()];
    for (let i = 0; i < unitIds.length; i += 500) {
      const ids = unitIds.slice(i, i + 500).filter((id) => !this.loadedUnits.has(id));
      if (ids.length === 0) continue;
      const exact = ids.filter((id) => accountLatest !== undefined && earliest.get(id)! <= accountLatest);
      for (const id of ids) if (accountLatest !== undefined && earliest.get(id)! > accountLatest) this.latestBound.set(id, accountLatest);
      if (exact.length > 0) {
        // Every place with movements has a stored quantity (the fold writes it); its latest timestamp
        // is the top of its range of stock_history_unit_hlc.
        const latest = await q.all(
          q.k
            .selectFrom('stock as s')
            .select((eb) => [
              's.unit_id',
              's.warehouse_id',
              eb
                .selectFrom('stock_history as h')
                .select('h.hlc')
                .whereRef('h.unit_id', '=', 's.unit_id')
                .whereRef('h.warehouse_id', '=', 's.warehouse_id')
                .$call(newestFirst('h'))
                .limit(1)
                .as('hlc'),
            ])
            .where('s.unit_id', 'in', inList(exact)),
        );
        for (const row of latest) if (row.hlc !== null) this.placeState(accountId, row.unit_id, row.warehouse_id).latest = row.hlc;
      }
      for (const row of await q.all(
        q.k.selectFrom('stock').select(['unit_id', 'warehouse_id', 'quantity']).where('unit_id', 'in', inList(ids)),
      )) {
        this.placeState(accountId, row.unit_id, row.warehouse_id).quantity = row.quantity;
      }
      for (const row of await q.all(
        q.k.selectFrom('stock_conflict_groups').selectAll().where('unit_id', 'in', inList(ids)).where('open', '=', 1),
      )) {
        this.placeState(accountId, row.unit_id, row.warehouse_id).open = { group: storedGroup(row), id: row.id };
      }
      for (const id of ids) this.loadedUnits.add(id);
    }
  }

  /** What preload knows of a unit in a warehouse; undefined when it was not read or no longer holds. */
  private place(accountId: number, unitId: number, warehouseId: number): PlaceState | undefined {
    if (!this.loadedUnits.has(unitId) || this.stale.has(`${unitId}/${warehouseId}`)) return undefined;
    return this.placeState(accountId, unitId, warehouseId);
  }

  private placeState(accountId: number, unitId: number, warehouseId: number): PlaceState {
    const key = `${unitId}/${warehouseId}`;
    let place = this.places.get(key);
    if (!place) {
      place = {
        accountId,
        unitId,
        warehouseId,
        latest: this.latestBound.get(unitId),
        quantity: null,
        open: null,
        walk: undefined,
        earliest: undefined,
        late: false,
      };
      this.places.set(key, place);
    }
    return place;
  }

  /** A place read on its own (not by preload, or changed by a movement made here since). */
  private async readPlace(accountId: number, unitId: number, warehouseId: number): Promise<PlaceState> {
    await this.flush();
    const q = this.db;
    const key = `${unitId}/${warehouseId}`;
    const open = await q.first(
      q.k
        .selectFrom('stock_conflict_groups')
        .selectAll()
        .where('unit_id', '=', unitId)
        .where('warehouse_id', '=', warehouseId)
        .where('open', '=', 1),
    );
    const place: PlaceState = {
      accountId,
      unitId,
      warehouseId,
      latest: (await q.first(latestOfUnit, { unitId, warehouseId }))?.hlc,
      quantity: (await q.first(quantityOf, { unitId, warehouseId }))?.quantity ?? null,
      open: open ? { group: storedGroup(open), id: open.id } : null,
      walk: undefined,
      earliest: undefined,
      late: false,
    };
    this.places.set(key, place);
    this.stale.delete(key);
    this.loadedUnits.add(unitId);
    return place;
  }

  private forget(unitId: number, warehouseId: number): void {
    if (this.loadedUnits.has(unitId)) this.stale.add(`${unitId}/${warehouseId}`);
  }

  /**
   * The conflict walk of a place from its latest set or count on (the adjusts since are the next
   * set's window), with its open group: read once per place per batch, then kept up to date in memory.
   */
  private async readWalk(place: PlaceState): Promise<ConflictWalk> {
    await this.flush();
    const where = { unitId: place.unitId, warehouseId: place.warehouseId };
    const previous = await this.db.first(absoluteBefore, { ...where, ...timeBound(END_OF_TIME) });
    // Everything after it is an adjust: thousands on a place sold from and never counted.
    const window: WalkMovement[] = [];
    const after: RowBound = previous ? { ...timeBound(previous.hlc), id: previous.id } : { ...timeBound(''), id: 0 };
    await this.placePages(where, after, (rows) => {
      for (const row of rows) window.push(walkAdjust(row));
    });
    return new ConflictWalk(previous, window, place.open?.group ?? null);
  }

  /**
   * A place's rows after `after` (afterRow), in time order, FOLD_PAGE_ROWS at a time: `page` runs on
   * each page before the next is read (it may write the rows it was given).
   */
  private async placePages(where: PlaceParams, after: RowBound, page: (rows: FoldRow[]) => void | Promise<void>): Promise<void> {
    for (let bound = after; ;) {
      const rows = await this.db.all(movementsFromPage, { ...where, ...bound });
      await page(rows);
      if (rows.length < FOLD_PAGE_ROWS) return;
      bound = { ...timeBound(rows.at(-1)!.hlc), id: rows.at(-1)!.id };
    }
  }

  /**
   * True when the account holds a movement stamped after `hlc`, a timestamp of this clock: one made on
   * a clock further ahead than a push may drag this one (sync/clock-bound.ts). A movement made here
   * then lands before it, in the past of its unit, and is folded in at its place like a late one.
   * The account's latest is read once per transaction.
   */
  private async behindAccount(accountId: number, hlc: string): Promise<boolean> {
    if (!this.accountLatest.has(accountId)) await this.readAccount(accountId);
    return this.accountLatest.get(accountId)! > hlc;
  }

  /** True when some movement of the unit and warehouse is later than `hlc`. */
  private async isLate(unitId: number, warehouseId: number, hlc: string): Promise<boolean> {
    await this.flush();
    const latest = await this.db.first(latestOfUnit, { unitId, warehouseId });
    return latest !== undefined && latest.hlc > hlc;
  }

  /**
   * The newest step of the fold (foldStep), its quantity left for `flush`. `current`: the stored
   * quantity when the caller has just read it (or knows there is none).
   */
  private async applyOnTop(unitId: number, warehouseId: number, kind: string, value: number, current?: number | null): Promise<Applied> {
    const oldQuantity = current !== undefined ? current : await this.quantity(unitId, warehouseId);
    const newQuantity = foldStep(oldQuantity, kind, value);
    if (newQuantity !== oldQuantity) this.leaveQuantity(unitId, warehouseId, newQuantity);
    return { oldQuantity, newQuantity };
  }

  /** A quantity changed on top, written by `flush`. */
  private leaveQuantity(unitId: number, warehouseId: number, quantity: number): void {
    const key = `${unitId}/${warehouseId}`;
    this.unwrittenQuantities.set(key, { unitId, warehouseId, quantity });
    this.knowQuantity(key, quantity);
  }

  /** Keeps a quantity known (see `quantities`): what is unwritten stays in `unwrittenQuantities` until flushed. */
  private knowQuantity(key: string, quantity: number | null): void {
    if (this.quantities.size >= QUANTITIES_KEPT && !this.quantities.has(key)) this.quantities.clear();
    this.quantities.set(key, quantity);
  }

  /**
   * Folds a place again after movements landed in its past, the earliest at `from`, and walks its
   * conflict groups again (movements/fold.ts), in one read of its history: from the set or count
   * before the group that was open at `from` (or before `from` when none was), to the end. The
   * before/after quantities that changed are rewritten, and so is the stored quantity; the groups
   * from there on are replaced by the walk's (a group that stays keeps its id). A step from `from`
   * on that leaves the allowed range refuses the transaction (422), naming the latest of this
   * transaction's movements at or before it. Returns what `mine` ended up with.
   */
  private async foldAgain(
    place: Pick<PlaceState, 'accountId' | 'unitId' | 'warehouseId'>,
    from: string,
    mine?: MovementId,
  ): Promise<Applied> {
    await this.flush();
    const q = this.db;
    const where = { unitId: place.unitId, warehouseId: place.warehouseId };
    const open = await q.first(groupBefore, { ...where, hlc: from });
    const anchor = open && (open.open === 1 || (open.resolved_hlc !== null && open.resolved_hlc >= from)) ? open.first_hlc : from;
    const base = await q.first(absoluteBefore, { ...where, ...timeBound(anchor) });
    const walk = new ConflictWalk();
    let quantity: number | null = null;
    let result: Applied = { oldQuantity: null, newQuantity: 0 };
    let named: string | undefined;
    const rewritten: Step[] = [];
    // From the base on (id 0: the base itself is the first row), a page at a time.
    await this.placePages(where, { ...timeBound(base?.hlc ?? ''), id: 0 }, async (rows) => {
      for (const row of rows) {
        const id = idOf(row);
        if (base && row.origin === base.origin && row.seq === base.seq) {
          walk.previous = row;
          quantity = row.value; // a set or count leaves its value
          continue;
        }
        const before = quantity;
        quantity = foldStep(before, row.kind, row.value);
        if (row.hlc >= from) {
          if (this.isMine(place.accountId, row, id)) named = id;
          if (quantity < MIN_QUANTITY || quantity > MAX_QUANTITY) throw outOfRange(named ?? id, quantity);
        }
        if (row.old_quantity !== before || row.new_quantity !== quantity)
          rewritten.push({ id: row.id, oldQuantity: before, newQuantity: quantity });
        if (mine && row.origin === mine.origin && row.seq === mine.seq) result = { oldQuantity: before, newQuantity: quantity };
        if (isAbsolute(row.kind)) walk.step(row, this.parsedVector(row.seen_vector, row.body));
        else walk.step(walkAdjust(row), NOTHING_SEEN);
      }
      // The page's changed steps are written before the next is read: the keys pages are read by never change.
      for (let at = 0; at < rewritten.length;) {
        const length = chunkLength(rewritten.length - at, q);
        await q.run(rewriteSteps, columnsOf(rewritten, at, length));
        at += length;
      }
      rewritten.length = 0;
    });
    if (quantity !== null) await q.run(upsertQuantity, { ...where, quantity });
    this.quantities.delete(`${place.unitId}/${place.warehouseId}`);
    const stored = await q.all(groupsFrom, { ...where, hlc: anchor });
    const ids = new Map<ConflictGroup, number>();
    const byFirst = new Map(stored.map((g) => [`${g.first_origin}-${g.first_seq}`, g.id]));
    for (const group of walk.touched) {
      const id = byFirst.get(idOf(group.first));
      if (id === undefined) continue;
      ids.set(group, id);
      byFirst.delete(idOf(group.first));
    }
    for (const id of byFirst.values()) await q.run(deleteGroup, { id });
    await this.writeGroups(place, walk.touched, ids);
    if (walk.touched.some((g) => g.resolvedBy === null)) this.openGroups.set(place.accountId, true);
    return result;
  }

  /** Writes the groups a walk opened, changed or resolved: those with an id (`ids`) in place, the others as new rows. */
  private async writeGroups(
    place: Pick<PlaceState, 'accountId' | 'unitId' | 'warehouseId'>,
    groups: readonly ConflictGroup[],
    ids: ReadonlyMap<ConflictGroup, number>,
  ): Promise<void> {
    for (const group of groups) {
      const id = ids.get(group);
      if (id !== undefined) await this.db.run(updateGroup, { id, ...groupParams(group) });
      else
        await this.db.run(insertGroup, {
          accountId: place.accountId,
          unitId: place.unitId,
          warehouseId: place.warehouseId,
          firstOrigin: group.first.origin,
          firstSeq: group.first.seq,
          firstHlc: group.first.hlc,
          at: this.at,
          ...groupParams(group),
        });
    }
  }

  /** A stored vector, parsed (`{}` for none); read once per transaction. */
  private async vector(id: number | null): Promise<Record<string, number>> {
    if (id === null) return NOTHING_SEEN;
    let vector = this.vectorBodies.get(id);
    if (!vector) {
      const body = (await this.db.first(vectorById, { id }))?.body;
      vector = this.parsedVector(id, body ?? null);
    }
    return vector;
  }

  /** A vector read with its movement: parsed once per transaction. */
  private parsedVector(id: number | null, body: string | null): Record<string, number> {
    if (id === null) return NOTHING_SEEN;
    let vector = this.vectorBodies.get(id);
    if (!vector) {
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

  /** The id of a vector (interned per account, found by the hash of its text). */
  async internVector(accountId: number, vector: Record<string, number> | null): Promise<number | null> {
    const known = this.knownVector(accountId, vector);
    if (known !== undefined || !vector) return known ?? null;
    const body = vectorBody(vector);
    const key = `${accountId} ${body}`;
    let id = this.vectorIds.get(key);
    if (id === undefined) {
      const hash = vectorHash(body);
      id = (await this.db.all(vectorsByHash, { accountId, hash })).find((row) => row.body === body)?.id;
      id ??= (await this.db.first(insertVector, { accountId, hash, body }))!.id;
      this.vectorIds.set(key, id);
    }
    const copy = { ...vector }; // the caller may change its object later
    this.lastInterned = { accountId, vector: copy, id };
    if (!this.vectorBodies.has(id)) this.vectorBodies.set(id, copy);
    return id;
  }
}

/** A group as stored, for the walk to go on with. */
function storedGroup(row: Omit<StockConflictGroupTable, 'id'>): ConflictGroup {
  return {
    first: { origin: row.first_origin, seq: row.first_seq, hlc: row.first_hlc },
    last: { origin: row.last_origin, seq: row.last_seq },
    earlier: { origin: row.earlier_origin, seq: row.earlier_seq },
    movements: row.movements,
    racing: row.racing === 1,
    members: JSON.parse(row.members) as Record<string, number>,
    resolvedBy: null,
  };
}

/** A fold that would leave the allowed range: the batch (or the write) is refused, naming the movement. */
function outOfRange(movement: string, quantity: number) {
  return apiError(422, syncMessages.movementRefused(movement, syncMessages.outOfRange(quantity)));
}
