// The writes of one group transaction share the instance's clock (issue 30; Queries.group,
// group-commit.ts): the first write of the group reads it, the last state is written once before the
// COMMIT. What must hold, on both engines: the writes of a group read the clock once; every movement
// gets its own timestamp, later than those of the writes before it; after the commit the database's
// clock is the latest timestamp given, even when a write of the group failed after taking one; and
// the next group reads the clock again and goes on from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/store/engine.ts';
import { MovementLog, systemClock } from '../../server/store/movements/movement-log.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { countingEngine } from '../support/counting-engine.ts';
import { barcodes } from '../support/generated-catalogue.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';
import { writtenAccount } from '../support/written-account.ts';

describe('the instance clock in a group of writes', () => {
  let engine: Engine;
  let location: string;
  let remove: () => void;
  let accountId: number;
  let units: { id: number; itemId: number; variantId: number | null }[];

  beforeAll(async () => {
    const dir = tempDir();
    remove = dir.remove;
    location = await newDatabase(dir.dir);
    engine = await openEngine(location);
    ({ accountId, units } = await writtenAccount(engine, { name: 'north', warehouses: [], barcodes: barcodes('C', 10), quantity: 5 }));
  }, 60_000);

  afterAll(async () => {
    await engine.close();
    await dropDatabase(location);
    remove();
  });

  const source = { source: 'api', actor: 'group-clock' } as const;
  /** One write of one movement, as the store makes it (store.ts, writeMovements); `fail` throws after the movement is recorded. */
  const adjust = (on: Engine, unitIndex: number, fail = false) =>
    on.write(async (q) => {
      const log = await MovementLog.open(q, systemClock);
      await log.record(accountId, units[unitIndex]!, 0, 'adjust', 1, source);
      await log.close();
      if (fail) throw new Error('this write fails after its movement');
      const row = await q.first(
        q.k.selectFrom('stock_history').select(['hlc', 'seq']).where('unit_id', '=', units[unitIndex]!.id).orderBy('id', 'desc').limit(1),
      );
      return row!;
    });
  const clockInDatabase = async () => (await engine.read((q) => q.first(q.k.selectFrom('instance').select('last_hlc'))))!.last_hlc;
  const latestInHistory = async () =>
    (await engine.read((q) => q.first(q.k.selectFrom('stock_history').select((eb) => eb.fn.max('hlc').as('hlc')))))!.hlc;
  const clockReads = (queries: readonly { sql: string }[]) => queries.filter(({ sql }) => /from "instance"/.test(sql)).length;

  it('is read once by the writes of a group; each later write stamps later; written back as the latest', async () => {
    const counting = countingEngine(engine);
    const written = await Promise.all(units.map((_, i) => adjust(counting.engine, i)));
    expect(counting.tally.writes).toBe(10);
    // The ten writes ran in one transaction (asked for in one turn): one read of the clock, not ten.
    expect(clockReads(counting.tally.queries)).toBe(1);
    // In the order they ran (their sequences), each timestamp is later than the one before.
    const inOrder = [...written].sort((a, b) => a.seq - b.seq);
    for (let i = 1; i < inOrder.length; i++) expect(inOrder[i]!.hlc > inOrder[i - 1]!.hlc).toBe(true);
    expect(await clockInDatabase()).toBe(inOrder.at(-1)!.hlc);
    expect(await latestInHistory()).toBe(inOrder.at(-1)!.hlc);
  });

  it('a write that fails after taking a timestamp fails alone, and the clock written is still the latest', async () => {
    const before = await clockInDatabase();
    const counting = countingEngine(engine);
    const outcomes = await Promise.allSettled([adjust(counting.engine, 0), adjust(counting.engine, 1), adjust(counting.engine, 2, true)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(clockReads(counting.tally.queries)).toBe(1);
    const kept = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.hlc] : [])).sort();
    expect(kept[0]! > before!).toBe(true);
    // The failed write's timestamp came after both: the clock may be at it or past it, never behind
    // what was committed.
    const clock = await clockInDatabase();
    expect(clock! >= kept.at(-1)!).toBe(true);
    expect(await latestInHistory()).toBe(kept.at(-1));
  });

  it('a later group reads the clock again and stamps after everything before', async () => {
    const before = await clockInDatabase();
    const counting = countingEngine(engine);
    const first = await adjust(counting.engine, 3);
    const second = await adjust(counting.engine, 4);
    expect(clockReads(counting.tally.queries)).toBe(2);
    expect(first.hlc > before!).toBe(true);
    expect(second.hlc > first.hlc).toBe(true);
    expect(await clockInDatabase()).toBe(second.hlc);
  });
});
