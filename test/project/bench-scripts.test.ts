// The bench's in-process ceilings still run against the current schema. They write SQL of their own
// (they are the yardstick, not the server), so a migration can break them without any other test
// noticing: after the sync migrations made stock_history.origin NOT NULL, `npm run bench` failed at
// its first write ceiling for days. Each runs here for a moment on a small generated database; no
// figure is checked (timings never belong in a test), only that it works and reports. So is
// memory-phases.ts, the tool behind bench/NOTES.md's memory figures, and reports-scale.ts, the
// reports rows, which writes its own history, as does late-movement.ts (docs/SYNC.md's refold figures).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogue } from '../support/catalogue-generator.ts';
import { importCatalogueFile } from '../../server/catalogue/import-catalogue-file.ts';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { tempDir } from '../support/test-server.ts';
import { inRepo } from '../support/paths.ts';

const run = promisify(execFile);
const bench = (script: string) => inRepo('bench', script);

describe('bench ceilings on the current schema', () => {
  const { dir, remove } = tempDir('bi-bench-scripts-');
  const db = path.join(dir, 'bench.db');
  let warehouseBarcodes = 0;
  beforeAll(async () => {
    const file = path.join(dir, 'catalogue.json');
    warehouseBarcodes = generateCatalogue(file, 600, 5).warehouseBarcodes;
    const store = await openStore(db);
    try {
      await importCatalogueFile(store, file);
    } finally {
      await store.close();
    }
  });
  afterAll(remove);

  /** Runs a bench script in its own Node process, as the bench does; answers its JSON line. */
  const report = async (script: string, args: string[]) => {
    const { stdout } = await run(process.execPath, [bench(script), ...args], { timeout: 60_000 });
    return JSON.parse(stdout.trim().split('\n').pop()!) as { iterations: number; perSecond: number };
  };

  it.each(['read', 'write', 'write-grouped'])('storage-ceiling.ts %s runs and reports', async (kind) => {
    const result = await report('storage-ceiling.ts', [db, kind, '0.2', String(warehouseBarcodes), '7']);
    expect(result.iterations).toBeGreaterThan(0);
    expect(result.perSecond).toBeGreaterThan(0);
  });

  it('the write ceiling writes movements the server would: its own origin, the next sequence numbers, a timestamp', async () => {
    const probe = probeDatabase(db);
    try {
      const instance = (await probe.first<{ id: string }>('SELECT id FROM instance'))!.id;
      const rows = await probe.all<{ origin: string; seq: number; kind: string; hlc: string }>(
        `SELECT origin, seq, kind, hlc FROM stock_history h WHERE ${sourceNameOf('h')} = 'api' ORDER BY seq`,
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.origin))).toEqual(new Set([instance]));
      // One sequence without a gap or a repeat, after what the import recorded.
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.seq).toBe(rows[i - 1]!.seq + 1);
      expect(rows.every((r) => r.kind === 'set' && r.hlc.endsWith(`-${instance}`))).toBe(true);
    } finally {
      await probe.close();
    }
  });

  it('stocktake-scale.ts commits a zeroing stocktake and reports what the pages ask', async () => {
    const { stdout } = await run(process.execPath, [bench('stocktake-scale.ts'), '--barcodes', '600', '--open-lines', '50'], {
      timeout: 60_000,
    });
    const figures = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
    // Three scanned, every other unit of the first warehouse with stock added as a zero line.
    expect(figures['zeroing commit: lines']).toBeGreaterThan(3);
    expect(figures.openLines).toBe(50);
    expect(figures['open session, the changes after one scan: answer']).toBeLessThan(figures['open session, every line: answer']!);
  });

  it('reports-scale.ts builds its history and reports every row with what it answered', async () => {
    const { stdout } = await run(process.execPath, [bench('reports-scale.ts'), '--barcodes', '600', '--chart-movements', '2000'], {
      timeout: 60_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
      reorderPoints: number;
      rows: Record<string, { medianMs: number; answer: string }>;
    };
    expect(result.reorderPoints).toBeGreaterThan(0);
    expect(Object.keys(result.rows)).toHaveLength(7);
    // The chart of the long-lived unit is downsampled; the movements per day count what was added.
    expect(result.rows.chartAll!.answer).toMatch(/^\d+ points of 2,001 movements$/);
    expect(result.rows.perDay90Warehouse!.answer).toMatch(/^90 days, [\d,]+ movements$/);
  });

  it('late-movement.ts builds its long place, pushes a movement into its past, and reports what it cost', async () => {
    const { stdout } = await run(process.execPath, [bench('late-movement.ts'), '--barcodes', '600', '--place-movements', '2500'], {
      timeout: 60_000,
    });
    // 2,500 adjusts: more than two of a refold's pages.
    expect(stdout.trim().split('\n').pop()).toMatch(
      /^one adjust stamped in 1970 on a place of 2,500 adjusts \(600 barcodes\): push \d+ ms, longest event-loop delay \d+ ms, process grew -?\d+ MB; another account's read \d+ ms, its write \d+ ms$/,
    );
  });

  it('server-read-loop.ts runs and reports', async () => {
    const result = await report('server-read-loop.ts', [db, '0.2', String(warehouseBarcodes), '7']);
    expect(result.iterations).toBeGreaterThan(0);
  });

  it('memory-phases.ts drives the server through its phases and reports its memory and what the read path allocates', async () => {
    const { stdout } = await run(
      process.execPath,
      [bench('memory-phases.ts'), db, '--phases', 'get,post', '--seconds', '1', '--allocations'],
      { timeout: 90_000 },
    );
    const { phases } = JSON.parse(stdout.trim().split('\n').pop()!) as {
      phases: {
        phase: string;
        perSecond?: number;
        rss?: number;
        anonymous?: number;
        file?: number;
        heapTotal?: number;
        top?: { frame: string }[];
      }[];
    };
    expect(phases.map((p) => p.phase)).toEqual(['idle', 'get', 'post', 'allocations']);
    for (const measured of phases.slice(0, 3)) {
      expect(measured.rss).toBeGreaterThan(0);
      // Anonymous and file-backed memory make up the resident set (shared memory aside).
      expect(Math.abs(measured.anonymous! + measured.file! - measured.rss!)).toBeLessThan(5);
      expect(measured.heapTotal).toBeGreaterThan(0);
    }
    expect(phases[1]!.perSecond).toBeGreaterThan(0);
    expect(phases[3]!.top!.some((t) => t.frame.startsWith('readAnswerJson server/api/read-answer.ts'))).toBe(true);
  });
});
