// A refold reads its place a page at a time (movement-log.ts, FOLD_PAGE_ROWS), keyed on the
// timestamp and the row's id. Two rows with one timestamp can only come from an older version (the
// sync door refuses them now: test/sync/sync-api), and the id must keep them apart across a page's
// end: a page that skipped or repeated one would leave the place's quantity off by its step. Here a
// run of such rows straddles the first page's end, put in with SQL as an older database holds them,
// and one movement stamped in 1970 folds the whole place again, on both engines.
import { afterAll, describe, expect, it } from 'vitest';
import { SYNC_MOVEMENTS_PATH, type SyncMovement } from '../../shared/index.ts';
import { startServer } from '../../server/start.ts';
import { FOLD_PAGE_ROWS } from '../../server/store/movements/movement-log.ts';
import { HLC_KEY_COUNTERS } from '../../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../../server/store/movements/movement-names.ts';
import { openStore } from '../../server/store/open-store.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, testEngine } from '../support/test-engine.ts';
import { exampleCatalogue, seedStore, tempDir } from '../support/test-server.ts';

const MUG = { item: 100, liquid_stock: null, barcode: '8690000000017' };
const MAIN = 10;
/** The catalogue's quantity of the mug in Main (examples/catalogue.json). */
const CATALOGUE_QUANTITY = 5;
const ADJUSTS = FOLD_PAGE_ROWS + 500;
/** The rows from this index to TIED_TO share one timestamp: the first page ends among them. */
const TIED_FROM = FOLD_PAGE_ROWS - 10;
const TIED_TO = FOLD_PAGE_ROWS + 10;

describe(`a refold's pages (${testEngine()})`, () => {
  const { dir, remove } = tempDir('bi-refold-pages-');
  afterAll(() => remove());

  it('reads each row once across a page that ends among rows sharing one timestamp', async () => {
    const file = await newDatabase(dir, 'pages.db');
    const store = await openStore(file);
    const probe = probeDatabase(file);
    const server = await startServer({ store, port: 0 });
    try {
      await seedStore(store, exampleCatalogue());
      const token = (await store.tokens.create('north', 'relay', 'sync')).key;
      await store.sync.register((await store.tokens.authenticate(token))!, 'relay0001', 'Relay');
      const unit = (await probe.first<{ id: number; account_id: number }>(
        'SELECT id, account_id FROM stock_units WHERE barcode = ?',
        MUG.barcode,
      ))!;
      // Adjusts of +1 after the catalogue's own movements, with stale steps (0 → 0) for the refold to
      // rewrite; one timestamp from TIED_FROM to TIED_TO.
      const first = Date.now() + 1000;
      for (let i = 0; i < ADJUSTS; i++) {
        const wall = first + (i < TIED_FROM ? i : i <= TIED_TO ? TIED_FROM : i);
        await probe.run(
          `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
           VALUES (?, ?, ?, NULL, ?, 'legacy01', ?, 'adjust', 1, ?, 0, 0, ?, ?)`,
          unit.account_id,
          unit.id,
          MUG.item,
          MAIN,
          i + 1,
          wall * HLC_KEY_COUNTERS,
          SOURCE_IDS.api,
          wall,
        );
      }
      const tied = await probe.first<{ n: number }>(
        "SELECT count(DISTINCT hlc) AS n FROM stock_history WHERE origin = 'legacy01' AND seq BETWEEN ? AND ?",
        TIED_FROM + 1,
        TIED_TO + 1,
      );
      expect(Number(tied!.n)).toBe(1);

      const late: SyncMovement = {
        id: 'relay0001-1',
        origin: 'relay0001',
        seq: 1,
        kind: 'adjust',
        value: 7,
        hlc: `${String(1_000).padStart(16, '0')}-00000-relay0001`,
        ...MUG,
        warehouse: MAIN,
        seen: null,
        source: 'api',
        reason: null,
        reference: 'late',
        created_at: new Date().toISOString(),
      };
      const answer = await fetch(`${server.url}${SYNC_MOVEMENTS_PATH}`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ movements: [late] }),
      });
      expect(answer.status).toBe(200);

      // The late adjust comes before the catalogue's set, which resets it; then every adjust once.
      const expected = CATALOGUE_QUANTITY + ADJUSTS;
      const stored = await probe.first<{ quantity: number }>(
        'SELECT quantity FROM stock WHERE unit_id = ? AND warehouse_id = ?',
        unit.id,
        MAIN,
      );
      expect(stored!.quantity).toBe(expected);
      const steps = await probe.all<{ new_quantity: number }>(
        "SELECT new_quantity FROM stock_history WHERE origin = 'legacy01' ORDER BY new_quantity",
      );
      expect(steps.map((s) => s.new_quantity)).toEqual(Array.from({ length: ADJUSTS }, (_, i) => CATALOGUE_QUANTITY + i + 1));
    } finally {
      await server.close();
      await probe.close();
      await dropDatabase(file);
    }
  });
});
