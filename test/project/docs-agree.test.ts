// What the docs say the stock history records, against what the server records (issue 29, item 12):
// a set that leaves the quantity as it was is recorded (a set is a fact, docs/SYNC.md), and so is a
// stocktake count equal to the book. README.md and docs/STOCKTAKE.md once said the opposite.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HistoryPage, INVENTORY_PATH, STOCK_HISTORY_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import { inRepo } from '../support/paths.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

const doc = (file: string) => readFileSync(inRepo(file), 'utf8').replace(/\s+/g, ' ');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(exampleCatalogue());
});
afterAll(async () => {
  await server?.stop();
});

const history = async (barcode: string) =>
  (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${barcode}`, server.tokens.north!)).results.filter(
    (h) => h.warehouse_name === 'Main',
  );

describe('the docs and the stock history', () => {
  it('a set to the quantity already held is recorded, as README.md says', async () => {
    const before = (await history('8690000000017')).length;
    await call(server, 'POST', INVENTORY_PATH, server.tokens.north!, [{ barcode: '8690000000017', quantity: 5, warehouse_name: 'Main' }]);
    const after = await history('8690000000017');
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ kind: 'set', old_quantity: 5, new_quantity: 5 });
    expect(doc('README.md')).toContain('The stock history records every set, also one that leaves the quantity as it was (`set 5 → 5`)');
    expect(doc('README.md')).not.toContain('writes no history entry');
  });

  it('a stocktake count equal to the book is recorded, as docs/STOCKTAKE.md says', async () => {
    const token = server.tokens.north!;
    const id = (await call(server, 'POST', STOCKTAKES_PATH, token, { name: 'Equal', warehouse_name: 'Main' }, 201)).id as number;
    await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: '8690000000024', amount: 3 }, 201);
    await call(server, 'POST', stocktakePath(id, 'commit'), token, {});
    expect((await history('8690000000024'))[0]).toMatchObject({ kind: 'count', old_quantity: 3, new_quantity: 3 });
    expect(doc('docs/STOCKTAKE.md')).toContain('A count equal to the book is recorded too (`count 5 → 5`)');
    expect(doc('docs/STOCKTAKE.md')).not.toContain('writes no history');
  });
});
