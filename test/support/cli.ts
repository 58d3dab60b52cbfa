// Runs the real `barcode-inventory` command in a child process, on the same Node as the tests.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const cliPath = path.resolve(import.meta.dirname, '../../bin/barcode-inventory.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `input`: what the command reads on standard input (none: standard input is closed at once). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** Starts `serve` and resolves once it prints its URL. */
export function startCliServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--log-level', 'silent', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving (https?:\/\/\S+?)\/api\/v1\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}
