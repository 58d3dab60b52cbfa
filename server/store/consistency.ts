// Whole-database checks: SQLite's own (integrity_check, foreign_key_check) and the store's rule that
// the stock history agrees with the stock (the latest history entry of every stock figure holds its
// quantity). Used by `barcode-inventory check`, after backup/restore, and by the tests.
import type BetterSqlite3 from 'better-sqlite3';

export interface ConsistencyReport {
  ok: boolean;
  /** `ok`, or the problems integrity_check listed. */
  integrity: string[];
  foreignKeyProblems: number;
  /** Stock figures whose latest history entry disagrees with the stored quantity (or has none). */
  historyMismatches: number;
  stockRows: number;
  historyRows: number;
}

function hasTable(sqlite: BetterSqlite3.Database, name: string): boolean {
  return sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

export function checkConsistency(sqlite: BetterSqlite3.Database): ConsistencyReport {
  const integrity = (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  const foreignKeyProblems = (sqlite.pragma('foreign_key_check') as unknown[]).length;
  let historyMismatches = 0;
  let stockRows = 0;
  let historyRows = 0;
  if (hasTable(sqlite, 'stock') && hasTable(sqlite, 'stock_history')) {
    stockRows = (sqlite.prepare('SELECT count(*) AS n FROM stock').get() as { n: number }).n;
    historyRows = (sqlite.prepare('SELECT count(*) AS n FROM stock_history').get() as { n: number }).n;
    // The history row with the highest id per (unit, warehouse) is the latest change.
    historyMismatches = (
      sqlite
        .prepare(
          `SELECT count(*) AS n FROM stock s
           LEFT JOIN stock_history h ON h.id = (
             SELECT max(id) FROM stock_history WHERE unit_id = s.unit_id AND warehouse_id = s.warehouse_id)
           WHERE h.id IS NULL OR h.new_quantity <> s.quantity`,
        )
        .get() as { n: number }
    ).n;
  }
  const ok = integrity.length === 1 && integrity[0] === 'ok' && foreignKeyProblems === 0 && historyMismatches === 0;
  return { ok, integrity, foreignKeyProblems, historyMismatches, stockRows, historyRows };
}
