// The fallback load generator where wrk is missing, run as a child process of the bench (never in
// the bench's own process): autocannon for concurrent connections; for one connection a plain
// request-after-request loop, because autocannon reports latency in whole milliseconds and one
// request here takes less than one. Reads its options from the JSON file given as argument and
// prints `LOAD {json}`.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import type { LoadOptions, LoadResult } from './load.ts';
import type { BenchRequest } from './workloads.ts';

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const { requests } = options;
  let next = 0;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Token ${options.token}`;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
    headers,
    requests: [
      {
        // A fresh headers object per request: autocannon adds Content-Length to the one it is
        // given, and a GET carrying the length of an earlier POST stalls its connection.
        setupRequest: (request) => {
          const pick = requests[next++ % requests.length]!;
          return { ...request, method: pick.method, path: pick.path, headers: { ...headers }, body: pick.body ?? '' };
        },
      },
    ],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `${failed} of ${result.requests.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
  }
  return {
    connections: options.connections,
    perSecond: result.requests.total / options.seconds,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** One keep-alive connection, one request after the other; latency percentiles to the microsecond. */
async function runSerial(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(options.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Token ${options.token}`;
  const once = (pick: BenchRequest) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ agent, hostname, port, method: pick.method, path: pick.path, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(pick.body);
    });
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  const until = started + options.seconds * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    const status = await once(options.requests[i % options.requests.length]!);
    latencies.push(performance.now() - t);
    if (status < 200 || status > 299) non2xx++;
  }
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  if (non2xx > 0) throw new Error(`${non2xx} of ${latencies.length} requests were not 2xx`);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    connections: 1,
    perSecond: latencies.length / elapsed,
    requests: latencies.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    non2xx,
    errors: 0,
  };
}

const options = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadOptions;
const result = options.connections === 1 ? await runSerial(options) : await runAutocannon(options);
console.log(`LOAD ${JSON.stringify(result)}`);
