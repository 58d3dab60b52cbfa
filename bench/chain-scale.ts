// A chain at scale (docs/SYNC.md, "Chain scale"): head office on PostgreSQL with a long history and
// many followers, each a real `barcode-inventory serve` process on its own SQLite file, making
// movements through their APIs while some are cut off. Not part of `npm test`:
//
//   npm run bench:chain -- [--history 1000000] [--followers 20] [--movements 1000] [--barcodes 10000]
//                          [--small-history 10000] [--cut N] [--stopped N] [--rounds 5] [--pause-ms 250]
//                          [--former-origins 9] [--seed 7] [--keep]
//
// What it does, in one run on a throwaway PostgreSQL cluster (test/support/postgres-cluster.ts):
//  1. Two head offices on PostgreSQL with the same generated catalogue (imported with the real
//     `import`, its clock 400 days back), one with `--history` movements in its history and one with
//     `--small-history`, written in bulk by SQL in the shape the server writes (bench/chain-history.ts).
//  2. A follower of each made with the real `sync link` (the big one pulls the whole history: its
//     time is reported), each behind a TCP proxy of its own (test/support/link-proxy.ts).
//  3. The cost of one round at the big history against the small: `--rounds` times each (after one
//     that is not counted), alternating, the follower makes `--movements` movements through its API while its proxy is
//     cut, then one timed round (bench/sync-round-child.ts: push, the upstream's apply, pull); the
//     head office's CPU (its serve process and the whole PostgreSQL server, from /proc) is read
//     around each round.
//  4. The chain: `--followers` copies of the big head office's follower, each given an instance id,
//     a token and a proxy of its own (they register at their first round, as a link made by an earlier
//     version does: copying is how twenty followers of a million movements are set up in a minute
//     rather than pulling the history twenty times). All serve with the product's sync loop (a round
//     every 5 s, backing off up to a minute while the upstream does not answer). Each makes
//     `--movements` movements (sales of 1, and every fourth request sets) through its API, a request
//     of 10 rows every `--pause-ms`; `--cut` of them lose their proxy a quarter of the way through,
//     `--stopped` others are SIGKILLed when their writes are done. Then every proxy heals and the
//     stopped ones start again, and the time to quiescence is when every instance's vector
//     (`GET /sync/state/`) holds every movement. The head office's CPU per 1,000 movements and the
//     database growth per movement (PostgreSQL's database size and WAL, a follower's file) are of
//     this phase.
//  5. Every instance stopped, their databases are compared by SQL: the same count of movements, the
//     same new movements (a digest of origin, sequence, kind, value and stamp) and the same
//     quantities everywhere.
//
// Every child process (servers, CLI commands) and the cluster go on exit, on an error and on Ctrl-C.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { copyDatabase } from './copy-database.ts';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADJUST_PATH, INVENTORY_PATH, SYNC_STATE_PATH, type VersionVector } from '../shared/index.ts';
import { openStore } from '../server/store/open-store.ts';
import { WAREHOUSE_ACCOUNT, barcodeOf, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { probeDatabase } from '../test/support/database-probe.ts';
import { LinkProxy } from '../test/support/link-proxy.ts';
import { type PostgresCluster, startPostgresCluster } from '../test/support/postgres-cluster.ts';
import { seedHistory } from './chain-history.ts';
import { type Child, CLI, ROOT, cpuMsOf, parentOf, postgresCpuMs, startNode } from './processes.ts';
import { mulberry32 } from './random.ts';
import { median } from './sync-round.ts';

const { values } = parseArgs({
  options: {
    history: { type: 'string', default: '1000000' },
    followers: { type: 'string', default: '20' },
    movements: { type: 'string', default: '1000' },
    barcodes: { type: 'string', default: '10000' },
    'small-history': { type: 'string', default: '10000' },
    cut: { type: 'string' },
    stopped: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    'pause-ms': { type: 'string', default: '250' },
    'former-origins': { type: 'string', default: '9' },
    seed: { type: 'string', default: '7' },
    keep: { type: 'boolean', default: false },
  },
});
const positive = (name: string, text: string, min = 1) => {
  const n = Number(text.replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'));
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} ${text}: a whole number of at least ${min}`);
  return n;
};
const HISTORY = positive('history', values.history);
const SMALL_HISTORY = positive('small-history', values['small-history']);
const FOLLOWERS = positive('followers', values.followers);
const MOVEMENTS = positive('movements', values.movements, 10);
const BARCODES = positive('barcodes', values.barcodes, 100);
// By default a fifth of the followers are cut off and a tenth stopped, at least one of each.
const CUT = values.cut === undefined ? Math.max(1, Math.floor(FOLLOWERS / 5)) : positive('cut', values.cut, 0);
const STOPPED =
  values.stopped === undefined ? Math.max(FOLLOWERS > 1 ? 1 : 0, Math.floor(FOLLOWERS / 10)) : positive('stopped', values.stopped, 0);
const ROUNDS = positive('rounds', values.rounds);
const PAUSE_MS = positive('pause-ms', values['pause-ms'], 0);
const FORMER = positive('former-origins', values['former-origins'], 0);
const SEED = positive('seed', values.seed, 0);
if (CUT + STOPPED > FOLLOWERS) throw new Error(`--cut ${CUT} and --stopped ${STOPPED} are more than --followers ${FOLLOWERS}`);
/** Rows per write request of a follower. */
const ROWS = 10;
const DAY_MS = 86_400_000;
const ACCOUNT = WAREHOUSE_ACCOUNT;
const QUIESCENCE_LIMIT_MS = 15 * 60_000;

const t0 = performance.now();
const log = (text: string) => console.log(`[chain ${((performance.now() - t0) / 1000).toFixed(0).padStart(5)} s] ${text}`);
const work = mkdtempSync(path.join(tmpdir(), 'bi-chain-'));
const command = `npm run bench:chain${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;

// Everything this run started, so that an error, an exit or Ctrl-C takes it all down.
const children = new Set<Child>();
const proxies: LinkProxy[] = [];
let cluster: PostgresCluster | undefined;
let cleanedUp = false;
function killEverything(): void {
  for (const child of children) child.process.kill('SIGKILL');
  children.clear();
  for (const proxy of proxies) proxy.cutNow();
}
async function cleanUp(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  killEverything();
  await Promise.all(proxies.map((p) => p.close()));
  await cluster?.stop();
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}
process.on('exit', () => {
  killEverything();
  // The cluster's stop runs pg_ctl synchronously.
  if (!cleanedUp) void cluster?.stop();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    console.error(`chain: ${signal}, stopping every process this run started`);
    void cleanUp().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)));
  });

function track(child: Child): Child {
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

/** `barcode-inventory <args>` to the end; its last line of output. */
async function cli(args: string[], env?: Record<string, string>): Promise<string> {
  const child = track(startNode([CLI, ...args], undefined, env));
  const code = await child.exited;
  if (code !== 0) throw new Error(`barcode-inventory ${args.join(' ')} exited with ${code}:\n${child.stdout()}\n${child.stderr()}`);
  return child.stdout().trim().split('\n').pop()!;
}

const fileBytes = (file: string) => ['', '-wal'].reduce((sum, s) => sum + (existsSync(file + s) ? statSync(file + s).size : 0), 0);

interface Instance {
  name: string;
  db: string;
  child?: Child;
  url?: string;
  proxy?: LinkProxy;
  /** A local token that sets and adjusts (role api), and a local sync token for `state/`. */
  token: string;
  syncToken: string;
  origin: string;
  /** Movements made through its API and acknowledged. */
  made: number;
  /** CPU time of its earlier serve processes, in ms (read just before each was stopped). */
  cpuMs?: number;
}

async function serve(instance: Instance): Promise<void> {
  const child = track(
    startNode(
      [CLI, 'serve', '--database', instance.db, '--port', '0', '--log-level', 'warn', '--no-announce'],
      path.join(work, `${instance.name}.log`),
    ),
  );
  instance.child = child;
  const started = Date.now();
  for (;;) {
    const match = /serving (http:\/\/[^/\s]+)\/api\/v1\//.exec(child.stdout());
    if (match) {
      instance.url = match[1]!;
      return;
    }
    if (child.process.exitCode !== null) throw new Error(`${instance.name} exited while starting:\n${child.stdout()}\n${child.stderr()}`);
    if (Date.now() - started > 120_000) throw new Error(`${instance.name} did not listen within 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stop(instance: Instance, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  const child = instance.child;
  if (!child) return;
  instance.child = undefined;
  instance.url = undefined;
  instance.cpuMs = (instance.cpuMs ?? 0) + (cpuMsOf(child.pid) ?? 0);
  if (child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill(signal);
    const timer = setTimeout(() => child.process.kill('SIGKILL'), 20_000);
    await child.exited;
    clearTimeout(timer);
  }
}

async function request<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await fetch(base + url, {
    method,
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${method} ${url} answered ${answer.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** Barcodes of the warehouse account that have stock in W1 (the generator leaves every 20th without). */
const stockedBarcode = (random: () => number, warehouseBarcodes: number) => {
  for (;;) {
    const k = Math.floor(random() * warehouseBarcodes);
    if (k % 20 !== 19) return barcodeOf(k);
  }
};

/** One write request of a follower: 10 sales of 1 (three requests in four) or 10 sets. */
async function writeOnce(instance: Instance, random: () => number, n: number, warehouseBarcodes: number, rows = ROWS): Promise<void> {
  const sets = n % 4 === 3;
  const body = Array.from({ length: rows }, () =>
    sets
      ? { barcode: stockedBarcode(random, warehouseBarcodes), warehouse_name: 'W1', quantity: Math.floor(random() * 200) }
      : { barcode: stockedBarcode(random, warehouseBarcodes), warehouse_name: 'W1', delta: -1, reason: 'sale' },
  );
  const answer = await request<{ results: unknown[]; errors: unknown[] }>(
    instance.url!,
    instance.token,
    'POST',
    sets ? INVENTORY_PATH : ADJUST_PATH,
    body,
  );
  if (answer.errors.length > 0) throw new Error(`${instance.name}: rows refused: ${JSON.stringify(answer.errors).slice(0, 500)}`);
  instance.made += answer.results.length;
}

async function makeMovements(instance: Instance, count: number, random: () => number, warehouseBarcodes: number): Promise<void> {
  for (let n = 0; n * 50 < count; n++) await writeOnce(instance, random, n, warehouseBarcodes, Math.min(50, count - n * 50));
}

const vectorOf = async (instance: Instance) =>
  (await request<{ vector: VersionVector }>(instance.url!, instance.syncToken, 'GET', SYNC_STATE_PATH)).vector;

/** Local tokens of a database that nothing serves: one that writes (api) and one for `state/` (sync). */
async function localTokens(db: string): Promise<{ token: string; syncToken: string; origin: string }> {
  const store = await openStore(db);
  try {
    const token = (await store.tokens.create(ACCOUNT, 'chain bench writes', 'api')).key;
    const syncToken = (await store.tokens.create(ACCOUNT, 'chain bench state', 'sync')).key;
    return { token, syncToken, origin: await store.sync.instance() };
  } finally {
    await store.close();
  }
}

async function headOffice(name: string, url: string, catalogueFile: string, history: number): Promise<Instance> {
  // The catalogue's own movements (sets) 400 days back, so the history after them is in the past too.
  await cli(['import', catalogueFile, '--database', url], { BARCODE_INVENTORY_CLOCK_OFFSET_MS: String(-400 * DAY_MS) });
  const tokens = await localTokens(url);
  const former = Array.from({ length: FORMER }, (_, i) => `formertill${String(i + 1).padStart(2, '0')}`);
  const now = Date.now();
  log(`${name}: ${history.toLocaleString('en-US')} movements into the history by SQL (${former.length + 1} origins)`);
  const seeded = await seedHistory({
    url,
    account: ACCOUNT,
    count: history,
    origins: [tokens.origin, ...former],
    fromWall: now - 399 * DAY_MS,
    toWall: now - DAY_MS,
  });
  log(`${name}: ${seeded.rows.toLocaleString('en-US')} rows in ${(seeded.ms / 1000).toFixed(1)} s`);
  return { name, db: url, ...tokens, made: 0 };
}

async function syncTokenOn(head: Instance, label: string): Promise<string> {
  const store = await openStore(head.db);
  try {
    return (await store.tokens.create(ACCOUNT, label, 'sync')).key;
  } finally {
    await store.close();
  }
}

async function newProxy(name: string, head: Instance): Promise<LinkProxy> {
  const proxy = new LinkProxy(name);
  await proxy.listen();
  proxy.setTarget(Number(new URL(head.url!).port));
  proxies.push(proxy);
  return proxy;
}

/** A follower of `head` made with the real `sync link` through a proxy; the link's time. */
async function linkedFollower(name: string, head: Instance): Promise<{ follower: Instance; linkMs: number }> {
  const db = path.join(work, `${name}.db`);
  const proxy = await newProxy(name, head);
  const token = await syncTokenOn(head, `${name} link`);
  const started = performance.now();
  await cli(['sync', 'link', '--upstream', proxy.url, '--account', ACCOUNT, '--token', token, '--label', name, '--database', db]);
  const linkMs = performance.now() - started;
  return { follower: { name, db, proxy, ...(await localTokens(db)), made: 0 }, linkMs };
}

const headCpu = (head: Instance, postmaster: number) => (cpuMsOf(head.child!.pid) ?? Number.NaN) + postgresCpuMs(postmaster);

async function databaseBytes(url: string): Promise<{ database: number; walLsn: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = (
      await client.query<{ size: string; lsn: string }>(
        'SELECT pg_database_size(current_database()) AS size, pg_current_wal_lsn()::text AS lsn',
      )
    ).rows[0]!;
    return { database: Number(row.size), walLsn: row.lsn };
  } finally {
    await client.end();
  }
}
const lsnBytes = (lsn: string) => {
  const [high, low] = lsn.split('/');
  return parseInt(high!, 16) * 2 ** 32 + parseInt(low!, 16);
};

/** What the databases hold, by SQL, every instance stopped: counts, a digest of the chain's movements, one of the quantities. */
async function contents(db: string, origins: readonly string[]) {
  const probe = probeDatabase(db);
  try {
    const account = (await probe.first<{ id: number }>('SELECT id FROM accounts WHERE name = ?', ACCOUNT))!.id;
    const total = Number((await probe.first<{ n: number }>('SELECT count(*) AS n FROM stock_history WHERE account_id = ?', account))!.n);
    const placeholders = origins.map(() => '?').join(', ');
    const rows =
      origins.length === 0
        ? []
        : await probe.all<{ origin: string; seq: number; kind: string; value: number; hlc: string }>(
            `SELECT origin, seq, kind, value, hlc FROM stock_history WHERE account_id = ? AND origin IN (${placeholders}) ORDER BY origin, seq`,
            account,
            ...origins,
          );
    const movements = createHash('sha256');
    for (const r of rows) movements.update(`${r.origin} ${r.seq} ${r.kind} ${r.value} ${r.hlc}\n`);
    const stock = await probe.all<{ barcode: string; warehouse: string; quantity: number }>(
      `SELECT u.barcode, w.name AS warehouse, s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id
         JOIN warehouses w ON w.id = s.warehouse_id WHERE u.account_id = ? ORDER BY u.barcode, w.name`,
      account,
    );
    const quantities = createHash('sha256');
    for (const s of stock) quantities.update(`${s.barcode} ${s.warehouse} ${s.quantity}\n`);
    return { total, chain: rows.length, movements: movements.digest('hex'), places: stock.length, quantities: quantities.digest('hex') };
  } finally {
    await probe.close();
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

try {
  const startLoad = load();
  log(`${command}`);
  log(`load average at the start: ${startLoad}`);
  cluster = await startPostgresCluster();
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  const version = (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.replace(/ on .*$/, '');
  const postmaster = parentOf((await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid)!;
  await admin.query('CREATE DATABASE chain_big');
  await admin.query('CREATE DATABASE chain_small');
  await admin.end();
  const urlOf = (name: string) => cluster!.adminUrl.replace(/\/postgres$/, `/${name}`);
  log(`${version} (${cluster.source}), postmaster ${postmaster}`);

  const catalogueFile = path.join(work, 'catalogue.json');
  const generated = generateCatalogue(catalogueFile, BARCODES, SEED);
  const small = await headOffice('head office (small history)', urlOf('chain_small'), catalogueFile, SMALL_HISTORY);
  const big = await headOffice('head office', urlOf('chain_big'), catalogueFile, HISTORY);
  const bigBytesSeeded = await databaseBytes(big.db);
  await serve(small);
  await serve(big);

  log(`followers: \`sync link\` of one follower to each head office (the big one pulls all ${HISTORY.toLocaleString('en-US')})`);
  const { follower: smallProbe, linkMs: smallLinkMs } = await linkedFollower('probe-small', small);
  const { follower: template, linkMs: bigLinkMs } = await linkedFollower('probe', big);
  log(`linked: small history in ${(smallLinkMs / 1000).toFixed(1)} s, big history in ${(bigLinkMs / 1000).toFixed(1)} s`);
  const followerBytesLinked = fileBytes(template.db);
  const linkedRows = (await contents(template.db, [])).total;

  log(`followers: ${FOLLOWERS} copies of the big head office's follower, each with an instance id, tokens and a proxy of its own`);
  const followers: Instance[] = [];
  for (let i = 0; i < FOLLOWERS; i++) {
    const name = `shop${String(i + 1).padStart(2, '0')}`;
    const db = path.join(work, `${name}.db`);
    copyDatabase(template.db, db);
    const proxy = await newProxy(name, big);
    const token = await syncTokenOn(big, `${name} link`);
    const probe = probeDatabase(db);
    try {
      const origin = randomBytes(5).toString('hex');
      await probe.run(
        'UPDATE instance SET id = ?, last_hlc = CASE WHEN last_hlc IS NULL THEN NULL ELSE substr(last_hlc, 1, 23) || ? END',
        origin,
        origin,
      );
      await probe.run('UPDATE sync_links SET upstream_url = ?, token = ?, label = ?, registered_at = NULL', proxy.url, token, name);
    } finally {
      await probe.close();
    }
    followers.push({ name, db, proxy, ...(await localTokens(db)), made: 0 });
  }

  log(`rounds: 1 + ${ROUNDS} × one round of ${MOVEMENTS} movements against each head office, alternating`);
  type Round = { ms: number; pushed: number; pulled: number; upstreamCpuMs: number; followerCpuMs: number };
  const rounds: Record<'small' | 'big', Round[]> = { small: [], big: [] };
  // Round 0 is not counted: the first push a head office's serve process applies pays for compiling its
  // apply path, and the follower's first round after `sync link` reads past every movement it pulled
  // there (its push cursor stops where the link's push phase ended).
  const firstRounds = {} as Record<'small' | 'big', Round>;
  for (let r = 0; r <= ROUNDS; r++) {
    for (const which of r % 2 === 0 ? (['small', 'big'] as const) : (['big', 'small'] as const)) {
      const [probe, head] = which === 'small' ? [smallProbe, small] : [template, big];
      probe.proxy!.cutNow();
      await serve(probe);
      await makeMovements(probe, MOVEMENTS, mulberry32(SEED + 100 + r), generated.warehouseBarcodes);
      await stop(probe);
      probe.proxy!.heal();
      const child = track(
        startNode([path.join(ROOT, 'bench', 'sync-round-child.ts'), probe.db, ACCOUNT], undefined, {
          BENCH_UPSTREAM_PIDS: `${head.child!.pid},${postmaster}`,
        }),
      );
      if ((await child.exited) !== 0) throw new Error(`the timed round failed:\n${child.stdout()}\n${child.stderr()}`);
      const result = JSON.parse(child.stdout().trim().split('\n').pop()!) as Round;
      if (result.pushed !== MOVEMENTS) throw new Error(`the round against ${which} pushed ${result.pushed}, not ${MOVEMENTS}`);
      if (r > 0) rounds[which].push(result);
      else firstRounds[which] = result;
      log(
        `round ${r} against the ${which} history: ${result.ms.toFixed(0)} ms, CPU: head office ${result.upstreamCpuMs.toFixed(0)} ms, follower ${result.followerCpuMs.toFixed(0)} ms${r === 0 ? ' (not counted)' : ''}`,
      );
    }
  }
  await stop(small);

  const followerBytesStart = followers.map((f) => fileBytes(f.db));
  log(`chain: starting ${FOLLOWERS} followers (serve, the product's sync loop)`);
  for (const follower of followers) await serve(follower);
  const everyone = () => [big, ...followers];
  const expected = (): VersionVector => Object.fromEntries(followers.map((f) => [f.origin, f.made]));
  /** Whether every running instance holds what head office holds, and head office every movement made. */
  /** How far the chain is: what head office holds of the movements made, and how many followers hold what it holds. */
  const progress = async () => {
    const reference = await vectorOf(big);
    const made = Object.entries(expected());
    const headHas = made.reduce((sum, [origin, n]) => sum + Math.min(n, reference[origin] ?? 0), 0);
    const total = made.reduce((sum, [, n]) => sum + n, 0);
    const text = JSON.stringify(Object.entries(reference).sort());
    let same = 0;
    for (const follower of followers) {
      const vector = await vectorOf(follower).catch(() => undefined); // too busy to answer within the minute, or restarting
      if (vector && JSON.stringify(Object.entries(vector).sort()) === text) same++;
    }
    return { headHas, total, same };
  };
  /** Until every instance holds every movement made; when head office first held them all. */
  const waitQuiet = async () => {
    const started = performance.now();
    let headAllMs: number | undefined;
    let reported = started;
    for (;;) {
      const now = await progress().catch(() => undefined);
      if (now && now.headHas === now.total && headAllMs === undefined) headAllMs = performance.now() - started;
      if (now && now.headHas === now.total && now.same === followers.length)
        return { ms: performance.now() - started, headAllMs: headAllMs! };
      if (performance.now() - reported > 10_000) {
        reported = performance.now();
        if (now) log(`  head office holds ${now.headHas} of ${now.total}; ${now.same} of ${followers.length} followers hold what it holds`);
      }
      if (performance.now() - started > QUIESCENCE_LIMIT_MS) throw new Error('no quiescence within 15 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const registeredMs = (await waitQuiet()).ms;
  log(`chain: every follower registered and holding what head office holds after ${(registeredMs / 1000).toFixed(1)} s`);

  const followersCpu = () => followers.reduce((sum, f) => sum + (f.cpuMs ?? 0) + (f.child ? (cpuMsOf(f.child.pid) ?? 0) : 0), 0);
  const followersCpuStart = followersCpu();
  const cpuStart = headCpu(big, postmaster);
  const bytesStart = await databaseBytes(big.db);
  const writesStarted = performance.now();
  const cut = followers.slice(0, CUT);
  const stopped = followers.slice(CUT, CUT + STOPPED);
  log(
    `chain: ${FOLLOWERS} × ${MOVEMENTS} movements (${ROWS} a request, every ${PAUSE_MS} ms); ${cut.length} cut off from a quarter of the way, ${stopped.length} SIGKILLed when done`,
  );
  const requests = Math.ceil(MOVEMENTS / ROWS);
  await Promise.all(
    followers.map(async (follower, i) => {
      const random = mulberry32(SEED + 1000 + i);
      for (let n = 0; n < requests; n++) {
        if (n === Math.floor(requests / 4) && cut.includes(follower)) follower.proxy!.cutNow();
        await writeOnce(follower, random, n, generated.warehouseBarcodes, Math.min(ROWS, MOVEMENTS - n * ROWS));
        if (PAUSE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS * (0.5 + random())));
      }
      if (stopped.includes(follower)) await stop(follower, 'SIGKILL');
    }),
  );
  const writesMs = performance.now() - writesStarted;
  log(`chain: every write acknowledged after ${(writesMs / 1000).toFixed(1)} s; healing every link and starting the stopped followers`);
  const healed = performance.now();
  for (const follower of cut) follower.proxy!.heal();
  await Promise.all(stopped.map((f) => serve(f)));
  const { headAllMs } = await waitQuiet();
  const quietAt = performance.now();
  const toQuiet = quietAt - healed;
  const cpuChain = headCpu(big, postmaster) - cpuStart;
  const followersCpuChain = followersCpu() - followersCpuStart;
  const bytesEnd = await databaseBytes(big.db);
  const made = followers.reduce((sum, f) => sum + f.made, 0);
  log(
    `chain: quiescent ${(toQuiet / 1000).toFixed(1)} s after healing (${((quietAt - writesStarted) / 1000).toFixed(1)} s after the first write); head office CPU ${(cpuChain / 1000).toFixed(1)} s for ${made} movements`,
  );

  const idleSeconds = 10;
  const idleBefore = headCpu(big, postmaster);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const idleCpuPerSecond = (headCpu(big, postmaster) - idleBefore) / idleSeconds;
  const endLoad = load();

  log('checking every database by SQL, every instance stopped');
  const instances = everyone();
  await Promise.all(instances.map((i) => stop(i)));
  const origins = followers.map((f) => f.origin);
  const checked = [];
  for (const instance of instances) checked.push({ name: instance.name, ...(await contents(instance.db, origins)) });
  const reference = checked[0]!;
  // Each follower's file, closed (its WAL checkpointed), against the copy it started from, per movement it took in.
  const followerBytesEnd = followers.map((f) => fileBytes(f.db));
  const followerRowsAdded = reference.total - linkedRows;
  const differing = checked.filter(
    (c) => c.total !== reference.total || c.movements !== reference.movements || c.quantities !== reference.quantities || c.chain !== made,
  );
  if (differing.length > 0)
    throw new Error(`instances differ from head office (${JSON.stringify(reference)}): ${JSON.stringify(differing, null, 1)}`);

  const ratio = (a: number[], b: number[]) => median(a) / median(b);
  const figures = {
    command,
    date: new Date().toISOString(),
    loadAverage: { start: startLoad, end: endLoad },
    postgres: version,
    history: HISTORY,
    smallHistory: SMALL_HISTORY,
    historyOrigins: FORMER + 1,
    barcodes: BARCODES,
    followers: FOLLOWERS,
    movementsPerFollower: MOVEMENTS,
    cut: CUT,
    stopped: STOPPED,
    linkSeconds: { small: smallLinkMs / 1000, big: bigLinkMs / 1000 },
    bigDatabaseBytesSeeded: bigBytesSeeded.database,
    followerBytesLinked,
    round: {
      smallMs: rounds.small.map((r) => Math.round(r.ms)),
      bigMs: rounds.big.map((r) => Math.round(r.ms)),
      bigOverSmall: ratio(
        rounds.big.map((r) => r.ms),
        rounds.small.map((r) => r.ms),
      ),
      smallHeadCpuMs: rounds.small.map((r) => Math.round(r.upstreamCpuMs)),
      bigHeadCpuMs: rounds.big.map((r) => Math.round(r.upstreamCpuMs)),
      cpuBigOverSmall: ratio(
        rounds.big.map((r) => r.upstreamCpuMs),
        rounds.small.map((r) => r.upstreamCpuMs),
      ),
      smallFollowerCpuMs: rounds.small.map((r) => Math.round(r.followerCpuMs)),
      bigFollowerCpuMs: rounds.big.map((r) => Math.round(r.followerCpuMs)),
      followerCpuBigOverSmall: ratio(
        rounds.big.map((r) => r.followerCpuMs),
        rounds.small.map((r) => r.followerCpuMs),
      ),
      firstAfterLink: {
        smallMs: Math.round(firstRounds.small.ms),
        bigMs: Math.round(firstRounds.big.ms),
        smallFollowerCpuMs: Math.round(firstRounds.small.followerCpuMs),
        bigFollowerCpuMs: Math.round(firstRounds.big.followerCpuMs),
      },
    },
    chain: {
      movements: made,
      registeredSeconds: registeredMs / 1000,
      writesSeconds: writesMs / 1000,
      quiescenceSeconds: toQuiet / 1000,
      headOfficeHadAllSeconds: headAllMs / 1000,
      headCpuSeconds: cpuChain / 1000,
      headCpuMsPer1000: cpuChain / (made / 1000),
      headIdleCpuMsPerSecond: idleCpuPerSecond,
      followersCpuSeconds: followersCpuChain / 1000,
      databaseBytesPerMovement: (bytesEnd.database - bytesStart.database) / made,
      walBytesPerMovement: (lsnBytes(bytesEnd.walLsn) - lsnBytes(bytesStart.walLsn)) / made,
      followerFileBytesPerMovement: median(followerBytesEnd.map((end, i) => (end - followerBytesStart[i]!) / followerRowsAdded)),
    },
    check: { instances: checked.length, movementsEach: reference.total, chainMovementsEach: reference.chain, places: reference.places },
  };
  const f = figures;
  console.log(`
chain scale: ${command}
  ${f.date}, load average ${f.loadAverage.start} at the start, ${f.loadAverage.end} at the end; ${f.postgres}
  head office: ${HISTORY.toLocaleString('en-US')} movements of history (${f.historyOrigins} origins) on ${BARCODES.toLocaleString('en-US')} barcodes, ${(f.bigDatabaseBytesSeeded / 1e6).toFixed(0)} MB on PostgreSQL
  sync link of a new follower: ${f.linkSeconds.big.toFixed(1)} s at ${HISTORY.toLocaleString('en-US')} (its file ${(followerBytesLinked / 1e6).toFixed(0)} MB), ${f.linkSeconds.small.toFixed(1)} s at ${SMALL_HISTORY.toLocaleString('en-US')}
  one round of ${MOVEMENTS} movements: ${f.round.bigMs.join(' / ')} ms at ${HISTORY.toLocaleString('en-US')}, ${f.round.smallMs.join(' / ')} ms at ${SMALL_HISTORY.toLocaleString('en-US')}: ${f.round.bigOverSmall.toFixed(2)}× (medians)
    head office CPU (serve + PostgreSQL) per round: ${f.round.bigHeadCpuMs.join(' / ')} ms against ${f.round.smallHeadCpuMs.join(' / ')} ms: ${f.round.cpuBigOverSmall.toFixed(2)}×
    follower CPU per round: ${f.round.bigFollowerCpuMs.join(' / ')} ms against ${f.round.smallFollowerCpuMs.join(' / ')} ms: ${f.round.followerCpuBigOverSmall.toFixed(2)}×
    the first round after \`sync link\` (not counted above): ${f.round.firstAfterLink.bigMs} ms at ${HISTORY.toLocaleString('en-US')} (follower CPU ${f.round.firstAfterLink.bigFollowerCpuMs} ms), ${f.round.firstAfterLink.smallMs} ms at ${SMALL_HISTORY.toLocaleString('en-US')} (${f.round.firstAfterLink.smallFollowerCpuMs} ms)
  chain: ${FOLLOWERS} followers × ${MOVEMENTS} = ${made.toLocaleString('en-US')} movements, ${CUT} cut off, ${STOPPED} SIGKILLed and restarted
    writes acknowledged in ${f.chain.writesSeconds.toFixed(1)} s; quiescence ${f.chain.quiescenceSeconds.toFixed(1)} s after the links healed (head office held every movement after ${f.chain.headOfficeHadAllSeconds.toFixed(1)} s)
    head office CPU: ${f.chain.headCpuSeconds.toFixed(1)} s, ${f.chain.headCpuMsPer1000.toFixed(0)} ms per 1,000 movements (idle: ${f.chain.headIdleCpuMsPerSecond.toFixed(0)} ms/s with ${FOLLOWERS} followers polling)
    the followers' CPU over the same time: ${f.chain.followersCpuSeconds.toFixed(1)} s in all (every follower applies every other's movements; here they share the machine's cores with head office)
    growth per movement: PostgreSQL database ${f.chain.databaseBytesPerMovement.toFixed(0)} B (WAL ${f.chain.walBytesPerMovement.toFixed(0)} B), a follower's SQLite file ${f.chain.followerFileBytesPerMovement.toFixed(0)} B
  checked by SQL: ${f.check.instances} instances, ${f.check.movementsEach.toLocaleString('en-US')} movements each, the ${f.check.chainMovementsEach.toLocaleString('en-US')} of the chain identical everywhere, the same quantities of ${f.check.places.toLocaleString('en-US')} places`);
  console.log(JSON.stringify(figures));
} finally {
  await cleanUp();
}
