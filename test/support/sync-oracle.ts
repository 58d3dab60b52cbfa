// The convergence simulation's oracle, written from docs/SYNC.md and nothing else (it imports no
// server code): the quantity of a unit in a warehouse is the fold of its movements in timestamp
// order, `set` and `count` replace, `adjust` adds; and which pairs of movements are conflicts.

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

export interface OracleConflict {
  later: string;
  earlier: string;
  /** Both are sets or counts. */
  racing: boolean;
  /** A later set or count was made by an instance that had seen both. */
  resolved: boolean;
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
 * docs/SYNC.md, "Conflicts": of one unit and warehouse, a later set made without seeing an earlier
 * movement of another instance (set, count or adjust), or a later count made without seeing an
 * earlier set or count of another instance. Resolved once a still later set or count was made by an
 * instance that had seen both.
 */
export function predictConflicts(movements: readonly OracleMovement[]): OracleConflict[] {
  const conflicts: OracleConflict[] = [];
  for (const list of byPlace(movements).values()) {
    for (let j = 0; j < list.length; j++) {
      const later = list[j]!;
      if (!absolute(later.kind)) continue;
      for (let i = 0; i < j; i++) {
        const earlier = list[i]!;
        if (earlier.origin === later.origin) continue;
        if (later.kind === 'count' && !absolute(earlier.kind)) continue;
        if (saw(later, earlier)) continue;
        const resolved = list.slice(j + 1).some((c) => absolute(c.kind) && saw(c, later) && saw(c, earlier));
        conflicts.push({ later: later.id, earlier: earlier.id, racing: absolute(earlier.kind), resolved });
      }
    }
  }
  return conflicts;
}
