// What the shop worker's sync view stands on (issue 28, "The shop worker sees it"): POST sync/now/
// runs a round at once and answers how it ended, a second press joins the round already running, and
// a failed round leaves a problem code in the status (`problem.code`) that the UI words, decided from
// what failed and never from the English detail.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { roundsOf } from '../../server/sync/rounds.ts';
import { startSyncLoops } from '../../server/sync/sync-loop.ts';
import {
  INVENTORY_PATH,
  SYNC_NOW_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  type SyncNowAnswer,
  type SyncStatus,
} from '../../shared/index.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { LinkProxy } from '../support/link-proxy.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';

describe('Sync now and the problem in the status', () => {
  let upstream: TestServer;
  let proxy: LinkProxy;
  let shop: Follower;
  let linkTokenId: number;
  beforeEach(async () => {
    upstream = await startTestServer();
    proxy = new LinkProxy('shop');
    await proxy.listen();
    proxy.setTarget(upstream.port);
    const created = await upstream.store.tokens.create('north', 'shop link', 'sync');
    linkTokenId = created.id;
    shop = await follow(proxy, created.key, 'north');
  });
  afterEach(async () => {
    await proxy.close();
    await shop.server.stop();
    await upstream.stop();
  });

  const syncNow = (status = 200) => call<SyncNowAnswer>(shop.server, 'POST', SYNC_NOW_PATH, shop.token, undefined, status);
  const setMug = (quantity: number) =>
    call(shop.server, 'POST', INVENTORY_PATH, shop.token, [{ barcode: MUG, quantity, warehouse_name: 'Main' }]);

  it('runs a round at once and answers what it did, with the status after it', async () => {
    await setMug(9);
    const answer = await syncNow();
    // The link's first round: the upstream's stock comes down, the set goes up.
    expect(answer).toMatchObject({
      joined: false,
      result: { pushed: 1 },
      status: { state: 'in_sync', pending: 0 },
    });
    expect(answer.result!.pulled).toBeGreaterThan(0);
    expect(answer.status.problem).toBeNull();
    expect((await syncNow()).result).toEqual({ pushed: 0, pulled: 0, catalogue_copied: false });
  });

  it('joins the round already running: a second press starts no second round', async () => {
    await syncNow();
    await setMug(4);
    const held = proxy.holdNextPush();
    const first = shop.server.request('POST', SYNC_NOW_PATH, { token: shop.token });
    // The first press's push has reached the upstream and its answer is held there: the round runs.
    await vi.waitFor(
      async () => {
        const body = await call<{ results: { quantity: number }[] }>(
          upstream,
          'GET',
          `${INVENTORY_PATH}?barcodes=${MUG}`,
          upstream.tokens.north!,
        );
        expect(body.results.map((r) => r.quantity)).toContain(4);
      },
      { timeout: 10_000 },
    );
    // The held push is let go once the second press has reached the round, not before: sent and let
    // go at once, the second press could come after the round had ended (on PostgreSQL its token
    // waits for the listener's round trip first), and rightly start a round of its own.
    const rounds = roundsOf(shop.server.store);
    const run = rounds.run;
    let joined = 0;
    rounds.run = (link) => {
      const started = run(link);
      if (started.joined) joined++;
      return started;
    };
    let second: ReturnType<typeof shop.server.request>;
    try {
      second = shop.server.request('POST', SYNC_NOW_PATH, { token: shop.token });
      await vi.waitFor(() => expect(joined).toBe(1), { timeout: 10_000 });
    } finally {
      rounds.run = run;
      held.release();
    }
    const answers = (await Promise.all([(await first).json(), (await second).json()])) as SyncNowAnswer[];
    expect(answers.map((a) => a.joined)).toEqual([false, true]);
    // Both answers are the one round's: one push of the one movement.
    expect(answers[1]!.result).toEqual(answers[0]!.result);
    expect(answers[0]!.result).toMatchObject({ pushed: 1 });
  });

  it('says why a round failed by a code: not answering, token refused, token not for sync; a good round clears it', async () => {
    await syncNow();
    proxy.cutNow();
    const offline = await syncNow();
    expect(offline.result).toBeNull();
    expect(offline.status).toMatchObject({ state: 'offline', problem: { code: 'upstream_unreachable' } });
    expect(offline.status.problem!.detail).toBe(offline.status.last_error);
    proxy.heal();

    // The upstream answers, and refuses the token: an error, not offline.
    await upstream.store.tokens.setRole(linkTokenId, 'counter');
    expect((await syncNow()).status).toMatchObject({ state: 'error', offline_since: null, problem: { code: 'token_not_for_sync' } });
    await upstream.store.tokens.setRole(linkTokenId, 'sync');
    expect((await syncNow()).status).toMatchObject({ state: 'in_sync', problem: null, last_error: null });

    await upstream.store.tokens.revoke(linkTokenId);
    expect((await syncNow()).status).toMatchObject({ state: 'error', problem: { code: 'token_refused' } });
    // The status read alone (the UI's poll) says the same.
    expect((await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).problem).toMatchObject({ code: 'token_refused' });
  });

  it("ends the background loop's backoff when Sync now reaches the upstream: the loop's next round follows at once", async () => {
    // Rounds 30 s apart, so after one failed round the loop would sleep 30 s before trying again.
    let states = 0;
    proxy.cutNow();
    const loops = startSyncLoops(shop.server.store, { intervalMs: 30_000, maxBackoffMs: 60_000 });
    try {
      await vi.waitFor(async () => expect((await shop.link()).lastErrorCode).toBe('upstream_unreachable'), { timeout: 10_000 });
      proxy.heal();
      proxy.hooks = { onRequestSent: (request) => void (request.path.startsWith(SYNC_STATE_PATH) && states++) };
      expect((await syncNow()).status.state).toBe('in_sync');
      // Sync now's own round asked for the state once; the loop's round, nudged by its success, asks again.
      await vi.waitFor(() => expect(states).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    } finally {
      await loops.stop();
    }
  });

  it('names the problem of a failure recorded before codes were kept from the link alone', async () => {
    await syncNow();
    proxy.cutNow();
    await syncNow();
    const probe = probeDatabase(shop.server.dbFile);
    try {
      await probe.run('UPDATE sync_links SET last_error_code = NULL');
    } finally {
      await probe.close();
    }
    expect((await call<SyncStatus>(shop.server, 'GET', SYNC_STATUS_PATH, shop.token)).problem).toMatchObject({
      code: 'upstream_unreachable',
    });
  });
});

describe('Sync now on an account that follows nobody', () => {
  it('is refused with 409 sync_not_linked', async () => {
    const server = await startTestServer();
    try {
      const answer = await call<{ code: string }>(server, 'POST', SYNC_NOW_PATH, server.tokens.north!, undefined, 409);
      expect(answer.code).toBe('sync_not_linked');
    } finally {
      await server.stop();
    }
  });
});
