// Every SQLite setting of the store in one place.
import type BetterSqlite3 from 'better-sqlite3';

/** How long a writer waits for another process's lock (e.g. an import while the server runs). */
export const BUSY_TIMEOUT_MS = 5000;

export function applyPragmas(sqlite: BetterSqlite3.Database): void {
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so an
  // acknowledged write survives a power cut, not only a crashed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Statement journals (a multi-row statement inside a transaction) stay in memory instead of
  // spilling to temporary files; bulk writes switch to files (withTemporaryTablesOnDisk).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

/**
 * Runs `fn` with SQLite's temporary tables on disk (bounded by the page cache) rather than in
 * memory: for an import's scratch table of a million keys. Only outside a transaction (SQLite
 * refuses to switch inside one); temporary tables of this connection are dropped by the switch.
 */
export async function withTemporaryTablesOnDisk<T>(sqlite: BetterSqlite3.Database, fn: () => Promise<T>): Promise<T> {
  if (sqlite.inTransaction) return fn();
  sqlite.pragma('temp_store = FILE');
  try {
    return await fn();
  } finally {
    sqlite.pragma('temp_store = MEMORY');
  }
}
