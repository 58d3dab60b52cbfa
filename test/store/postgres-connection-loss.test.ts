// A PostgreSQL server that ends the connections of a store while it closes them (a restart, an admin's
// DROP DATABASE … WITH (FORCE)) must not take the process down. pg-pool takes its own error listener
// off a connection as it starts closing it, before the connection is gone: a FATAL arriving then was an
// uncaught exception (seen as "terminating connection due to administrator command" at the end of a
// test run). A small TCP proxy holds the server's FATAL back until the store has started closing, so
// the order that once happened by chance happens every time.
import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { tempDir } from '../support/test-server.ts';

/** Forwards TCP to `target`; while held, the bytes from the server wait (in order) until released. */
async function holdingProxy(target: URL) {
  let held = false;
  const waiting: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.pipe(upstream);
    upstream.on('data', (chunk) => (held ? waiting.push(() => client.write(chunk)) : client.write(chunk)));
    upstream.on('end', () => (held ? waiting.push(() => client.end()) : client.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    hold: () => void (held = true),
    release: () => {
      held = false;
      for (const send of waiting.splice(0)) send();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('connections ended by the server while a store closes them', () => {
  it('are no uncaught error, for the store and for a probe', async () => {
    const { dir, remove } = tempDir();
    const location = await newDatabase(dir, 'loss.db');
    const proxy = await holdingProxy(new URL(location));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const store = await openStore(proxy.url, { poolSize: 4 });
      const probe = probeDatabase(proxy.url);
      await Promise.all([...Array(6)].map(() => store.accounts.list())); // several connections, idle in the pool
      await probe.first('SELECT 1');
      // The server ends every connection to the database; its FATALs wait in the proxy…
      proxy.hold();
      const admin = new pg.Client({ connectionString: location });
      await admin.connect();
      const ended = await admin.query(
        'SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) t',
      );
      await admin.end();
      expect(Number(ended.rows[0].n)).toBeGreaterThanOrEqual(2);
      // …until the store and the probe have started closing them.
      const closing = Promise.all([store.close(), probe.close()]);
      proxy.release();
      await closing;
      await new Promise((resolve) => setTimeout(resolve, 100)); // an uncaught error surfaces on the next turns
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await proxy.close();
      await dropDatabase(location);
      remove();
    }
  });
});
