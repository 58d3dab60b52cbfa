// The convergence simulation's oracle, written from docs/SYNC.md and nothing else (it imports no
// server code): the quantity of a unit in a warehouse is the fold of its movements in timestamp
// order, `set` and `count` replace, `adjust` adds; and the groups of conflicts of each place.

export type Kind = 'set' | 'count' | 'adjust';

export interface OracleMovement {
  /** `<origin>-<seq>`. */
  id: string;
  origin: string;
  seq: number;
  kind: Kind;
  value: number;
  /** The hybrid logical clock text: its text order is the fold's order. */
  hlc: string;
  barcode: string;
  warehouse: number | null;
  /** For a set or count: the highest sequence its origin held of every other instance when it was made. */
  seen: Record<string, number>;
}

/** A group of conflicts of one place, as docs/SYNC.md ("Conflicts") defines it. */
export interface OracleConflict {
  /** `barcode@warehouse` (placeOf). */
  place: string;
  /** The first and the last set or count of the group made without seeing what it overrode. */
  first: string;
  last: string;
  /** What the last one overrode unseen: the set or count before it when they raced, else the latest sale it had not seen. */
  earlier: string;
  /** How many sets and counts of the group were made so. */
  movements: number;
  /** Some of them raced the set or count before them. */
  racing: boolean;
  /** A later set or count was made by an instance that had seen every movement of the group. */
  resolved: boolean;
}

/** A conflict as an instance lists it (GET sync/conflicts/), in the oracle's terms. */
export function asOracleConflict(c: {
  barcode: string;
  warehouse: number | null;
  first: { movement: string };
  later: { movement: string };
  earlier: { movement: string };
  movements: number;
  racing: boolean;
  resolved: boolean;
}): OracleConflict {
  return {
    place: placeOf(c),
    first: c.first.movement,
    last: c.later.movement,
    earlier: c.earlier.movement,
    movements: c.movements,
    racing: c.racing,
    resolved: c.resolved,
  };
}

export const placeOf = (m: { barcode: string; warehouse: number | null }) => `${m.barcode}@${m.warehouse ?? '-'}`;

function byPlace(movements: readonly OracleMovement[]): Map<string, OracleMovement[]> {
  const places = new Map<string, OracleMovement[]>();
  for (const m of movements) {
    const list = places.get(placeOf(m)) ?? [];
    list.push(m);
    places.set(placeOf(m), list);
  }
  for (const list of places.values()) list.sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0));
  return places;
}

/** Quantity per place (`barcode@warehouse`): set and count replace, adjust adds, in hlc text order; 0 before anything. */
export function fold(movements: readonly OracleMovement[]): Map<string, number> {
  const quantities = new Map<string, number>();
  for (const [place, list] of byPlace(movements)) {
    let quantity = 0;
    for (const m of list) quantity = m.kind === 'adjust' ? quantity + m.value : m.value;
    quantities.set(place, quantity);
  }
  return quantities;
}

const absolute = (kind: Kind) => kind !== 'adjust';

/** Whether `by` was made having seen `m`: its own earlier movement, or one its vector covers. */
const saw = (by: OracleMovement, m: OracleMovement) => (by.origin === m.origin ? by.seq > m.seq : (by.seen[m.origin] ?? 0) >= m.seq);

/**
 * docs/SYNC.md, "Conflicts", written out as the document says it. Per place, its sets and counts in
 * timestamp order: a set or count L overrode the set or count before it (P) and the adjusts between
 * them. It conflicts with P when P is of another instance and L had not seen it (racing), and, a set
 * only, with each of those adjusts of another instance it had not seen. Walking them in order with an
 * open group: a set or count that had seen every movement of the open group (its conflicting ones and
 * what they overrode) resolves it; then, when it conflicts, it joins the open group with what it
 * overrode, or opens a new one.
 */
export function predictConflicts(movements: readonly OracleMovement[]): OracleConflict[] {
  const groups: OracleConflict[] = [];
  for (const [place, list] of byPlace(movements)) {
    let open: { conflicting: OracleMovement[]; involved: OracleMovement[]; racing: boolean; earlier: OracleMovement } | null = null;
    const close = (resolved: boolean) => {
      groups.push({
        place,
        first: open!.conflicting[0]!.id,
        last: open!.conflicting.at(-1)!.id,
        earlier: open!.earlier.id,
        movements: open!.conflicting.length,
        racing: open!.racing,
        resolved,
      });
      open = null;
    };
    let previous: OracleMovement | undefined;
    let adjustsSince: OracleMovement[] = [];
    for (const m of list) {
      if (!absolute(m.kind)) {
        adjustsSince.push(m);
        continue;
      }
      if (open !== null && open.involved.every((x) => saw(m, x))) close(true);
      const raced = previous !== undefined && previous.origin !== m.origin && !saw(m, previous) ? previous : undefined;
      const unseenSales = m.kind === 'set' ? adjustsSince.filter((a) => a.origin !== m.origin && !saw(m, a)) : [];
      if (raced || unseenSales.length > 0) {
        open ??= { conflicting: [], involved: [], racing: false, earlier: m };
        open.conflicting.push(m);
        open.involved.push(m, ...(raced ? [raced] : []), ...unseenSales);
        open.racing ||= raced !== undefined;
        open.earlier = raced ?? unseenSales.at(-1)!;
      }
      previous = m;
      adjustsSince = [];
    }
    if (open !== null) close(false);
  }
  return groups;
}
