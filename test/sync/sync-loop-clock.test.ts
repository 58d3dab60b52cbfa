// The background sync loop (server/sync/sync-loop.ts) backs off after failed rounds and comes back
// when the upstream does, whatever this instance's store clock says. Found by the convergence
// simulation: a shop PC whose clock was 29 minutes ahead stopped syncing after its first failed
// round, because the loop measured the backoff from the failure's time as the store's clock wrote it
// on the link against the computer's own clock, and waited for the difference (half an hour) first.
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import { type SyncLoops, startSyncLoops } from '../../server/sync/sync-loop.ts';
import { CLOCK_OFFSET_ENV } from '../../server/launch/clock-offset.ts';
import { runCli } from '../support/cli.ts';
import { LinkProxy } from '../support/link-proxy.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { linkStore } from '../support/sync-instances.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds; fails with `what` after `ms` (far longer than the loop needs). */
async function until(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await sleep(10);
  }
}

describe("background sync with a store clock far from the computer's", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  for (const offsetMs of [3_600_000, -3_600_000]) {
    it(`backs off while the upstream is away and comes back with it (clock ${offsetMs > 0 ? '+' : '-'}1 h)`, async () => {
      const upstream: TestServer = await startTestServer();
      cleanups.push(() => upstream.stop());
      const proxy = new LinkProxy('follower→upstream');
      await proxy.listen();
      proxy.setTarget(upstream.port);
      cleanups.push(() => proxy.close());
      const { dir, remove } = tempDir();
      cleanups.push(remove);
      const store: Store = await openStore(`${dir}/follower.db`, { clock: { now: () => Date.now() + offsetMs } });
      cleanups.push(() => store.close());
      await linkStore(store, proxy.url, await upstream.newToken('north', 'sync'), 'north');
      const account = (await store.accounts.find('north'))!;
      const link = async () => (await store.sync.linkOf(account))!;

      proxy.cutNow();
      const loops: SyncLoops = startSyncLoops(store, { intervalMs: 20 });
      cleanups.push(() => loops.stop());
      await until(async () => (await link()).lastError !== null, 10_000, 'a failed round recorded');
      expect((await link()).offlineSince).not.toBeNull();

      // Away for a second: the wait doubles from 20 ms (20, 40, 80 … 640: about 6 attempts), where a
      // loop that does not back off tries about 50 times.
      const before = proxy.counts.connections;
      await sleep(1000);
      expect(proxy.counts.connections - before).toBeLessThan(20);

      // The upstream answers again: a round succeeds after the current backoff (about a second).
      proxy.heal();
      // (Offline ends as soon as the upstream answers, before the round has finished: wait for both.)
      await until(async () => (await link()).lastSuccessAt !== null, 10_000, 'a successful round after the upstream came back');
      expect((await link()).offlineSince).toBeNull();
    });
  }
});

describe('the CLI on a skewed instance', () => {
  // `sync now` and every other command stand in for the instance's server, so they take its clock
  // (BARCODE_INVENTORY_CLOCK_OFFSET_MS) too: before, only `serve` did, and a `sync now` beside a
  // skewed server measured and stamped with the computer's clock.
  it('sync now measures the upstream clock against the skewed clock', async () => {
    const upstream = await startTestServer();
    const { dir, remove } = tempDir();
    const db = await newDatabase(dir, 'follower.db', { empty: true });
    try {
      const env = { [CLOCK_OFFSET_ENV]: String(-30 * 60_000) };
      const linked = await runCli(
        ['sync', 'link', '--upstream', upstream.url, '--account', 'north', '--token', await upstream.newToken('north', 'sync'), '--db', db],
        env,
      );
      expect(linked.code, linked.stderr).toBe(0);
      expect((await runCli(['sync', 'now', '--db', db], env)).code).toBe(0);
      const status = await runCli(['sync', 'status', '--db', db], env);
      const skew = Number(/upstream clock: \+?(-?\d+) ms/.exec(status.stdout)?.[1]);
      // The upstream is 30 minutes ahead of this instance's clock (give or take the round trip).
      expect(Math.abs(skew - 30 * 60_000)).toBeLessThan(60_000);
      expect(status.stdout).toContain('WARNING');
    } finally {
      await upstream.stop();
      await dropDatabase(db);
      remove();
    }
  });
});
