// Drives a server over keep-alive loopback connections, cycling through a pool of prepared requests,
// and checks that every answer was a 2xx. The load generator always runs in its own process, never
// in the bench's: `wrk` (C, epoll) where it is installed; otherwise autocannon in a child Node
// process (bench/node-load.ts), which tops out near 16-17k req/s for a 15 KB answer on two cores
// and is then the bottleneck of any ceiling it measures (the report says which one ran).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchRequest } from './workloads.ts';

export interface LoadResult {
  connections: number;
  perSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadGenerator {
  kind: 'wrk' | 'autocannon';
  /** e.g. `wrk debian/4.1.0-3+b2, 2 threads`, for the report. */
  description: string;
  /** What happened when looking for wrk (installed, found, why not), for the report and the log. */
  note: string;
}

const BENCH = import.meta.dirname;
/** wrk threads at 32 connections: one per core of these 2-core machines (measured: bench/NOTES.md). */
const WRK_THREADS = 2;

function wrkVersion(): string | undefined {
  const run = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (run.error) return undefined;
  return /^wrk (\S+)/m.exec(`${run.stdout}${run.stderr}`)?.[1] ?? 'unknown version';
}

/**
 * Finds wrk; when it is missing and this runs as root on a Debian-like system, installs it with
 * apt-get (the Debian package `wrk`). Otherwise falls back to autocannon in a child process and
 * says how to get wrk.
 */
export function chooseLoadGenerator(options: { install: boolean; log: (text: string) => void }): LoadGenerator {
  let version = wrkVersion();
  let note = 'wrk found on PATH';
  if (
    !version &&
    options.install &&
    process.platform === 'linux' &&
    process.getuid?.() === 0 &&
    spawnSync('apt-get', ['--version']).status === 0
  ) {
    options.log('wrk is not installed: apt-get install -y wrk');
    let install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'ignore' });
    if (install.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'ignore' });
      install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'ignore' });
    }
    version = wrkVersion();
    note = version ? 'wrk installed by the bench (apt-get install wrk)' : `apt-get install wrk failed (exit ${install.status})`;
  } else if (!version) {
    note =
      'wrk is not installed (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk) and the bench did not install it (not root, no apt-get, or --no-install-wrk)';
  }
  if (version) return { kind: 'wrk', description: `wrk ${version}, ${WRK_THREADS} threads at 32 connections, 1 at 1`, note };
  options.log(`${note}: falling back to autocannon in a child process, which caps every ceiling near 16-17k req/s`);
  return {
    kind: 'autocannon',
    description: 'autocannon 9 in a child Node process (wrk missing: ceilings above ~16k req/s are the load generator’s, not the server’s)',
    note,
  };
}

export interface LoadOptions {
  url: string;
  token?: string;
  requests: BenchRequest[];
  connections: number;
  seconds: number;
}

let poolDir: string | undefined;
process.once('exit', () => {
  if (poolDir) rmSync(poolDir, { recursive: true, force: true });
});

/** Writes the request pool as one request per line: METHOD, path and body separated by tabs. */
function poolFile(requests: BenchRequest[]): string {
  poolDir ??= mkdtempSync(path.join(tmpdir(), 'bi-load-'));
  const file = path.join(poolDir, 'requests.tsv');
  const lines = requests.map((r) => {
    if (/[\t\n]/.test(r.path + (r.body ?? ''))) throw new Error('a bench request may not contain tabs or newlines');
    return `${r.method}\t${r.path}\t${r.body ?? ''}`;
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function runProcess(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const threads = Math.min(WRK_THREADS, options.connections);
  const args = [
    `-t${threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    path.join(BENCH, 'wrk-requests.lua'),
    options.url,
    '--',
    poolFile(options.requests),
    String(threads),
    options.token ?? '',
  ];
  const { code, stdout, stderr } = await runProcess('wrk', args);
  const line = /^WRK (.*)$/m.exec(stdout)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`);
  const r = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    statusErrors: number;
    socketErrors: number;
    p50Us: number;
    p99Us: number;
  };
  if (r.statusErrors + r.socketErrors > 0) {
    throw new Error(
      `${r.statusErrors + r.socketErrors} of ${r.requests} requests failed (status ≥ 400: ${r.statusErrors}, socket errors: ${r.socketErrors})\n${stdout}`,
    );
  }
  return {
    connections: options.connections,
    perSecond: r.requests / (r.durationUs / 1e6),
    requests: r.requests,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    non2xx: 0,
    errors: 0,
  };
}

async function runNodeLoad(options: LoadOptions): Promise<LoadResult> {
  const file = path.join((poolDir ??= mkdtempSync(path.join(tmpdir(), 'bi-load-'))), 'options.json');
  writeFileSync(file, JSON.stringify(options));
  const { code, stdout, stderr } = await runProcess(process.execPath, [path.join(BENCH, 'node-load.ts'), file]);
  const line = /^LOAD (.*)$/m.exec(stdout)?.[1];
  if (code !== 0 || !line) throw new Error(`node-load.ts exited with ${code}:\n${stdout}\n${stderr}`);
  return JSON.parse(line) as LoadResult;
}

/** One load run with the chosen generator, in its own process. */
export function runLoad(generator: LoadGenerator, options: LoadOptions): Promise<LoadResult> {
  return generator.kind === 'wrk' ? runWrk(options) : runNodeLoad(options);
}
