// The engine's scratch table of first uses (a streamed import's duplicate checks), on both engines,
// against the in-memory first uses of a parsed document as the reference. The claims go in many to
// a statement (SQLite: 64 at a time, answered by the count of rows inserted when all are new), so the
// seeded calls put repeated keys inside one statement's claims, across statements of one call,
// across calls, and in the odd tail after the last full statement.
import { afterAll, describe, expect, it } from 'vitest';
import { type FirstUse, MemoryFirstUses, ScratchFirstUses } from '../../server/catalogue/first-uses.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { tempDir } from '../support/test-server.ts';

describe('the scratch table of first uses', () => {
  const { dir, remove } = tempDir('bi-scratch-keys-');
  afterAll(remove);

  it('answers every claim as the in-memory first uses do: repeats within a statement, across statements and calls, in the tail', async () => {
    const random = seededRandom(30);
    const location = await newDatabase(dir);
    const engine = await openEngine(location);
    try {
      const memory = new MemoryFirstUses();
      let code = 0;
      const kinds = ['item', 'variant', { barcodesOfAccount: 0 }, { barcodesOfAccount: 3 }] as const;
      // Mostly new keys, some repeated: from a small pool (often repeated) and a large one (seldom).
      const use = (): FirstUse => {
        const kind = random.pick(kinds);
        const n = random.int(0, random.chance(0.1) ? 20 : 100_000);
        return { kind, key: typeof kind === 'string' ? n : `B-${n}`, code: code++ };
      };
      // Call lengths around the statement's 64: under, exactly, across, and long with a tail.
      const calls = [1, 63, 64, 65, 128, 200, 3, 512, 700, 64].map((length) => Array.from({ length }, use));
      // A call of new keys with one repeat as its very last claim, and one with only its first repeated.
      calls.push([...Array.from({ length: 127 }, use), { kind: 'item', key: 5_000_000, code: code++ }]);
      calls.push([{ kind: 'item', key: 5_000_000, code: code++ }, ...Array.from({ length: 127 }, use)]);
      const expected = await Promise.all(calls.map((claims) => memory.claimAll(claims)));
      expect(expected.flat().filter((first) => first !== undefined).length).toBeGreaterThan(20);

      const answered = await engine.write(
        async (q) => {
          const scratch = await engine.scratchKeys(q);
          const uses = new ScratchFirstUses(scratch);
          const answers: (number | undefined)[][] = [];
          for (const claims of calls) answers.push(await uses.claimAll(claims));
          await scratch.drop();
          return answers;
        },
        { bulk: true },
      );
      expect(answered).toEqual(expected);
    } finally {
      await engine.close();
      await dropDatabase(location);
    }
  });
});
