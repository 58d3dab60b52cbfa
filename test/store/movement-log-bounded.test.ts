// The movement log of one write transaction keeps what it knows in memory only as a cache: an import
// records a million movements in one transaction, and the log must not grow with them (issue 30: the
// importer reached 1.1 GB at 1M barcodes). What must hold once the cache has been emptied: the
// quantity of a place it forgot is read again, exactly, including one this transaction changed but
// has not written yet; and a refused fold still names this transaction's own movement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { createStore } from '../../server/store/store.ts';
import type { Engine } from '../../server/store/engine.ts';
import { MovementLog, systemClock } from '../../server/store/movements/movement-log.ts';
import { actorIdNamed } from '../../server/store/movements/movement-names.ts';
import { isApiError } from '../../server/errors.ts';
import { MAX_QUANTITY } from '../../shared/index.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { createDatabase, databaseLocation, dropDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

// More places than the log keeps (QUANTITIES_KEPT in movement-log.ts is 10,000).
const PLACES = 10_050;

describe('the movement log of one large transaction', () => {
  let engine: Engine;
  let location: string;
  let remove: () => void;
  let units: { id: number; item_id: number; variant_id: number | null }[];

  beforeAll(async () => {
    const dir = tempDir();
    remove = dir.remove;
    location = databaseLocation(dir.dir);
    await createDatabase(location);
    engine = await openEngine(location);
    const store = createStore(engine);
    await store.catalogue.write(
      await parseCatalogue(generatedCatalogue([{ name: 'big', warehouses: [], barcodes: barcodes('B', PLACES), quantity: 7 }])),
    );
    units = await engine.read((q) => q.all(q.k.selectFrom('stock_units').select(['id', 'item_id', 'variant_id']).orderBy('id')));
    expect(units).toHaveLength(PLACES);
  }, 120_000);

  afterAll(async () => {
    await engine.close();
    await dropDatabase(location);
    remove();
  });

  const accountOf = () => engine.read(async (q) => (await q.first(q.k.selectFrom('accounts').select('id').where('name', '=', 'big')))!.id);
  const asUnit = (u: (typeof units)[number]) => ({ id: u.id, itemId: u.item_id, variantId: u.variant_id });
  const source = { source: 'api', actor: 'movement-log-bounded' } as const;

  it('reads a forgotten quantity again, exactly, whether or not this transaction has written it yet', async () => {
    const accountId = await accountOf();
    const seen = await engine.write(
      async (q) => {
        const log = await MovementLog.open(q, systemClock);
        // Every place once: more than the log keeps, so the first ones are forgotten by the end.
        for (const unit of units) await log.record(accountId, asUnit(unit), 0, 'adjust', 1, source);
        // Then the first places again: their quantities (8) must come back from the database.
        const again = [];
        for (const unit of units.slice(0, 5)) again.push(await log.record(accountId, asUnit(unit), 0, 'adjust', 1, source));
        // And the last one, changed just now and perhaps not yet written: 9, not 8.
        again.push(await log.record(accountId, asUnit(units.at(-1)!), 0, 'adjust', 1, source));
        again.push(await log.record(accountId, asUnit(units.at(-1)!), 0, 'adjust', 1, source));
        await log.close();
        return again;
      },
      { bulk: true },
    );
    expect(seen.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ({ oldQuantity: 8, newQuantity: 9 })));
    expect(seen.slice(5)).toEqual([
      { oldQuantity: 8, newQuantity: 9 },
      { oldQuantity: 9, newQuantity: 10 },
    ]);
    const stored = await engine.read((q) =>
      q.all(q.k.selectFrom('stock').select(['unit_id', 'quantity']).where('warehouse_id', '=', 0).orderBy('unit_id')),
    );
    const expected = units.map((u, i) => ({ unit_id: u.id, quantity: i < 5 ? 9 : i === PLACES - 1 ? 10 : 8 }));
    expect(stored).toEqual(expected);
    // Each movement's history row carries the quantities the log answered with.
    const history = await engine.read((q) =>
      q.all(
        q.k
          .selectFrom('stock_history')
          .select(['old_quantity', 'new_quantity'])
          .where('unit_id', '=', units[0]!.id)
          .where('actor_id', '=', actorIdNamed(source.actor))
          .orderBy('hlc'),
      ),
    );
    expect(history).toEqual([
      { old_quantity: 7, new_quantity: 8 },
      { old_quantity: 8, new_quantity: 9 },
    ]);
  }, 120_000);

  it("names this transaction's own movement when its count in the past leaves a quantity out of range, after thousands of others", async () => {
    const accountId = await accountOf();
    const first = units[0]!;
    // Earlier: a time is taken, then two of the first place are received after it.
    const early = await engine.write(async (q) => {
      const log = await MovementLog.open(q, systemClock);
      const hlc = log.nextHlc();
      await log.record(accountId, asUnit(first), 0, 'adjust', 2, source);
      await log.close();
      return hlc;
    });
    const origin = await engine.read(async (q) => (await q.first(q.k.selectFrom('instance').select('id')))!.id);
    const lastSeq = () =>
      engine.read(async (q) => Number((await q.first(q.k.selectFrom('stock_history').select((eb) => eb.fn.max('seq').as('seq'))))!.seq));
    const seqBefore = await lastSeq();
    const attempt = engine.write(
      async (q) => {
        const log = await MovementLog.open(q, systemClock);
        for (const unit of units.slice(1)) await log.record(accountId, asUnit(unit), 0, 'adjust', 1, source);
        // Counted before that receipt: one short of the most a place may hold. The receipt after it then goes past it.
        await log.record(accountId, asUnit(first), 0, 'count', MAX_QUANTITY - 1, source, { hlc: early });
        await log.close();
      },
      { bulk: true },
    );
    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isApiError(error)).toBe(true);
    // The refusal names the count, this transaction's movement, not the earlier receipt where the fold went out of range.
    const countSeq = seqBefore + PLACES;
    expect((error as Error).message).toContain(`${origin}-${countSeq}`);
    expect((error as Error).message).not.toContain(`${origin}-${seqBefore}`);
    // Nothing of the refused transaction stayed.
    expect(await lastSeq()).toBe(seqBefore);
  }, 120_000);
});
