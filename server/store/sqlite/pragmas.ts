// Every SQLite setting of the store in one place.
import type BetterSqlite3 from 'better-sqlite3';

/** How long a writer waits for another process's lock (e.g. an import while the server runs). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite's own cache of database pages, in KiB, for the connection's everyday work (reads, POSTs,
 * sync batches). better-sqlite3 builds SQLite with 16 MB (SQLITE_DEFAULT_CACHE_SIZE=-16000), and the
 * server's cache filled all of it at 1M barcodes: 17 MB of its malloc at the peak (heaptrack,
 * bench/NOTES.md). 8 MB holds what the bench's reads keep coming back to up to about 100k barcodes
 * (GET at 100k as fast as with 16 MB); at 1M that set is about ten times larger and neither size
 * holds it, so reads come from the operating system's file cache either way, at the same rate. The
 * server's peak at 1M fell by about 6 MB; 4 MB would have saved 13 but cost GET at 100k 14%.
 */
export const PAGE_CACHE_KIB = 8192;

/**
 * The reading connection's page cache (sqlite-engine.ts), in KiB. It reads only while writes are
 * under way, and SQLite drops a connection's whole cache when it begins a read after another
 * connection's commit: a larger cache would be emptied after every group before it filled.
 */
export const READER_PAGE_CACHE_KIB = 2048;

/** The page cache of a bulk write (an import), as better-sqlite3 builds SQLite: its b-tree inserts at random places. */
export const BULK_PAGE_CACHE_KIB = 16_000;

export function applyPragmas(sqlite: BetterSqlite3.Database): void {
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so an
  // acknowledged write survives a power cut, not only a crashed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Statement journals (a multi-row statement inside a transaction) stay in memory instead of
  // spilling to temporary files; bulk writes switch to files (withBulkWriteSettings).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
}

/**
 * The engine's reading connection (sqlite-engine.ts): it never writes (query_only makes that a
 * refusal, not a convention).
 */
export function applyReaderPragmas(sqlite: BetterSqlite3.Database): void {
  sqlite.pragma('query_only = ON');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${READER_PAGE_CACHE_KIB}`);
}

/** Fewer units than this keep no statistics (analyseStockUnitsIfGrown). */
export const STATISTICS_FROM_UNITS = 10_000;

/**
 * Keeps SQLite's query planner statistics of `stock_units` (sqlite_stat1) in step with its size: taken
 * again, in full, when there are none or the table has at least doubled since. Without them SQLite
 * guesses that `account_id = ?` leaves a handful of units, and a re-import read the whole account's
 * units through stock_units_read for every 64 items it looked up: 66 s instead of 9 for 300,000
 * barcodes, growing with the square of the catalogue (docs/DEPLOY.md, "Planner statistics").
 * - In full, not by `PRAGMA optimize`'s bounded sample: stock_units_variant holds a NULL for every
 *   plain item, which a sample of its first entries reads as one value shared by a thousand units,
 *   and the variants' look-up then scans the table. 0.5 s at a million units, paid again only when
 *   they have doubled: linear in all the units ever added.
 * - `stock_units` only: the other tables keep the plans the benchmarks measure (docs/BENCHMARKS.md).
 * - Not below STATISTICS_FROM_UNITS: statistics of a small table that then grows (a demo's three
 *   units, then plain SQL or units made one by one) are worse than none, since the planner then
 *   takes it for tiny and reads it first; without them a look-up of 64 items reads at most
 *   10,000 units, under a millisecond.
 * - Its size is its largest id: units are not deleted, and that read costs one step down the b-tree.
 * Run when the store opens and at the end of every write that may add units (a catalogue's).
 */
export function analyseStockUnitsIfGrown(sqlite: BetterSqlite3.Database): void {
  const units = sqlite.prepare('SELECT coalesce(max(id), 0) FROM stock_units').pluck().get() as number;
  if (units < STATISTICS_FROM_UNITS) return;
  const hasStatistics = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'").get();
  const stat = hasStatistics
    ? (sqlite.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'stock_units' LIMIT 1").pluck().get() as string | undefined)
    : undefined;
  const analysedAt = stat === undefined ? 0 : Number(stat.split(' ')[0]);
  if (units >= 2 * analysedAt) sqlite.exec('ANALYZE stock_units');
}

/**
 * Runs a bulk write (an import) with its own settings: SQLite's temporary tables on disk (bounded
 * by the page cache) rather than in memory, for its scratch table of a million keys, and the larger
 * page cache (BULK_PAGE_CACHE_KIB). Both go back after it; lowering the cache frees the pages
 * beyond it. Only outside a transaction (SQLite refuses to switch temp_store inside one); temporary
 * tables of this connection are dropped by the switch.
 */
export async function withBulkWriteSettings<T>(sqlite: BetterSqlite3.Database, fn: () => Promise<T>): Promise<T> {
  if (sqlite.inTransaction) return fn();
  sqlite.pragma('temp_store = FILE');
  sqlite.pragma(`cache_size = -${BULK_PAGE_CACHE_KIB}`);
  try {
    return await fn();
  } finally {
    sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    sqlite.pragma('temp_store = MEMORY');
  }
}
