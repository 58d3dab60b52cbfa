// SQLite's own change detection behind engine.kept: a change through this connection or another
// (`PRAGMA data_version`) drops what is kept. What the server keeps between requests, on every
// engine, is in kept-lookups.test.ts.
import { describe, expect, it } from 'vitest';
import { SqliteEngine } from '../../server/store/sqlite/sqlite-engine.ts';

describe('SqliteEngine.kept', () => {
  it('recomputes after a change through this connection or another, and never keeps undefined', async () => {
    const { tempDir } = await import('../support/test-server.ts');
    const { dir, remove } = tempDir();
    const file = `${dir}/kept.db`;
    const engine = await SqliteEngine.open(file);
    const other = await SqliteEngine.open(file);
    try {
      let computed = 0;
      const count = () =>
        engine.kept('n', async (q) => {
          computed++;
          return q.first(q.k.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')));
        });
      const addAccount = (through: SqliteEngine, name: string) =>
        through.write((q) => q.run(q.k.insertInto('accounts').values({ name, warehouses_enabled: 0 })));
      expect(await count()).toEqual({ n: 0 });
      expect(await count()).toEqual({ n: 0 });
      expect(computed).toBe(1);
      await addAccount(engine, 'a');
      expect(await count()).toEqual({ n: 1 });
      expect(computed).toBe(2);
      await addAccount(other, 'b');
      expect(await count()).toEqual({ n: 2 });
      expect(await count()).toEqual({ n: 2 });
      expect(computed).toBe(3);
      let missing = 0;
      expect(await engine.kept('missing', async () => void missing++)).toBeUndefined();
      expect(await engine.kept('missing', async () => void missing++)).toBeUndefined();
      expect(missing).toBe(2);
    } finally {
      await other.close();
      await engine.close();
      remove();
    }
  });
});
