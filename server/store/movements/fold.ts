// The rules of the movement log (docs/SYNC.md), in one place and nowhere else: how movements fold
// into a quantity, and which pairs of them are conflicts and when one is resolved. Pure: no database,
// no Node API, nothing allocated per step, so the sync batch's per-movement path calls it as it is.
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

/**
 * Whether a movement of kind `later` can conflict with an earlier one of kind `earlier` of another
 * instance: a set with any, a count only with a set or count (the shelf it counted already reflected
 * the sales before it), an adjust with none.
 */
export function kindsConflict(later: string, earlier: string): boolean {
  return later === 'set' || (later === 'count' && isAbsolute(earlier));
}

/**
 * The conflict rule (docs/SYNC.md, "Conflicts"), for two movements of one unit and warehouse, `later`
 * after `earlier` in timestamp order: `later` is a set or count of another instance made without
 * seeing `earlier` (`laterSeen`: what it had seen), and their kinds can conflict (kindsConflict).
 * Seen from `earlier`, the same rule lists every later set or count that had not seen it.
 */
export function isConflict(later: MovementId & { kind: string }, laterSeen: SeenVector, earlier: MovementId & { kind: string }): boolean {
  return later.origin !== earlier.origin && kindsConflict(later.kind, earlier.kind) && !hadSeen(later, laterSeen, earlier);
}

/**
 * Whether a set or count `by`, of the same unit and warehouse and later than both movements of a
 * conflict, resolves it: its instance had seen both (a person who saw both recorded the quantity again).
 */
export function resolvesConflict(by: MovementId, seen: SeenVector, later: MovementId, earlier: MovementId): boolean {
  return hadSeen(by, seen, later) && hadSeen(by, seen, earlier);
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
