// The rules of the movement log (server/store/movements/fold.ts, docs/SYNC.md), tested on their own:
// set and count replace, adjust adds; which movements conflict, how they group per place, and when a
// group is resolved.
// Pure and fast: no database, no server. A seeded check holds the predicates to the convergence
// simulation's oracle (test/support/sync-oracle.ts), which is written from docs/SYNC.md alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ABSOLUTE_KINDS,
  type ConflictGroup,
  ConflictWalk,
  type SeenVector,
  type WalkMovement,
  conflictGroups,
  counterparts,
  foldFrom,
  foldStep,
  hadSeen,
  isAbsolute,
  missesHeld,
  sawAll,
} from '../../server/store/movements/fold.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { seededHistory } from '../support/seeded-history.ts';
import { type OracleMovement, fold, predictConflicts } from '../support/sync-oracle.ts';
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

describe('whether a movement on top may conflict at all (missesHeld)', () => {
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

describe('what a set or count overrode without seeing it (counterparts)', () => {
  const m = (origin: string, seq: number, kind: string): WalkMovement => ({ origin, seq, kind, hlc: `${origin}${seq}` });
  const previous = m('a', 5, 'set');
  const sale = m('c', 2, 'adjust');
  const ownSale = m('b', 1, 'adjust');

  it('races the set or count before it when that is of another instance it had not seen', () => {
    expect(counterparts(m('b', 2, 'set'), { a: 4 }, previous, []).racing).toBe(true);
    expect(counterparts(m('b', 2, 'count'), {}, m('a', 5, 'count'), []).racing).toBe(true);
    expect(counterparts(m('b', 2, 'set'), { a: 5 }, previous, []).racing).toBe(false);
    expect(counterparts(m('a', 6, 'set'), {}, previous, []).racing).toBe(false); // its own instance's: seen
    expect(counterparts(m('b', 2, 'set'), {}, undefined, []).racing).toBe(false); // nothing before it
  });

  it('has a set conflict with the sales of other instances since that set or count that it had not seen', () => {
    expect(counterparts(m('b', 2, 'set'), { a: 5 }, previous, [sale, ownSale]).adjusts).toEqual([sale]);
    expect(counterparts(m('b', 2, 'set'), { a: 5, c: 2 }, previous, [sale, ownSale]).adjusts).toEqual([]);
    expect(counterparts(m('b', 2, 'set'), {}, undefined, [sale]).adjusts).toEqual([sale]);
  });

  it('never has a count conflict with sales: the shelf it counted already reflected them', () => {
    expect(counterparts(m('b', 2, 'count'), { a: 5 }, previous, [sale])).toEqual({ racing: false, adjusts: [] });
  });

  it('looks no further back than the set or count before it, which replaced everything earlier', () => {
    // A sale before `previous` is not in the window at all: the walk passes only what came after it.
    const walk = new ConflictWalk();
    walk.step(sale, {});
    walk.step(m('a', 5, 'set'), { c: 2 });
    walk.step(m('b', 2, 'set'), { a: 5 }); // saw the set, not the sale before it: no conflict
    expect(walk.touched).toEqual([]);
  });
});

describe('who had seen every movement of a group (sawAll)', () => {
  it('reads the group as its vector: the highest sequence of each origin among its movements', () => {
    expect(sawAll({ origin: 'c', seq: 1 }, { a: 5, b: 2 }, { a: 5, b: 2 })).toBe(true);
    expect(sawAll({ origin: 'c', seq: 1 }, { a: 9, b: 3 }, { a: 5, b: 2 })).toBe(true);
    expect(sawAll({ origin: 'c', seq: 1 }, { a: 5, b: 1 }, { a: 5, b: 2 })).toBe(false);
    expect(sawAll({ origin: 'c', seq: 1 }, {}, { a: 5 })).toBe(false);
    expect(sawAll({ origin: 'c', seq: 1 }, {}, {})).toBe(true);
  });

  it('counts its own instance’s earlier movements as seen, and not its later ones', () => {
    expect(sawAll({ origin: 'b', seq: 3 }, { a: 5 }, { a: 5, b: 2 })).toBe(true);
    expect(sawAll({ origin: 'b', seq: 2 }, { a: 5 }, { a: 5, b: 2 })).toBe(false);
    expect(sawAll({ origin: 'b', seq: 3 }, { a: 4 }, { a: 5, b: 2 })).toBe(false);
  });
});

describe('conflict groups', () => {
  let hlc = 0;
  const m = (origin: string, seq: number, kind: string, seen: SeenVector = {}) => ({
    origin,
    seq,
    kind,
    hlc: String(++hlc).padStart(6, '0'),
    seen,
  });
  const groupsOf = (list: ReturnType<typeof m>[]) =>
    conflictGroups(list, (x) => x.seen).map((g) => ({
      first: `${g.first.origin}-${g.first.seq}`,
      last: `${g.last.origin}-${g.last.seq}`,
      earlier: `${g.earlier.origin}-${g.earlier.seq}`,
      movements: g.movements,
      racing: g.racing,
      members: g.members,
      resolvedBy: g.resolvedBy && `${g.resolvedBy.origin}-${g.resolvedBy.seq}`,
    }));

  it('puts 500 sets of two instances racing one another into one group, not a pair for every earlier one', () => {
    const list = Array.from({ length: 500 }, (_, i) => m(i % 2 === 0 ? 'a' : 'b', Math.floor(i / 2) + 1, 'set'));
    expect(groupsOf(list)).toEqual([
      { first: 'b-1', last: 'b-250', earlier: 'a-250', movements: 499, racing: true, members: { a: 250, b: 250 }, resolvedBy: null },
    ]);
  });

  it('is resolved by a set or count that had seen every member, and a new conflict then opens a new group', () => {
    const list = [
      m('a', 1, 'set'),
      m('b', 1, 'set'),
      m('c', 1, 'count', { a: 1, b: 1 }),
      m('a', 2, 'set'),
      m('b', 2, 'set', { a: 1, c: 1 }),
    ];
    expect(groupsOf(list)).toEqual([
      { first: 'b-1', last: 'b-1', earlier: 'a-1', movements: 1, racing: true, members: { a: 1, b: 1 }, resolvedBy: 'c-1' },
      // a-2 had seen its own a-1 but not c-1: it opens the next group; b-2 had not seen a-2 and joins it.
      { first: 'a-2', last: 'b-2', earlier: 'a-2', movements: 2, racing: true, members: { a: 2, b: 2, c: 1 }, resolvedBy: null },
    ]);
  });

  it('keeps a group open past a set or count that had not seen all of it, even one that conflicts with nothing', () => {
    const list = [m('a', 1, 'set'), m('b', 1, 'set'), m('b', 2, 'set'), m('a', 2, 'set', { b: 2 })];
    // b-2 saw its own b-1 but not a-1: the group stays open; a-2 saw b-2 and b-1 and its own a-1: resolved.
    expect(groupsOf(list).map((g) => [g.first, g.last, g.resolvedBy])).toEqual([['b-1', 'b-1', 'a-2']]);
  });

  it('lists a set made without seeing sales before it, with the latest of them as `earlier`, and not racing', () => {
    const list = [m('a', 1, 'set'), m('c', 1, 'adjust'), m('c', 2, 'adjust'), m('b', 1, 'set', { a: 1, c: 1 })];
    expect(groupsOf(list)).toEqual([
      { first: 'b-1', last: 'b-1', earlier: 'c-2', movements: 1, racing: false, members: { b: 1, c: 2 }, resolvedBy: null },
    ]);
  });

  it('goes on from a stored point exactly as a walk from the start: the previous set or count, the adjusts since, the open group', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 50; run++) {
      const list = history(random.int(1, 1_000_000), 40);
      const whole = conflictGroups(list, (x) => x.seen);
      const cut = random.int(1, list.length - 1);
      const head = new ConflictWalk();
      for (const x of list.slice(0, cut)) head.step(x, x.seen);
      // As the store keeps it: the open group's row (JSON) and the history's rows.
      const stored = head.open && (JSON.parse(JSON.stringify(head.open)) as ConflictGroup);
      const tail = new ConflictWalk(head.previous, [...head.window], stored);
      for (const x of list.slice(cut)) tail.step(x, x.seen);
      const resumed = [...head.touched.filter((g) => g !== head.open), ...tail.touched];
      const shape = (g: ConflictGroup) =>
        JSON.stringify([
          g.first.origin,
          g.first.seq,
          g.last.origin,
          g.last.seq,
          g.earlier.origin,
          g.earlier.seq,
          g.movements,
          g.racing,
          g.members,
          g.resolvedBy?.origin,
          g.resolvedBy?.seq,
        ]);
      expect(resumed.map(shape)).toEqual(whole.map(shape));
    }
  });
});

/** A seeded history of one unit in one warehouse: three instances that write and now and then learn what the others made. */
const history = (seed: number, length: number): OracleMovement[] =>
  seededHistory({
    seed,
    length,
    origins: ['a', 'b', 'c'],
    places: [{ barcode: '1', warehouse: null }],
    kinds: ['set', 'count', 'adjust'],
    hlcOf: (step) => String(step).padStart(6, '0'),
  });

describe('against the simulation’s oracle (docs/SYNC.md written down independently)', () => {
  it.each([1, 2, 3, 20261123])('finds the same quantity and the same conflict groups, seed %i', (seed) => {
    const list = history(seed, 60);
    expect(foldFrom(null, list).quantity ?? 0).toBe(fold(list).get('1@-'));
    const groups = conflictGroups(list, (m) => m.seen).map((g) => ({
      place: '1@-',
      first: `${g.first.origin}-${g.first.seq}`,
      last: `${g.last.origin}-${g.last.seq}`,
      earlier: `${g.earlier.origin}-${g.earlier.seq}`,
      movements: g.movements,
      racing: g.racing,
      resolved: g.resolvedBy !== null,
    }));
    expect(groups).toEqual(predictConflicts(list));
    expect(groups.length).toBeGreaterThan(0); // the history has some to compare
    expect(groups.some((g) => g.resolved)).toBe(true);
  });
});

describe('the rules module', () => {
  it.each(['fold.ts', 'hlc.ts'])('movements/%s imports nothing: no database, no Node API', (file) => {
    const source = readFileSync(inRepo('server', 'store', 'movements', file), 'utf8');
    expect(source).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(|\bprocess\./m);
  });
});
