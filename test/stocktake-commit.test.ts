// The commit of a stocktake on a real SQLite file: batches of at most 50 rows, per-line errors, and a
// commit cut short (a failure inside a batch) that is resumed without applying any line twice.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importCatalogue, parseCatalogue } from '../server/catalogue/import-catalogue.ts';
import { findAccountByName } from '../server/store/accounts.ts';
import { Database } from '../server/store/database.ts';
import { readStockHistory } from '../server/store/stock-history.ts';
import { commitStocktake } from '../server/store/stocktake-commit.ts';
import { StocktakeError, createStocktake, listLines, recordScan, reviewStocktake } from '../server/store/stocktakes.ts';
import { readStockRecords } from '../server/store/stock-read.ts';
import { shopCatalogue } from './support/stocktake-fixtures.ts';
import { tempDir } from './support/test-server.ts';

describe('stocktake commit', () => {
  let db: Database;
  let cleanup: () => void;
  let file: string;
  beforeEach(async () => {
    const temp = tempDir();
    cleanup = temp.remove;
    file = path.join(temp.dir, 'inventory.db');
    db = await Database.open(file);
    importCatalogue(db, parseCatalogue(shopCatalogue(120)));
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  const shop = () => ({ ...findAccountByName(db, 'shop')!, tokenId: null });
  const barcodes = (n: number) => Array.from({ length: n }, (_, i) => `B${String(i).padStart(4, '0')}`);

  it('applies 120 lines in batches of at most 50 and resumes a cut-short commit without applying a line twice', async () => {
    const caller = shop();
    const { id } = createStocktake(db, caller, { warehouse_name: 'Main', blind: false });
    barcodes(120).forEach((barcode, i) => recordScan(db, caller, id, { barcode, amount: i + 1 }));

    const appliedAfterBatch: number[] = [];
    const applied = () => listLines(db, caller, id).filter((l) => l.commit?.state === 'applied').length;
    await expect(
      commitStocktake(db, caller, id, { zero_uncounted: false }, {
        onBatch: (batch) => {
          if (batch === 2) throw new Error('power cut');
          appliedAfterBatch.push(applied());
        },
      }),
    ).rejects.toThrow('power cut');
    // Batch 1 is durable, batch 2 rolled back whole: its quantities and its marks.
    expect(appliedAfterBatch).toEqual([50]);
    expect(applied()).toBe(50);
    expect(readStockRecords(db, caller, ['B0049', 'B0050']).get('B0050')!.find((r) => r.quantity !== undefined && 'warehouse' in r && r.warehouse === 70)!.quantity).toBe(10);

    // Survives closing the database (as after a crash); counting stays closed until the commit finishes.
    db.close();
    db = await Database.open(file);
    expect(() => recordScan(db, caller, id, { barcode: 'B0001', amount: 1 })).toThrow(StocktakeError);
    await expect(commitStocktake(db, caller, id, { zero_uncounted: true })).rejects.toThrow(/zero_uncounted false/);

    const resumedBatches: number[] = [];
    const result = await commitStocktake(db, caller, id, { zero_uncounted: false }, { onBatch: () => resumedBatches.push(applied()) });
    expect(resumedBatches).toEqual([100, 120]);
    expect(result).toMatchObject({ applied: 120, failed: 0, stocktake: { status: 'committed' } });

    const records = readStockRecords(db, caller, barcodes(120));
    barcodes(120).forEach((barcode, i) => {
      expect(records.get(barcode)!.find((r) => 'warehouse' in r && r.warehouse === 70)!.quantity).toBe(i + 1);
    });
    // Exactly one stocktake history entry per changed line (line 10 counted 10 = the book: no change).
    const history = readStockHistory(db, caller, { source: 'stocktake', limit: 500 });
    expect(history.results).toHaveLength(119);
    expect(new Set(history.results.map((h) => h.barcode)).size).toBe(119);
  });

  it('reports per-line errors (a barcode renamed by an import after it was counted) and applies the others', async () => {
    const caller = shop();
    const { id } = createStocktake(db, caller, { warehouse_name: 'Main', blind: false });
    recordScan(db, caller, id, { barcode: 'B0001', amount: 3 });
    recordScan(db, caller, id, { barcode: 'B0002', amount: 4 });
    const catalogue = shopCatalogue(120) as { accounts: { items: { barcode?: string }[] }[] };
    catalogue.accounts[0]!.items[1]!.barcode = 'RENAMED';
    importCatalogue(db, parseCatalogue(catalogue));

    const result = await commitStocktake(db, caller, id, { zero_uncounted: false });
    expect(result.applied).toBe(1);
    expect(result.failed).toBe(1);
    expect(result.errors).toEqual([
      {
        line: expect.any(Number),
        data: { barcode: 'B0001', quantity: 3, warehouse_name: 'Main' },
        errors: { barcode: 'No items or variants found with barcode: B0001' },
      },
    ]);
    const review = reviewStocktake(db, caller, id);
    expect(review.lines.find((l) => l.barcode === 'B0002')!.commit!.state).toBe('applied');
    expect(review.lines.find((l) => l.barcode === 'B0001')!.commit).toMatchObject({ state: 'failed' });
  });
});
