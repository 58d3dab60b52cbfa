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
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}
