// Turns one bench run into docs/BENCHMARKS.md: the machine, the command, and every figure next to
// its ceiling and the ratio. The floor of a request is the sum of the two ceilings' times:
// 1 / (1 / HTTP ceiling + 1 / storage ceiling).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { LoadGenerator, LoadResult } from './load.ts';
import type { PostgresResult } from './postgres.ts';
import { type ReportsResult, renderReports, reportTargetRows } from './reports-scale.ts';
import { type SyncResult, median, quantitiesRatio, syncRatio } from './sync-round.ts';

export interface SizeResult {
  label: string;
  barcodes: number;
  catalogueBytes: number;
  databaseBytes: number;
  /** The database file right after the import, before any load run wrote to it. */
  importedBytes?: number;
  import: { seconds: number; cpuSeconds: number; rowsPerSecond: number; maxRssKb: number };
  /** The same catalogue imported again into a copy of the database it made (absent in runs before 2026-11-26 15:00). */
  reimport?: { seconds: number; rowsPerSecond: number; maxRssKb: number };
  /** `csv import` of the warehouse account's rows (its `csv export`) into a database holding only the account (absent before 2026-11-27 17:00). */
  csvImport?: { lines: number; seconds: number; linesPerSecond: number; maxRssKb: number };
  coldStartMs: number;
  responseBytes: { get: number; post: number };
  server: {
    get1: LoadResult;
    get32: LoadResult;
    post1: LoadResult;
    post32: LoadResult;
    mix32: LoadResult;
    peakRssKb: number;
    execArgv?: string[];
    /** The launcher's environment variables the server ran with (`MALLOC_ARENA_MAX=2`). */
    env?: string[];
  };
  http: { get1: LoadResult; get32: LoadResult; post1: LoadResult; post32: LoadResult };
  /** The load generator's own ceiling: a raw socket answering the same bytes (bench/trivial-server.ts). */
  generator: { get1: LoadResult; get32: LoadResult; post1: LoadResult; post32: LoadResult; mix32: LoadResult };
  /** serverReadLoop: the server's own read path (store + answer bytes) in the storage ceiling's kind of loop; not a ceiling. */
  /** writeGrouped: the same durable writes, 32 requests to a transaction (requests per second). */
  storage: { read: number; write: number; writeGrouped?: number; serverReadLoop?: number };
  /** The largest catalogue only: the server started without the launcher's memory measures. */
  withoutMemoryMeasures?: { peakRssKb: number; get32: LoadResult; mix32: LoadResult };
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  sqlite: string;
  loadAverage: number[];
}

export interface BenchResults {
  command: string;
  date: string;
  totalSeconds: number;
  loadSeconds: number;
  machine: Machine;
  loadGenerator: LoadGenerator;
  loadAverageAfter: number[];
  sizes: SizeResult[];
  /** The sync row (bench/sync-round.ts), with when and how it ran: `--only sync` measures it alone. */
  sync?: SyncResult & { command: string; date: string; machine: Machine };
  /** The reports rows (bench/reports-scale.ts): `--only reports` measures them alone. */
  reports?: ReportsResult;
  /** The PostgreSQL rows (bench/postgres.ts): `--engine postgres` measures them alone, every other run keeps them. */
  postgres?: PostgresResult & { machine: Machine };
}

export const TARGETS = {
  getRatio: 0.7,
  /** GET 50 at 32 connections: p99 at most this many times p50 (stalls, not queueing). */
  getTail: 4,
  /** POST 50 rows at 32 connections: this many times the ceiling of one durable transaction per request… */
  postOverSingle: 3,
  /** …or this share of the ceiling of 32 requests per transaction (issue 30). */
  postOverGrouped: 0.3,
  /** POST 50 rows at 32 connections: p99 at most this many times p50. */
  postTail: 3,
  growth: 1.3,
  importRowsPerSecond: 25_000,
  /** The database right after importing 1M barcodes (issue 30). */
  importedDatabaseMb: 600,
  importRssMb: 300,
  coldStartMs: 1500,
  serverRssMb: 150,
  /** A measured rate within this factor of the load generator's own ceiling may be the generator's limit. */
  generatorMargin: 3,
  /** One sync round of 10,000 movements against inserting the same rows straight into the history table. */
  syncRatio: 0.8,
};

export function machineInfo(): Machine {
  const sqlite = new BetterSqlite3(':memory:');
  const version = (sqlite.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  sqlite.close();
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: os.totalmem() / 2 ** 30,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    sqlite: version,
    loadAverage: os.loadavg(),
  };
}

const floorOf = (http: number, storage: number) => 1 / (1 / http + 1 / storage);
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
const ratio = (n: number) => `${fmt(n, 2)}×`;
const verdict = (ok: boolean) => (ok ? '✅ met' : '❌ missed');

export function floors(size: SizeResult) {
  const get1 = floorOf(size.http.get1.perSecond, size.storage.read);
  const get32 = floorOf(size.http.get32.perSecond, size.storage.read);
  const post1 = floorOf(size.http.post1.perSecond, size.storage.write);
  const post32 = floorOf(size.http.post32.perSecond, size.storage.write);
  const mix32 = 1 / (0.9 / get32 + 0.1 / post32);
  return { get1, get32, post1, post32, mix32 };
}

export function renderReport(bench: BenchResults): string {
  const m = bench.machine;
  const largest = bench.sizes.reduce((a, b) => (b.barcodes > a.barcodes ? b : a));
  const smallest = bench.sizes.reduce((a, b) => (b.barcodes < a.barcodes ? b : a));
  const out: string[] = [];
  out.push('# Benchmarks', '');
  out.push('Regenerated by `npm run bench` (bench/run.ts); do not edit by hand — the notes at the end come from `bench/NOTES.md`.', '');
  out.push('## Machine and command', '');
  out.push(`- Machine: ${m.cpu}, ${m.cores} cores, ${fmt(m.memoryGb, 1)} GB RAM, ${m.os}`);
  out.push(`- Node ${m.node}, SQLite ${m.sqlite} (better-sqlite3); every server in its own process, started as users start it`);
  out.push(`- Load generator: ${bench.loadGenerator.description}, in its own process (${bench.loadGenerator.note})`);
  out.push(`- Command: \`${bench.command}\` — ${bench.date}, ${fmt(bench.totalSeconds)} s in all, ${bench.loadSeconds} s per load run`);
  out.push(
    `- Load average (1/5/15 min) before: ${m.loadAverage.map((n) => fmt(n, 2)).join(' / ')}, after: ${bench.loadAverageAfter.map((n) => fmt(n, 2)).join(' / ')} — on a busy machine absolute figures drop; the ratios hold because every ceiling is measured in the same run.`,
  );
  out.push('');

  out.push('## Targets', '');
  out.push('| target | measured | goal | |');
  out.push('|---|---|---|---|');
  for (const size of bench.sizes) {
    const f = floors(size);
    out.push(
      `| GET 50 barcodes, 32 connections, ${size.label} | ${ratio(size.server.get32.perSecond / f.get32)} of floor | ≥ ${TARGETS.getRatio}× | ${verdict(size.server.get32.perSecond / f.get32 >= TARGETS.getRatio)} |`,
    );
    const tail = size.server.get32.p99Ms / size.server.get32.p50Ms;
    out.push(
      `| GET 50 barcodes, 32 connections, ${size.label}: p99 / p50 | ${fmt(size.server.get32.p99Ms)} / ${fmt(size.server.get32.p50Ms)} ms = ${ratio(tail)} | ≤ ${TARGETS.getTail}× | ${verdict(tail <= TARGETS.getTail)} |`,
    );
  }
  for (const size of bench.sizes) {
    const post = size.server.post32;
    const overSingle = post.perSecond / size.storage.write;
    const grouped = size.storage.writeGrouped;
    const overGrouped = grouped ? post.perSecond / grouped : Number.NaN;
    out.push(
      `| POST 50 rows, 32 connections, ${size.label} | ${ratio(overSingle)} of one transaction per request (${fmt(size.storage.write)}/s), ${grouped ? `${ratio(overGrouped)} of 32 per transaction (${fmt(grouped)}/s)` : 'no grouped ceiling'} | ≥ ${TARGETS.postOverSingle}× or ≥ ${TARGETS.postOverGrouped}× | ${verdict(overSingle >= TARGETS.postOverSingle || overGrouped >= TARGETS.postOverGrouped)} |`,
    );
    const tail = post.p99Ms / post.p50Ms;
    out.push(
      `| POST 50 rows, 32 connections, ${size.label}: p99 / p50 | ${fmt(post.p99Ms)} / ${fmt(post.p50Ms)} ms = ${ratio(tail)} | ≤ ${TARGETS.postTail}× | ${verdict(tail <= TARGETS.postTail)} |`,
    );
  }
  const growth = largest.server.get1.p50Ms / smallest.server.get1.p50Ms;
  out.push(
    `| Growth: p50 of GET (1 connection) at ${largest.label} vs ${smallest.label} | ${fmt(largest.server.get1.p50Ms, 2)} ms vs ${fmt(smallest.server.get1.p50Ms, 2)} ms = ${ratio(growth)} | ≤ ${TARGETS.growth}× | ${verdict(growth <= TARGETS.growth)} |`,
  );
  out.push(
    `| Import of ${largest.label} rows | ${fmt(largest.import.rowsPerSecond)} rows/s | ≥ ${fmt(TARGETS.importRowsPerSecond)} rows/s | ${verdict(largest.import.rowsPerSecond >= TARGETS.importRowsPerSecond)} |`,
  );
  out.push(
    `| Importer peak RSS, ${largest.label} rows | ${fmt(largest.import.maxRssKb / 1024)} MB | ≤ ${TARGETS.importRssMb} MB | ${verdict(largest.import.maxRssKb / 1024 <= TARGETS.importRssMb)} |`,
  );
  if (largest.csvImport) {
    const csv = largest.csvImport;
    out.push(
      `| CSV import of ${fmt(csv.lines)} lines (the ${largest.label} catalogue's warehouse account) | ${fmt(csv.linesPerSecond)} lines/s, peak RSS ${fmt(csv.maxRssKb / 1024)} MB | ≥ ${fmt(TARGETS.importRowsPerSecond)} lines/s in ≤ ${TARGETS.importRssMb} MB | ${verdict(csv.linesPerSecond >= TARGETS.importRowsPerSecond && csv.maxRssKb / 1024 <= TARGETS.importRssMb)} |`,
    );
  }
  out.push(
    `| Cold start to first answer, ${largest.label} database | ${fmt(largest.coldStartMs)} ms | ≤ ${fmt(TARGETS.coldStartMs)} ms | ${verdict(largest.coldStartMs <= TARGETS.coldStartMs)} |`,
  );
  out.push(
    `| Server peak RSS under 32-connection load, ${largest.label} | ${fmt(largest.server.peakRssKb / 1024)} MB | ≤ ${TARGETS.serverRssMb} MB | ${verdict(largest.server.peakRssKb / 1024 <= TARGETS.serverRssMb)} |`,
  );
  if (largest.importedBytes !== undefined)
    out.push(
      `| Database right after the import, ${largest.label} barcodes | ${fmt(largest.importedBytes / 1e6)} MB | ≤ ${fmt(TARGETS.importedDatabaseMb)} MB | ${verdict(largest.importedBytes / 1e6 <= TARGETS.importedDatabaseMb)} |`,
    );
  const sync = bench.sync;
  if (sync) {
    // Issue 30: against the ceiling that writes what the round writes, the history rows and the quantities.
    const against = quantitiesRatio(sync) ?? syncRatio(sync);
    out.push(
      `| Sync round of ${fmt(sync.movements)} movements (push, apply, pull) | ${ratio(against)} of ${sync.quantitiesCeilingMs ? 'the ceiling writing the same rows and quantities' : 'the ceiling writing the rows (no quantities ceiling in this run)'} | ≥ ${TARGETS.syncRatio}× | ${verdict(against >= TARGETS.syncRatio)} |`,
    );
  }
  if (bench.reports) out.push(...reportTargetRows(bench.reports));
  if (largest.barcodes < 1_000_000)
    out.push('', `The largest catalogue of this run has ${largest.label} barcodes; the targets name 1M (\`--sizes 10k,100k,1m\`).`);
  out.push('');

  for (const size of bench.sizes) {
    const f = floors(size);
    const s = size.server;
    out.push(`## ${size.label} barcodes`, '');
    out.push(
      `Catalogue ${fmt(size.catalogueBytes / 1e6, 1)} MB, database ${size.importedBytes === undefined ? '' : `${fmt(size.importedBytes / 1e6, 1)} MB right after the import, `}${fmt(size.databaseBytes / 1e6, 1)} MB after the load runs; answers of ${fmt(size.responseBytes.get)} bytes (GET) and ${fmt(size.responseBytes.post)} bytes (POST).`,
      '',
    );
    out.push(
      '| workload | connections | server req/s | HTTP ceiling req/s | storage ceiling req/s | floor req/s | server / floor | p50 ms | p99 ms | load generator ceiling req/s |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|');
    const warnings: string[] = [];
    const row = (
      name: string,
      load: LoadResult,
      http: LoadResult | undefined,
      storage: number | undefined,
      floor: number,
      generator: LoadResult,
    ) => {
      // Any rate measured close to what the load generator itself can drive may be the generator's limit.
      const near = (what: string, rate: number) => {
        if (rate * TARGETS.generatorMargin > generator.perSecond) {
          warnings.push(
            `${name}, ${load.connections} connection${load.connections === 1 ? '' : 's'}: the ${what} (${fmt(rate)} req/s) is within ${TARGETS.generatorMargin}× of the load generator's own ceiling (${fmt(generator.perSecond)} req/s), so it may measure the load generator.`,
          );
          return ' ⚠️';
        }
        return '';
      };
      const serverMark = near('server', load.perSecond);
      const httpMark = http === undefined ? '' : near('HTTP ceiling', http.perSecond);
      out.push(
        `| ${name} | ${load.connections} | ${fmt(load.perSecond)}${serverMark} | ${http === undefined ? '—' : fmt(http.perSecond) + httpMark} | ${storage === undefined ? '—' : fmt(storage)} | ${fmt(floor)} | ${ratio(load.perSecond / floor)} | ${fmt(load.p50Ms, 2)} | ${fmt(load.p99Ms, 2)} | ${fmt(generator.perSecond)} |`,
      );
    };
    const g = size.generator;
    row('GET 50 barcodes (45 known, 5 unknown)', s.get1, size.http.get1, size.storage.read, f.get1, g.get1);
    row('GET 50 barcodes (45 known, 5 unknown)', s.get32, size.http.get32, size.storage.read, f.get32, g.get32);
    row('POST 50 rows, durable', s.post1, size.http.post1, size.storage.write, f.post1, g.post1);
    row('POST 50 rows, durable', s.post32, size.http.post32, size.storage.write, f.post32, g.post32);
    row('90% GET / 10% POST', s.mix32, undefined, undefined, f.mix32, g.mix32);
    out.push('');
    if (warnings.length > 0) out.push(...warnings.map((w) => `> ⚠️ ${w}`), '');
    else
      out.push(
        `Every rate in this table is below 1/${TARGETS.generatorMargin} of the load generator's own ceiling (last column): the load generator is not what limits it.`,
        '',
      );
    if (size.storage.serverReadLoop !== undefined) {
      out.push(
        `- The server's own read path (store.stock.read + the answer's bytes, bench/server-read-loop.ts) in the same kind of loop, no HTTP: ${fmt(size.storage.serverReadLoop)} per second, ${ratio(size.storage.serverReadLoop / size.storage.read)} the storage ceiling.`,
      );
    }
    out.push(
      `- Import: ${fmt(size.import.seconds, 1)} s = ${fmt(size.import.rowsPerSecond)} rows/s (${fmt(size.barcodes / size.import.cpuSeconds)} rows per CPU-second), importer peak RSS ${fmt(size.import.maxRssKb / 1024)} MB.`,
    );
    if (size.csvImport)
      out.push(
        `- CSV: the warehouse account's ${fmt(size.csvImport.lines)} lines (\`csv export\`) imported with \`csv import\` into a database holding only the account: ${fmt(size.csvImport.seconds, 1)} s = ${fmt(size.csvImport.linesPerSecond)} lines/s, importer peak RSS ${fmt(size.csvImport.maxRssKb / 1024)} MB.`,
      );
    if (size.reimport)
      out.push(
        `- The same catalogue imported again into a copy of that database (every barcode found and compared, nothing changed): ${fmt(size.reimport.seconds, 1)} s = ${fmt(size.reimport.rowsPerSecond)} rows/s, importer peak RSS ${fmt(size.reimport.maxRssKb / 1024)} MB.`,
      );
    out.push(
      `- Cold start (process spawn to the first answered GET): ${fmt(size.coldStartMs)} ms. Server peak RSS after all load runs: ${fmt(s.peakRssKb / 1024)} MB${s.execArgv ? ` (node ${s.execArgv.length > 0 ? s.execArgv.map((a) => `\`${a}\``).join(' ') : 'without flags'}${s.env && s.env.length > 0 ? ` with ${s.env.map((e) => `\`${e}\``).join(' ')}` : ''}, as \`barcode-inventory serve\` starts itself)` : ''}.`,
    );
    const without = size.withoutMemoryMeasures;
    if (without) {
      out.push(
        `- The same server without the launcher's memory measures (\`BARCODE_INVENTORY_NO_NODE_FLAGS=1 NODE_DISABLE_COMPILE_CACHE=1\`): peak RSS ${fmt(without.peakRssKb / 1024)} MB; GET at 32 connections ${fmt(without.get32.perSecond)} req/s (${ratio(without.get32.perSecond / f.get32)} of floor), 90/10 mix ${fmt(without.mix32.perSecond)} req/s (${ratio(without.mix32.perSecond / f.mix32)}).`,
      );
    }
    out.push('');
  }

  if (sync) {
    const ceiling = median(sync.ceilingMs);
    out.push('## Sync', '');
    out.push(
      `Measured by \`${sync.command}\` — ${sync.date}, load average (1/5/15 min) ${sync.machine.loadAverage.map((n) => fmt(n, 2)).join(' / ')} after it.`,
      '',
    );
    out.push('| workload | movements | batch | round ms | ceiling ms | ceiling ÷ round | movements/s |');
    out.push('|---|---|---|---|---|---|---|');
    out.push(
      `| one sync round: push, apply upstream, pull | ${fmt(sync.movements)} | ${sync.batch} | ${fmt(sync.roundMs)}${sync.roundsMs ? ` (${sync.roundsMs.map((ms) => fmt(ms)).join(' / ')})` : ''} | ${fmt(ceiling)} (${sync.ceilingMs.map((ms) => fmt(ms)).join(' / ')}) | ${ratio(syncRatio(sync))} | ${fmt((sync.movements / sync.roundMs) * 1000)} |`,
    );
    const withQuantities = quantitiesRatio(sync);
    if (withQuantities !== undefined) {
      out.push(
        `| the same round, against the ceiling that also writes the quantities | | | ${fmt(sync.roundMs)} | ${fmt(median(sync.quantitiesCeilingMs!))} (${sync.quantitiesCeilingMs!.map((ms) => fmt(ms)).join(' / ')}) | ${ratio(withQuantities)} | |`,
      );
    }
    out.push('');
    out.push(
      `- The round (bench/sync-round.ts): a follower holding ${fmt(sync.movements)} sets its upstream does not have (made through its own API while the upstream was stopped) runs one real round (server/sync/sync-round.ts, in a child process, bench/sync-round-child.ts)${sync.roundsMs ? `, ${sync.roundsMs.length} times from the same two starting databases (the median counts; all are listed),` : ''} against a real upstream \`serve\` process over loopback HTTP: the upstream's state, ${Math.ceil(sync.movements / sync.batch)} pushes of ${sync.batch} movements each applied upstream in one durable transaction (checks, fold, conflicts), then the pull (${fmt(sync.pulled)} new to the follower: its own movements are left out by \`have\`). Timed from the first request to the round's last write.${sync.warmUpMs !== undefined ? ` Before the timer, both processes handle three pushes (${fmt(sync.warmUpMs)} ms in all) of the upstream's own movements sent back, answered as duplicates and writing nothing, as a running server already would have: the round holds no process start-up or first compilation.` : ''}`,
    );
    out.push(
      `- Ceiling (bench/sync-ceiling.ts): the same ${fmt(sync.movements)} rows inserted straight into a copy of the upstream's \`stock_history\` as it was before the round, with better-sqlite3 and the store's pragmas, one prepared INSERT per row and one durable \`BEGIN IMMEDIATE\` transaction per ${sync.batch} rows; ${sync.roundsMs ? 'before the first round, between the rounds and after the last, the median counts' : 'once before the round and once after it, the mean counts'}.`,
    );
    if (withQuantities !== undefined) {
      out.push(
        `- Ceiling with the quantities (the same script, \`quantities\`): the same rows, and in each batch's transaction the quantity each unit and warehouse of the batch is left with, one prepared upsert each: everything the round writes durably, with no reads, no HTTP and no fold, run just before each pass of the ceiling above. The target (≥ ${TARGETS.syncRatio}×, issue 30) is against this ceiling, which writes everything the round writes; the row above, against the history rows alone, was issue 13's target (docs/SYNC.md, "Performance").`,
      );
    }
    out.push('');
  }

  if (bench.reports) out.push(...renderReports(bench.reports));

  if (bench.postgres)
    out.push(
      ...renderPostgres(
        bench.postgres,
        bench.sizes.find((size) => size.barcodes === bench.postgres!.barcodes),
      ),
    );

  out.push('## How it is measured', '');
  out.push(
    "- Catalogues (test/support/catalogue-generator.ts, seeded): 90% of the barcodes in a warehouse account with 3 warehouses, 10% in a no-warehouse account; a third of the barcodes are variants; 1 barcode in 20 has no stock definition (answered with one zero record per warehouse). Imported with `barcode-inventory import`, run as a child process started the way the command starts itself (compile cache, restarted with the import's memory flags) that reports its peak RSS.",
  );
  out.push(
    "- The server is `barcode-inventory serve --port 0` (bin/barcode-inventory.js, which restarts itself in place with the server's memory flags) in its own process, at its default log level. The load generator is another process: wrk with a Lua script (bench/wrk-requests.lua) over keep-alive loopback connections, 2 threads at 32 connections and 1 at 1, cycling through 2,000 prepared GETs and 8,000 distinct POST bodies (split between the threads, so no POST repeats within a run); a status ≥ 400 or a socket error fails the run. Latencies are wrk's, to the microsecond. GET asks for 45 existing barcodes of the warehouse account and 5 unknown ones; POST sets 50 distinct existing barcodes in one of the 3 warehouses (durable: WAL, synchronous=FULL; each answered after the commit that carries it, shared by the writes that arrived together: group commit, docs/ARCHITECTURE.md). Every answer must be a 2xx.",
  );
  out.push(
    '- HTTP ceiling (bench/http-ceiling-server.ts): the same `createApp` Koa stack and logger, with a route in front of the API router that answers the inventory path with the bytes the real server answered (a POST body is still read). Same load generator, same connections.',
  );
  out.push(
    '- Load generator ceiling (bench/trivial-server.ts): a raw TCP socket that finds the end of each request and writes a precomputed HTTP response of the same size as the real answer — no HTTP parser, no Koa, no SQLite. It is what the load generator itself can drive here; a server or HTTP-ceiling rate within 3× of it is marked ⚠️ and named under its table.',
  );
  out.push(
    '- Storage ceiling (bench/storage-ceiling.ts): better-sqlite3 in one process on the same database with the same pragmas, in a tight loop: one prepared 50-barcode query with the same joins, building the same answer and `JSON.stringify`; and the same 50-row `BEGIN IMMEDIATE` transaction (unit and warehouse lookups, old quantity, upsert, history row with its actor), committed durably; and, for the POST target of issue 30, the same requests 32 to a durable transaction (`write-grouped`: what group commit can at best reach with 32 connections writing; counted in requests per second). The floor of the POST rows is the one-transaction-per-request ceiling, as before; the POST target compares the server with both. It runs twice per catalogue, before and after the server runs (no server running), and the mean of the two passes counts.',
  );
  out.push(
    '- Floor = 1 / (1 / HTTP ceiling + 1 / storage ceiling); the mix floor weights 90% GET and 10% POST floors by time. A ratio of 1.0× means the service adds nothing to the two unavoidable costs.',
  );
  out.push('');
  const notes = path.join(import.meta.dirname, 'NOTES.md');
  try {
    out.push(readFileSync(notes, 'utf8').trim(), '');
  } catch {
    // no notes yet
  }
  return out.join('\n');
}

/** Floors of the PostgreSQL rows: the same formula, with the storage ceiling measured at the load's own concurrency. */
export function postgresFloors(pgResult: PostgresResult) {
  return {
    get1: floorOf(pgResult.http.get1.perSecond, pgResult.storage.read1),
    get32: floorOf(pgResult.http.get32.perSecond, pgResult.storage.read32),
    post1: floorOf(pgResult.http.post1.perSecond, pgResult.storage.write1),
    post32: floorOf(pgResult.http.post32.perSecond, pgResult.storage.write32),
  };
}

function renderPostgres(p: PostgresResult & { machine: Machine }, sqlite: SizeResult | undefined): string[] {
  const out: string[] = [];
  const f = postgresFloors(p);
  out.push('## PostgreSQL', '');
  out.push(
    `Measured by \`${p.command}\` — ${p.date}, ${p.version} (${p.source}) on a throwaway cluster (fsync and synchronous_commit on, shared_buffers 64 MB), the server's pool of ${p.poolSize} connections; load average (1/5/15 min) ${p.machine.loadAverage.map((n) => fmt(n, 2)).join(' / ')} before, ${p.loadAverageAfter.map((n) => fmt(n, 2)).join(' / ')} after. The ${p.label} catalogue, imported with \`import --database\` in ${fmt(p.importSeconds, 1)} s, which runs \`ANALYZE\` when it commits; answers of ${fmt(p.responseBytes.get)} bytes (GET) and ${fmt(p.responseBytes.post)} bytes (POST). The SQLite rows of the same catalogue are repeated from the ${sqlite ? sqlite.label : ''} table above (measured by the run named at the top, not in this one: compare the ratios, not the absolute rates).`,
    '',
  );
  out.push(
    '| engine | workload | connections | server req/s | HTTP ceiling req/s | storage ceiling req/s | floor req/s | server / floor | server / HTTP ceiling | server / storage ceiling | p50 ms | p99 ms | load generator ceiling req/s |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const row = (engine: string, name: string, load: LoadResult, http: LoadResult, storage: number, floor: number, generator: LoadResult) =>
    out.push(
      `| ${engine} | ${name} | ${load.connections} | ${fmt(load.perSecond)} | ${fmt(http.perSecond)} | ${fmt(storage)} | ${fmt(floor)} | ${ratio(load.perSecond / floor)} | ${ratio(load.perSecond / http.perSecond)} | ${ratio(load.perSecond / storage)} | ${fmt(load.p50Ms, 2)} | ${fmt(load.p99Ms, 2)} | ${fmt(generator.perSecond)} |`,
    );
  const GET = 'GET 50 barcodes (45 known, 5 unknown)';
  const POST = 'POST 50 rows, durable';
  row('PostgreSQL', GET, p.server.get1, p.http.get1, p.storage.read1, f.get1, p.generator.get1);
  row('PostgreSQL', GET, p.server.get32, p.http.get32, p.storage.read32, f.get32, p.generator.get32);
  row('PostgreSQL', POST, p.server.post1, p.http.post1, p.storage.write1, f.post1, p.generator.post1);
  row('PostgreSQL', POST, p.server.post32, p.http.post32, p.storage.write32, f.post32, p.generator.post32);
  if (sqlite) {
    const s = floors(sqlite);
    row('SQLite', GET, sqlite.server.get1, sqlite.http.get1, sqlite.storage.read, s.get1, sqlite.generator.get1);
    row('SQLite', GET, sqlite.server.get32, sqlite.http.get32, sqlite.storage.read, s.get32, sqlite.generator.get32);
    row('SQLite', POST, sqlite.server.post1, sqlite.http.post1, sqlite.storage.write, s.post1, sqlite.generator.post1);
    row('SQLite', POST, sqlite.server.post32, sqlite.http.post32, sqlite.storage.write, s.post32, sqlite.generator.post32);
  }
  out.push('');
  out.push(
    `- Storage ceiling on PostgreSQL (bench/pg-storage-ceiling.ts): the \`pg\` client in one process, no HTTP, on the same database, as many loops side by side as the load has connections (1 or 32), each on its own connection: the same 50-barcode query with the same joins inside the engine's read transaction (\`REPEATABLE READ READ ONLY\`), building the same answer and \`JSON.stringify\`; and the same 50-row write in the engine's write transaction (\`READ COMMITTED\`, the one-writer advisory lock, unit and warehouse lookups, the old quantities in one statement, then one multi-row upsert and one multi-row history \`INSERT\` as the server writes since issue 30, \`COMMIT\` flushed to disk). Twice, before and after the server runs, the mean counts. The SQLite storage ceiling is one loop in one process (better-sqlite3 is synchronous), so its 1- and 32-connection rows share one figure.`,
  );
  out.push(
    '- Floor, HTTP ceiling and load generator ceiling as for SQLite (below), the HTTP ceiling server opened on the PostgreSQL database and answering the bytes the PostgreSQL server answered.',
  );
  out.push('');
  // What the figures mean, written after a run (like bench/NOTES.md for the whole report).
  try {
    out.push(readFileSync(path.join(import.meta.dirname, 'NOTES-postgres.md'), 'utf8').trim(), '');
  } catch {
    // no notes yet
  }
  return out;
}
