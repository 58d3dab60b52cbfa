// `inList` (server/store/engine.ts): an IN list padded to one of a few lengths, so that SQLite keeps
// a handful of statements per query's shape instead of one per length (bench/NOTES.md: lists of every
// length up to 500 in three shapes held 100 MB of the process, padded ones 6 MB). Padding must never
// change which rows a list matches: only the last value repeats.
import { describe, expect, it } from 'vitest';
import { inList } from '../../server/store/engine.ts';

describe('inList', () => {
  it('pads to the next power of two with the last value, and keeps every value in order', () => {
    for (let n = 1; n <= 600; n++) {
      const values = Array.from({ length: n }, (_, i) => `v${i}`);
      const padded = inList(values);
      expect(padded.length).toBe(2 ** Math.ceil(Math.log2(n)));
      expect(padded.length).toBeLessThan(2 * n);
      expect(padded.slice(0, n)).toEqual(values);
      expect(new Set(padded.slice(n - 1))).toEqual(new Set([`v${n - 1}`]));
      expect(values).toHaveLength(n); // the caller's list is left as it was
    }
    expect(inList([])).toEqual([]);
  });

  it('makes ten lengths of all the lists from 1 to 500 values', () => {
    const lengths = new Set(Array.from({ length: 500 }, (_, i) => inList(Array.from({ length: i + 1 }, () => 0)).length));
    expect([...lengths].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  });
});
