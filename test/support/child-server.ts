// The real `barcode-inventory serve` in a child process (Node 24 from node_modules/.bin), so a test
// can SIGKILL it like a power cut of the process, and restart it on the same database (file or PostgreSQL URL).
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, databaseLocation, dropDatabase } from './test-engine.ts';
import { tempDir } from './test-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const nodeBinary = path.join(root, 'node_modules/.bin/node');
export const cliEntry = path.join(root, 'bin/barcode-inventory.js');

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Resolves when the process has exited (after kill or on its own). */
  exited: Promise<void>;
  output(): string;
}

export async function startChildServer(dbFile: string, extraArgs: string[] = []): Promise<ChildServer> {
  const child = spawn(nodeBinary, [cliEntry, 'serve', '--database', dbFile, '--port', '0', '--log-level', 'warn', ...extraArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const match = /serving (http:\/\/[^/\s]+)\/api\/v1\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited early (${code ?? signal}):\n${output}`)));
  });
  return { url, process: child, exited, output: () => output };
}

/** SIGKILL: no shutdown code runs, exactly like a crash. */
export async function killHard(server: ChildServer): Promise<void> {
  server.process.kill('SIGKILL');
  await server.exited;
}

/** Call inside a describe: a temporary directory with `dbFile`, and `start()` for child servers on it.
 * After the suite every server started is killed (a no-op for those the test already killed) and the
 * directory removed, so a failing test leaves no process or file behind. */
export function childServerScope(prefix: string): { dir: string; dbFile: string; start(): Promise<ChildServer> } {
  const { dir, remove } = tempDir(prefix);
  // A SQLite file in `dir`, or a postgres:// URL of a database of its own (test/support/test-engine.ts).
  const dbFile = databaseLocation(dir);
  const started: ChildServer[] = [];
  beforeAll(() => createDatabase(dbFile));
  afterAll(async () => {
    await Promise.all(started.map(killHard));
    await dropDatabase(dbFile);
    remove();
  });
  return {
    dir,
    dbFile,
    start: async () => {
      const server = await startChildServer(dbFile);
      started.push(server);
      return server;
    },
  };
}
