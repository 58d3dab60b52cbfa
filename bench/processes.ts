// Child processes of the bench: the real server (and the HTTP ceiling server) run apart from the
// load generator, as they would in production; memory is read from /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI = path.join(ROOT, 'bin', 'barcode-inventory.js');

export interface Child {
  process: ChildProcess;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `node <args>` with this bench's Node (the project's Node 24). With `logFile`, stderr (a
 * server's request log) goes to that file, as it would in production, rather than through a pipe
 * into this busy process, which would hold the server back or make it buffer its log in memory.
 */
export function startNode(args: string[], logFile?: string, env?: Record<string, string>): Child {
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'a');
  // BENCH_CPU_PROF=DIR: every child writes a V8 CPU profile there (NODE_OPTIONS refuses --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', logFd ?? 'pipe'],
    env: { ...process.env, ...env },
  });
  if (logFd !== undefined) closeSync(logFd);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    if (err.length > 1 << 16) err = err.slice(-(1 << 15));
  });
  const tail = () => {
    if (logFile === undefined) return err;
    const text = readFileSync(logFile, 'utf8');
    return text.slice(-(1 << 15));
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, pid: child.pid!, stdout: () => out, stderr: tail, exited };
}

/** Runs `node <args>` to the end; throws with its output when it fails. */
export async function runNode(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const child = startNode(args);
  const code = await child.exited;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${child.stdout()}\n${child.stderr()}`);
  return { stdout: child.stdout(), stderr: child.stderr() };
}

/** Waits for the first `http://…` URL the child prints on stdout. */
export async function waitForUrl(child: Child, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const match = /(http:\/\/[^\s/]+)/.exec(child.stdout());
    if (match) return match[1]!;
    if (child.process.exitCode !== null) throw new Error(`process exited before listening:\n${child.stdout()}\n${child.stderr()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no URL after ${timeoutMs} ms:\n${child.stdout()}\n${child.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Stops a child with SIGTERM (SIGKILL after 15 s) and waits for it. */
export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
  await child.exited;
  clearTimeout(timer);
}

/** The Node options a live process runs with (after the launcher's restart with its flags), from /proc. */
/** What `pid` has of the environment variables the launcher may add (server/launch/node-flags.ts), as `NAME=value`. */
export function launcherEnvOf(pid: number, names: readonly string[] = ['MALLOC_ARENA_MAX']): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => names.includes(entry.split('=')[0]!));
  } catch {
    return [];
  }
}

export function execArgvOf(pid: number): string[] {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1);
    return args.slice(
      0,
      Math.max(
        0,
        args.findIndex((arg) => !arg.startsWith('-')),
      ),
    );
  } catch {
    return [];
  }
}

/** Peak and current resident memory of a live process, in kB (Linux /proc). */
export function memoryOf(pid: number): { peakKb: number; currentKb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { peakKb: field('VmHWM'), currentKb: field('VmRSS') };
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux everywhere it matters). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU time of a live process in ms (user + system), and with `children` also that of its children it
 * has waited for (what a PostgreSQL postmaster's ended backends used). Undefined once it is gone.
 */
export function cpuMsOf(pid: number, { children = false } = {}): number | undefined {
  const fields = statFields(pid);
  if (!fields) return undefined;
  // After the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The parent process id of a live process, from /proc. */
export function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

/**
 * CPU time in ms of a whole PostgreSQL server: the postmaster, every live child (backends, the WAL
 * writer, the checkpointer, autovacuum) and the children that have ended (the postmaster waits for each).
 */
export function postgresCpuMs(postmaster: number): number {
  let total = cpuMsOf(postmaster, { children: true }) ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (parentOf(pid) === postmaster) total += cpuMsOf(pid) ?? 0;
  }
  return total;
}
