// Seeded randomness, so every bench run asks the same questions.

/** A small, fast, seeded PRNG (mulberry32): numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct integers in [0, limit), in random order. */
export function distinctInts(random: () => number, count: number, limit: number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, limit)) picked.add(Math.floor(random() * limit));
  return [...picked];
}
