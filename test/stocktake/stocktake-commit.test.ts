// The commit of a stocktake on a real SQLite file: batches of at most 50 rows, per-line errors, and a
// commit cut short (a failure inside a batch) that is resumed without applying any line twice.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Caller, Store } from '../../server/store/store.ts';
import { stocktakeMessages } from '../../shared/index.ts';
import { shopCatalogue } from '../support/stocktake-fixtures.ts';
import { tempDir } from '../support/test-server.ts';

describe('stocktake commit', () => {
  let store: Store;
  let cleanup: () => void;
  let file: string;
  beforeEach(async () => {
    const temp = tempDir();
    cleanup = temp.remove;
    file = path.join(temp.dir, 'inventory.db');
    store = await openStore(file);
    await store.catalogue.write(await parseCatalogue(shopCatalogue(120)));
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  /** The account "shop" acting through a token of its own (recorded in the history). */
  const shop = async (): Promise<Caller> => {
    const account = (await store.accounts.find('shop'))!;
    const { id } = await store.tokens.create('shop', 'stocktake test', 'manager');
    return { ...account, tokenId: id, role: 'manager' };
  };
  const barcodes = (n: number) => Array.from({ length: n }, (_, i) => `B${String(i).padStart(4, '0')}`);
  const createSession = async (caller: Caller) => (await store.stocktakes.create(caller, { warehouse_name: 'Main', blind: false })).body;
  const scan = (caller: Caller, id: number, barcode: string, amount: number) => store.stocktakes.scan(caller, id, { barcode, amount });

  it('applies 120 lines in batches of at most 50 and resumes a cut-short commit without applying a line twice', async () => {
    const caller = await shop();
    const { id } = await createSession(caller);
    for (const [i, barcode] of barcodes(120).entries()) expect((await scan(caller, id, barcode, i + 1)).status).toBe(201);

    const applied = async () => (await store.stocktakes.lines(caller, id)).filter((l) => l.commit?.state === 'applied').length;
    // The hook runs inside each batch's transaction: what it sees is read after the commit, from outside.
    const batchesSeen: number[] = [];
    await expect(
      store.stocktakes.commit(
        caller,
        id,
        { zero_uncounted: false },
        {
          onBatch: (batch) => {
            batchesSeen.push(batch);
            if (batch === 2) throw new Error('power cut');
          },
        },
      ),
    ).rejects.toThrow('power cut');
    // Batch 1 is durable, batch 2 rolled back whole: its quantities and its marks.
    expect(batchesSeen).toEqual([1, 2]);
    expect(await applied()).toBe(50);
    const inMain = async (barcode: string) =>
      (await store.stock.read(caller, [barcode])).get(barcode)!.find((r) => 'warehouse' in r && r.warehouse === 70)!.quantity;
    expect(await inMain('B0049')).toBe(50);
    expect(await inMain('B0050')).toBe(10);
    // Its progress, as a client polling the session sees it while a commit runs.
    expect(await store.stocktakes.get(caller, id)).toMatchObject({
      status: 'committing',
      totals: { known_lines: 120, committed_lines: 50 },
    });

    // Survives closing the database (as after a crash); counting stays closed until the commit finishes.
    await store.close();
    store = await openStore(file);
    await expect(scan(caller, id, 'B0001', 1)).rejects.toMatchObject({ status: 409, message: stocktakeMessages.committing });
    await expect(store.stocktakes.commit(caller, id, { zero_uncounted: true })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/zero_uncounted false/),
    });

    // The 70 lines left take two batches (50 + 20): the 50 applied ones are not taken again.
    const resumedBatches: number[] = [];
    const result = await store.stocktakes.commit(caller, id, { zero_uncounted: false }, { onBatch: (batch) => resumedBatches.push(batch) });
    expect(resumedBatches).toEqual([1, 2]);
    expect(result).toMatchObject({
      applied: 120,
      failed: 0,
      stocktake: { status: 'committed', totals: { known_lines: 120, committed_lines: 120 } },
    });
    expect(await applied()).toBe(120);
    // Each line replaced the book quantity (10) once: a line applied again would record its own count as the book.
    const lines = await store.stocktakes.lines(caller, id);
    expect(lines.map((l) => [l.barcode, l.commit])).toEqual(
      barcodes(120).map((barcode) => [barcode, { state: 'applied', book_quantity: 10, errors: null }]),
    );

    const records = await store.stock.read(caller, barcodes(120));
    barcodes(120).forEach((barcode, i) => {
      expect(records.get(barcode)!.find((r) => 'warehouse' in r && r.warehouse === 70)!.quantity).toBe(i + 1);
    });
    // Exactly one count movement per line, also for line 10, which counted what the books said (10): a
    // count is a fact, which other instances learn even when it changes nothing here.
    const history = await store.history.page(caller, { source: 'stocktake', limit: 500 });
    expect(history.results).toHaveLength(120);
    expect(new Set(history.results.map((h) => h.barcode)).size).toBe(120);
    expect(history.results.every((h) => h.kind === 'count')).toBe(true);
    expect(history.results.find((h) => h.barcode === 'B0009')).toMatchObject({ old_quantity: 10, new_quantity: 10 });
    // Committing again changes nothing and answers the same result.
    expect(await store.stocktakes.commit(caller, id, { zero_uncounted: false })).toEqual(result);
    expect((await store.history.page(caller, { source: 'stocktake', limit: 500 })).results).toHaveLength(120);
  });

  it('reports per-line errors (a barcode renamed by an import after it was counted) and applies the others', async () => {
    const caller = await shop();
    const { id } = await createSession(caller);
    await scan(caller, id, 'B0001', 3);
    await scan(caller, id, 'B0002', 4);
    const catalogue = shopCatalogue(120) as { accounts: { items: { barcode?: string }[] }[] };
    catalogue.accounts[0]!.items[1]!.barcode = 'RENAMED';
    await store.catalogue.write(await parseCatalogue(catalogue));

    const result = await store.stocktakes.commit(caller, id, { zero_uncounted: false });
    expect(result.applied).toBe(1);
    expect(result.failed).toBe(1);
    expect(result.stocktake.totals.committed_lines).toBe(2); // a refused line was handled too
    expect(result.errors).toEqual([
      {
        line: expect.any(Number),
        data: { barcode: 'B0001', quantity: 3, warehouse_name: 'Main' },
        errors: { barcode: 'No items or variants found with barcode: B0001' },
      },
    ]);
    const review = await store.stocktakes.review(caller, id);
    expect(review.lines.find((l) => l.barcode === 'B0002')!.commit!.state).toBe('applied');
    expect(review.lines.find((l) => l.barcode === 'B0001')!.commit).toMatchObject({ state: 'failed' });
  });

  it('reviews a large session by its first 500 lines that need a look, refused and differing first, with the totals', async () => {
    await store.catalogue.write(await parseCatalogue(shopCatalogue(620)));
    const caller = await shop();
    const { id } = await createSession(caller);
    // 600 lines; every 50th (B0007, B0057, …) counted 3 against a book of 10, the others 10 (no difference).
    const differing = barcodes(600).filter((_, i) => i % 50 === 7);
    for (const barcode of barcodes(600)) await scan(caller, id, barcode, differing.includes(barcode) ? 3 : 10);

    const before = await store.stocktakes.review(caller, id);
    expect(before.lines_total).toBe(600);
    expect(before.lines_changed).toBe(12);
    expect(before.lines).toHaveLength(500);
    // The 12 that differ first, then the others, each in the order counted: the last 100 counted are left out.
    expect(before.lines.map((l) => l.barcode)).toEqual(
      [...differing, ...barcodes(600).filter((b) => !differing.includes(b))].slice(0, 500),
    );

    // B0598 is renamed by an import after it was counted: the commit refuses that line.
    const catalogue = shopCatalogue(620) as { accounts: { items: { barcode?: string }[] }[] };
    catalogue.accounts[0]!.items[598]!.barcode = 'RENAMED';
    await store.catalogue.write(await parseCatalogue(catalogue));
    expect((await store.stocktakes.commit(caller, id, { zero_uncounted: false })).failed).toBe(1);

    const after = await store.stocktakes.review(caller, id);
    expect(after).toMatchObject({ lines_total: 600, lines_changed: 12 });
    expect(after.lines.map((l) => l.barcode).slice(0, 14)).toEqual(['B0598', ...differing, 'B0000']);
    expect(after.lines[0]!.commit).toMatchObject({ state: 'failed' });
    expect(after.lines.slice(1, 13).every((l) => l.commit?.state === 'applied' && l.difference === -7)).toBe(true);
  });
});
