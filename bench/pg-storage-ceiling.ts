// The PostgreSQL storage ceiling: the `pg` client in one process, no HTTP, doing the storage work of
// one request as fast as it can, in `concurrency` loops side by side, each on its own connection (as
// the load generator's connections would reach the database). Read: the same 50-barcode query with
// the same joins as bench/storage-ceiling.ts, in the engine's read transaction (REPEATABLE READ READ
// ONLY), building the same answer and JSON.stringify of it. Write: the same 50-row transaction in the
// engine's write shape (READ COMMITTED, the one-writer advisory lock, unit and warehouse lookups,
// the old quantities, then the upserts and history rows, set-based as the server writes them since
// issue 30, COMMIT), durable (the cluster runs fsync=on, synchronous_commit=on). Prints one JSON line: {"kind", "concurrency", "perSecond", "iterations", "seconds", "bytes"}.
import pg from 'pg';
import { HLC_KEY_COUNTERS } from '../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../server/store/movements/movement-names.ts';
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

/** The stored quantities of the request's places, in one statement. */
const OLD_QUANTITIES = {
  name: 'bench-old-quantities',
  text: `SELECT s.unit_id, s.warehouse_id, s.quantity FROM stock s
     JOIN unnest($1::integer[], $2::integer[]) AS p(unit_id, warehouse_id) ON s.unit_id = p.unit_id AND s.warehouse_id = p.warehouse_id`,
};
/** The changed quantities, in one statement (a request names each place once: distinct barcodes). */
const UPSERT_MANY = {
  name: 'bench-upsert-many',
  text: `INSERT INTO stock (unit_id, warehouse_id, quantity) SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[])
     ON CONFLICT (unit_id, warehouse_id) DO UPDATE SET quantity = excluded.quantity`,
};
/** Their history rows, in one statement. */
const HISTORY_MANY = {
  name: 'bench-history-many',
  text: `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, hlc_counter, old_quantity, new_quantity, source_id, token_id, actor_id, reason, reference, created_ms)
     SELECT $1, h.unit_id, h.item_id, h.variant_id, h.warehouse_id, $2, h.seq, 'set', h.value, h.hlc_key, h.hlc_counter, h.old_quantity, h.value, ${SOURCE_IDS.api}, 1, 1, NULL, NULL, $3
     FROM unnest($4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::integer[], $9::integer[], $10::integer[], $11::integer[], $12::bigint[])
       AS h(unit_id, item_id, variant_id, warehouse_id, seq, value, hlc_counter, old_quantity, hlc_key)`,
};

/**
 * The write, set-based as the server writes on PostgreSQL (server/store/movements/movement-log.ts):
 * the quantities read in one statement, the changes applied in memory, then one upsert and one
 * history INSERT for all of them. Statements that do not wait on each other's answers are queued
 * together, so the JavaScript does not take a turn of the loop between them.
 */
async function writeOnce(client: pg.Client, rows: ReturnType<typeof updateRows>): Promise<string> {
  const begun = [
    client.query('BEGIN ISOLATION LEVEL READ COMMITTED'),
    client.query({ name: 'bench-lock', text: 'SELECT pg_advisory_xact_lock($1)', values: [WRITE_LOCK] }),
  ];
  try {
    const [found, named] = await Promise.all([
      client.query<Unit>({ ...FIND_UNITS, values: [account.id, ...rows.map((r) => r.barcode)] }),
      client.query<{ id: number; name: string }>({
        name: 'bench-warehouses',
        text: 'SELECT id, name FROM warehouses WHERE account_id = $1',
        values: [account.id],
      }),
      ...begun,
    ]);
    const units = new Map(found.rows.map((u) => [u.barcode, u]));
    const warehouses = new Map(named.rows.map((w) => [w.name, w]));
    const places = rows.map((row) => ({
      unit: units.get(row.barcode)!,
      warehouse: warehouses.get(row.warehouse_name)!,
      quantity: row.quantity,
    }));
    const stored = new Map(
      (
        await client.query<{ unit_id: number; warehouse_id: number; quantity: number }>({
          ...OLD_QUANTITIES,
          values: [places.map((p) => p.unit.id), places.map((p) => p.warehouse.id)],
        })
      ).rows.map((r) => [`${r.unit_id}/${r.warehouse_id}`, r.quantity]),
    );
    const at = Date.now();
    const changed = places
      .map((place, index) => ({ ...place, index, before: stored.get(`${place.unit.id}/${place.warehouse.id}`) ?? null }))
      .filter((place) => place.before !== place.quantity);
    const results = places.map(({ unit, warehouse, quantity }) => ({
      item: unit.item_id,
      liquid_stock: unit.variant_id,
      barcode: unit.barcode,
      quantity,
      warehouse: warehouse.id,
      warehouse_name: warehouse.name,
    }));
    const column = <T>(pick: (place: (typeof changed)[number]) => T) => changed.map(pick);
    await Promise.all([
      client.query({ ...UPSERT_MANY, values: [column((p) => p.unit.id), column((p) => p.warehouse.id), column((p) => p.quantity)] }),
      client.query({
        ...HISTORY_MANY,
        values: [
          account.id,
          origin,
          at,
          column((p) => p.unit.id),
          column((p) => p.unit.item_id),
          column((p) => p.unit.variant_id),
          column((p) => p.warehouse.id),
          column(() => ++seq),
          column((p) => p.quantity),
          // The counter; the text (`hlc`) is the engine's, made from the key's wall time, the counter and the origin.
          column((p) => p.index),
          column((p) => p.before),
          column((p) => at * HLC_KEY_COUNTERS + Math.min(p.index, HLC_KEY_COUNTERS - 1)),
        ],
      }),
      client.query('COMMIT'),
    ]);
    return JSON.stringify({ results, errors: [] });
  } catch (error) {
    await Promise.allSettled(begun);
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
