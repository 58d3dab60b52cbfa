// An import's scratch table of keys on SQLite: a TEMP table of this connection (on disk during a
// bulk write, see withTemporaryTablesOnDisk), so a million barcodes never sit in JavaScript maps.
import type BetterSqlite3 from 'better-sqlite3';
import type { ScratchClaim, ScratchKeys } from '../engine.ts';

export class SqliteScratchKeys implements ScratchKeys {
  private readonly sqlite: BetterSqlite3.Database;
  private readonly insert: BetterSqlite3.Statement;
  private readonly select: BetterSqlite3.Statement;

  constructor(sqlite: BetterSqlite3.Database) {
    this.sqlite = sqlite;
    sqlite.exec(
      'CREATE TEMP TABLE IF NOT EXISTS scratch_keys (kind INTEGER NOT NULL, key NOT NULL, code INTEGER NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID',
    );
    sqlite.exec('DELETE FROM temp.scratch_keys');
    // Keys arrive mostly in order, so a small cache suffices; the main database keeps its own.
    sqlite.pragma('temp.cache_size = -4000');
    this.insert = sqlite.prepare('INSERT INTO temp.scratch_keys (kind, key, code) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.select = sqlite.prepare('SELECT code FROM temp.scratch_keys WHERE kind = ? AND key = ?').pluck();
  }

  async claimAll(claims: readonly ScratchClaim[]): Promise<(number | undefined)[]> {
    return claims.map(({ kind, key, code }) =>
      this.insert.run(kind, key, code).changes === 1 ? undefined : (this.select.get(kind, key) as number),
    );
  }

  async drop(): Promise<void> {
    this.sqlite.exec('DROP TABLE IF EXISTS temp.scratch_keys');
  }
}
