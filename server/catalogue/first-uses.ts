// Where each id and barcode of a catalogue was first used, to name the place of a duplicate. In
// memory for a parsed document; in a temporary table for a streamed file, whose million barcodes
// would otherwise cost the importer a hundred megabytes of JavaScript maps.
import type { Database } from '../store/database.ts';

/** Item ids, variant ids, and the barcodes of one account (barcodes are unique per account). */
export type UseKind = 'item' | 'variant' | { barcodesOfAccount: number };

export interface FirstUses {
  /** Records `code` as the first use of `key`; when `key` was used before, returns that earlier code instead. */
  claim(kind: UseKind, key: string | number, code: number): number | undefined;
}

export class MemoryFirstUses implements FirstUses {
  private readonly maps = new Map<string, Map<string | number, number>>();

  claim(kind: UseKind, key: string | number, code: number): number | undefined {
    const name = typeof kind === 'string' ? kind : `barcode:${kind.barcodesOfAccount}`;
    let map = this.maps.get(name);
    if (!map) this.maps.set(name, (map = new Map()));
    const first = map.get(key);
    if (first === undefined) map.set(key, code);
    return first;
  }
}

/** Backed by a TEMP table (on disk when run under withTemporaryTablesOnDisk); dropped by close(). */
export class TableFirstUses implements FirstUses {
  private readonly db: Database;
  private readonly insert;
  private readonly select;

  constructor(db: Database) {
    this.db = db;
    db.sqlite.exec(
      'CREATE TEMP TABLE IF NOT EXISTS catalogue_first_uses (kind INTEGER NOT NULL, key NOT NULL, code INTEGER NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID',
    );
    db.sqlite.exec('DELETE FROM temp.catalogue_first_uses');
    // Keys arrive mostly in order, so a small cache suffices; the main database keeps its own.
    db.sqlite.pragma('temp.cache_size = -4000');
    this.insert = db.sqlite.prepare('INSERT INTO temp.catalogue_first_uses (kind, key, code) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.select = db.sqlite.prepare('SELECT code FROM temp.catalogue_first_uses WHERE kind = ? AND key = ?').pluck();
  }

  claim(kind: UseKind, key: string | number, code: number): number | undefined {
    const k = kind === 'item' ? 0 : kind === 'variant' ? 1 : 2 + kind.barcodesOfAccount;
    if (this.insert.run(k, key, code).changes === 1) return undefined;
    return this.select.get(k, key) as number;
  }

  close(): void {
    this.db.sqlite.exec('DROP TABLE IF EXISTS temp.catalogue_first_uses');
  }
}
