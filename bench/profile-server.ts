// Where a request's time goes (issue 30): a real `serve` on a generated catalogue, started with
// `--cpu-prof`, under the bench's POST (50 rows) or GET (50 barcodes) load from its load generator,
// then the profile's self time by function, heaviest first. Not part of `npm run bench` (a profile
// slows what it measures); run `node bench/profile-server.ts post|get [barcodes=10000]
// [connections=32] [seconds=5]` and read the top. PROFILE_ENGINE=postgres runs the server on a
// throwaway PostgreSQL cluster instead (test/support/postgres-cluster.ts; the import then takes
// about half a minute per 10k barcodes).
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WAREHOUSE_ACCOUNT, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { chooseLoadGenerator, runLoad } from './load.ts';
import { CLI, ROOT, runNode, startNode, stopChild, waitForUrl } from './processes.ts';
import { getRequests, postRequests } from './workloads.ts';
import { createTestDatabase, startPostgresCluster } from '../test/support/postgres-cluster.ts';

const [workload = 'post', ...numbers] = process.argv.slice(2);
if (workload !== 'post' && workload !== 'get') throw new Error('usage: profile-server.ts post|get [barcodes] [connections] [seconds]');
const [barcodes = 10_000, connections = 32, seconds = 5] = numbers.map(Number);
const requestsOf = workload === 'post' ? postRequests : getRequests;
const work = mkdtempSync(path.join(tmpdir(), 'bi-profile-'));
const catalogueFile = path.join(work, 'catalogue.json');
const cluster = process.env.PROFILE_ENGINE === 'postgres' ? await startPostgresCluster() : undefined;
const dbFile = cluster ? await createTestDatabase(cluster.adminUrl, 'profile') : path.join(work, 'inventory.db');
const generated = generateCatalogue(catalogueFile, barcodes, 7);
if (cluster) await runNode([CLI, 'import', catalogueFile, '--db', dbFile]);
else await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, dbFile]);
const token = (await runNode([CLI, 'token', 'create', '--account', WAREHOUSE_ACCOUNT, '--label', 'profile', '--db', dbFile])).stdout
  .trim()
  .split('\n')
  .pop()!;
const profiles = path.join(work, 'profiles');
const server = startNode([CLI, 'serve', '--db', dbFile, '--port', '0'], path.join(work, 'server.log'), {
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profiles}${process.env.PROFILE_IMPORT ? ` --import=${process.env.PROFILE_IMPORT}` : ''}`,
});
// PROFILE_AUTOCANNON=1: the other load generator, to tell the server's latency from wrk's.
const generator = process.env.PROFILE_AUTOCANNON
  ? { kind: 'autocannon' as const, description: 'autocannon', note: 'asked for' }
  : chooseLoadGenerator({ install: false, log: console.log });
let result;
try {
  const url = await waitForUrl(server);
  await runLoad(generator, { url, token, requests: requestsOf(generated.warehouseBarcodes, 1), connections, seconds: 1 });
  result = await runLoad(generator, { url, token, requests: requestsOf(generated.warehouseBarcodes, 2), connections, seconds });
} finally {
  await stopChild(server);
  await cluster?.stop();
}
console.log(
  `${workload === 'post' ? 'POST 50 rows' : 'GET 50 barcodes'}, ${connections} connections: ${result.perSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`,
);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
// The launcher and the server each write a profile; the server's is the larger one.
const files = readdirSync(profiles).map((f) => path.join(profiles, f));
const profile = files
  .map((f) => JSON.parse(readFileSync(f, 'utf8')) as Profile)
  .reduce((a, b) => (b.samples.length > a.samples.length ? b : a));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules\/)?/, '')}:${frame.lineNumber + 1}`;
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(name, (self.get(name) ?? 0) + dt);
  total += dt;
});
console.log(`profile: ${(total / 1e6).toFixed(1)} s sampled; self time by function:`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
console.log(`kept ${work}`);
