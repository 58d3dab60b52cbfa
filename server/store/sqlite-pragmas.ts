// Every SQLite-specific setting in one place, so a PostgreSQL store only has to replace this file's role.
import type BetterSqlite3 from 'better-sqlite3';

/** How long a writer waits for another process's lock (e.g. an import while the server runs). */
export const BUSY_TIMEOUT_MS = 5000;

export function applyPragmas(sqlite: BetterSqlite3.Database): void {
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so an
  // acknowledged write survives a power cut, not only a crashed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // A nested transaction (a SAVEPOINT, e.g. an update inside the idempotent-write transaction)
  // journals every page it changes; past 64 KB that journal spills to a temporary file. A 50-row
  // update changes ~400 pages: kept in memory instead, the same request wrote 590 pages instead of
  // 986 and POST went from ~125 to ~170 req/s (docs/BENCHMARKS.md).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

/**
 * Runs `fn` with SQLite's temporary tables on disk (bounded by the page cache) rather than in
 * memory: for the catalogue import's scratch table of a million keys. Only outside a transaction
 * (SQLite refuses to switch there); temporary tables of this connection are dropped by the switch.
 */
export function withTemporaryTablesOnDisk<T>(sqlite: BetterSqlite3.Database, fn: () => T): T {
  if (sqlite.inTransaction) return fn();
  sqlite.pragma('temp_store = FILE');
  try {
    return fn();
  } finally {
    sqlite.pragma('temp_store = MEMORY');
  }
}
