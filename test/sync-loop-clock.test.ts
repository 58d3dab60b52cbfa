// The background sync loop (server/sync/sync-loop.ts) backs off after failed rounds and comes back
// when the upstream does, whatever this instance's store clock says. Found by the convergence
// simulation: a shop PC whose clock was 29 minutes ahead stopped syncing after its first failed
// round, because the loop measured the backoff from the failure's time as the store's clock wrote it
// on the link against the computer's own clock, and waited for the difference (half an hour) first.
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../server/store/open-store.ts';
import type { Store } from '../server/store/store.ts';
import { type SyncLoops, startSyncLoops } from '../server/sync/sync-loop.ts';
import { LinkProxy } from './support/link-proxy.ts';
import { linkStore } from './support/sync-instances.ts';
import { type TestServer, startTestServer, tempDir } from './support/test-server.ts';

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
      await linkStore(store, proxy.url, upstream.tokens.north!, 'north');
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
