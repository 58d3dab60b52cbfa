// `npm start`'s launcher where Electron cannot run (no display here): one clear line, then the same
// UI served headless with working one-time sign-in links, on the demo data while the database is empty.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, SIGNIN_PATH } from '../../shared/index.ts';
import { SERVER_NODE_FLAGS } from '../../server/launch/node-flags.ts';
import { tempDir } from '../support/test-server.ts';
import { ROOT } from '../support/paths.ts';

const root = ROOT;

describe('npm start launcher without a display', () => {
  const temp = tempDir('bi-launch-');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    temp.remove();
  });

  it('says in one line that Electron cannot run, serves the UI and prints sign-in links; stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BARCODE_INVENTORY_DB: path.join(temp.dir, 'inventory.db') };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    delete env.MALLOC_ARENA_MAX;
    child = spawn(process.execPath, [path.join(root, 'scripts/start.ts'), '--port', '0'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`launcher printed only:\n${lines.join('\n')}`)), 20_000);
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('Stop with Ctrl-C')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await done;

    // docs/UI.md shows this output: the same lines, with its own address, folder and codes.
    const ui = readFileSync(path.join(root, 'docs/UI.md'), 'utf8');
    const sample = /address plus one-time sign-in links:\n\n {2}```\n([\s\S]*?)\n {2}```/
      .exec(ui)![1]!
      .split('\n')
      .map((l) => l.trim());
    const pattern = (line: string) =>
      new RegExp(
        `^${line
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replaceAll('127\\.0\\.0\\.1:8270', '127\\.0\\.0\\.1:\\d+')
          .replaceAll('~/\\.local/share/barcode-inventory/', '/\\S+/')
          .replaceAll('#signin=…', '#signin=\\S+')}$`,
      );
    expect(lines).toEqual(sample.map((line) => expect.stringMatching(pattern(line))));

    const notices = lines.filter((l) => l.includes('Electron'));
    expect(notices).toEqual([
      expect.stringMatching(
        /^Electron cannot run here \(no display: DISPLAY is not set\): serving the scanner UI headless at http:\/\/127\.0\.0\.1:\d+\/ instead\.$/,
      ),
    ]);
    const url = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(notices[0]!)![1]!;
    // It serves the demo database beside the empty real one, and says so.
    const demoFile = path.join(temp.dir, 'demo.db');
    expect(lines.some((l) => l.startsWith('barcode-inventory is serving ') && l.endsWith(`(database: ${demoFile})`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`Demo data: your database ${path.join(temp.dir, 'inventory.db')} has no account yet`))).toBe(
      true,
    );

    // The headless server runs with the server's memory flags and environment, in the process that was started.
    if (process.platform === 'linux') {
      expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
      expect(readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
    }

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const links = lines.filter((l) => l.startsWith('Sign in as '));
    expect(links.map((l) => /^Sign in as ([\w-]+)/.exec(l)![1])).toEqual(['demo-shop', 'demo-kiosk']);
    const code = decodeURIComponent(/#signin=([\w-]+)$/.exec(links[1]!)![1]!);
    const signIn = await fetch(`${url}${SIGNIN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const read = await fetch(`${url}${INVENTORY_PATH}?barcodes=0000000000017`, { headers: { authorization: `Token ${token}` } });
    expect(await read.json()).toEqual({
      results: [{ item: 90101, liquid_stock: null, barcode: '0000000000017', quantity: 140 }],
      errors: [],
    });

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
