// Two instances serving the scanner UI, one following the other, for the sync views in a real
// Chromium: the till (upstream, the example catalogue) and a laptop linked to it the way `sync link`
// links, through a proxy the test can cut, heal and pause (test/support/link-proxy.ts). The laptop
// syncs in the background with the real loop of `serve`, at a test's pace (rounds 200 ms apart, a
// second at most between retries), so what its UI shows comes from real rounds.
import { type SyncLoops, startSyncLoops } from '../../server/sync/sync-loop.ts';
import { LinkProxy } from './link-proxy.ts';
import { type Follower, follow } from './sync-instances.ts';
import { type TestServer, exampleCatalogue } from './test-server.ts';
import { startUiServer } from './ui-harness.ts';

export interface LinkedPair {
  till: TestServer;
  laptop: Follower;
  proxy: LinkProxy;
  loops: SyncLoops;
  /**
   * The next push of the laptop reaches the till (and is applied there) but its answer is held until
   * `release()`: the laptop has reached its upstream and its movements are on their way, "N waiting".
   */
  holdNextPush(): { release(): void };
  stop(): Promise<void>;
}

/** `tillClockAheadMs`: the till's clock runs that far ahead of the laptop's (a PC whose clock is wrong). */
export async function startLinkedPair({ tillClockAheadMs = 0 }: { tillClockAheadMs?: number } = {}): Promise<LinkedPair> {
  const till = await startUiServer(
    exampleCatalogue(),
    tillClockAheadMs === 0 ? {} : { clock: { now: () => Date.now() + tillClockAheadMs } },
  );
  const proxy = new LinkProxy('laptop');
  await proxy.listen();
  proxy.setTarget(till.port);
  // Linked under the label its owner chose, as `sync link --label "Laptop 2"` does: the till names it so.
  const laptop = await follow(proxy, await till.newToken('north', 'sync'), 'north', await startUiServer({ accounts: [] }), 'Laptop 2');
  const loops = startSyncLoops(laptop.server.store, { intervalMs: 200, maxBackoffMs: 1_000 });
  return {
    till,
    laptop,
    proxy,
    loops,
    holdNextPush: () => proxy.holdNextPush(),
    async stop() {
      await proxy.close(); // a round held in the proxy fails now, so the loop can stop
      await loops.stop();
      await laptop.server.stop();
      await till.stop();
    },
  };
}
