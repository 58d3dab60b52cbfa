// Installing needs no compiler and no download of Node's headers: every dependency with an install
// step is either allowed or denied by name in package.json's `allowScripts`, and better-sqlite3's
// implicit `node-gyp rebuild` is denied because its npm tarball ships the prebuilt binary it loads.
// (The whole check — a fresh clone, an empty HOME, `npm ci && npm test` — is in docs/SECURITY.md.)
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.ts';

const root = ROOT;
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const nameOf = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Installed packages npm would build with an implicit `node-gyp rebuild` (a binding.gyp and no install script of their own). */
function implicitGypBuilds(): string[] {
  const found: string[] = [];
  for (const lockPath of Object.keys(lock.packages)) {
    if (!lockPath.startsWith('node_modules/')) continue;
    const dir = path.join(root, lockPath);
    if (!existsSync(path.join(dir, 'binding.gyp'))) continue;
    const scripts =
      (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
    if (!scripts.install && !scripts.preinstall) found.push(nameOf(lockPath));
  }
  return found;
}

describe('install scripts', () => {
  it('names every dependency with an install step in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([lockPath, entry]) => lockPath.startsWith('node_modules/') && entry.hasInstallScript)
      .map(([lockPath]) => nameOf(lockPath));
    const policy = packageJson.allowScripts ?? {};
    for (const name of [...withScripts, ...implicitGypBuilds()])
      expect(Object.hasOwn(policy, name), `${name} is not in allowScripts`).toBe(true);
  });

  it("denies better-sqlite3's node-gyp rebuild, and loads the binary its tarball ships", () => {
    expect(implicitGypBuilds()).toContain('better-sqlite3');
    expect(packageJson.allowScripts?.['better-sqlite3']).toBe(false);
    const require = createRequire(import.meta.url);
    const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));
    const binding = require(path.join(packageDir, 'lib/binding.js')) as { getPrebuildPath(): string | null };
    const prebuilt = binding.getPrebuildPath();
    expect(prebuilt, `no prebuilt better-sqlite3 for ${process.platform}-${process.arch}`).not.toBeNull();
    // Nothing was compiled on install: the default locations hold no binary, so the prebuilt one is loaded.
    const compiled = ['Release', 'Debug'].map((kind) => path.join(packageDir, 'build', kind, 'better_sqlite3.node'));
    expect(compiled.filter((file) => existsSync(file))).toEqual([]);
    expect(readdirSync(path.dirname(prebuilt!))).toContain(path.basename(prebuilt!));
  });
});
