// The ceiling of a sync round (bench/sync-round.ts): the movements a follower has to push, inserted
// straight into the upstream's history table with better-sqlite3 — one prepared INSERT per row, one
// durable `BEGIN IMMEDIATE` transaction per batch of the size a push carries, the store's pragmas —
// and nothing else: no HTTP, no JSON, no checks, no fold. Run on a copy of the upstream's database
// as it was before the round. Prints one JSON line: {"ms", "rows", "batches"}.
//
// With `quantities` last, each batch also writes the quantities its rows leave (one prepared upsert
// per unit and warehouse of the batch, its last row's quantity): everything a round writes durably,
// still with no reading, no HTTP and no fold. The target is against the ceiling without them.
import BetterSqlite3 from 'better-sqlite3';
import { hlcCounter, hlcKey } from '../server/store/movements/hlc.ts';
import { applyPragmas } from '../server/store/sqlite/pragmas.ts';

const [upstreamCopy, followerDb, account, batchText, mode] = process.argv.slice(2);
if (!upstreamCopy || !followerDb || !account || !batchText || (mode !== undefined && mode !== 'quantities')) {
  throw new Error('usage: sync-ceiling.ts <upstream copy> <follower database> <account> <batch size> [quantities]');
}
const batch = Number(batchText);
const withQuantities = mode === 'quantities';

type Row = {
  item_id: number;
  variant_id: number | null;
  warehouse_id: number;
  origin: string;
  seq: number;
  kind: string;
  value: number;
  hlc: string;
  old_quantity: number | null;
  new_quantity: number;
  source_id: number;
  reason: string | null;
  reference: string | null;
  created_ms: number;
};

// The rows: the follower's own movements of the account, in sequence (what its round pushes).
const follower = new BetterSqlite3(followerDb, { readonly: true });
const instance = (follower.prepare('SELECT id FROM instance').get() as { id: string }).id;
const rows = follower
  .prepare(
    `SELECT h.item_id, h.variant_id, h.warehouse_id, h.origin, h.seq, h.kind, h.value, h.hlc, h.old_quantity, h.new_quantity, h.source_id, h.reason, h.reference, h.created_ms
     FROM stock_history h JOIN accounts a ON a.id = h.account_id WHERE a.name = ? AND h.origin = ? ORDER BY h.seq`,
  )
  .all(account, instance) as Row[];
follower.close();

const sqlite = new BetterSqlite3(upstreamCopy);
applyPragmas(sqlite);
const accountId = (sqlite.prepare('SELECT id FROM accounts WHERE name = ?').get(account) as { id: number }).id;
const unitOf = new Map(
  (
    sqlite.prepare('SELECT id, item_id, variant_id FROM stock_units WHERE account_id = ?').all(accountId) as {
      id: number;
      item_id: number;
      variant_id: number | null;
    }[]
  ).map((u) => [`${u.item_id}/${u.variant_id ?? ''}`, u.id]),
);
const insert = sqlite.prepare(
  `INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, hlc_counter, seen_vector, old_quantity, new_quantity, source_id, token_id, reason, reference, created_ms)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, ?, ?, ?)`,
);
const upsertQuantity = sqlite.prepare(
  'INSERT INTO stock (unit_id, warehouse_id, quantity) VALUES (?, ?, ?) ON CONFLICT (unit_id, warehouse_id) DO UPDATE SET quantity = excluded.quantity',
);
const insertBatch = sqlite.transaction((part: Row[]) => {
  const left = new Map<string, [number, number, number]>();
  for (const r of part) {
    const unit = unitOf.get(`${r.item_id}/${r.variant_id ?? ''}`)!;
    insert.run(
      accountId,
      unit,
      r.item_id,
      r.variant_id,
      r.warehouse_id,
      r.origin,
      r.seq,
      r.kind,
      r.value,
      hlcKey(r.hlc),
      hlcCounter(r.hlc),
      r.old_quantity,
      r.new_quantity,
      r.source_id,
      r.reason,
      r.reference,
      r.created_ms,
    );
    if (withQuantities) left.set(`${unit}/${r.warehouse_id}`, [unit, r.warehouse_id, r.new_quantity]);
  }
  for (const values of left.values()) upsertQuantity.run(...values);
});

const started = performance.now();
let batches = 0;
for (let i = 0; i < rows.length; i += batch) {
  insertBatch.immediate(rows.slice(i, i + batch));
  batches++;
}
const ms = performance.now() - started;
sqlite.close();
console.log(JSON.stringify({ ms, rows: rows.length, batches }));
