// Proof 4 (issue 4): generated pairs of accounts that share barcodes and warehouse names (in every
// combination of the two scenarios). No request of one account ever reads or changes the other's
// data: its barcodes are "not found", its warehouses do not exist, its quantities never move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { INVENTORY_PATH, WAREHOUSES_PATH, fieldMessages } from '../../shared/index.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { type AccountSpec, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

const SEED = 99;
const PAIRS = 60;
const NAMES = ['Main', 'Backroom', 'Shop floor', 'Depot'];

interface CatalogueAccount {
  name: string;
  warehouses?: { id: number; name: string }[];
  items: { id: number; barcode: string; stock: { warehouse?: string; quantity: number }[] }[];
}

interface Pair {
  a: AccountSpec;
  b: AccountSpec;
  shared: string[];
}

function generatePairs(): Pair[] {
  const rnd = seededRandom(SEED);
  return Array.from({ length: PAIRS }, (_, p) => {
    const shared = Array.from({ length: rnd.int(1, 4) }, (_, i) => rnd.pick([`${p}-${i}`, `00${p}${i}`, `shared ${p}/${i}`]));
    const uniqueShared = [...new Set(shared)];
    const names = NAMES.filter(() => rnd.chance(0.6));
    const warehousesA = rnd.chance(0.7) ? (names.length > 0 ? names : ['Main']) : [];
    const warehousesB = rnd.chance(0.7) ? [...(names.length > 0 ? names : ['Main']), ...(rnd.chance(0.5) ? ['B only'] : [])] : [];
    return {
      shared: uniqueShared,
      a: { name: `pair${p}-a`, warehouses: warehousesA, barcodes: [...uniqueShared, `a-only-${p}`], quantity: rnd.int(0, 50) },
      b: { name: `pair${p}-b`, warehouses: warehousesB, barcodes: [...uniqueShared, `b-only-${p}`], quantity: rnd.int(51, 100) },
    };
  });
}

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe('isolation between accounts', { timeout: 120_000 }, () => {
  const { dir, remove } = tempDir('bi-iso-');
  let dbFile: string; // a SQLite file or a PostgreSQL database of its own (test/support/test-engine.ts)
  const pairs = generatePairs();
  const catalogue = generatedCatalogue(pairs.flatMap((p) => [p.a, p.b])) as { accounts: CatalogueAccount[] };
  const accountOf = new Map(catalogue.accounts.map((a) => [a.name, a]));
  let server: RunningServer;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    dbFile = await newDatabase(dir);
    tokens = await seedDatabase(dbFile, catalogue);
    server = await startServer({ store: await openStore(dbFile), port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await dropDatabase(dbFile);
    remove();
  });

  const call = async (account: string, method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(server.url + urlPath, {
      method,
      headers: { authorization: `Token ${tokens[account]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  };

  const snapshot = (probe: DatabaseProbe, account: string) =>
    probe.all(
      `SELECT u.barcode, s.warehouse_id, s.quantity, (SELECT count(*) FROM stock_history h WHERE h.account_id = a.id) AS changes
       FROM stock s JOIN stock_units u ON u.id = s.unit_id JOIN accounts a ON a.id = u.account_id WHERE a.name = ? ORDER BY u.barcode, s.warehouse_id`,
      account,
    );

  it(`keeps ${PAIRS} generated account pairs apart`, async () => {
    const observer = probeDatabase(dbFile);
    let requests = 0;
    try {
      for (const pair of pairs) {
        for (const [self, other] of [
          [pair.a, pair.b],
          [pair.b, pair.a],
        ] as const) {
          const mine = accountOf.get(self.name)!;
          const theirs = accountOf.get(other.name)!;
          const otherBefore = await snapshot(observer, other.name);
          const myItemIds = new Set(mine.items.map((i) => i.id));
          const myWarehouseIds = new Set((mine.warehouses ?? []).map((w) => w.id));
          const otherOnly = other.barcodes.filter((b) => !self.barcodes.includes(b));

          // Read every barcode of both: only mine come back, with my items, warehouses and quantities.
          const read = await call(
            self.name,
            'GET',
            `${INVENTORY_PATH}?barcodes=${[...self.barcodes, ...otherOnly].map(encodeURIComponent).join(',')}`,
          );
          requests++;
          for (const record of read.results) {
            expect(myItemIds.has(record.item)).toBe(true);
            expect(self.barcodes).toContain(record.barcode);
            if (self.warehouses.length > 0) expect(myWarehouseIds.has(record.warehouse)).toBe(true);
            else expect(record).not.toHaveProperty('warehouse');
          }
          expect(new Set(read.results.map((r: { barcode: string }) => r.barcode))).toEqual(new Set(self.barcodes));
          expect(read.errors).toEqual(otherOnly.map((b) => ({ barcode: b, errors: { barcode: fieldMessages.barcodeNotFound(b) } })));

          // Warehouses: only mine.
          const warehouses = await call(self.name, 'GET', WAREHOUSES_PATH);
          requests++;
          expect(warehouses).toEqual(mine.warehouses ?? []);

          // Write to the shared barcodes, the other's own barcodes and every warehouse name of both.
          const names = [...new Set([...self.warehouses, ...other.warehouses, 'Main'])];
          const rows = [...self.barcodes, ...otherOnly].flatMap((barcode) =>
            names.map((warehouse_name, i) => ({ barcode, warehouse_name, quantity: 1000 + i })),
          );
          for (let i = 0; i < rows.length; i += 50) {
            const result = await call(self.name, 'POST', INVENTORY_PATH, rows.slice(i, i + 50));
            requests++;
            for (const record of result.results) {
              expect(myItemIds.has(record.item)).toBe(true);
              if (self.warehouses.length > 0) expect(myWarehouseIds.has(record.warehouse)).toBe(true);
            }
            for (const error of result.errors) {
              const row = error.data as { barcode: string; warehouse_name: string };
              if (otherOnly.includes(row.barcode)) expect(error.errors).toEqual({ barcode: fieldMessages.barcodeNotFound(row.barcode) });
              else expect(error.errors).toEqual({ warehouse_name: fieldMessages.warehouseNotFound(row.warehouse_name) });
            }
          }
          // The other account did not move, in the database and through its own eyes.
          expect(await snapshot(observer, other.name)).toEqual(otherBefore);
          const theirRead = await call(other.name, 'GET', `${INVENTORY_PATH}?barcodes=${other.barcodes.map(encodeURIComponent).join(',')}`);
          requests++;
          for (const record of theirRead.results) {
            const item = theirs.items.find((i) => i.barcode === record.barcode)!;
            const stock = item.stock.find((s) => (s.warehouse ?? null) === (record.warehouse_name ?? null));
            // Untouched by this pair's writes so far unless the other side itself wrote (it writes 1000+).
            if (stock && record.quantity < 1000) expect(record.quantity).toBe(stock.quantity);
          }
        }
      }
    } finally {
      await observer.close();
    }
    const scenarios = pairs.map((p) => `${p.a.warehouses.length > 0 ? 'W' : 'P'}${p.b.warehouses.length > 0 ? 'W' : 'P'}`);
    const count = (s: string) => scenarios.filter((x) => x === s).length;
    console.log(
      `[isolation] seed ${SEED}: ${PAIRS} account pairs tried (warehouse/plain combinations WW ${count('WW')}, WP ${count('WP')}, PW ${count('PW')}, PP ${count('PP')}), ` +
        `${pairs.reduce((n, p) => n + p.shared.length, 0)} shared barcodes, ${requests} requests; no cross-account read or change.`,
    );
  });
});
