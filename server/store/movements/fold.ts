// The rules of the movement log (docs/SYNC.md), in one place and nowhere else: how movements fold
// into a quantity, and which movements conflict, how conflicts group
// per place and when a group is resolved. Pure: no database, no Node API; the fold step allocates
// nothing, so the sync batch's per-movement path calls it as it is.
// Whoever changes a rule here changes it for the movement log, the sync apply, the conflict list
// and the stocktake review at once; test/store/fold.test.ts says what the rules are.

/** What an instance had seen of other instances when it made a movement: `{origin: highest seq}`. */
export type SeenVector = Readonly<Record<string, number>>;

/** A movement as the fold needs it. */
export interface FoldMovement {
  kind: string;
  value: number;
}

/** A movement's identity: the instance that made it and its sequence there. */
export interface MovementId {
  origin: string;
  seq: number;
}

/** The kinds that replace the quantity (for SQL: `kind in ABSOLUTE_KINDS`); every other kind adds. */
export const ABSOLUTE_KINDS = ['set', 'count'] as const;

/** True for `set` and `count`, which state the quantity; false for `adjust`, which changes it. */
export function isAbsolute(kind: string): boolean {
  return kind === 'set' || kind === 'count';
}

/**
 * One step of the fold: the quantity a movement leaves after `before` (null: no stock definition
 * yet, which an adjust starts from 0). A set or count replaces, an adjust adds.
 */
export function foldStep(before: number | null, kind: string, value: number): number {
  return isAbsolute(kind) ? value : (before ?? 0) + value;
}

/** What a run of movements folded on top of a base leaves. */
export interface Folded<Q extends number | null = number | null> {
  quantity: Q;
  /** Their net change of the base: null once a set or count replaced it. */
  moved: number | null;
}

/**
 * Folds movements, in timestamp order, on top of `base` (the quantity before the first of them;
 * null for none). `each` sees every step: the movement and the quantities before and after it.
 */
export function foldFrom<M extends FoldMovement>(
  base: number,
  movements: readonly M[],
  each?: (movement: M, before: number | null, after: number) => void,
): Folded<number>;
export function foldFrom<M extends FoldMovement>(
  base: number | null,
  movements: readonly M[],
  each?: (movement: M, before: number | null, after: number) => void,
): Folded;
export function foldFrom<M extends FoldMovement>(
  base: number | null,
  movements: readonly M[],
  each?: (movement: M, before: number | null, after: number) => void,
): Folded {
  let quantity = base;
  let moved: number | null = 0;
  for (const movement of movements) {
    const before = quantity;
    quantity = foldStep(before, movement.kind, movement.value);
    moved = moved === null || isAbsolute(movement.kind) ? null : moved + movement.value;
    each?.(movement, before, quantity);
  }
  return { quantity, moved };
}

/**
 * Whether the movement `by` (with what it had seen, `seen`) was made having seen `m`: an earlier
 * movement of its own instance, or one its vector covers.
 */
export function hadSeen(by: MovementId, seen: SeenVector, m: MovementId): boolean {
  return by.origin === m.origin ? by.seq > m.seq : (seen[m.origin] ?? 0) >= m.seq;
}

/** A movement as the conflict rules need it: its identity, kind and timestamp (text order is time order). */
export interface WalkMovement extends MovementId {
  kind: string;
  hlc: string;
}

/**
 * What a set or count `m` (with what it had seen, `seen`) overrode without seeing it (docs/SYNC.md,
 * "Conflicts"): `previous`, the latest set or count before it (P), when it is of another instance and
 * `m` had not seen it (`racing`); and, only when `m` is a set, the adjusts of `window` (W: those
 * between P and `m`, in timestamp order) of other instances it had not seen, in timestamp order. P
 * replaced everything before it, so nothing earlier is looked at. A count never conflicts with
 * adjusts: the shelf it counted already reflected them. Nothing found: `m` is not conflicting.
 */
export function counterparts<M extends WalkMovement>(
  m: MovementId & { kind: string },
  seen: SeenVector,
  previous: M | undefined,
  window: readonly M[],
): { racing: boolean; adjusts: M[] } {
  const racing = previous !== undefined && previous.origin !== m.origin && !hadSeen(m, seen, previous);
  let adjusts: M[] | undefined;
  if (m.kind === 'set')
    for (const adjust of window) if (adjust.origin !== m.origin && !hadSeen(m, seen, adjust)) (adjusts ??= []).push(adjust);
  return { racing, adjusts: adjusts ?? [] };
}

/**
 * Whether `by` (with what it had seen, `seen`) had seen every movement of a group, given the group's
 * vector (`members`: the highest sequence of each origin among them). Movements of an origin are
 * applied in their order everywhere, so seeing its highest member is seeing all of them.
 */
export function sawAll(by: MovementId, seen: SeenVector, members: SeenVector): boolean {
  for (const origin in members) {
    const top = members[origin]!;
    if (origin === by.origin ? top >= by.seq : (seen[origin] ?? 0) < top) return false;
  }
  return true;
}

/**
 * A group of conflicts of one place (docs/SYNC.md, "Conflicts"): sets and counts made one after
 * another without seeing what they overrode, until one made having seen all of them resolves it.
 */
export interface ConflictGroup {
  /** The first and the last conflicting movement (the last is the one the fold keeps for now). */
  first: MovementId & { hlc: string };
  last: MovementId;
  /** The last one's first counterpart: P when it raced P, else the latest adjust it had not seen. */
  earlier: MovementId;
  /** How many conflicting movements it holds. */
  movements: number;
  /** Some member conflicts with the set or count before it (two quantities, not a quantity and a sale). */
  racing: boolean;
  /** The highest sequence of each origin among its conflicting movements and their counterparts. */
  members: Record<string, number>;
  /** The set or count that had seen every member, or null while the group is open. */
  resolvedBy: (MovementId & { hlc: string }) | null;
}

/**
 * The conflict walk of one place: its movements in timestamp order, one `step` each, from a point
 * where `previous` was the latest set or count, `window` the adjusts after it and `open` the group
 * then open (none at the start of a place's history). For each set or count X: the open group is
 * resolved when X had seen all its members; then, when X is conflicting (counterparts), X and its
 * counterparts join the open group, or open one. So the groups are a pure function of the place's
 * movements, the same on every instance that holds them, and a walk can resume from any set or count
 * with the group open there. `touched`: every group the walk opened, changed or resolved, once each.
 */
export class ConflictWalk {
  previous: WalkMovement | undefined;
  readonly window: WalkMovement[];
  open: ConflictGroup | null;
  readonly touched: ConflictGroup[] = [];
  private readonly touchedSet = new Set<ConflictGroup>();

  constructor(previous?: WalkMovement, window: WalkMovement[] = [], open: ConflictGroup | null = null) {
    this.previous = previous;
    this.window = window;
    this.open = open;
  }

  /** The next movement of the place in timestamp order, with what it had seen (`{}` for an adjust). */
  step(m: WalkMovement, seen: SeenVector): void {
    if (!isAbsolute(m.kind)) {
      this.window.push(m);
      return;
    }
    const open = this.open;
    if (open !== null && sawAll(m, seen, open.members)) {
      open.resolvedBy = m;
      this.touch(open);
      this.open = null;
    }
    const previous = this.previous;
    const { racing, adjusts } = counterparts(m, seen, previous, this.window);
    if (racing || adjusts.length > 0) {
      const earlier = racing ? previous! : adjusts[adjusts.length - 1]!;
      let group = this.open;
      if (group === null) {
        group = { first: m, last: m, earlier, movements: 0, racing: false, members: {}, resolvedBy: null };
        this.open = group;
      }
      group.last = m;
      group.earlier = earlier;
      group.movements++;
      if (racing) group.racing = true;
      addMember(group.members, m);
      if (racing) addMember(group.members, previous!);
      for (const adjust of adjusts) addMember(group.members, adjust);
      this.touch(group);
    }
    this.previous = m;
    this.window.length = 0;
  }

  private touch(group: ConflictGroup): void {
    if (this.touchedSet.has(group)) return;
    this.touchedSet.add(group);
    this.touched.push(group);
  }
}

function addMember(members: Record<string, number>, m: MovementId): void {
  if ((members[m.origin] ?? 0) < m.seq) members[m.origin] = m.seq;
}

/** The conflict groups of one place's whole history (its movements in timestamp order). */
export function conflictGroups<M extends WalkMovement>(movements: readonly M[], seenOf: (m: M) => SeenVector): ConflictGroup[] {
  const walk = new ConflictWalk();
  for (const m of movements) walk.step(m, seenOf(m));
  return walk.touched;
}

/**
 * Whether a set or count of `origin` that lands on top of everything may be the later one of a
 * conflict: this instance holds (`held`: its highest sequence of each origin) a movement of another
 * instance that `seen` does not cover. Only then need its earlier movements be looked at.
 */
export function missesHeld(held: SeenVector, origin: string, seen: SeenVector | undefined): boolean {
  for (const other in held) if (other !== origin && (seen?.[other] ?? 0) < held[other]!) return true;
  return false;
}
