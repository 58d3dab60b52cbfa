// Where the server's memory goes under load, phase by phase: the server started as users start it
// (bin/barcode-inventory.js, which restarts itself with its memory flags) on a database the bench
// kept (`npm run bench -- --sizes 100k --keep`), driven by the bench's load generator, with its
// resident memory read from /proc after each phase — anonymous and file-backed, and the anonymous
// part split by kind of mapping — and, with --inspect, the V8 heap's own figures and what each
// function allocated (the sampling heap profiler, counting objects the GC has already collected).
// Not part of `npm run bench`: the tool behind the memory figures of bench/NOTES.md.
//
//   node bench/memory-phases.ts DB [--phases get,get,get,post,mix] [--seconds 5]
//                                  [--node-flags="--max-semi-space-size=1"] [--inspect] [--allocations]
//
// --node-flags starts the server with those flags instead (the launcher then leaves the flags as
// given, but still adds MALLOC_ARENA_MAX=2 on SQLite: set MALLOC_ARENA_MAX in the environment, or
// BARCODE_INVENTORY_NO_NODE_FLAGS=1, to measure without it). Prints a line per phase, then one JSON line: {"phases": [{"phase", "perSecond", ...memory}]}.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { WAREHOUSE_ACCOUNT } from '../test/support/catalogue-generator.ts';
import { chooseLoadGenerator, runLoad } from './load.ts';
import { CLI, runNode, startNode, stopChild, waitForUrl } from './processes.ts';
import { type BenchRequest, getRequests, mixedRequests, postRequests } from './workloads.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    phases: { type: 'string', default: 'get,get,get,post,mix' },
    seconds: { type: 'string', default: '5' },
    'node-flags': { type: 'string' },
    inspect: { type: 'boolean', default: false },
    allocations: { type: 'boolean', default: false },
  },
});
const [dbFile] = positionals;
if (!dbFile)
  throw new Error(
    'usage: memory-phases.ts <database> [--phases get,post,mix,…] [--seconds 5] [--node-flags="…"] [--inspect] [--allocations]',
  );
const seconds = Number(values.seconds);
if (!Number.isInteger(seconds) || seconds < 1)
  throw new Error(`--seconds ${values.seconds}: use a whole number of seconds (wrk takes no fractions)`);
const inspect = values.inspect || values.allocations;

// The bench's catalogues name the warehouse account's barcodes 0 … n-1 (test/support/catalogue-generator.ts).
const database = new BetterSqlite3(dbFile, { readonly: true });
const warehouseBarcodes = (
  database
    .prepare('SELECT count(*) AS n FROM stock_units u JOIN accounts a ON a.id = u.account_id WHERE a.name = ?')
    .get(WAREHOUSE_ACCOUNT) as { n: number }
).n;
database.close();
if (warehouseBarcodes === 0)
  throw new Error(`${dbFile} has no account ${WAREHOUSE_ACCOUNT}: use a database kept by npm run bench -- --keep`);

const workloads: Record<string, { requests: BenchRequest[]; connections: number }> = {
  get: { requests: getRequests(warehouseBarcodes, 1), connections: 32 },
  get1: { requests: getRequests(warehouseBarcodes, 1), connections: 1 },
  post: { requests: postRequests(warehouseBarcodes, 2), connections: 32 },
  mix: { requests: mixedRequests(warehouseBarcodes, 3), connections: 32 },
};
const phases = values.phases.split(',');
for (const phase of phases) if (!workloads[phase]) throw new Error(`unknown phase ${phase}: use ${Object.keys(workloads).join(', ')}`);

/** Resident memory in MB from /proc: the totals, and the anonymous part by kind of mapping. */
function residentMemory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)![1]) / 1024;
  // By mapping, a heuristic that holds for Node on Linux: V8 allocates its heap in pages of 256 KB
  // (anonymous mappings up to 1 MB); `[heap]` is the main thread's malloc arena (SQLite, Buffers'
  // backing stores, V8's compiler zones); the other anonymous mappings are mostly other threads'
  // malloc arenas and V8's reservations.
  const split = { v8Pages: 0, mainMalloc: 0, otherAnonymous: 0 };
  let size = 0;
  let kind: keyof typeof split | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1]!;
      kind = name === '[heap]' ? 'mainMalloc' : name === '' ? 'otherAnonymous' : undefined;
      continue;
    }
    const sizeKb = /^Size:\s+(\d+)/.exec(line);
    if (sizeKb) size = Number(sizeKb[1]);
    const rssKb = /^Rss:\s+(\d+)/.exec(line);
    if (rssKb && kind) split[kind === 'otherAnonymous' && size <= 1024 ? 'v8Pages' : kind] += Number(rssKb[1]) / 1024;
  }
  return { rss: field('VmRSS'), peak: field('VmHWM'), anonymous: field('RssAnon'), file: field('RssFile'), ...split };
}

/** The server's inspector (--inspect), for process.memoryUsage() and the sampling heap profiler. */
class Inspector {
  private socket: WebSocket | undefined;
  private nextId = 0;
  private readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  async call<T>(method: string, params: object = {}): Promise<T> {
    if (!this.socket) {
      this.socket = new WebSocket(this.url);
      await new Promise((resolve) => this.socket!.addEventListener('open', resolve, { once: true }));
    }
    const id = ++this.nextId;
    const socket = this.socket;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => {
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: T; error?: { message: string } };
        if (message.id !== id) return;
        socket.removeEventListener('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result!);
      };
      socket.addEventListener('message', onMessage);
    });
  }
  async heap(): Promise<Record<string, number>> {
    const { result } = await this.call<{ result: { value: string } }>('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(result.value) as Record<string, number>;
    return { heapTotal: usage.heapTotal! / 1048576, heapUsed: usage.heapUsed! / 1048576, external: usage.external! / 1048576 };
  }
  close(): void {
    this.socket?.close();
  }
}

type ProfileNode = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] };

/** Bytes allocated by function (self), largest first, with the total. */
function allocationsByFunction(head: ProfileNode): { totalMb: number; top: { share: number; frame: string }[] } {
  const byFrame = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode) => {
    const file = node.callFrame.url
      .replace(/^file:\/\/\//, '/')
      .replace(/^.*\/node_modules\//, '')
      .replace(`${path.resolve(import.meta.dirname, '..')}/`, '');
    const frame = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(head);
  const top = [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([frame, bytes]) => ({ share: bytes / total, frame }));
  return { totalMb: total / 1048576, top };
}

const generator = chooseLoadGenerator({ install: false, log: (text) => console.log(text) });
const token = (await runNode([CLI, 'token', 'create', '--account', WAREHOUSE_ACCOUNT, '--label', 'memory-phases', '--db', dbFile])).stdout
  .trim()
  .split('\n')
  .pop()!;
const nodeFlags = [...(values['node-flags']?.split(' ').filter(Boolean) ?? []), ...(inspect ? ['--inspect=127.0.0.1:0'] : [])];
const server = startNode(
  [...nodeFlags, CLI, 'serve', '--db', dbFile, '--port', '0'],
  path.join(path.dirname(dbFile), 'memory-phases-server.log'),
);
let inspector: Inspector | undefined;
const results: Record<string, unknown>[] = [];
const fixed = (figures: Record<string, number>) =>
  Object.entries(figures)
    .map(([name, mb]) => `${name} ${mb.toFixed(0)}`)
    .join(', ');
try {
  const url = await waitForUrl(server);
  if (inspect) {
    // The launcher restarts the process with its flags: the inspector that listens is the last one announced.
    const announced = [...server.stderr().matchAll(/Debugger listening on (ws:\/\/\S+)/g)].pop();
    if (!announced) throw new Error(`the server announced no inspector:\n${server.stderr()}`);
    inspector = new Inspector(announced[1]!);
  }
  const report = async (phase: string, load?: { perSecond: number; p50Ms: number; p99Ms: number }) => {
    const memory = { ...residentMemory(server.pid), ...(inspector ? await inspector.heap() : {}) };
    const rate = load ? `${Math.round(load.perSecond)} req/s, p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms; ` : '';
    console.log(`${phase.padEnd(5)} ${rate}MB: ${fixed(memory)}`);
    results.push({ phase, perSecond: load?.perSecond, p50Ms: load?.p50Ms, p99Ms: load?.p99Ms, ...memory });
  };
  await report('idle');
  if (values.allocations) {
    await inspector!.call('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  let requests = 0;
  for (const phase of phases) {
    const measured = await runLoad(generator, {
      url,
      token,
      requests: workloads[phase]!.requests,
      connections: workloads[phase]!.connections,
      seconds,
    });
    if (measured.non2xx > 0 || measured.errors > 0)
      throw new Error(`${phase}: ${measured.non2xx} non-2xx answers, ${measured.errors} errors`);
    requests += measured.requests;
    await report(phase, measured);
  }
  if (values.allocations) {
    const { profile } = await inspector!.call<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
    const allocated = allocationsByFunction(profile.head);
    console.log(
      `allocated ${allocated.totalMb.toFixed(0)} MB over ${requests} requests (${((allocated.totalMb * 1024) / requests).toFixed(0)} KB each; the profiler slows the server):`,
    );
    for (const { share, frame } of allocated.top) console.log(`  ${(share * 100).toFixed(1).padStart(5)}% ${frame}`);
    results.push({ phase: 'allocations', totalMb: allocated.totalMb, requests, top: allocated.top });
  }
} finally {
  inspector?.close();
  await stopChild(server);
}
console.log(JSON.stringify({ phases: results }));
