// The rules of the movement log (server/store/movements/fold.ts, docs/SYNC.md), tested on their own:
// set and count replace, adjust adds; which pairs of movements conflict; when a conflict is resolved.
// Pure and fast: no database, no server. A seeded check holds the predicates to the convergence
// simulation's oracle (test/support/sync-oracle.ts), which is written from docs/SYNC.md alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ABSOLUTE_KINDS,
  type SeenVector,
  foldFrom,
  foldStep,
  hadSeen,
  isAbsolute,
  isConflict,
  kindsConflict,
  missesHeld,
  resolvesConflict,
} from '../../server/store/movements/fold.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { type Kind, type OracleMovement, fold, predictConflicts } from '../support/sync-oracle.ts';
import { inRepo } from '../support/paths.ts';

const set = (value: number) => ({ kind: 'set', value });
const count = (value: number) => ({ kind: 'count', value });
const adjust = (value: number) => ({ kind: 'adjust', value });

describe('the fold step', () => {
  it('replaces with a set or a count, whatever was there', () => {
    expect(foldStep(7, 'set', 3)).toBe(3);
    expect(foldStep(7, 'count', 3)).toBe(3);
    expect(foldStep(7, 'set', 0)).toBe(0);
    expect(foldStep(-4, 'count', 0)).toBe(0);
  });

  it('adds an adjust to what was there', () => {
    expect(foldStep(7, 'adjust', 3)).toBe(10);
    expect(foldStep(7, 'adjust', -9)).toBe(-2);
    expect(foldStep(0, 'adjust', 0)).toBe(0);
  });

  it('starts an adjust from 0 where there is no stock definition yet (null), and a set or count from its value', () => {
    expect(foldStep(null, 'adjust', 5)).toBe(5);
    expect(foldStep(null, 'adjust', -2)).toBe(-2);
    expect(foldStep(null, 'set', 4)).toBe(4);
    expect(foldStep(null, 'count', 0)).toBe(0);
  });

  it('calls set and count absolute, adjust not, and lists the absolute kinds for SQL', () => {
    expect(isAbsolute('set')).toBe(true);
    expect(isAbsolute('count')).toBe(true);
    expect(isAbsolute('adjust')).toBe(false);
    expect([...ABSOLUTE_KINDS]).toEqual(['set', 'count']);
  });
});

describe('folding a run of movements from a base', () => {
  it('leaves the base as it is when nothing came after it, null included', () => {
    expect(foldFrom(6, [])).toEqual({ quantity: 6, moved: 0 });
    expect(foldFrom(null, [])).toEqual({ quantity: null, moved: 0 });
  });

  it('adds adjusts on top of the base and says their net change', () => {
    expect(foldFrom(5, [adjust(2), adjust(-3)])).toEqual({ quantity: 4, moved: -1 });
  });

  it('starts from 0 without a base', () => {
    expect(foldFrom(null, [adjust(2), adjust(1)])).toEqual({ quantity: 3, moved: 3 });
  });

  it('lets a count after adjusts replace them all, and then has no net change to tell', () => {
    expect(foldFrom(10, [adjust(-2), adjust(-1), count(3)])).toEqual({ quantity: 3, moved: null });
    expect(foldFrom(10, [adjust(-2), count(3), adjust(1)])).toEqual({ quantity: 4, moved: null });
  });

  it('lets a set replace too, also a set to the same quantity', () => {
    expect(foldFrom(10, [set(10)])).toEqual({ quantity: 10, moved: null });
    expect(foldFrom(null, [adjust(4), set(1), adjust(2)])).toEqual({ quantity: 3, moved: null });
  });

  it('depends on the order: a set then an adjust is not an adjust then a set', () => {
    expect(foldFrom(0, [set(5), adjust(2)]).quantity).toBe(7);
    expect(foldFrom(0, [adjust(2), set(5)]).quantity).toBe(5);
  });

  it('shows every step with the quantity before and after it', () => {
    const steps: [string, number | null, number][] = [];
    foldFrom(null, [adjust(2), count(9), adjust(-4), set(1)], (m, before, after) => steps.push([m.kind, before, after]));
    expect(steps).toEqual([
      ['adjust', null, 2],
      ['count', 2, 9],
      ['adjust', 9, 5],
      ['set', 5, 1],
    ]);
  });
});

describe('who had seen what', () => {
  const a3 = { origin: 'a', seq: 3 };
  it('counts its own instance’s earlier movements as seen, and not its later ones', () => {
    expect(hadSeen({ origin: 'a', seq: 4 }, {}, a3)).toBe(true);
    expect(hadSeen({ origin: 'a', seq: 3 }, {}, a3)).toBe(false);
    expect(hadSeen({ origin: 'a', seq: 2 }, { a: 9 }, a3)).toBe(false);
  });

  it('counts another instance’s movement as seen when the vector reaches its sequence', () => {
    expect(hadSeen({ origin: 'b', seq: 1 }, { a: 3 }, a3)).toBe(true);
    expect(hadSeen({ origin: 'b', seq: 1 }, { a: 4 }, a3)).toBe(true);
    expect(hadSeen({ origin: 'b', seq: 1 }, { a: 2 }, a3)).toBe(false);
    expect(hadSeen({ origin: 'b', seq: 1 }, { c: 3 }, a3)).toBe(false);
    expect(hadSeen({ origin: 'b', seq: 1 }, {}, a3)).toBe(false);
  });
});

describe('conflicts', () => {
  it('pairs kinds as docs/SYNC.md says: a set with anything, a count with a set or count, an adjust never as the later one', () => {
    const table = (['set', 'count', 'adjust'] as const).map((later) =>
      (['set', 'count', 'adjust'] as const).map((earlier) => kindsConflict(later, earlier)),
    );
    expect(table).toEqual([
      [true, true, true], // a later set
      [true, true, false], // a later count: the shelf it counted already reflected the sales before it
      [false, false, false], // a later adjust
    ]);
  });

  const earlier = (kind: string) => ({ origin: 'a', seq: 5, kind });
  const later = (kind: string) => ({ origin: 'b', seq: 2, kind });
  const unseen: SeenVector = { a: 4 };
  const seen: SeenVector = { a: 5 };

  it('has a set made without seeing an earlier movement of another instance conflict with it, whatever its kind', () => {
    for (const kind of ['set', 'count', 'adjust']) {
      expect(isConflict(later('set'), unseen, earlier(kind)), kind).toBe(true);
      expect(isConflict(later('set'), seen, earlier(kind)), kind).toBe(false);
    }
  });

  it('has a count conflict only with an earlier set or count it had not seen, never with an adjust', () => {
    expect(isConflict(later('count'), unseen, earlier('set'))).toBe(true);
    expect(isConflict(later('count'), unseen, earlier('count'))).toBe(true);
    expect(isConflict(later('count'), unseen, earlier('adjust'))).toBe(false);
    expect(isConflict(later('count'), seen, earlier('set'))).toBe(false);
  });

  it('never has an adjust be the later one', () => {
    for (const kind of ['set', 'count', 'adjust']) expect(isConflict(later('adjust'), {}, earlier(kind)), kind).toBe(false);
  });

  it('never pairs two movements of one instance, whatever the vector says', () => {
    expect(isConflict({ origin: 'a', seq: 6, kind: 'set' }, {}, earlier('set'))).toBe(false);
    expect(isConflict({ origin: 'a', seq: 4, kind: 'set' }, {}, earlier('set'))).toBe(false);
  });

  it('is seen from the earlier one too: every later set or count of another instance that had not seen it', () => {
    const sale = earlier('adjust');
    const laterOnes: { m: { origin: string; seq: number; kind: string }; seen: SeenVector }[] = [
      { m: { origin: 'b', seq: 1, kind: 'set' }, seen: {} },
      { m: { origin: 'c', seq: 7, kind: 'set' }, seen: { a: 5 } },
      { m: { origin: 'c', seq: 8, kind: 'count' }, seen: {} },
      { m: { origin: 'b', seq: 2, kind: 'adjust' }, seen: {} },
    ];
    expect(laterOnes.filter((l) => isConflict(l.m, l.seen, sale)).map((l) => `${l.m.origin}-${l.m.seq}`)).toEqual(['b-1']);
  });

  it('tells whether an instance holds a movement of another origin that a set or count had not seen (the check before any query)', () => {
    const held = { a: 3, b: 2, here: 9 };
    expect(missesHeld(held, 'a', { b: 2, here: 9 })).toBe(false);
    expect(missesHeld(held, 'a', { b: 1, here: 9 })).toBe(true);
    expect(missesHeld(held, 'a', { b: 2 })).toBe(true);
    expect(missesHeld(held, 'a', undefined)).toBe(true);
    expect(missesHeld({ a: 3 }, 'a', undefined)).toBe(false); // only its own origin's movements are held
    expect(missesHeld({ a: 3, b: 2 }, 'a', { a: 0, b: 2 })).toBe(false); // its own origin does not count
  });
});

describe('resolving a conflict', () => {
  const earlier = { origin: 'a', seq: 5 };
  const later = { origin: 'b', seq: 2 };

  it('is done by a set or count of an instance that had seen both', () => {
    expect(resolvesConflict({ origin: 'c', seq: 1 }, { a: 5, b: 2 }, later, earlier)).toBe(true);
    expect(resolvesConflict({ origin: 'c', seq: 1 }, { a: 9, b: 3 }, later, earlier)).toBe(true);
  });

  it('is not done by one that had seen only one of them', () => {
    expect(resolvesConflict({ origin: 'c', seq: 1 }, { a: 5, b: 1 }, later, earlier)).toBe(false);
    expect(resolvesConflict({ origin: 'c', seq: 1 }, { a: 4, b: 2 }, later, earlier)).toBe(false);
    expect(resolvesConflict({ origin: 'c', seq: 1 }, {}, later, earlier)).toBe(false);
  });

  it('counts an instance’s own earlier movement as seen: the later side recording again after it saw the earlier one', () => {
    expect(resolvesConflict({ origin: 'b', seq: 3 }, { a: 5 }, later, earlier)).toBe(true);
    expect(resolvesConflict({ origin: 'b', seq: 3 }, { a: 4 }, later, earlier)).toBe(false);
    expect(resolvesConflict({ origin: 'a', seq: 6 }, { b: 2 }, later, earlier)).toBe(true);
  });
});

describe('against the simulation’s oracle (docs/SYNC.md written down independently)', () => {
  /** A seeded history of one unit in one warehouse: three instances that write and now and then learn what the others made. */
  function history(seed: number, length: number): OracleMovement[] {
    const random = seededRandom(seed);
    const origins = ['a', 'b', 'c'];
    const made: Record<string, number> = { a: 0, b: 0, c: 0 };
    const knows: Record<string, Record<string, number>> = { a: {}, b: {}, c: {} };
    const movements: OracleMovement[] = [];
    for (let step = 0; step < length; step++) {
      const origin = random.pick(origins);
      for (const other of origins) if (other !== origin && random.chance(0.3)) knows[origin]![other] = made[other]!;
      const kind = random.pick<Kind>(['set', 'count', 'adjust']);
      const seq = ++made[origin]!;
      movements.push({
        id: `${origin}-${seq}`,
        origin,
        seq,
        kind,
        value: kind === 'adjust' ? random.int(-3, 3) : random.int(0, 20),
        hlc: String(step).padStart(6, '0'),
        barcode: '1',
        warehouse: null,
        seen: kind === 'adjust' ? {} : { ...knows[origin] },
      });
    }
    return movements;
  }

  /** The conflicts the store's predicates find in a history in timestamp order, as the oracle writes them. */
  function conflictsOf(list: readonly OracleMovement[]) {
    const found = [];
    for (let j = 0; j < list.length; j++) {
      for (let i = 0; i < j; i++) {
        const [later, earlier] = [list[j]!, list[i]!];
        if (!isConflict(later, later.seen, earlier)) continue;
        const resolved = list.slice(j + 1).some((c) => isAbsolute(c.kind) && resolvesConflict(c, c.seen, later, earlier));
        found.push({ later: later.id, earlier: earlier.id, racing: isAbsolute(earlier.kind), resolved });
      }
    }
    return found;
  }

  it.each([1, 2, 3, 20261123])('finds the same quantity and the same conflicts, seed %i', (seed) => {
    const list = history(seed, 60);
    expect(foldFrom(null, list).quantity ?? 0).toBe(fold(list).get('1@-'));
    const conflicts = conflictsOf(list);
    expect(conflicts).toEqual(predictConflicts(list));
    expect(conflicts.length).toBeGreaterThan(0); // the history has some to compare
    expect(conflicts.some((c) => c.resolved)).toBe(true);
  });
});

describe('the rules module', () => {
  it.each(['fold.ts', 'hlc.ts'])('movements/%s imports nothing: no database, no Node API', (file) => {
    const source = readFileSync(inRepo('server', 'store', 'movements', file), 'utf8');
    expect(source).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(|\bprocess\./m);
  });
});
