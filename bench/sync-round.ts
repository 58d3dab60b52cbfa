// The sync row of `npm run bench` (docs/SYNC.md, docs/BENCHMARKS.md "Sync"): one round of a follower
// holding 10,000 movements its upstream does not have — push (in batches of MAX_MOVEMENTS_PER_BATCH),
// the upstream applying each batch, then the pull — through the real sync endpoints of a real
// upstream `serve` process, against the ceiling of inserting the same rows straight into the
// upstream's history table in batches of the same size (bench/sync-ceiling.ts).
//
// Setup: a 10k catalogue imported upstream; the follower made with the real `sync link`; the
// upstream stopped while the follower's own `serve` takes 200 POSTs of 50 sets (so its background
// loop cannot push them); then the upstream started again on the same port, and the round timed in a
// child process (bench/sync-round-child.ts). The round runs ROUNDS times, each from copies of the same
// two databases; the ceiling runs on copies of the upstream's database as it was before the round,
// before the first round, between the rounds and after the last. Medians count: on a shared host
// one round or one ceiling alone moved the ratio by ±0.05.
import { copyDatabase } from './copy-database.ts';
import net from 'node:net';
import path from 'node:path';
import { INVENTORY_PATH, MAX_MOVEMENTS_PER_BATCH } from '../shared/index.ts';
import { WAREHOUSE_ACCOUNT, WAREHOUSE_NAMES, barcodeOf, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { CLI, ROOT, runNode, startNode, stopChild, waitForUrl } from './processes.ts';
import { mulberry32 } from './random.ts';

export const SYNC_MOVEMENTS = 10_000;
const CATALOGUE_BARCODES = 10_000;
const ROWS_PER_POST = 50;
/** Timed rounds, each from the same starting databases. */
const ROUNDS = 3;

export interface SyncResult {
  movements: number;
  batch: number;
  /** The timed round (push, apply upstream, pull): the median of `roundsMs`. */
  roundMs: number;
  /** Every timed round, in order (absent from runs before there were several). */
  roundsMs?: number[];
  pushed: number;
  pulled: number;
  /** The ceiling's passes: before the first round, between the rounds, after the last. */
  ceilingMs: number[];
  /** The same passes of the ceiling that also writes the quantities (bench/sync-ceiling.ts); absent from runs before it. */
  quantitiesCeilingMs?: number[];
  /** The warm-up before the timed round (bench/sync-round-child.ts); absent from runs before it had one. */
  warmUpMs?: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const syncRatio = (s: SyncResult) => median(s.ceilingMs) / s.roundMs;
export const quantitiesRatio = (s: SyncResult) => (s.quantitiesCeilingMs ? median(s.quantitiesCeilingMs) / s.roundMs : undefined);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function benchSync(work: string, log: (text: string) => void, seed: number): Promise<SyncResult> {
  const catalogueFile = path.join(work, 'sync-catalogue.json');
  const upstreamDb = path.join(work, 'sync-upstream.db');
  const followerDb = path.join(work, 'sync-follower.db');
  const logFile = path.join(work, 'sync-server.log');
  const generated = generateCatalogue(catalogueFile, CATALOGUE_BARCODES, seed);
  const cli = async (...args: string[]) => (await runNode([CLI, ...args])).stdout.trim().split('\n').pop()!;

  log(`sync: upstream with a ${CATALOGUE_BARCODES / 1000}k catalogue, a follower linked with \`sync link\``);
  await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, upstreamDb]);
  const linkToken = await cli(
    'token',
    'create',
    '--account',
    WAREHOUSE_ACCOUNT,
    '--role',
    'sync',
    '--label',
    'bench link',
    '--db',
    upstreamDb,
  );
  const port = await freePort();
  const startUpstream = async () => {
    const upstream = startNode([CLI, 'serve', '--db', upstreamDb, '--port', String(port)], logFile);
    await waitForUrl(upstream);
    return upstream;
  };
  let upstream = await startUpstream();
  try {
    await cli(
      'sync',
      'link',
      '--upstream',
      `http://127.0.0.1:${port}`,
      '--account',
      WAREHOUSE_ACCOUNT,
      '--token',
      linkToken,
      '--db',
      followerDb,
    );
  } finally {
    await stopChild(upstream);
  }
  const pristine = path.join(work, 'sync-upstream-before.db');
  copyDatabase(upstreamDb, pristine);

  log(`sync: ${SYNC_MOVEMENTS.toLocaleString('en-US')} sets on the follower while its upstream is away`);
  const token = await cli('token', 'create', '--account', WAREHOUSE_ACCOUNT, '--label', 'bench', '--db', followerDb);
  const follower = startNode([CLI, 'serve', '--db', followerDb, '--port', '0'], logFile);
  try {
    const url = await waitForUrl(follower);
    const random = mulberry32(seed);
    for (let request = 0; request < SYNC_MOVEMENTS / ROWS_PER_POST; request++) {
      const picked = new Set<number>();
      while (picked.size < ROWS_PER_POST) picked.add(Math.floor(random() * generated.warehouseBarcodes));
      // 1000 + request: never a unit's quantity already (the catalogue's are below 500), so every row is a movement.
      const rows = [...picked].map((k) => ({
        barcode: barcodeOf(k),
        warehouse_name: WAREHOUSE_NAMES[Math.floor(random() * WAREHOUSE_NAMES.length)]!,
        quantity: 1000 + request,
      }));
      const answer = await fetch(url + INVENTORY_PATH, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(rows),
      });
      if (answer.status !== 200) throw new Error(`POST answered ${answer.status}: ${await answer.text()}`);
    }
  } finally {
    await stopChild(follower);
  }

  const ceilingOnce = async (pass: number, mode: string[]) => {
    const copy = path.join(work, `sync-ceiling-${pass}.db`);
    copyDatabase(pristine, copy);
    const { stdout } = await runNode([
      path.join(ROOT, 'bench', 'sync-ceiling.ts'),
      copy,
      followerDb,
      WAREHOUSE_ACCOUNT,
      String(MAX_MOVEMENTS_PER_BATCH),
      ...mode,
    ]);
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number; rows: number };
    if (result.rows !== SYNC_MOVEMENTS) throw new Error(`the ceiling inserted ${result.rows} rows, not ${SYNC_MOVEMENTS}`);
    return result.ms;
  };
  const quantitiesCeilingMs: number[] = [];
  const ceiling = async (pass: number) => {
    quantitiesCeilingMs.push(await ceilingOnce(pass, ['quantities']));
    return ceilingOnce(pass, []);
  };
  const followerBefore = path.join(work, 'sync-follower-before.db');
  copyDatabase(followerDb, followerBefore);
  log(
    `sync: ceiling (the same rows inserted into the history table, ${MAX_MOVEMENTS_PER_BATCH} per transaction), then ${ROUNDS} rounds (push, apply, pull) against the upstream, a ceiling after each`,
  );
  const ceilingMs = [await ceiling(0)];
  const rounds: { ms: number; pushed: number; pulled: number; warmUpMs: number }[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    if (n > 0) {
      copyDatabase(pristine, upstreamDb);
      copyDatabase(followerBefore, followerDb);
    }
    upstream = await startUpstream();
    try {
      const { stdout } = await runNode([path.join(ROOT, 'bench', 'sync-round-child.ts'), followerDb, WAREHOUSE_ACCOUNT]);
      rounds.push(JSON.parse(stdout.trim().split('\n').pop()!) as (typeof rounds)[number]);
    } finally {
      await stopChild(upstream);
    }
    if (rounds.at(-1)!.pushed !== SYNC_MOVEMENTS)
      throw new Error(`the round pushed ${rounds.at(-1)!.pushed} movements, not ${SYNC_MOVEMENTS}`);
    ceilingMs.push(await ceiling(n + 1));
  }
  const roundsMs = rounds.map((r) => r.ms);
  const result: SyncResult = {
    movements: SYNC_MOVEMENTS,
    batch: MAX_MOVEMENTS_PER_BATCH,
    roundMs: median(roundsMs),
    roundsMs,
    pushed: rounds[0]!.pushed,
    pulled: rounds[0]!.pulled,
    ceilingMs,
    quantitiesCeilingMs,
    warmUpMs: median(rounds.map((r) => r.warmUpMs)),
  };
  log(
    `sync: rounds ${roundsMs.map((ms) => ms.toFixed(0)).join(' / ')} ms, ceilings ${ceilingMs.map((ms) => ms.toFixed(0)).join(' / ')} ms: medians ${syncRatio(result).toFixed(2)}× of the ceiling`,
  );
  log(
    `sync: ceilings with the quantities ${quantitiesCeilingMs.map((ms) => ms.toFixed(0)).join(' / ')} ms: medians ${quantitiesRatio(result)!.toFixed(2)}× of that ceiling`,
  );
  return result;
}
