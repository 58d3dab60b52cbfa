// PostgreSQL's connections shared out by account, in the engine: one account's reads hold every
// connection of the pool and more of them wait; another account's read then waits for about one of
// them, not for all (server/store/postgres/fair-connections.ts, server/store/acting-account.ts).
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { actFor } from '../../server/store/acting-account.ts';
import { PostgresEngine } from '../../server/store/postgres/postgres-engine.ts';
import { createDatabase, databaseLocation, dropDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const undo of cleanup.reverse()) await undo();
  cleanup = [];
});

const POOL = 3;
const BUSY = 12;

describe("PostgreSQL's connections by account", () => {
  it("serves another account's read after about one of a busy account's waiting reads, not after all of them", async () => {
    const { dir, remove } = tempDir();
    const location = databaseLocation(dir);
    await createDatabase(location);
    const engine = await PostgresEngine.open(location, { poolSize: POOL });
    cleanup.push(
      remove,
      () => dropDatabase(location),
      () => engine.close(),
    );

    const finished: string[] = [];
    // Each read holds its connection for 30 ms: the busy account's pile up in its line.
    const read = (account: number, name: string) =>
      actFor(account, () =>
        engine.read(async (q) => {
          await q.all(q.k.selectNoFrom(sql<string>`pg_sleep(0.03)::text`.as('slept')));
          finished.push(name);
        }),
      );
    const busy = Array.from({ length: BUSY }, (_, i) => read(1, `busy-${i}`));
    const other = read(2, 'other');
    await Promise.all([...busy, other]);

    // In arrival order it would be last (13th). The pool's three went to the busy account's first
    // three; the first connection given back goes to the busy account's line, the next to the other.
    const position = finished.indexOf('other') + 1;
    expect(position).toBeGreaterThan(0);
    expect(position).toBeLessThanOrEqual(POOL + 2);
  });
});
