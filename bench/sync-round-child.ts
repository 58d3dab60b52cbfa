// One sync round of a linked account, timed alone: opens the follower's database with the store,
// runs the real round (server/sync/sync-round.ts: state, push in batches, pull) against the upstream
// its link names (a real `serve` process the bench started), and prints one JSON line:
// {"ms", "pushed", "pulled", "warmUpMs"}.
//
// The round's time holds no process start-up. The bench starts this as a child process, and before
// the timer both processes handle a few pushes the way a running server already has: the upstream's
// own movements, which the follower pulled when it linked, sent back. The upstream answers them as
// duplicates and writes nothing. Without this, the timed round also paid for Node loading its HTTP
// client and compiling the JSON, validation and apply code of both sides (docs/BENCHMARKS.md, "Sync").
import { openStore } from '../server/store/open-store.ts';
import { syncRound } from '../server/sync/sync-round.ts';
import { UpstreamClient } from '../server/sync/upstream-client.ts';

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
  const linked = { id: link.accountId, name: link.account, warehousesEnabled: link.warehousesEnabled };
  const { movements } = await store.sync.pending(linked, {}, 500, 0);
  const theirs = movements.filter((m) => m.origin === upstream.instance);
  for (let i = 0; i < WARM_UP_PUSHES && theirs.length > 0; i++) {
    const answer = await client.push(theirs);
    if (answer.applied !== 0) throw new Error(`the warm-up push applied ${answer.applied} movements: it must write nothing`);
  }
  // And one pull from where the link stands, as every round ends with: reads only, on both sides.
  await client.pull(link.pullCursor, undefined, (await store.sync.state(linked)).vector);
  const warmUpMs = performance.now() - warmUpStarted;

  const started = performance.now();
  const result = await syncRound(store, link);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, pushed: result.pushed, pulled: result.pulled, warmUpMs }));
} finally {
  await store.close();
}
