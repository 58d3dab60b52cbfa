// vitest globalSetup: the end-to-end tests drive the built UI (out/renderer) and the built desktop
// shell (out/main, test/launch/electron-shell.test.ts), so build them when they are missing or older than
// their sources. CI builds first anyway; this makes a bare `npm test` correct too.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const builtIndex = path.join(root, 'out/renderer/index.html');
const sources = ['renderer', 'shared', 'main', 'server', 'examples', 'electron.vite.config.ts', 'package-lock.json'].map((p) =>
  path.join(root, p),
);

function newestMtime(file: string): number {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(file).map((name) => newestMtime(path.join(file, name))));
}

export default function setup(): void {
  const built = statSync(builtIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= Math.max(...sources.map(newestMtime))) return;
  const cli = path.join(root, 'node_modules/electron-vite/bin/electron-vite.js');
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stdout}\n${result.stderr}`);
}
