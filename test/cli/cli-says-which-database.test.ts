// The command line says which database it read, and leaves none it made for nothing (issue 29, item
// 8): `serve` prints the sign-in command with this database and this server's address (pasted, the
// bare command read another database and answered "No account named north"); that answer names the
// database it looked in; and a `sync link` that fails removes the empty database file it created.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launch } from '../../server/launch/launch.ts';
import { runCli } from '../support/cli.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

const temp = tempDir('bi-which-db-');
afterAll(temp.remove);

describe('the command line and the database it reads', () => {
  it('serve prints a sign-in command that names its database and its address', async () => {
    const file = path.join(temp.dir, 'shop.db');
    await seedDatabase(file, {
      accounts: [
        { name: 'north', warehouses_enabled: false, items: [] },
        { name: 'south', warehouses_enabled: false, items: [] },
      ],
    });
    const launched = await launch({ database: file, demo: false, port: 0, ui: temp.dir, signInLinks: 1, sync: false });
    try {
      const line = launched.describe().find((l) => l.includes('signin-link'));
      expect(line).toBe(
        `Sign in as another account: npx barcode-inventory signin-link --account <name> [--role counter|manager|admin] --database ${file} --url ${launched.server.url}`,
      );
      // Pasted as printed (with an account for <name>), it makes a link of this server for this database.
      const pasted = await runCli(['signin-link', '--account', 'south', '--database', file, '--url', launched.server.url]);
      expect([pasted.code, pasted.stdout]).toEqual([0, expect.stringContaining(`${launched.server.url}/#signin=`)]);
    } finally {
      await launched.close();
    }
  });

  it('says which database has no such account', async () => {
    const file = path.join(temp.dir, 'other.db');
    await seedDatabase(file, { accounts: [{ name: 'south', warehouses_enabled: false, items: [] }] });
    const result = await runCli(['signin-link', '--account', 'north', '--db', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No account named "north"`);
    expect(result.stderr).toContain(`(database: ${file}; another one is named with --db or --database)`);
  });

  it('a sync link that fails leaves no empty database behind', async () => {
    const file = path.join(temp.dir, 'follower-till.db');
    const result = await runCli([
      'sync',
      'link',
      '--db',
      file,
      '--upstream',
      'http://127.0.0.1:9',
      '--account',
      'north',
      '--token',
      'bi_x',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot be reached/);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
