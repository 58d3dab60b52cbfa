// The command on a Node that cannot run its TypeScript sources (Node 20, or type stripping turned
// off) says in one line which Node it needs and that `npx barcode-inventory` brings one, instead of
// crashing with ERR_UNKNOWN_FILE_EXTENSION.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.ts';

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('barcode-inventory on a Node without type stripping', () => {
  it('prints one line naming the Node it needs and npx, and exits 1', async () => {
    // --no-experimental-strip-types makes this Node 24 behave as Node 20 does with the .ts sources.
    const result = await run(['--no-experimental-strip-types', cliPath, '--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|at .*\(/);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/needs Node\.js 22\.18 or newer/);
    expect(lines[0]).toContain(process.version);
    expect(lines[0]).toContain('npx barcode-inventory');
  });

  it('runs as before where the sources can be loaded', async () => {
    const result = await run([cliPath, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: barcode-inventory/);
  });
});
