// PostgreSQL's side of engine.kept: another process's commit reaches this one only as a notification
// on the listener's connection, whenever the host lets it arrive. A read that comes first must not
// be answered from what was kept: the listener's backend is stopped here (SIGSTOP), so the
// notification cannot arrive before the read, every time. What the server keeps between requests, on
// every engine, is in kept-lookups.test.ts.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { openStore } from '../../server/store/open-store.ts';
import { LISTENER_NAME } from '../../server/store/postgres/postgres-engine.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('kept look-ups on PostgreSQL', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  /** The backend process of the server's listener (its connection's application_name). */
  const listenerPid = async () => {
    const client = new pg.Client({ connectionString: server.dbFile });
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
  };

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
      expect((await answer).status).toBe(401);
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
      await cli.close();
    }
  });

  it('waits for the listener once per request, not once per kept look-up', async () => {
    // An account with warehouses: its read keeps the token and the warehouse list.
    const read = () => server.request('GET', `${INVENTORY_PATH}?barcodes=8690000000017`, { token: server.tokens.north });
    expect((await read()).status).toBe(200); // both are kept now
    let heard = 0;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (
        (this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name === LISTENER_NAME
      )
        heard++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      expect((await read()).status).toBe(200);
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(heard).toBe(1);
  });
});
