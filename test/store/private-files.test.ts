// The database, its WAL and SHM files, backups, restored files and the folders made for them are
// private to the user (files 0600, folders 0700) whatever the umask: the work runs in a child
// process whose umask is 000, the most permissive a user could have set.
import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-server.ts';
import { ROOT } from '../support/paths.ts';

const root = ROOT;
const moduleUrl = (file: string) => pathToFileURL(path.join(root, file)).href;

/** Runs `code` (an ES module body) in a child Node with umask 000; resolves with its stdout. */
function withUmaskZero(code: string): Promise<string> {
  const script = `process.umask(0);\n${code}`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8).padStart(3, '0');

describe('private files', () => {
  const { dir, remove } = tempDir();
  afterAll(remove);
  const data = path.join(dir, 'new', 'data');
  const db = path.join(data, 'inventory.db');

  it('creates the database, its WAL and SHM files and the data folder private (umask 000)', async () => {
    const out = await withUmaskZero(`
      const { statSync } = await import('node:fs');
      const { openStore } = await import(${JSON.stringify(moduleUrl('server/store/open-store.ts'))});
      const store = await openStore(${JSON.stringify(db)});
      const mode = (f) => (statSync(f).mode & 0o777).toString(8).padStart(3, '0');
      // While it is open: the WAL and SHM files exist beside the database.
      console.log(JSON.stringify({ db: mode(${JSON.stringify(db)}), wal: mode(${JSON.stringify(`${db}-wal`)}), shm: mode(${JSON.stringify(`${db}-shm`)}) }));
      await store.close();
    `);
    expect(JSON.parse(out)).toEqual({ db: '600', wal: '600', shm: '600' });
    expect(modeOf(data)).toBe('700');
    expect(modeOf(path.dirname(data))).toBe('700');
  });

  it('writes backups and restored files private, in private new folders (umask 000)', async () => {
    const backup = path.join(dir, 'usb', 'backups', 'copy.db');
    const restored = path.join(dir, 'elsewhere', 'restored.db');
    await withUmaskZero(`
      const { backupDatabase, restoreDatabase } = await import(${JSON.stringify(moduleUrl('server/store/sqlite/backup.ts'))});
      await backupDatabase(${JSON.stringify(db)}, ${JSON.stringify(backup)});
      await restoreDatabase(${JSON.stringify(backup)}, ${JSON.stringify(restored)});
      await restoreDatabase(${JSON.stringify(backup)}, ${JSON.stringify(db)});
    `);
    expect(modeOf(backup)).toBe('600');
    expect(modeOf(path.dirname(backup))).toBe('700');
    expect(modeOf(path.join(dir, 'usb'))).toBe('700');
    expect(modeOf(restored)).toBe('600');
    expect(modeOf(path.dirname(restored))).toBe('700');
    const saved = (await import('node:fs')).readdirSync(data).filter((f) => f.includes('before-restore'));
    expect(saved.filter((f) => f.endsWith('.db'))).toHaveLength(1);
    for (const file of saved) expect(modeOf(path.join(data, file)), file).toBe('600');
  });

  it('takes group and other access away from a database made world-readable before', async () => {
    const old = path.join(dir, 'old');
    mkdirSync(old);
    const file = path.join(old, 'inventory.db');
    await withUmaskZero(`
      const { openStore } = await import(${JSON.stringify(moduleUrl('server/store/open-store.ts'))});
      await (await openStore(${JSON.stringify(file)})).close();
      (await import('node:fs')).chmodSync(${JSON.stringify(file)}, 0o644);
      await (await openStore(${JSON.stringify(file)})).close();
    `);
    expect(modeOf(file)).toBe('600');
  });
  it('writes CSV exports and counts private (umask 000)', async () => {
    const csvDb = path.join(dir, 'csv.db');
    const exported = path.join(dir, 'stock.csv');
    const cli = path.join(root, 'bin', 'barcode-inventory.js');
    const catalogue = path.join(root, 'examples', 'catalogue.json');
    await withUmaskZero(`
      const { execFileSync } = await import('node:child_process');
      execFileSync(process.execPath, [${JSON.stringify(cli)}, 'import', ${JSON.stringify(catalogue)}, '--db', ${JSON.stringify(csvDb)}]);
      execFileSync(process.execPath, [${JSON.stringify(cli)}, 'csv', 'export', '--account', 'north', '--out', ${JSON.stringify(exported)}, '--db', ${JSON.stringify(csvDb)}]);
    `);
    expect(modeOf(exported)).toBe('600');
  });
});
