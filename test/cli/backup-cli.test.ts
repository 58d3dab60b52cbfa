// `barcode-inventory backup`, `restore` and `check` as a user runs them (the real CLI in a child
// process): a backup taken while the server is writing is a consistent database, restore brings it
// back and keeps the replaced file, and check finds a damaged file.
import { execFile } from 'node:child_process';
import { existsSync, openSync, readdirSync, writeSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { childServerScope, cliEntry, killHard, nodeBinary } from '../support/child-server.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seedDatabase } from '../support/test-server.ts';

const run = promisify(execFile);
const cli = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await run(nodeBinary, [cliEntry, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const BARCODES = barcodes('K', 20);

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe('backup, restore, check', { timeout: 120_000 }, () => {
  const { dir, dbFile, start } = childServerScope('bi-backup-');

  it('backs up while the server writes, restores, and checks', async () => {
    const tokens = await seedDatabase(
      dbFile,
      generatedCatalogue([{ name: 'shop', warehouses: ['Main'], barcodes: BARCODES, quantity: 5 }]),
    );
    const server = await start();
    const url = server.url;
    let writes = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const response = await fetch(`${url}${INVENTORY_PATH}`, {
          method: 'POST',
          headers: { authorization: `Token ${tokens.shop}`, 'content-type': 'application/json' },
          body: JSON.stringify(BARCODES.map((barcode) => ({ barcode, warehouse_name: 'Main', quantity: 100 + writes }))),
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        writes++;
      }
    })();
    while (writes < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    const backupFile = path.join(dir, 'copies', 'monday.db');
    const backup = await cli('backup', '--db', dbFile, backupFile);
    const writesAtBackup = writes;
    while (writes < writesAtBackup + 5) await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await writer;
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`${backupFile}: ok (integrity_check ok, foreign keys ok, history agrees with stock`);

    // The copy is one moment of the database: every barcode holds the quantity of the same write.
    const copy = probeDatabase(backupFile);
    const copied = await copy.all<{ quantity: number }>('SELECT DISTINCT quantity FROM stock');
    await copy.close();
    expect(copied).toHaveLength(1);
    const snapshotQuantity = copied[0]!.quantity;

    // A second backup to the same name is refused; nothing is overwritten.
    const again = await cli('backup', '--db', dbFile, backupFile);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    // Restore while the server runs: the server sees the restored figures, the replaced file is kept.
    const restore = await cli('restore', '--db', dbFile, backupFile);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/Saved the current database as .*before-restore/);
    const read = await fetch(`${url}${INVENTORY_PATH}?barcodes=${BARCODES[0]}`, { headers: { authorization: `Token ${tokens.shop}` } });
    expect((await read.json()).results[0].quantity).toBe(snapshotQuantity);
    await killHard(server);
    const saved = readdirSync(dir).find((f) => f.includes('before-restore'))!;
    const savedDb = probeDatabase(path.join(dir, saved));
    expect((await savedDb.all<{ quantity: number }>('SELECT DISTINCT quantity FROM stock')).map((r) => r.quantity)).toEqual([
      100 + writes - 1,
    ]);
    await savedDb.close();

    const check = await cli('check', '--db', dbFile);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('ok (integrity_check ok');
    console.log(
      `[backup] backup taken during ${writes} writes of ${BARCODES.length} rows each: consistent snapshot at quantity ${snapshotQuantity}; restored and checked.`,
    );
  });

  it('check reports a damaged database and exits 1', async () => {
    const damaged = path.join(dir, 'damaged.db');
    await seedDatabase(damaged, generatedCatalogue([{ name: 'shop', warehouses: ['Main'], barcodes: BARCODES, quantity: 5 }]));
    // Overwrite the middle of the file (past the header) with garbage.
    const size = statSync(damaged).size;
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, Math.floor(size / 4096 / 2) * 4096);
    closeSync(fd);
    const check = await cli('check', '--db', damaged);
    expect(check.code).toBe(1);
    expect(`${check.stdout}${check.stderr}`).toMatch(/PROBLEMS|malformed|cannot be opened/);
    const restore = await cli('restore', '--db', path.join(dir, 'target.db'), damaged);
    expect(restore.code).toBe(1);
    expect(existsSync(path.join(dir, 'target.db'))).toBe(false);
  });
});
