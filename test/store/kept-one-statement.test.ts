// engine.kept runs its compute as one statement (engine.ts): on PostgreSQL without BEGIN and COMMIT,
// one round trip instead of three on every request that looks up its token. What must hold on every
// engine: a compute that runs a second statement is refused with a clear error and nothing of it is
// kept; a one-statement compute answers what the database holds. (That PostgreSQL sends exactly one
// query for it is in group-commit-postgres.test.ts, with the engine's other round trips.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/store/engine.ts';
import { openEngine } from '../../server/store/open-store.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

describe('engine.kept runs one statement', () => {
  let engine: Engine;
  let location: string;
  let remove: () => void;

  beforeAll(async () => {
    const dir = tempDir();
    remove = dir.remove;
    location = await newDatabase(dir.dir);
    engine = await openEngine(location);
    await engine.write((q) => q.run(q.k.insertInto('accounts').values({ name: 'north', warehouses_enabled: 0 })));
  });

  afterAll(async () => {
    await engine.close();
    await dropDatabase(location);
    remove();
  });

  const countAccounts = (q: Parameters<Parameters<Engine['kept']>[1]>[0]) =>
    q.first(q.k.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')));

  it('answers a one-statement compute with what the database holds', async () => {
    const count = () => engine.kept('accounts', async (q) => Number((await countAccounts(q))!.n));
    expect(await count()).toBe(1);
    await engine.write((q) => q.run(q.k.insertInto('accounts').values({ name: 'south', warehouses_enabled: 0 })));
    expect(await count()).toBe(2);
  });

  it('refuses a second statement, and keeps nothing of it', async () => {
    let computed = 0;
    const twice = () =>
      engine.kept('twice', async (q) => {
        computed++;
        await countAccounts(q);
        return countAccounts(q);
      });
    await expect(twice()).rejects.toThrow(/one statement/);
    await expect(twice()).rejects.toThrow(/one statement/);
    expect(computed).toBe(2);
  });
});
