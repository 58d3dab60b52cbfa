// The storage ceiling: better-sqlite3 in one process, no HTTP, doing the work of one request as
// fast as it can be done, in a tight loop. Read: the same 50 lookups in one prepared statement,
// building the same answer and JSON.stringify of it. Write: the same durable 50-row transaction
// (BEGIN IMMEDIATE, stock upserts and their history rows — each a movement with its origin, sequence,
// timestamp and actor, as docs/SYNC.md has them — COMMIT) with the same pragmas. Write-grouped: the
// same requests, GROUP of them in one durable transaction (what group commit can at best reach when
// 32 connections write together); its rate counts requests, not transactions.
// Prints one JSON line: {"kind", "perSecond", "iterations", "seconds", "bytes"}.
import BetterSqlite3 from 'better-sqlite3';
import { fieldMessages } from '../shared/index.ts';
import { HLC_KEY_COUNTERS, type Hlc, tick } from '../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../server/store/movements/movement-names.ts';
import { applyPragmas } from '../server/store/sqlite/pragmas.ts';
import { WAREHOUSE_ACCOUNT } from '../test/support/catalogue-generator.ts';
import { mulberry32 } from './random.ts';
import { BARCODES_PER_GET, ROWS_PER_POST, readBarcodes, updateRows } from './workloads.ts';

const [dbFile, kind, secondsText, warehouseBarcodesText, seedText] = process.argv.slice(2);
if (!dbFile || (kind !== 'read' && kind !== 'write' && kind !== 'write-grouped'))
  throw new Error('usage: storage-ceiling.ts <db> read|write|write-grouped <seconds> <warehouseBarcodes> <seed>');
/** Requests per transaction of write-grouped: the load's connections. */
const GROUP = 32;
const seconds = Number(secondsText);
const warehouseBarcodes = Number(warehouseBarcodesText);
const random = mulberry32(Number(seedText));

const sqlite = new BetterSqlite3(dbFile);
applyPragmas(sqlite);
const account = sqlite.prepare('SELECT id, seen_vector FROM accounts WHERE name = ?').get(WAREHOUSE_ACCOUNT) as {
  id: number;
  seen_vector: number | null;
};
// Movements made here: this instance's origin, its next sequence numbers, its clock.
const instance = (sqlite.prepare('SELECT id FROM instance').get() as { id: string }).id;
let seq =
  (sqlite.prepare('SELECT max(seq) FROM stock_history WHERE account_id = ? AND origin = ?').pluck().get(account.id, instance) as
    number | null) ?? 0;
let clock: Hlc | undefined;
// `+?` as the server writes its parameters on SQLite (server/store/sqlite/fixed-plan-compiler.ts):
// with `?` SQLite plans these statements again at every run, which no ceiling should pay.
const marks = (n: number) => Array.from({ length: n }, () => '+?').join(',');

const readStock = sqlite
  .prepare(
    `SELECT u.barcode, u.item_id, u.variant_id, s.quantity, w.id AS warehouse, w.name AS warehouse_name
     FROM stock_units u LEFT JOIN stock s ON s.unit_id = u.id LEFT JOIN warehouses w ON w.id = s.warehouse_id AND w.account_id = u.account_id
     WHERE u.account_id = +? AND u.barcode IN (${marks(BARCODES_PER_GET)})`,
  )
  .raw();
const warehousesOf = sqlite.prepare('SELECT id, name FROM warehouses WHERE account_id = +? ORDER BY id');
type Row = [string, number, number | null, number | null, number | null, string | null];

function readOnce(barcodes: string[]): string {
  const byBarcode = new Map<string, object[]>();
  let warehouses: { id: number; name: string }[] | undefined;
  for (const [barcode, item, variant, quantity, warehouse, warehouseName] of readStock.all(account.id, ...barcodes) as Row[]) {
    let records = byBarcode.get(barcode);
    if (!records) byBarcode.set(barcode, (records = []));
    if (warehouse !== null) {
      records.push({ item, liquid_stock: variant, barcode, quantity: quantity ?? 0, warehouse, warehouse_name: warehouseName });
    } else {
      warehouses ??= warehousesOf.all(account.id) as { id: number; name: string }[];
      for (const w of warehouses)
        records.push({ item, liquid_stock: variant, barcode, quantity: 0, warehouse: w.id, warehouse_name: w.name });
    }
  }
  const response = { results: [] as object[], errors: [] as object[] };
  for (const barcode of barcodes) {
    const records = byBarcode.get(barcode) as { warehouse: number }[] | undefined;
    if (records && records.length > 1) records.sort((a, b) => a.warehouse - b.warehouse); // rather than ORDER BY: no temp b-tree
    if (records) response.results.push(...records);
    else response.errors.push({ barcode, errors: { barcode: fieldMessages.barcodeNotFound(barcode) } });
  }
  return JSON.stringify(response);
}

const findUnits = sqlite.prepare(
  `SELECT id, barcode, item_id, variant_id FROM stock_units WHERE account_id = +? AND barcode IN (${marks(ROWS_PER_POST)})`,
);
const findWarehouses = sqlite.prepare('SELECT id, name FROM warehouses WHERE account_id = +?');
const oldQuantity = sqlite.prepare('SELECT quantity FROM stock WHERE unit_id = +? AND warehouse_id = +?').pluck();
const upsert = sqlite.prepare(
  'INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (?, ?, ?) ON CONFLICT (unit_id, warehouse_id) DO UPDATE SET quantity = excluded.quantity',
);
// The actor's id, as the server has it from the account-state query each write makes anyway.
sqlite.prepare("INSERT INTO movement_actors (name) VALUES ('token 1') ON CONFLICT (name) DO NOTHING").run();
const actorId = sqlite.prepare("SELECT id FROM movement_actors WHERE name = 'token 1'").pluck().get() as number;
const history = sqlite.prepare(
  `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, hlc_counter, seen_vector, old_quantity, new_quantity, source_id, token_id, actor_id, reason, reference, created_ms)
   VALUES (?, ?, ?, ?, ?, ?, ?, 'set', ?, ?, ?, ?, ?, ?, ${SOURCE_IDS.api}, 1, ?, NULL, NULL, ?)`,
);
type Unit = { id: number; barcode: string; item_id: number; variant_id: number | null };
const writeOne = (rows: ReturnType<typeof updateRows>) => {
  const units = new Map((findUnits.all(account.id, ...rows.map((r) => r.barcode)) as Unit[]).map((u) => [u.barcode, u]));
  const warehouses = new Map((findWarehouses.all(account.id) as { id: number; name: string }[]).map((w) => [w.name, w]));
  const at = Date.now();
  const results: object[] = [];
  for (const row of rows) {
    const unit = units.get(row.barcode)!;
    const warehouse = warehouses.get(row.warehouse_name)!;
    const before = oldQuantity.get(unit.id, warehouse.id) as number | undefined;
    if (before !== row.quantity) {
      upsert.run(unit.id, warehouse.id, row.quantity);
      clock = tick(clock, Date.now(), instance);
      history.run(
        account.id,
        unit.id,
        unit.item_id,
        unit.variant_id,
        warehouse.id,
        instance,
        ++seq,
        row.quantity,
        // The text (`hlc`) is the engine's, made from the key's wall time, the counter and the origin.
        clock.wall * HLC_KEY_COUNTERS + Math.min(clock.counter, HLC_KEY_COUNTERS - 1),
        clock.counter,
        account.seen_vector,
        before ?? null,
        row.quantity,
        actorId,
        at,
      );
    }
    results.push({
      item: unit.item_id,
      liquid_stock: unit.variant_id,
      barcode: unit.barcode,
      quantity: row.quantity,
      warehouse: warehouse.id,
      warehouse_name: warehouse.name,
    });
  }
  return JSON.stringify({ results, errors: [] });
};
const write = sqlite.transaction(writeOne);
const writeGroup = sqlite.transaction((group: ReturnType<typeof updateRows>[]) => group.map(writeOne).join(''));

// Writes never repeat a request (a repeated row changes nothing and skips the fsync).
const POOL = kind === 'read' ? 2000 : kind === 'write' ? 8000 : 32_000;
const pool =
  kind === 'read'
    ? Array.from({ length: POOL }, () => readBarcodes(random, warehouseBarcodes))
    : Array.from({ length: POOL }, () => updateRows(random, warehouseBarcodes));
type Rows = ReturnType<typeof updateRows>;
/** One iteration; its `requests` count towards the rate. */
const once = (i: number): { bytes: number; requests: number } => {
  if (kind === 'read') return { bytes: readOnce(pool[i % POOL] as string[]).length, requests: 1 };
  if (kind === 'write') return { bytes: write.immediate(pool[i % POOL] as Rows).length, requests: 1 };
  const group = Array.from({ length: GROUP }, (_, j) => pool[(i * GROUP + j) % POOL] as Rows);
  return { bytes: writeGroup.immediate(group).length, requests: GROUP };
};

// Warm up (statement caches, JIT, the WAL file grown to its working size), then measure.
let next = 0;
for (const until = performance.now() + 500; performance.now() < until;) once(next++);
let iterations = 0;
let bytes = 0;
const started = performance.now();
const until = started + seconds * 1000;
while (performance.now() < until) {
  const done = once(next++);
  bytes += done.bytes;
  iterations += done.requests;
}
const elapsed = (performance.now() - started) / 1000;
sqlite.close();
console.log(JSON.stringify({ kind, perSecond: iterations / elapsed, iterations, seconds: elapsed, bytes: bytes / iterations }));
