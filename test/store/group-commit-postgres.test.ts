// Group commit on PostgreSQL (issue 30; server/store/group-commit.ts): writes one process is asked
// for together share one transaction on one connection, each in its own savepoint, and one COMMIT.
// What must hold: a write is answered only once its commit is visible to another connection; a
// failing write (an error of its own, or a constraint) fails alone and leaves nothing; a connection
// lost under a write fails that write with a 503 and the others of its group run again on another
// connection and commit exactly once; writes asked for while a group runs form the next group; writes
// asked for just before close() still commit. The crash
// (SIGKILL) and multi-process proofs (crash-durability, multi-process-writers) run unchanged over it.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { GROUP_COMMIT_LIMIT } from '../../server/store/group-commit.ts';
import { PostgresEngine } from '../../server/store/postgres/postgres-engine.ts';
import { type SentQueries, queriesSentDuring } from '../support/sent-queries.ts';
import { createDatabase, databaseLocation, dropDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const undo of cleanup.reverse()) await undo();
  cleanup = [];
});

async function openTwo() {
  const { dir, remove } = tempDir();
  const location = databaseLocation(dir);
  await createDatabase(location);
  const engine = await PostgresEngine.open(location);
  const observer = new pg.Client({ connectionString: location });
  await observer.connect();
  cleanup.push(
    remove,
    () => dropDatabase(location),
    () => observer.end(),
  );
  const names = async () => (await observer.query<{ name: string }>('SELECT name FROM accounts ORDER BY name')).rows.map((r) => r.name);
  return { engine, names, observer };
}

const addAccount = (engine: PostgresEngine, name: string) =>
  engine.write(async (q) => {
    await q.run(q.k.insertInto('accounts').values({ name, warehouses_enabled: 0 }));
    return name;
  });

describe('group commit (PostgreSQL)', () => {
  it('writes asked for in one turn share one commit, and each is answered only after another connection sees it', async () => {
    const { engine, names } = await openTwo();
    try {
      const before = { ...engine.commits };
      const wanted = Array.from({ length: 10 }, (_, i) => `shop-${String(i).padStart(2, '0')}`);
      const seenAtAnswer = await Promise.all(wanted.map((name) => addAccount(engine, name).then(() => names())));
      expect(engine.commits.groups - before.groups).toBe(1);
      expect(engine.commits.writes - before.writes).toBe(10);
      // Every answer came after the commit: the other connection already saw all ten.
      for (const seen of seenAtAnswer) expect(seen).toEqual(wanted);
    } finally {
      await engine.close();
    }
  });

  it('writes asked for while a group runs wait for it and form the next group together, whatever turn they came in', async () => {
    const { engine, names } = await openTwo();
    try {
      const before = { ...engine.commits };
      const slow = engine.write(async (q) => {
        await q.run(q.k.insertInto('accounts').values({ name: 'slow', warehouses_enabled: 0 }));
        await q.first(q.k.selectNoFrom((eb) => eb.fn('pg_sleep', [eb.val(0.2)]).as('slept')));
      });
      // Five writes, each asked for in a turn of its own while the slow one's group is running.
      const later: Promise<string>[] = [];
      for (let i = 0; i < 5; i++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        later.push(addAccount(engine, `later-${i}`));
      }
      await slow;
      await Promise.all(later);
      expect(engine.commits.groups - before.groups).toBe(2);
      expect(engine.commits.writes - before.writes).toBe(6);
      expect(await names()).toEqual(['later-0', 'later-1', 'later-2', 'later-3', 'later-4', 'slow']);
    } finally {
      await engine.close();
    }
  });

  it('a failing write fails alone: its own changes are rolled back, the others commit in the same transaction', async () => {
    const { engine, names } = await openTwo();
    try {
      const runs: string[] = [];
      const counted = (name: string) =>
        engine.write(async (q) => {
          runs.push(name);
          await q.run(q.k.insertInto('accounts').values({ name, warehouses_enabled: 0 }));
          return name;
        });
      // An error of the write's own, after a statement of it.
      const thrown = await Promise.allSettled([
        counted('a'),
        engine.write(async (q) => {
          await q.run(q.k.insertInto('accounts').values({ name: 'half', warehouses_enabled: 0 }));
          throw new Error('refused after its first statement');
        }),
        counted('c'),
      ]);
      expect(thrown.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((thrown[1] as PromiseRejectedResult).reason)).toMatch(/refused after its first statement/);
      expect(await names()).toEqual(['a', 'c']);
      // A constraint error, which aborts the transaction up to the write's savepoint.
      const refused = await Promise.allSettled([counted('d'), counted('a'), counted('e')]);
      expect(refused.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((refused[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
      expect(await names()).toEqual(['a', 'c', 'd', 'e']);
      // Each ran once: the transaction went on after the failures, nothing had to run again.
      expect(runs).toEqual(['a', 'c', 'd', 'a', 'e']);
    } finally {
      await engine.close();
    }
  });

  it('a connection lost under one write fails that write (503); the others run again on another connection and commit once', async () => {
    const { engine, names, observer } = await openTwo();
    try {
      const before = { ...engine.commits };
      let runs = 0;
      const results = await Promise.allSettled([
        addAccount(engine, 'before'),
        engine.write(async (q) => {
          runs++;
          await q.run(q.k.insertInto('accounts').values({ name: 'lost', warehouses_enabled: 0 }));
          // The server ends this very connection, as a restart or a network cut would.
          const pid = (await q.first<{ pid: number }>(q.k.selectNoFrom((eb) => eb.fn<number>('pg_backend_pid', []).as('pid'))))!.pid;
          await observer.query('SELECT pg_terminate_backend($1)', [pid]);
          await q.run(q.k.insertInto('accounts').values({ name: 'lost-2', warehouses_enabled: 0 }));
        }),
        addAccount(engine, 'after'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ status: 503 });
      expect(runs).toBe(1);
      // 'before' ran in the lost transaction and again in the new one: it is there once.
      expect(await names()).toEqual(['after', 'before']);
      expect(engine.commits.groups - before.groups).toBe(1);
      expect(await addAccount(engine, 'later')).toBe('later');
    } finally {
      await engine.close();
    }
  });

  it('a group holds at most GROUP_COMMIT_LIMIT writes; writes asked for just before close() still commit', async () => {
    const { engine, names } = await openTwo();
    const before = { ...engine.commits };
    const wanted = Array.from({ length: GROUP_COMMIT_LIMIT + 1 }, (_, i) => `n${String(i).padStart(3, '0')}`);
    const answers = Promise.all(wanted.map((name) => addAccount(engine, name)));
    await engine.close();
    expect(await answers).toEqual(wanted);
    expect(engine.commits.groups - before.groups).toBe(2);
    expect(await names()).toEqual(wanted);
  });
  it('a kept lookup is one query on the server, without BEGIN and COMMIT; kept, one round trip on the listener', async () => {
    const { engine } = await openTwo();
    const count = async () => {
      const value = await engine.kept('count', (q) => q.first(q.k.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n'))));
      expect(Number(value!.n)).toBe(0);
    };
    // The listener's round trips (a kept value waits for one: kept-lookups-postgres.test.ts) are told apart.
    let read: SentQueries;
    let kept: SentQueries;
    try {
      read = await queriesSentDuring(count);
      kept = await queriesSentDuring(count);
    } finally {
      await engine.close();
    }
    expect(read.pool).toHaveLength(1);
    expect(read.pool[0]).toMatch(/^select count\(\*\)/i);
    expect(read.listener).toEqual([]); // a read is fresh without waiting for the listener
    expect(kept).toEqual({ pool: [], listener: ['SELECT 1'] });
  });
});
