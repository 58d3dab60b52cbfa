// Seeded randomness, so every bench run asks the same questions.

// The one seeded generator of the project (mulberry32), shared with the tests.
export { mulberry32 } from '../test/support/seeded-random.ts';

/** `count` distinct integers in [0, limit), in random order. */
export function distinctInts(random: () => number, count: number, limit: number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, limit)) picked.add(Math.floor(random() * limit));
  return [...picked];
}
