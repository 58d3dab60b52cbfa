// The leaner movement log, first step (issue 30): the history's indexes hold each movement's
// timestamp as an 8-byte integer order key (`hlc_key`, movements/hlc.ts) instead of its 33-character
// text. Five indexes held the text; at 1M barcodes (1.8M movements) they were 509 MB of a 1,020 MB
// database (bench/NOTES.md). The text stays in the row: it is what sync sends, what cursors carry
// and what breaks the key's rare ties, so every query keeps its meaning and adds the key's range
// (`hlc_key <= hlcKey(X)` beside `hlc < X`) for the index to seek.
//
// Existing rows get their key from their text, in one UPDATE, then the five indexes are built again
// on the key. The column's default 0 is only there because SQLite cannot add a NOT NULL column
// without one: the one INSERT into the history (movements/movement-log.ts) always writes the key, and
// the consistency check (consistency.ts) counts any row whose key is not its text's.
import type { Kysely } from 'kysely';
import { hlcKeyInSql } from '../movements/hlc-key-sql.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_history')
    .addColumn('hlc_key', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('stock_history')
    .set({ hlc_key: hlcKeyInSql('hlc') })
    .execute();
  for (const index of ['unit_hlc', 'account_hlc', 'warehouse_hlc', 'source_hlc', 'actor'])
    await db.schema.dropIndex(`stock_history_${index}`).execute();
  // Each index, with the queries it answers (every one in `hlc_key, hlc` order, or a range of it):
  // The fold of one unit in one warehouse: movements.latest, .absoluteBefore, .after, .from and the
  // preload's latest per place (movements/movement-log.ts); the stock chart (stock-chart.ts); a
  // stocktake's changes since each count (stocktakes/lines.ts); the low-stock list's sales
  // (low-stock.ts); the consistency check's latest per place (consistency.ts).
  await db.schema.createIndex('stock_history_unit_hlc').on('stock_history').columns(['unit_id', 'warehouse_id', 'hlc_key']).execute();
  // The account's history, newest first (stock-history.ts); its movements per day (movements-per-day.ts);
  // its latest timestamp (movements.latestOfAccount, movements.accountState).
  await db.schema.createIndex('stock_history_account_hlc').on('stock_history').columns(['account_id', 'hlc_key']).execute();
  // A warehouse's history, and its movements per day.
  await db.schema.createIndex('stock_history_warehouse_hlc').on('stock_history').columns(['warehouse_id', 'hlc_key']).execute();
  // The history filtered by source, and by actor (one person's changes).
  await db.schema.createIndex('stock_history_source_hlc').on('stock_history').columns(['account_id', 'source', 'hlc_key']).execute();
  await db.schema.createIndex('stock_history_actor').on('stock_history').columns(['account_id', 'actor', 'hlc_key']).execute();
}
