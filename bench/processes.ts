// Child processes of the bench: the real server (and the HTTP ceiling server) run apart from the
// load generator, as they would in production; memory is read from /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
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
