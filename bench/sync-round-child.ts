// One sync round of a linked account, timed alone: opens the follower's database with the store,
// runs the real round (server/sync/sync-round.ts: state, push in batches, pull) against the upstream
// its link names (a real `serve` process the bench started), and prints one JSON line:
// {"ms", "pushed", "pulled", "warmUpMs"}.
//
// The round's time holds no process start-up. The bench starts this as a child process, and before
// the timer both processes handle a few pushes the way a running server already has, none of which
// writes anything: the first batch waiting, each sequence one too far, which the upstream reads,
// checks and refuses for the gap (409). (The warm-up used to send the upstream's own movements back,
// answered as duplicates; since an upstream takes an origin only from the follower that owns it, that
// is a 403, and the bench stopped there.) Without this, the timed round also paid for Node loading
// its HTTP client and compiling the JSON, validation and apply code of both sides (docs/BENCHMARKS.md,
// "Sync").
import { openStore } from '../server/store/open-store.ts';
import { syncRound } from '../server/sync/sync-round.ts';
import { UpstreamClient, UpstreamError } from '../server/sync/upstream-client.ts';
import { cpuMsOf, postgresCpuMs } from './processes.ts';

const WARM_UP_PUSHES = 3;

const [db, account] = process.argv.slice(2);
if (!db || !account) throw new Error('usage: sync-round-child.ts <follower database> <account>');
const store = await openStore(db);
try {
  const link = (await store.sync.links()).find((l) => l.account === account);
  if (!link) throw new Error(`account "${account}" of ${db} follows no upstream`);

  const warmUpStarted = performance.now();
  const client = new UpstreamClient(link.upstreamUrl, link.token);
  const upstream = await client.state();
  const linked = {
    id: link.accountId,
    name: link.account,
    warehousesEnabled: link.warehousesEnabled,
  };
  // What waits to go up, read as the round reads it: from the first movement the upstream lacks.
  const own = await store.sync.instance();
  const from = Math.max(link.pushCursor, await store.sync.heldUpstreamUpTo(linked, upstream.vector));
  const { movements } = await store.sync.pending(linked, upstream.vector, 500, from);
  const waiting = movements.filter((m) => m.origin === own);
  for (let i = 0; i < WARM_UP_PUSHES && waiting.length > 0; i++) {
    // Each sequence one too far: the upstream reads and checks the whole batch, then refuses it for the gap.
    const shifted = waiting.map((m) => ({
      ...m,
      seq: m.seq + 1,
      id: `${own}-${m.seq + 1}`,
    }));
    const refused = await client.push(shifted).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(refused instanceof UpstreamError) || refused.status !== 409)
      throw new Error(`the warm-up push with a gap was not refused for it: ${String(refused)}`);
  }
  // And one pull from where the link stands, as every round ends with: reads only, on both sides.
  await client.pull(link.pullCursor, undefined, (await store.sync.state(linked)).vector);
  const warmUpMs = performance.now() - warmUpStarted;

  // BENCH_UPSTREAM_PIDS=<serve pid>[,<postmaster pid>]: the upstream's CPU time over the round alone
  // (bench/chain-scale.ts), its serve process and, on PostgreSQL, the whole database server.
  const [servePid, postmasterPid] = (process.env.BENCH_UPSTREAM_PIDS ?? '').split(',').filter(Boolean).map(Number);
  const upstreamCpu = () =>
    servePid === undefined
      ? Number.NaN
      : (cpuMsOf(servePid) ?? Number.NaN) + (postmasterPid === undefined ? 0 : postgresCpuMs(postmasterPid));
  const cpuBefore = upstreamCpu();
  const ownCpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await syncRound(store, link);
  const ms = performance.now() - started;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const upstreamCpuMs = upstreamCpu() - cpuBefore;
  console.log(
    JSON.stringify({
      ms,
      pushed: result.pushed,
      pulled: result.pulled,
      warmUpMs,
      ...(servePid === undefined ? {} : { upstreamCpuMs, followerCpuMs: (ownCpu.user + ownCpu.system) / 1000 }),
    }),
  );
} finally {
  await store.close();
}
