// Seeded histories of made-up instances that write and now and then learn what the others made, as
// the oracle's movements (support/sync-oracle.ts): for the fold and conflict rules on their own, and
// for databases filled as an older release stored them.
import { seededRandom } from './seeded-random.ts';
import type { Kind, OracleMovement } from './sync-oracle.ts';

export interface HistoryPlace {
  barcode: string;
  warehouse: number | null;
}

/**
 * `length` movements, one per step in timestamp order (`hlcOf(step, origin)`), each of a random
 * origin at a random place: before each, its instance learns what each other one had made so far
 * with a chance of 0.3; a set or count carries what it knew (origins of nothing left out).
 */
export function seededHistory<P extends HistoryPlace>(options: {
  seed: number;
  length: number;
  origins: readonly string[];
  places: readonly P[];
  kinds: readonly Kind[];
  hlcOf: (step: number, origin: string) => string;
}): (OracleMovement & { place: P })[] {
  const random = seededRandom(options.seed);
  const made: Record<string, number> = {};
  const knows: Record<string, Record<string, number>> = Object.fromEntries(options.origins.map((o) => [o, {}]));
  const movements: (OracleMovement & { place: P })[] = [];
  for (let step = 0; step < options.length; step++) {
    const origin = random.pick(options.origins);
    for (const other of options.origins) if (other !== origin && random.chance(0.3) && made[other]) knows[origin]![other] = made[other];
    const kind = random.pick(options.kinds);
    const place = random.pick(options.places);
    const seq = (made[origin] = (made[origin] ?? 0) + 1);
    movements.push({
      id: `${origin}-${seq}`,
      origin,
      seq,
      kind,
      value: kind === 'adjust' ? random.int(-3, 3) : random.int(0, 20),
      hlc: options.hlcOf(step, origin),
      barcode: place.barcode,
      warehouse: place.warehouse,
      place,
      seen: kind === 'adjust' ? {} : { ...knows[origin] },
    });
  }
  return movements;
}
