// What a server on SQLite keeps out of its memory (issue 30, peak RSS): the PostgreSQL driver and
// the label renderers (pdfkit, bwip-js) load when they are first needed, not with the program. The
// real `serve`, started as users start it (it restarts itself in place with its memory flags), on a
// SQLite file; the packages it resolved are recorded by a preloaded resolve hook.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { cliEntry, nodeBinary } from '../support/child-server.ts';
import { tempDir } from '../support/test-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const hook = path.join(root, 'test/support/record-packages.mjs');

describe('packages a server on SQLite loads', () => {
  const { dir, remove } = tempDir('lazy-packages');
  afterAll(remove);

  it('answers without loading pg, pdfkit or bwip-js', async () => {
    const listFile = path.join(dir, 'packages.json');
    const child = spawn(nodeBinary, [cliEntry, 'serve', '--database', path.join(dir, 'shop.db'), '--port', '0', '--log-level', 'warn'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: `--import=${hook}`, LOADED_PACKAGES_FILE: listFile },
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          const match = /serving (http:\/\/[^/\s]+)\/api\/v1\//.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)));
      });
      expect((await fetch(`${url}${INVENTORY_PATH}?barcodes=1`)).status).toBe(401); // a real request went through
      child.kill('SIGUSR2');
      await expect.poll(() => existsSync(listFile)).toBe(true);
      const packages = JSON.parse(readFileSync(listFile, 'utf8')) as string[];
      expect(packages).toContain('better-sqlite3'); // the hook saw the server's own packages
      expect(packages).toContain('koa');
      expect(packages).not.toContain('pg');
      expect(packages).not.toContain('pdfkit');
      expect(packages).not.toContain('bwip-js');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});
