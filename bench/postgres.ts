// `npm run bench -- --engine postgres`: the 10k catalogue on PostgreSQL. A throwaway cluster
// (test/support/postgres-cluster.ts: the machine's PostgreSQL, run as the `postgres` user when the
// bench runs as root), the catalogue imported with `barcode-inventory import --database URL`, the
// real server started as `barcode-inventory serve --database URL`, driven by the same load generator
// as the SQLite rows: GET 50 barcodes and POST 50 rows (durable), at 1 and 32 connections. The
// ceilings are measured in the same run: the HTTP ceiling (bench/http-ceiling-server.ts), the load
// generator's own (bench/trivial-server.ts) and the PostgreSQL storage ceiling
// (bench/pg-storage-ceiling.ts: the same query and transaction with the `pg` client, as many loops
// side by side as the load has connections), before and after the server runs, the mean counts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { INVENTORY_PATH } from '../shared/index.ts';
import { startPostgresCluster } from '../test/support/postgres-cluster.ts';
import { WAREHOUSE_ACCOUNT, generateCatalogue } from '../test/support/catalogue-generator.ts';
import type { LoadOptions, LoadResult } from './load.ts';
import { CLI, ROOT, memoryOf, runNode, startNode, stopChild, waitForUrl } from './processes.ts';
import { getRequests, postRequests } from './workloads.ts';

export interface PostgresResult {
  command: string;
  date: string;
  /** e.g. "PostgreSQL 15.x …" */
  version: string;
  /** Where the server binaries came from. */
  source: string;
  barcodes: number;
  label: string;
  /** The server's connection pool (server/store/postgres/postgres-engine.ts). */
  poolSize: number;
  responseBytes: { get: number; post: number };
  importSeconds: number;
  server: { get1: LoadResult; get32: LoadResult; post1: LoadResult; post32: LoadResult; peakRssKb: number };
  http: { get1: LoadResult; get32: LoadResult; post1: LoadResult; post32: LoadResult };
  generator: { get1: LoadResult; get32: LoadResult; post1: LoadResult; post32: LoadResult };
  /** Transactions per second of the storage ceiling, at 1 and at 32 loops side by side. */
  storage: { read1: number; read32: number; write1: number; write32: number };
  loadAverageAfter: number[];
}

const BARCODES = 10_000;
const STORAGE_SECONDS = 3;

export async function benchPostgres(options: {
  work: string;
  log: (text: string) => void;
  load: (options: LoadOptions) => Promise<LoadResult>;
  seconds: number;
  seed: number;
  poolSize: number;
  command: string;
}): Promise<Omit<PostgresResult, 'loadAverageAfter'>> {
  const { work, log, load, seconds, seed } = options;
  const label = '10k';
  log(`postgres: starting a throwaway cluster`);
  const cluster = await startPostgresCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const version = (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.replace(/ on .*$/, '');
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    const url = cluster.adminUrl.replace(/\/postgres$/, '/bench');
    log(`postgres: ${version} (${cluster.source}), database ${url}`);

    const catalogueFile = path.join(work, `catalogue-pg-${label}.json`);
    log(`postgres: generating the ${label} catalogue and importing it (import --database)`);
    const generated = generateCatalogue(catalogueFile, BARCODES, seed);
    const importStarted = performance.now();
    await runNode([CLI, 'import', catalogueFile, '--database', url]);
    const importSeconds = (performance.now() - importStarted) / 1000;
    // The importer now runs ANALYZE itself when it commits (PostgresEngine.write with bulk); this one
    // is kept so runs against older code measure the same analysed database (bench/NOTES-postgres.md).
    const analyzer = new pg.Client({ connectionString: url });
    await analyzer.connect();
    await analyzer.query('ANALYZE');
    await analyzer.end();
    const token = (await runNode([CLI, 'token', 'create', '--account', WAREHOUSE_ACCOUNT, '--label', 'bench', '--database', url])).stdout
      .trim()
      .split('\n')
      .pop()!;

    const gets = getRequests(generated.warehouseBarcodes, seed);
    const posts = postRequests(generated.warehouseBarcodes, seed + 1);
    const posts32 = postRequests(generated.warehouseBarcodes, seed + 2);

    const storage = async (kind: 'read' | 'write', concurrency: number, pass: number) => {
      const args = [url, kind, String(STORAGE_SECONDS), String(generated.warehouseBarcodes), String(seed + 4 + pass), String(concurrency)];
      const { stdout } = await runNode([path.join(ROOT, 'bench', 'pg-storage-ceiling.ts'), ...args]);
      return (JSON.parse(stdout.trim().split('\n').pop()!) as { perSecond: number }).perSecond;
    };
    const storagePass = async (pass: number) => ({
      read1: await storage('read', 1, pass),
      read32: await storage('read', 32, pass),
      write1: await storage('write', 1, pass + 10),
      write32: await storage('write', 32, pass + 20),
    });
    log(`postgres: storage ceiling (pg client, no HTTP, ${STORAGE_SECONDS} s each, 1 and 32 loops)`);
    const first = await storagePass(0);

    log(`postgres: the server (serve --database), ${seconds} s per run`);
    const logFile = path.join(work, 'server-pg.log');
    const server = startNode([CLI, 'serve', '--database', url, '--port', '0'], logFile);
    const loads = {} as PostgresResult['server'];
    let getBody: Buffer;
    let postBody: Buffer;
    try {
      const base = await waitForUrl(server);
      const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
      const answered = await fetch(base + gets[0]!.path, { headers });
      getBody = Buffer.from(await answered.arrayBuffer());
      if (answered.status !== 200) throw new Error(`first GET answered ${answered.status}: ${getBody.toString()}`);
      const posted = await fetch(base + INVENTORY_PATH, { method: 'POST', headers, body: posts.pop()!.body! });
      postBody = Buffer.from(await posted.arrayBuffer());
      if (posted.status !== 200) throw new Error(`first POST answered ${posted.status}: ${postBody.toString()}`);
      await load({ url: base, token, requests: gets, connections: 32, seconds: 1 }); // warm-up
      loads.get1 = await load({ url: base, token, requests: gets, connections: 1, seconds });
      loads.get32 = await load({ url: base, token, requests: gets, connections: 32, seconds });
      loads.post1 = await load({ url: base, token, requests: posts, connections: 1, seconds });
      loads.post32 = await load({ url: base, token, requests: posts32, connections: 32, seconds });
      loads.peakRssKb = memoryOf(server.pid)?.peakKb ?? Number.NaN;
    } finally {
      await stopChild(server);
    }

    log(`postgres: HTTP ceiling (same Koa stack, precomputed ${getBody.length}-byte answer) and the load generator's ceiling`);
    const getFile = path.join(work, 'get-response-pg.json');
    const postFile = path.join(work, 'post-response-pg.json');
    writeFileSync(getFile, getBody);
    writeFileSync(postFile, postBody);
    const ceilingRuns = async (args: string[]) => {
      const child = startNode(args, logFile);
      try {
        const base = await waitForUrl(child);
        await load({ url: base, requests: gets, connections: 32, seconds: 1 }); // warm-up
        return {
          get1: await load({ url: base, requests: gets, connections: 1, seconds }),
          get32: await load({ url: base, requests: gets, connections: 32, seconds }),
          post1: await load({ url: base, requests: posts, connections: 1, seconds }),
          post32: await load({ url: base, requests: posts, connections: 32, seconds }),
        };
      } finally {
        await stopChild(child);
      }
    };
    const http = await ceilingRuns([path.join(ROOT, 'bench', 'http-ceiling-server.ts'), url, getFile, postFile]);
    const generator = await ceilingRuns([path.join(ROOT, 'bench', 'trivial-server.ts'), getFile, postFile]);

    log('postgres: storage ceiling again (the mean of the two passes counts)');
    const second = await storagePass(1);
    const mean = (a: number, b: number) => (a + b) / 2;
    return {
      command: options.command,
      date: new Date().toISOString(),
      version,
      source: cluster.source,
      barcodes: BARCODES,
      label,
      poolSize: options.poolSize,
      responseBytes: { get: getBody.length, post: postBody.length },
      importSeconds,
      server: loads,
      http,
      generator,
      storage: {
        read1: mean(first.read1, second.read1),
        read32: mean(first.read32, second.read32),
        write1: mean(first.write1, second.write1),
        write32: mean(first.write32, second.write32),
      },
    };
  } finally {
    await cluster.stop();
  }
}
