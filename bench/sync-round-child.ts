// One sync round of a linked account, timed alone: opens the follower's database with the store,
// runs the real round (server/sync/sync-round.ts: state, push in batches, pull) against the upstream
// its link names (a real `serve` process the bench started), and prints one JSON line:
// {"ms", "pushed", "pulled"}. The bench starts it as a child process, so the round's time holds no
// process start-up.
import { openStore } from '../server/store/open-store.ts';
import { syncRound } from '../server/sync/sync-round.ts';

const [db, account] = process.argv.slice(2);
if (!db || !account) throw new Error('usage: sync-round-child.ts <follower database> <account>');
const store = await openStore(db);
try {
  const link = (await store.sync.links()).find((l) => l.account === account);
  if (!link) throw new Error(`account "${account}" of ${db} follows no upstream`);
  const started = performance.now();
  const result = await syncRound(store, link);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, pushed: result.pushed, pulled: result.pulled }));
} finally {
  await store.close();
}
