// Instances for the sync simulations (convergence, adversarial): the real `barcode-inventory serve` in
// a child process on its own database, with its own environment (a skewed clock, a short sync
// interval), that the test can SIGKILL at any moment and start again on the same database; the real
// CLI for everything the simulation sets up or runs by hand (import, tokens, `sync link`, `sync now`);
// and a small HTTP client for the instances' APIs.
//
// Engines: in the `sqlite` project every instance is a SQLite file. In the `postgres` project head
// office (the instance that follows nobody) is a database of its own on the test cluster and every
// follower a SQLite file, as a chain runs: head office on PostgreSQL, shop PCs and laptops on SQLite
// (docs/SYNC.md, "The convergence simulation").
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { cliEntry, nodeBinary } from './child-server.ts';
import { dropDatabase, newDatabase, onPostgres } from './test-engine.ts';

/** The database of a simulated instance: head office's on the test engine, every follower's a SQLite file in `dir`. */
export async function simDatabase(dir: string, name: string, headOffice: boolean): Promise<string> {
  return headOffice && onPostgres() ? newDatabase(dir) : path.join(dir, `${name}.db`);
}

/** Drops what simDatabase made on the test cluster (SQLite files go with their folder). */
export const dropSimDatabase = (location: string): Promise<void> => dropDatabase(location);

/** What a run's engines are, for its figures. */
export const simEngines = (): string => (onPostgres() ? 'head office on PostgreSQL, followers on SQLite' : 'every instance on SQLite');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `barcode-inventory <args>` on the project's Node 24 and waits for it. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(nodeBinary, [cliEntry, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Like cli, but throws with the output unless it exits 0. */
export async function cliOk(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await cli(args, env);
  if (result.code !== 0) throw new Error(`barcode-inventory ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

export class SimInstance {
  readonly name: string;
  readonly dbFile: string;
  readonly env: NodeJS.ProcessEnv;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  url: string | undefined;
  port: number | undefined;
  /** Its output, the last 64 KB of every run, for a failure's message. */
  private log = '';

  constructor(name: string, dbFile: string, env: NodeJS.ProcessEnv) {
    this.name = name;
    this.dbFile = dbFile;
    this.env = env;
  }

  get alive(): boolean {
    return this.child !== undefined;
  }

  output(): string {
    return this.log.slice(-65_536);
  }

  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is already running`);
    const child = spawn(nodeBinary, [cliEntry, 'serve', '--database', this.dbFile, '--port', '0', '--log-level', 'warn'], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const append = (chunk: string) => {
      this.log += chunk;
      if (this.log.length > 1 << 17) this.log = this.log.slice(-65_536);
    };
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', append);
    this.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = this.log.length;
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: string) => {
        append(chunk);
        const match = /serving (http:\/\/[^/\s]+)\/api\/v1\//.exec(this.log.slice(Math.max(0, started - 1)));
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code, signal) => reject(new Error(`${this.name} exited while starting (${code ?? signal}):\n${this.output()}`)));
    });
    this.url = url;
    this.port = Number(new URL(url).port);
  }

  /** SIGKILL: no shutdown code runs, as in a crash or a power cut of the process. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await this.exited;
    this.child = undefined;
    this.url = undefined;
    this.port = undefined;
  }
}

export interface Answer<T> {
  status: number;
  body: T;
}

/** One API call; a network failure throws. */
export async function api<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(base + path, {
    method,
    headers: {
      Authorization: `Token ${token}`,
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    signal: AbortSignal.timeout(30_000),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Like api, but throws unless the answer has the expected status. */
export async function apiOk<T>(base: string, token: string, method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const answer = await api<T>(base, token, method, path, body);
  if (answer.status !== status)
    throw new Error(`${method} ${path} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
