// The PostgreSQL storage ceiling: the `pg` client in one process, no HTTP, doing the storage work of
// one request as fast as it can, in `concurrency` loops side by side, each on its own connection (as
// the load generator's connections would reach the database). Read: the same 50-barcode query with
// the same joins as bench/storage-ceiling.ts, in the engine's read transaction (REPEATABLE READ READ
// ONLY), building the same answer and JSON.stringify of it. Write: the same 50-row transaction in the
// engine's write shape (READ COMMITTED, the one-writer advisory lock, unit and warehouse lookups,
// old quantity, upsert, history row, COMMIT), durable (the cluster runs fsync=on,
// synchronous_commit=on). Prints one JSON line: {"kind", "concurrency", "perSecond", "iterations", "seconds", "bytes"}.
import pg from 'pg';
import { fieldMessages } from '../shared/index.ts';
import { WAREHOUSE_ACCOUNT } from '../test/support/catalogue-generator.ts';
import { mulberry32 } from './random.ts';
import { BARCODES_PER_GET, ROWS_PER_POST, readBarcodes, updateRows } from './workloads.ts';

const [url, kind, secondsText, warehouseBarcodesText, seedText, concurrencyText] = process.argv.slice(2);
if (!url || (kind !== 'read' && kind !== 'write'))
  throw new Error('usage: pg-storage-ceiling.ts <postgres-url> read|write <seconds> <warehouseBarcodes> <seed> <concurrency>');
const seconds = Number(secondsText);
const warehouseBarcodes = Number(warehouseBarcodesText);
const concurrency = Number(concurrencyText ?? '1');
const random = mulberry32(Number(seedText));
/** The engine's write lock (server/store/postgres/postgres-engine.ts). */
const WRITE_LOCK = 0x62697631;
const marks = (n: number, from = 2) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(',');

const READ_STOCK = {
  name: 'bench-read-stock',
  text: `SELECT u.barcode, u.item_id, u.variant_id, s.quantity, w.id AS warehouse, w.name AS warehouse_name
     FROM stock_units u LEFT JOIN stock s ON s.unit_id = u.id LEFT JOIN warehouses w ON w.id = s.warehouse_id AND w.account_id = u.account_id
     WHERE u.account_id = $1 AND u.barcode IN (${marks(BARCODES_PER_GET)})`,
  rowMode: 'array' as const,
};
const FIND_UNITS = {
  name: 'bench-find-units',
  text: `SELECT id, barcode, item_id, variant_id FROM stock_units WHERE account_id = $1 AND barcode IN (${marks(ROWS_PER_POST)})`,
};
const UPSERT = {
  name: 'bench-upsert',
  text: 'INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES ($1, $2, $3) ON CONFLICT (unit_id, warehouse_id) DO UPDATE SET quantity = excluded.quantity',
};
const HISTORY = {
  name: 'bench-history',
  text: `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc, old_quantity, new_quantity, source, token_id, reason, reference, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, 'set', $8, $9, $10, $8, 'api', 1, NULL, NULL, $11)`,
};
type Row = [string, number, number | null, number | null, number | null, string | null];
type Unit = { id: number; barcode: string; item_id: number; variant_id: number | null };

const clients = await Promise.all(
  Array.from({ length: concurrency }, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  }),
);
const account = (await clients[0]!.query<{ id: number }>('SELECT id FROM accounts WHERE name = $1', [WAREHOUSE_ACCOUNT])).rows[0]!;
// History rows of this process: an origin of its own, numbered without gaps as the store numbers them.
const origin = `bench${process.pid}`;
let seq = 0;

async function readOnce(client: pg.Client, barcodes: string[]): Promise<string> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const byBarcode = new Map<string, object[]>();
  let warehouses: { id: number; name: string }[] | undefined;
  for (const [barcode, item, variant, quantity, warehouse, warehouseName] of (
    await client.query({ ...READ_STOCK, values: [account.id, ...barcodes] })
  ).rows as Row[]) {
    let records = byBarcode.get(barcode);
    if (!records) byBarcode.set(barcode, (records = []));
    if (warehouse !== null) {
      records.push({ item, liquid_stock: variant, barcode, quantity: quantity ?? 0, warehouse, warehouse_name: warehouseName });
    } else {
      warehouses ??= (
        await client.query<{ id: number; name: string }>({
          name: 'bench-warehouses-of',
          text: 'SELECT id, name FROM warehouses WHERE account_id = $1 ORDER BY id',
          values: [account.id],
        })
      ).rows;
      for (const w of warehouses)
        records.push({ item, liquid_stock: variant, barcode, quantity: 0, warehouse: w.id, warehouse_name: w.name });
    }
  }
  await client.query('COMMIT');
  const response = { results: [] as object[], errors: [] as object[] };
  for (const barcode of barcodes) {
    const records = byBarcode.get(barcode) as { warehouse: number }[] | undefined;
    if (records && records.length > 1) records.sort((a, b) => a.warehouse - b.warehouse);
    if (records) response.results.push(...records);
    else response.errors.push({ barcode, errors: { barcode: fieldMessages.barcodeNotFound(barcode) } });
  }
  return JSON.stringify(response);
}

async function writeOnce(client: pg.Client, rows: ReturnType<typeof updateRows>): Promise<string> {
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    await client.query({ name: 'bench-lock', text: 'SELECT pg_advisory_xact_lock($1)', values: [WRITE_LOCK] });
    const units = new Map(
      (await client.query<Unit>({ ...FIND_UNITS, values: [account.id, ...rows.map((r) => r.barcode)] })).rows.map((u) => [u.barcode, u]),
    );
    const warehouses = new Map(
      (
        await client.query<{ id: number; name: string }>({
          name: 'bench-warehouses',
          text: 'SELECT id, name FROM warehouses WHERE account_id = $1',
          values: [account.id],
        })
      ).rows.map((w) => [w.name, w]),
    );
    const at = new Date().toISOString();
    const results: object[] = [];
    for (const [index, row] of rows.entries()) {
      const unit = units.get(row.barcode)!;
      const warehouse = warehouses.get(row.warehouse_name)!;
      const before = (
        await client.query<{ quantity: number }>({
          name: 'bench-old',
          text: 'SELECT quantity FROM stock WHERE unit_id = $1 AND warehouse_id = $2',
          values: [unit.id, warehouse.id],
        })
      ).rows[0]?.quantity;
      if (before !== row.quantity) {
        await client.query({ ...UPSERT, values: [unit.id, warehouse.id, row.quantity] });
        const hlc = `${String(Date.now()).padStart(16, '0')}-${String(index).padStart(5, '0')}-${origin}`;
        await client.query({
          ...HISTORY,
          values: [account.id, unit.id, unit.item_id, unit.variant_id, warehouse.id, origin, ++seq, row.quantity, hlc, before ?? null, at],
        });
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
    await client.query('COMMIT');
    return JSON.stringify({ results, errors: [] });
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

// Writes never repeat a request (a repeated row changes nothing and writes no WAL to flush).
const POOL = kind === 'read' ? 2000 : 8000;
const pool =
  kind === 'read'
    ? Array.from({ length: POOL }, () => readBarcodes(random, warehouseBarcodes))
    : Array.from({ length: POOL }, () => updateRows(random, warehouseBarcodes));
let next = 0;
const once = (client: pg.Client) => {
  const i = next++;
  return kind === 'read'
    ? readOnce(client, pool[i % POOL] as string[])
    : writeOnce(client, pool[i % POOL] as ReturnType<typeof updateRows>);
};

// Warm up (prepared statements on every connection, caches), then measure.
const loop = async (client: pg.Client, until: number, count: { iterations: number; bytes: number }) => {
  while (performance.now() < until) {
    const bytes = (await once(client)).length;
    count.iterations++;
    count.bytes += bytes;
  }
};
const warmUntil = performance.now() + 500;
await Promise.all(clients.map((client) => loop(client, warmUntil, { iterations: 0, bytes: 0 })));
const count = { iterations: 0, bytes: 0 };
const started = performance.now();
await Promise.all(clients.map((client) => loop(client, started + seconds * 1000, count)));
const elapsed = (performance.now() - started) / 1000;
await Promise.all(clients.map((client) => client.end()));
console.log(
  JSON.stringify({
    kind,
    concurrency,
    perSecond: count.iterations / elapsed,
    iterations: count.iterations,
    seconds: elapsed,
    bytes: count.bytes / count.iterations,
  }),
);
