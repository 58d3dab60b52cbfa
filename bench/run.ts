// `npm run bench`: generates catalogues, imports them with the project's importer, starts the real
// server as a separate process the way users start it, drives it with wrk (another process; the
// bench installs it with apt-get where it can, else falls back to autocannon in a child process and
// says so), measures the ceilings in the same run, and regenerates docs/BENCHMARKS.md. Not part of
// `npm test`.
//   --sizes 10k,100k,1m   catalogue sizes (default: all three; the 1M one takes about half the time)
//   --seconds 5           length of each load run
//   --out FILE            where the report goes (default docs/BENCHMARKS.md)
//   --keep                keep the generated catalogues and databases (printed at the end)
//   --render-only         rewrite the report from the last run's BENCHMARKS.json (after editing NOTES.md)
//   --no-install-wrk      do not try `apt-get install wrk` when wrk is missing
//   --only sync           only the sync row (bench/sync-round.ts, a minute or two): the other figures are
//                         kept from the last run's BENCHMARKS.json and the report rewritten; --only sizes skips it
//   --only reports        only the reports rows (bench/reports-scale.ts: a low-stock page, the chart of an item
//                         of 100,000 movements, movements per day) on a catalogue of the largest --sizes; the
//                         other figures are kept from the last run's BENCHMARKS.json. A full run measures them too
//   --engine postgres     only the PostgreSQL rows (bench/postgres.ts: the 10k catalogue on a throwaway
//                         cluster, GET and POST at 1 and 32 connections, its ceilings; a few minutes): the
//                         other figures are kept from the last run's BENCHMARKS.json, and every other run
//                         keeps the last PostgreSQL figures
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { INVENTORY_PATH } from '../shared/index.ts';
import { WAREHOUSE_ACCOUNT, WAREHOUSE_NAMES, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { chooseLoadGenerator, runLoad } from './load.ts';
import { CLI, ROOT, execArgvOf, launcherEnvOf, memoryOf, runNode, startNode, stopChild, waitForUrl } from './processes.ts';
import { type BenchResults, type SizeResult, machineInfo, renderReport } from './report.ts';
import { WITHOUT_NODE_FLAGS_ENV } from '../server/launch/node-flags.ts';
import { benchSync } from './sync-round.ts';
import { benchPostgres } from './postgres.ts';
import { benchReports } from './reports-scale.ts';
import { DEFAULT_POOL_SIZE } from '../server/store/postgres/postgres-engine.ts';
import { getRequests, mixedRequests, postRequests } from './workloads.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10k,100k,1m' },
    seconds: { type: 'string', default: '5' },
    out: { type: 'string', default: path.join(ROOT, 'docs', 'BENCHMARKS.md') },
    keep: { type: 'boolean', default: false },
    'render-only': { type: 'boolean', default: false },
    'no-install-wrk': { type: 'boolean', default: false },
    only: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
  },
});

// --render-only: rewrite the report from the last run's figures (BENCHMARKS.json), e.g. after
// editing bench/NOTES.md, without measuring again.
if (values['render-only']) {
  const saved = JSON.parse(readFileSync(values.out.replace(/\.md$/, '.json'), 'utf8')) as BenchResults;
  writeFileSync(values.out, renderReport(saved));
  console.log(`rewrote ${path.relative(ROOT, values.out)} from ${path.relative(ROOT, values.out.replace(/\.md$/, '.json'))}`);
  process.exit(0);
}
if (values.only !== undefined && values.only !== 'sync' && values.only !== 'sizes' && values.only !== 'reports')
  throw new Error(`--only ${values.only}: use --only sync, --only sizes or --only reports`);
const reportsOnly = values.only === 'reports';
if (values.engine !== 'sqlite' && values.engine !== 'postgres')
  throw new Error(`--engine ${values.engine}: use --engine sqlite (the default) or --engine postgres`);
if (values.engine === 'postgres' && values.only !== undefined)
  throw new Error('--engine postgres measures the PostgreSQL rows alone: leave out --only');
const postgresOnly = values.engine === 'postgres';
const sizes = values.only === 'sync' || reportsOnly || postgresOnly ? [] : values.sizes.split(',').map(parseSize);
const seconds = Number(values.seconds);
const SEED = 7;
const STORAGE_SECONDS = 3;

function parseSize(text: string): number {
  const match = /^(\d+)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`bad size "${text}": use e.g. 10k, 100k, 1m`);
  return Number(match[1]) * (match[2]!.toLowerCase() === 'k' ? 1000 : match[2]!.toLowerCase() === 'm' ? 1_000_000 : 1);
}

const log = (text: string) => console.log(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${text}`);
const t0 = performance.now();
const work = mkdtempSync(path.join(tmpdir(), 'bi-bench-'));
const startMachine = machineInfo();
const jsonOut = values.out.replace(/\.md$/, '.json');
const previous =
  values.only === 'sync' || reportsOnly || postgresOnly ? (JSON.parse(readFileSync(jsonOut, 'utf8')) as BenchResults) : undefined;
// A full run keeps the PostgreSQL figures of the last `--engine postgres` run.
const lastPostgres = existsSync(jsonOut) ? (JSON.parse(readFileSync(jsonOut, 'utf8')) as BenchResults).postgres : undefined;
const generator = previous?.loadGenerator ?? chooseLoadGenerator({ install: !values['no-install-wrk'], log });
if (!previous) log(`load generator: ${generator.description} (${generator.note})`);
const load = (options: Parameters<typeof runLoad>[1]) => runLoad(generator, options);

async function benchSize(barcodes: number): Promise<SizeResult> {
  const label = barcodes >= 1_000_000 ? `${barcodes / 1_000_000}M` : `${barcodes / 1000}k`;
  const catalogueFile = path.join(work, `catalogue-${label}.json`);
  const dbFile = path.join(work, `inventory-${label}.db`);

  log(`${label}: generating the catalogue`);
  const generated = generateCatalogue(catalogueFile, barcodes, SEED);

  log(`${label}: importing ${(generated.bytes / 1e6).toFixed(0)} MB with the project's importer`);
  const imported = await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, dbFile]);
  const stats = JSON.parse(/^BENCH (.*)$/m.exec(imported.stdout)![1]!) as {
    seconds: number;
    cpuSeconds: number;
    maxRssKb: number;
    exitCode: number;
  };
  if (stats.exitCode !== 0) throw new Error(`import failed:\n${imported.stdout}\n${imported.stderr}`);
  const importedBytes = statSync(dbFile).size;
  // The same catalogue again, into a copy of what it made: every item, variant and barcode is found
  // and compared, nothing changes. A chain re-imports its catalogue every day; this row caught a
  // look-up that read a whole account per 64 items (docs/DEPLOY.md, "Planner statistics").
  log(`${label}: importing the same catalogue again into a copy of its database`);
  const reimportFile = path.join(work, `reimport-${label}.db`);
  copyFileSync(dbFile, reimportFile);
  const reimported = await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, reimportFile]);
  const reimportStats = JSON.parse(/^BENCH (.*)$/m.exec(reimported.stdout)![1]!) as { seconds: number; maxRssKb: number; exitCode: number };
  if (reimportStats.exitCode !== 0) throw new Error(`the second import failed:\n${reimported.stdout}\n${reimported.stderr}`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${reimportFile}${suffix}`, { force: true });
  // The warehouse account's rows as CSV (`csv export`), imported with `csv import` into a database
  // holding only the account: a chain's catalogue from a spreadsheet or an ERP's export.
  log(`${label}: csv export of ${WAREHOUSE_ACCOUNT}, then csv import of it into a database holding only the account`);
  const csvFile = path.join(work, `${WAREHOUSE_ACCOUNT}-${label}.csv`);
  await runNode([CLI, 'csv', 'export', '--account', WAREHOUSE_ACCOUNT, '--db', dbFile, '--out', csvFile]);
  const csvBytes = readFileSync(csvFile);
  let csvLines = -1; // the header is not a row
  for (let at = csvBytes.indexOf(10); at !== -1; at = csvBytes.indexOf(10, at + 1)) csvLines++;
  const accountFile = path.join(work, `account-${label}.json`);
  const warehouses = WAREHOUSE_NAMES.map((name, i) => ({ id: i + 1, name }));
  writeFileSync(accountFile, JSON.stringify({ accounts: [{ name: WAREHOUSE_ACCOUNT, warehouses_enabled: true, warehouses, items: [] }] }));
  const csvDbFile = path.join(work, `csv-${label}.db`);
  await runNode([CLI, 'import', accountFile, '--db', csvDbFile]);
  const csvImported = await runNode([path.join(ROOT, 'bench', 'import-child.ts'), '--csv', csvFile, WAREHOUSE_ACCOUNT, csvDbFile]);
  const csvStats = JSON.parse(/^BENCH (.*)$/m.exec(csvImported.stdout)![1]!) as { seconds: number; maxRssKb: number; exitCode: number };
  if (csvStats.exitCode !== 0) throw new Error(`csv import failed:\n${csvImported.stdout}\n${csvImported.stderr}`);
  for (const file of [csvFile, accountFile, csvDbFile, `${csvDbFile}-wal`, `${csvDbFile}-shm`]) rmSync(file, { force: true });
  const token = (await runNode([CLI, 'token', 'create', '--account', WAREHOUSE_ACCOUNT, '--label', 'bench', '--db', dbFile])).stdout
    .trim()
    .split('\n')
    .pop()!;

  // Every run that writes gets its own requests (see postRequests).
  const gets = getRequests(generated.warehouseBarcodes, SEED);
  const posts = postRequests(generated.warehouseBarcodes, SEED + 1);
  const posts32 = postRequests(generated.warehouseBarcodes, SEED + 2);
  const mixed = mixedRequests(generated.warehouseBarcodes, SEED + 3);

  // The storage ceiling is measured before and after the server runs, with no server running: the
  // disk's fsync time and the other tenants of a shared machine vary over minutes, and the mean of
  // the two passes brackets the conditions the server ran in.
  const storage = async (kind: 'read' | 'write' | 'write-grouped', pass: number) => {
    const args = [dbFile, kind, String(STORAGE_SECONDS), String(generated.warehouseBarcodes), String(SEED + 4 + pass)];
    const { stdout } = await runNode([path.join(ROOT, 'bench', 'storage-ceiling.ts'), ...args]);
    return (JSON.parse(stdout.trim().split('\n').pop()!) as { perSecond: number }).perSecond;
  };
  const serverReadLoop = async (pass: number) => {
    const args = [dbFile, String(STORAGE_SECONDS), String(generated.warehouseBarcodes), String(SEED + 4 + pass)];
    const { stdout } = await runNode([path.join(ROOT, 'bench', 'server-read-loop.ts'), ...args]);
    return (JSON.parse(stdout.trim().split('\n').pop()!) as { perSecond: number }).perSecond;
  };
  log(`${label}: storage ceiling (in-process better-sqlite3, ${STORAGE_SECONDS} s each) and the server's own read path in a loop`);
  const firstPass = {
    read: await storage('read', 0),
    write: await storage('write', 0),
    writeGrouped: await storage('write-grouped', 0),
    serverRead: await serverReadLoop(0),
  };

  log(`${label}: cold start of the server`);
  const started = performance.now();
  const logFile = path.join(work, 'server.log');
  // As users start it: bin/barcode-inventory.js restarts itself with the memory flags (node-flags.ts).
  const server = startNode([CLI, 'serve', '--db', dbFile, '--port', '0'], logFile);
  let coldStartMs: number;
  let getBody: Buffer;
  let postBody: Buffer;
  const loads: SizeResult['server'] = {} as SizeResult['server'];
  try {
    const url = await waitForUrl(server);
    const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
    const first = await fetch(url + gets[0]!.path, { headers });
    getBody = Buffer.from(await first.arrayBuffer());
    coldStartMs = performance.now() - started;
    if (first.status !== 200) throw new Error(`first GET answered ${first.status}: ${getBody.toString()}`);
    const posted = await fetch(url + INVENTORY_PATH, { method: 'POST', headers, body: posts.pop()!.body! });
    postBody = Buffer.from(await posted.arrayBuffer());
    if (posted.status !== 200) throw new Error(`first POST answered ${posted.status}: ${postBody.toString()}`);

    log(`${label}: load on the server (${seconds} s per run)`);
    await load({ url, token, requests: gets, connections: 32, seconds: 1 }); // warm-up
    loads.get1 = await load({ url, token, requests: gets, connections: 1, seconds });
    loads.get32 = await load({ url, token, requests: gets, connections: 32, seconds });
    loads.post1 = await load({ url, token, requests: posts, connections: 1, seconds });
    loads.post32 = await load({ url, token, requests: posts32, connections: 32, seconds });
    loads.mix32 = await load({ url, token, requests: mixed, connections: 32, seconds });
    loads.peakRssKb = memoryOf(server.pid)?.peakKb ?? Number.NaN;
    loads.execArgv = execArgvOf(server.pid);
    loads.env = launcherEnvOf(server.pid);
  } finally {
    await stopChild(server);
  }

  // The same server without the memory measures of the launcher (node-flags.ts): what they buy in
  // peak memory, and what they cost in throughput.
  let withoutMemoryMeasures: SizeResult['withoutMemoryMeasures'];
  if (barcodes === Math.max(...sizes)) {
    log(`${label}: the server again, started without the memory measures (${WITHOUT_NODE_FLAGS_ENV}=1 NODE_DISABLE_COMPILE_CACHE=1)`);
    const again = startNode([CLI, 'serve', '--db', dbFile, '--port', '0'], logFile, {
      [WITHOUT_NODE_FLAGS_ENV]: '1',
      NODE_DISABLE_COMPILE_CACHE: '1',
    });
    try {
      const url = await waitForUrl(again);
      await load({ url, token, requests: gets, connections: 32, seconds: 1 }); // warm-up
      const get32 = await load({ url, token, requests: gets, connections: 32, seconds });
      const mix32 = await load({ url, token, requests: mixedRequests(generated.warehouseBarcodes, SEED + 10), connections: 32, seconds });
      withoutMemoryMeasures = { peakRssKb: memoryOf(again.pid)?.peakKb ?? Number.NaN, get32, mix32 };
    } finally {
      await stopChild(again);
    }
  }

  log(`${label}: HTTP ceiling (same Koa stack, precomputed ${getBody.length}-byte answer)`);
  const getFile = path.join(work, 'get-response.json');
  const postFile = path.join(work, 'post-response.json');
  writeFileSync(getFile, getBody);
  writeFileSync(postFile, postBody);
  const ceilingServer = startNode([path.join(ROOT, 'bench', 'http-ceiling-server.ts'), dbFile, getFile, postFile], logFile);
  const http = {} as SizeResult['http'];
  try {
    const url = await waitForUrl(ceilingServer);
    await load({ url, requests: gets, connections: 32, seconds: 1 }); // warm-up
    http.get1 = await load({ url, requests: gets, connections: 1, seconds });
    http.get32 = await load({ url, requests: gets, connections: 32, seconds });
    http.post1 = await load({ url, requests: posts, connections: 1, seconds });
    http.post32 = await load({ url, requests: posts, connections: 32, seconds });
  } finally {
    await stopChild(ceilingServer);
  }

  log(`${label}: load generator ceiling (a raw socket answering the same bytes)`);
  const trivialServer = startNode([path.join(ROOT, 'bench', 'trivial-server.ts'), getFile, postFile], logFile);
  const generatorCeiling = {} as SizeResult['generator'];
  try {
    const url = await waitForUrl(trivialServer);
    await load({ url, requests: gets, connections: 32, seconds: 1 }); // warm-up
    generatorCeiling.get1 = await load({ url, requests: gets, connections: 1, seconds });
    generatorCeiling.get32 = await load({ url, requests: gets, connections: 32, seconds });
    generatorCeiling.post1 = await load({ url, requests: posts, connections: 1, seconds });
    generatorCeiling.post32 = await load({ url, requests: posts, connections: 32, seconds });
    generatorCeiling.mix32 = await load({ url, requests: mixed, connections: 32, seconds });
  } finally {
    await stopChild(trivialServer);
  }

  log(`${label}: storage ceiling again (the mean of the two passes counts)`);
  const storageRead = (firstPass.read + (await storage('read', 1))) / 2;
  const storageWrite = (firstPass.write + (await storage('write', 1))) / 2;
  const storageWriteGrouped = (firstPass.writeGrouped + (await storage('write-grouped', 1))) / 2;
  const serverRead = (firstPass.serverRead + (await serverReadLoop(1))) / 2;

  const result: SizeResult = {
    label,
    barcodes,
    catalogueBytes: generated.bytes,
    databaseBytes: statSync(dbFile).size,
    importedBytes,
    import: { seconds: stats.seconds, cpuSeconds: stats.cpuSeconds, rowsPerSecond: barcodes / stats.seconds, maxRssKb: stats.maxRssKb },
    reimport: { seconds: reimportStats.seconds, rowsPerSecond: barcodes / reimportStats.seconds, maxRssKb: reimportStats.maxRssKb },
    csvImport: { lines: csvLines, seconds: csvStats.seconds, linesPerSecond: csvLines / csvStats.seconds, maxRssKb: csvStats.maxRssKb },
    coldStartMs,
    responseBytes: { get: getBody.length, post: postBody.length },
    server: loads,
    http,
    generator: generatorCeiling,
    storage: { read: storageRead, write: storageWrite, writeGrouped: storageWriteGrouped, serverReadLoop: serverRead },
    withoutMemoryMeasures,
  };
  if (!values.keep) {
    rmSync(catalogueFile, { force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  }
  log(`${label}: done`);
  return result;
}

/** The reports rows on a catalogue of the largest size asked for (bench/reports-scale.ts). */
const benchReportsOf = (command: string) =>
  benchReports({ dir: work, barcodes: Math.max(...values.sizes.split(',').map(parseSize)), seed: SEED, command, log });

try {
  const results: SizeResult[] = [];
  for (const size of sizes) results.push(await benchSize(size));
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  let bench: BenchResults;
  if (postgresOnly) {
    const measured = await benchPostgres({ work, log, load, seconds, seed: SEED, poolSize: DEFAULT_POOL_SIZE, command });
    bench = { ...previous!, postgres: { ...measured, machine: startMachine, loadAverageAfter: machineInfo().loadAverage } };
  } else if (reportsOnly) {
    bench = { ...previous!, reports: await benchReportsOf(command) };
  } else {
    const sync =
      values.only === 'sizes'
        ? undefined
        : { ...(await benchSync(work, log, SEED)), command, date: new Date().toISOString(), machine: machineInfo() };
    bench = previous
      ? { ...previous, sync }
      : {
          command,
          date: new Date().toISOString(),
          totalSeconds: (performance.now() - t0) / 1000,
          loadSeconds: seconds,
          machine: startMachine,
          loadGenerator: generator,
          loadAverageAfter: machineInfo().loadAverage,
          sizes: results,
          ...(sync ? { sync } : {}),
          ...(values.only === 'sizes' ? {} : { reports: await benchReportsOf(command) }),
          ...(lastPostgres ? { postgres: lastPostgres } : {}),
        };
  }
  mkdirSync(path.dirname(values.out), { recursive: true });
  const report = renderReport(bench);
  writeFileSync(values.out, report);
  writeFileSync(jsonOut, `${JSON.stringify(bench, null, 2)}\n`);
  log(`wrote ${path.relative(ROOT, values.out)}`);
  // The PostgreSQL table, as the report has it.
  if (postgresOnly) console.log(/^## PostgreSQL\n[\s\S]*?(?=\n- )/m.exec(report)?.[0] ?? '');
} finally {
  if (values.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
