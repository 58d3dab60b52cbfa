// An import's scratch table of keys on SQLite: a TEMP table of this connection (on disk during a
// bulk write, see withBulkWriteSettings), so a million barcodes never sit in JavaScript maps.
import type BetterSqlite3 from 'better-sqlite3';
import type { ScratchClaim, ScratchKeys } from '../engine.ts';

/** Claims inserted by one statement: a million-barcode import makes two million claims. */
const CLAIMS_PER_INSERT = 64;

export class SqliteScratchKeys implements ScratchKeys {
  private readonly sqlite: BetterSqlite3.Database;
  private readonly insert: BetterSqlite3.Statement;
  private readonly insertMany: BetterSqlite3.Statement;
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
    this.insertMany = sqlite.prepare(
      `INSERT INTO temp.scratch_keys (kind, key, code) VALUES ${Array(CLAIMS_PER_INSERT).fill('(?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
    );
    // `+?`: planned once, not again at every run (fixed-plan-compiler.ts).
    this.select = sqlite.prepare('SELECT code FROM temp.scratch_keys WHERE kind = +? AND key = +?').pluck();
  }

  async claimAll(claims: readonly ScratchClaim[]): Promise<(number | undefined)[]> {
    const firsts: (number | undefined)[] = [];
    let from = 0;
    for (; from + CLAIMS_PER_INSERT <= claims.length; from += CLAIMS_PER_INSERT) {
      const chunk = claims.slice(from, from + CLAIMS_PER_INSERT);
      const values: (string | number)[] = [];
      for (const { kind, key, code } of chunk) values.push(kind, key, code);
      if (this.insertMany.run(values).changes === chunk.length) {
        for (let i = 0; i < chunk.length; i++) firsts.push(undefined);
        continue;
      }
      // Some key was used before (rare: the import will be refused). The rows go in in order, so a
      // key's first claim, in this chunk too, holds its code; a claim whose code is not there came later.
      for (const { kind, key, code } of chunk) {
        const first = this.select.get(kind, key) as number;
        firsts.push(first === code ? undefined : first);
      }
    }
    for (const { kind, key, code } of claims.slice(from)) {
      firsts.push(this.insert.run(kind, key, code).changes === 1 ? undefined : (this.select.get(kind, key) as number));
    }
    return firsts;
  }

  async drop(): Promise<void> {
    this.sqlite.exec('DROP TABLE IF EXISTS temp.scratch_keys');
  }
}
