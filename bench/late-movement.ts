// What one movement in a long place's past costs the server that receives it (docs/SYNC.md, "Bounded
// cost"): a catalogue of --barcodes imported with the project's importer, --place-movements adjusts
// added to one place with plain SQL (a till's sales of one item), then the real server in this
// process, a sync token and its follower, one push to warm the server up, and one adjust stamped in
// 1970 pushed on that place: the place is folded again whole. Prints the push's time, the longest
// event-loop delay while it ran, how much the process grew, and what another account's read and
// write sent just after the push waited (the read on its own connection; the write behind the push's
// transaction, SQLite's one writer). Not part of `npm run bench`; run `node bench/late-movement.ts [--barcodes 10000]
// [--place-movements 100000]`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { INVENTORY_PATH, SYNC_MOVEMENTS_PATH, type SyncMovement } from '../shared/index.ts';
import { startServer } from '../server/start.ts';
import { HLC_KEY_COUNTERS } from '../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../server/store/movements/movement-names.ts';
import { openStore } from '../server/store/open-store.ts';
import { PLAIN_ACCOUNT, WAREHOUSE_ACCOUNT, barcodeOf, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { ROOT, runNode } from './processes.ts';

const { values } = parseArgs({
  options: { barcodes: { type: 'string', default: '10000' }, 'place-movements': { type: 'string', default: '100000' } },
});
const barcodes = Number(values.barcodes);
const placeMovements = Number(values['place-movements']);
const dir = mkdtempSync(path.join(os.tmpdir(), 'bi-late-'));
const dbFile = path.join(dir, 'late.db');
try {
  const catalogueFile = path.join(dir, 'catalogue.json');
  generateCatalogue(catalogueFile, barcodes, 7);
  await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, dbFile]);

  // The long place: the warehouse account's first barcode in its first warehouse, adjusts 50 ms apart from 90 days ago.
  const db = new BetterSqlite3(dbFile);
  const account = (db.prepare('SELECT id FROM accounts WHERE name = ?').get(WAREHOUSE_ACCOUNT) as { id: number }).id;
  const warehouse = (db.prepare('SELECT min(id) AS id FROM warehouses WHERE account_id = ?').get(account) as { id: number }).id;
  const unit = db
    .prepare('SELECT id, item_id, variant_id FROM stock_units WHERE account_id = ? AND barcode = ?')
    .get(account, barcodeOf(1)) as { id: number; item_id: number; variant_id: number | null };
  const first = Date.now() - 90 * 24 * 3600_000;
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
     SELECT ?, ?, ?, ?, ?, 'benchtill', 1 + n.i, 'adjust', CASE WHEN n.i % 40 = 0 THEN 60 ELSE -1 END, (${first} + n.i * 50) * ${HLC_KEY_COUNTERS}, 0, 0, ${SOURCE_IDS.api}, ${first}
     FROM n`,
  ).run(placeMovements - 1, account, unit.id, unit.item_id, unit.variant_id, warehouse);
  db.exec('ANALYZE');
  const otherBarcode = (
    db
      .prepare('SELECT u.barcode FROM stock_units u JOIN accounts a ON a.id = u.account_id WHERE a.name = ? ORDER BY u.id LIMIT 1')
      .get(PLAIN_ACCOUNT) as { barcode: string }
  ).barcode;
  db.close();

  const store = await openStore(dbFile);
  const token = (await store.tokens.create(WAREHOUSE_ACCOUNT, 'late', 'sync')).key;
  const other = (await store.tokens.create(PLAIN_ACCOUNT, 'other', 'api')).key;
  await store.sync.register((await store.tokens.authenticate(token))!, 'relay0001', 'Relay');
  const server = await startServer({ store, port: 0 });
  const movement = (seq: number, wall: number): SyncMovement => ({
    id: `relay0001-${seq}`,
    origin: 'relay0001',
    seq,
    kind: 'adjust',
    value: 1,
    hlc: `${String(wall).padStart(16, '0')}-00000-relay0001`,
    item: unit.item_id,
    liquid_stock: unit.variant_id,
    barcode: barcodeOf(1),
    warehouse,
    seen: null,
    source: 'api',
    reason: null,
    reference: `late ${seq}`,
    created_at: new Date().toISOString(),
  });
  const push = async (m: SyncMovement) => {
    const answer = await fetch(`${server.url}${SYNC_MOVEMENTS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ movements: [m] }),
    });
    if (answer.status !== 200) throw new Error(`push answered ${answer.status}: ${await answer.text()}`);
  };
  try {
    await push(movement(1, Date.now())); // on top: the first push compiles its checks
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const rss = process.memoryUsage().rss;
    delay.enable();
    const started = performance.now();
    const pushed = push(movement(2, 1_000)).then(() => performance.now() - started); // 1970: before every movement of the place
    // Another account, sent right after the push: what it waits for.
    const timed = async (init: RequestInit, query = '') => {
      const sent = performance.now();
      const answer = await fetch(`${server.url}${INVENTORY_PATH}${query}`, {
        ...init,
        headers: { authorization: `Token ${other}`, ...init.headers },
      });
      if (answer.status !== 200) throw new Error(`another account's request answered ${answer.status}`);
      return performance.now() - sent;
    };
    const [readMs, writeMs] = await Promise.all([
      timed({}, `?barcodes=${otherBarcode}`),
      timed({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ barcode: otherBarcode, quantity: 5 }]),
      }),
    ]);
    const ms = await pushed;
    delay.disable();
    console.log(
      `one adjust stamped in 1970 on a place of ${placeMovements.toLocaleString('en-US')} adjusts (${barcodes.toLocaleString('en-US')} barcodes): ` +
        `push ${ms.toFixed(0)} ms, longest event-loop delay ${(delay.max / 1e6).toFixed(0)} ms, process grew ${((process.memoryUsage().rss - rss) / 1e6).toFixed(0)} MB; ` +
        `another account's read ${readMs.toFixed(0)} ms, its write ${writeMs.toFixed(0)} ms`,
    );
  } finally {
    await server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
