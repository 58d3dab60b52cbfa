// PostgreSQL's side of engine.kept: another process's commit reaches this one only as a notification
// on the listener's connection, whenever the host lets it arrive. A read that comes first must not
// be answered from what was kept: the listener's backend is stopped here (SIGSTOP), so the
// notification cannot arrive before the read, every time. What the server keeps between requests, on
// every engine, is in kept-lookups.test.ts.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { openStore } from '../../server/store/open-store.ts';
import { LISTENER_NAME, PostgresEngine } from '../../server/store/postgres/postgres-engine.ts';
import { createDatabase, databaseLocation, dropDatabase } from '../support/test-engine.ts';
import { queriesSentDuring } from '../support/sent-queries.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';

/** The backend process of the one listener on the database at `location` (its connection's application_name). */
async function listenerOf(location: string): Promise<number> {
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [LISTENER_NAME],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.pid;
  } finally {
    await client.end();
  }
}

describe('kept look-ups on PostgreSQL', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  const listenerPid = () => listenerOf(server.dbFile);

  it('refuses a token another process revoked while its notification had not arrived yet', async () => {
    const read = () => server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: server.tokens.kiosk });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200); // now kept
    const pid = await listenerPid();
    const cli = await openStore(server.dbFile);
    process.kill(pid, 'SIGSTOP');
    let stopped = true;
    try {
      const { id } = (await server.probe.first<{ id: number }>(
        'SELECT id FROM api_tokens WHERE key_prefix = ?',
        server.tokens.kiosk!.slice(0, 9),
      ))!;
      expect(await cli.tokens.revoke(id)).toBe(true);
      // The read is sent while the listener cannot hear anything; it is let go a moment later. Kept
      // look-ups answered it at once, 200; it must wait for the listener and say 401.
      const answer = read();
      setTimeout(() => {
        process.kill(pid, 'SIGCONT');
        stopped = false;
      }, 200);
      const t0 = performance.now();
      expect((await answer).status).toBe(401);
      console.log('read took', performance.now() - t0);
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
      await cli.close();
    }
  });

  it('waits for the listener once per request, not once per kept look-up', async () => {
    // An account with warehouses: its read keeps the token and the warehouse list.
    const read = () => server.request('GET', `${INVENTORY_PATH}?barcodes=8690000000017`, { token: server.tokens.north });
    expect((await read()).status).toBe(200); // both are kept now
    const sent = await queriesSentDuring(async () => {
      expect((await read()).status).toBe(200);
    });
    expect(sent.listener).toEqual(['SELECT 1']);
  });

  it('reads the database when the listener does not answer, and listens again', async () => {
    const { dir, remove } = tempDir();
    const location = databaseLocation(dir);
    await createDatabase(location);
    const engine = await PostgresEngine.open(location, { listenerTimeoutMs: 300 });
    const other = new pg.Client({ connectionString: location }); // another process's writes
    await other.connect();
    let computed = 0;
    const count = async () =>
      Number(
        (await engine.kept('n', async (q) => {
          computed++;
          return q.first(q.k.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')));
        }))!.n,
      );
    const addAccount = (name: string) => other.query('INSERT INTO accounts (name, warehouses_enabled) VALUES ($1, 0)', [name]);
    const stuck = await listenerOf(location);
    let stopped = false;
    try {
      expect([await count(), await count(), computed]).toEqual([0, 0, 1]);
      // A listener that never answers (a stopped backend, a connection a firewall dropped): the look-up
      // reads the database after listenerTimeoutMs instead of waiting for ever, and sees the commit.
      process.kill(stuck, 'SIGSTOP');
      stopped = true;
      await addAccount('a');
      expect(await count()).toBe(1);
      process.kill(stuck, 'SIGCONT');
      stopped = false;
      // A new listener, opened by a later look-up (at most every 5 s); once it listens, values are
      // kept again: of two look-ups in a row, the second is answered from what the first kept.
      await expect
        .poll(
          async () => {
            const before = computed;
            expect([await count(), await count()]).toEqual([1, 1]);
            return computed - before;
          },
          { timeout: 20_000, interval: 200 },
        )
        .toBeLessThanOrEqual(1);
      expect(await listenerOf(location)).not.toBe(stuck);
      await addAccount('b');
      expect(await count()).toBe(2);
    } finally {
      if (stopped) process.kill(stuck, 'SIGCONT');
      await other.end();
      await engine.close();
      await dropDatabase(location);
      remove();
    }
  }, 30_000);
});
