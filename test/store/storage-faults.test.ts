// Storage faults (issue 4): a full disk, a database that cannot be written, and a write lock held
// past the busy timeout are answered `503 {"detail": …}` with Retry-After — never a 500, never a
// half-written change — reads keep working, and the server recovers by itself once the cause goes.
//
// The full disk is real: the database lives on a small tmpfs that the test fills with a filler
// file (mounting needs root, which the project's machines and CI have). Where mounting is not
// possible the test says so and makes SQLite hit the same SQLITE_FULL through `max_page_count` on
// the server's own connection instead. The read-only case uses `PRAGMA query_only` on the server's
// connection (the tests hold the server's SQLite engine for these settings): SQLite then refuses writes with SQLITE_READONLY exactly as for a read-only file (a
// mount cannot be made read-only while the server holds the file open for writing).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isApiError } from '../../server/errors.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { backupDatabase, checkFile } from '../../server/store/sqlite/backup.ts';
import { SqliteEngine } from '../../server/store/sqlite/sqlite-engine.ts';
import { createStore } from '../../server/store/store.ts';
import { INVENTORY_PATH, hardeningMessages } from '../../shared/index.ts';
import { probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

const BARCODES = barcodes('F', 10);
const catalogue = () => generatedCatalogue([{ name: 'shop', warehouses: ['Main'], barcodes: BARCODES, quantity: 1 }]);

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Fills the file system holding `dir` until it has no space left; returns the filler's path. */
function fillDisk(dir: string): string {
  const filler = path.join(dir, 'filler.bin');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // Squeeze out the last bytes too.
    try {
      for (;;) writeSync(fd, chunk, 0, 512);
    } catch {
      // ENOSPC again: the disk is now full to the last block.
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

async function post(server: RunningServer, token: string, rows: unknown[]) {
  const response = await fetch(`${server.url}${INVENTORY_PATH}`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(rows),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

async function read(server: RunningServer, token: string) {
  const response = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=${BARCODES.join(',')}`, {
    headers: { authorization: `Token ${token}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The real server on a SQLite engine the test holds, to change the settings of the server's own connection. */
async function startOn(dbFile: string): Promise<{ server: RunningServer; engine: SqliteEngine }> {
  const engine = await SqliteEngine.open(dbFile);
  return { server: await startServer({ store: createStore(engine), port: 0 }), engine };
}

const rowsFor = (quantity: number) => BARCODES.map((barcode, i) => ({ barcode, warehouse_name: 'Main', quantity: quantity + i }));

describe('storage faults', () => {
  const { dir, remove } = tempDir('bi-faults-');
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  afterAll(() => remove());

  it('answers 503 on a full disk, writes nothing, and recovers when space returns', async () => {
    const mnt = path.join(dir, 'small-disk');
    mkdirSync(mnt);
    const mounted = tryMountTmpfs(mnt, '3m');
    if (mounted) cleanups.push(() => void execFileSync('umount', ['-l', mnt]));
    const dbFile = path.join(mnt, 'inventory.db');
    const tokens = await seedDatabase(dbFile, catalogue());
    const { server, engine } = await startOn(dbFile);
    cleanups.unshift(() => server.close());

    // Every write carries quantities no other write uses, so each can be traced in the history.
    const acked: number[] = [];
    const refused: number[] = [];
    let quantity = 10_000;
    for (let i = 0; i < 20; i++, quantity += 100) {
      expect((await post(server, tokens.shop!, rowsFor(quantity))).status).toBe(200);
      acked.push(quantity);
    }
    let filler: string | undefined;
    if (mounted) filler = fillDisk(mnt);
    else {
      console.log('[storage faults] tmpfs mount not possible here: using max_page_count on the server connection for SQLITE_FULL');
      engine.sqlite.pragma(`max_page_count = ${(engine.sqlite.pragma('page_count', { simple: true }) as number) + 2}`);
    }

    // Write until the disk refuses; then it must keep refusing cleanly.
    for (let i = 0; i < 2000 && refused.length < 5; i++, quantity += 100) {
      const answer = await post(server, tokens.shop!, rowsFor(quantity));
      if (answer.status === 200) acked.push(quantity);
      else {
        expect(answer.status).toBe(503);
        expect(answer.body).toEqual({ detail: hardeningMessages.storageUnavailable, code: 'storage_unavailable' });
        expect(answer.retryAfter).not.toBeNull();
        refused.push(quantity);
      }
    }
    expect(refused.length).toBe(5);
    // Reads still work and show the last acknowledged write.
    const during = await read(server, tokens.shop!);
    expect(during.status).toBe(200);
    expect(during.body.results.map((r: { quantity: number }) => r.quantity)).toEqual(rowsFor(acked.at(-1)!).map((r) => r.quantity));

    // A backup onto the full disk fails cleanly: an error, and no half-written file left behind.
    if (mounted) {
      const failure = await backupDatabase(dbFile, path.join(mnt, 'backup.db')).then(
        () => expect.unreachable('the backup should have failed'),
        (error: unknown) => error,
      );
      expect(isApiError(failure) && failure.status).toBe(400);
      expect((failure as Error).message).toMatch(/^The backup to .*backup\.db failed, nothing was kept: /);
      expect(readdirSync(mnt).filter((f) => f.startsWith('backup.db'))).toEqual([]);
    }

    // Space returns: the same server takes writes again, no restart.
    if (filler) rmSync(filler);
    else engine.sqlite.pragma('max_page_count = 1073741823');
    const after = await post(server, tokens.shop!, rowsFor(quantity));
    expect(after.status).toBe(200);
    acked.push(quantity);
    expect((await read(server, tokens.shop!)).body.results.map((r: { quantity: number }) => r.quantity)).toEqual(
      rowsFor(quantity).map((r) => r.quantity),
    );
    await server.close();

    const report = await checkFile(dbFile);
    expect(report.ok).toBe(true);
    const probe = probeDatabase(dbFile);
    try {
      const written = new Set(
        (await probe.all<{ new_quantity: number }>(`SELECT new_quantity FROM stock_history h WHERE ${sourceNameOf('h')} = 'api'`)).map(
          (r) => r.new_quantity,
        ),
      );
      for (const q of acked) expect(written.has(q)).toBe(true);
      for (const q of refused) for (let i = 0; i < BARCODES.length; i++) expect(written.has(q + i)).toBe(false);
      console.log(
        `[storage faults] full disk (${mounted ? '3 MiB tmpfs filled up' : 'max_page_count'}): ${acked.length} writes acknowledged and all present, ` +
          `${refused.length} refused with 503 and none of them written; ${mounted ? 'a backup onto the full disk failed cleanly; ' : ''}recovered without restart; integrity_check ${report.integrity.join(',')}.`,
      );
    } finally {
      await probe.close();
    }
  });

  it('answers 503 while the database refuses writes (SQLITE_READONLY) and recovers', async () => {
    const dbFile = path.join(dir, 'readonly.db');
    const tokens = await seedDatabase(dbFile, catalogue());
    const { server, engine } = await startOn(dbFile);
    cleanups.push(() => server.close());
    engine.sqlite.pragma('query_only = ON');
    const refused = await post(server, tokens.shop!, rowsFor(500));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: hardeningMessages.storageUnavailable, code: 'storage_unavailable' });
    expect((await read(server, tokens.shop!)).status).toBe(200);
    engine.sqlite.pragma('query_only = OFF');
    expect((await post(server, tokens.shop!, rowsFor(600))).status).toBe(200);
    expect((await read(server, tokens.shop!)).body.results[0].quantity).toBe(600);
  });

  it('answers 503 when another process holds the write lock past the busy timeout, and recovers', async () => {
    const dbFile = path.join(dir, 'busy.db');
    const tokens = await seedDatabase(dbFile, catalogue());
    const { server, engine } = await startOn(dbFile);
    cleanups.push(() => server.close());
    engine.sqlite.pragma('busy_timeout = 100'); // the default 5 s would only make the test slow
    const other = probeDatabase(dbFile);
    cleanups.push(() => other.close());
    await other.run('BEGIN IMMEDIATE');
    const refused = await post(server, tokens.shop!, rowsFor(700));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: hardeningMessages.storageUnavailable, code: 'storage_unavailable' });
    expect((await read(server, tokens.shop!)).status).toBe(200); // WAL: readers are not blocked
    await other.run('ROLLBACK');
    expect((await post(server, tokens.shop!, rowsFor(800))).status).toBe(200);
    expect((await read(server, tokens.shop!)).body.results[0].quantity).toBe(800);
  });
});
