// What a catalogue CSV's checks across rows remember, on disk instead of in JavaScript maps: its
// items, units (barcodes), variants and stock and reorder entries, each with the line it came from.
// A line may name any item, so an item's rows are gathered from the whole file before the item can
// be written; at 1,755,000 lines the maps and the catalogue built from them took 2.2 GB
// (bench/NOTES.md). Here they take a temporary SQLite file in the system's temp folder (TMPDIR) and
// a small page cache, and the items come back one at a time, in the order the file first named them.
// The file is private to the user (its folder 0700) and removed by `close`, or by the next `csv import`
// when its process ended without it. SQLite here is a table on
// disk, whatever engine the store itself runs on; it lives in this folder because only this folder
// uses better-sqlite3 (DEVELOPERS.md).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { CatalogueItem } from '../../catalogue/catalogue-schema.ts';

/** Rows written between two commits of the scratch file (it needs no durability: a failed import removes it). */
const ROWS_PER_TRANSACTION = 20_000;
/** SQLite's page cache for the scratch file, in KiB: what it holds in memory whatever the file's size. */
const PAGE_CACHE_KIB = 16 * 1024;
/** Items read back at a time. */
const ITEMS_PER_PAGE = 500;

/** The scratch folder's name: this prefix, the process id, then mkdtemp's random part. */
const FOLDER_PREFIX = 'barcode-inventory-csv-';

/**
 * Removes the scratch folders of `csv import` processes that are gone: `close` never ran for a
 * process stopped with Ctrl-C, killed or out of memory, and its file can be as large as the CSV. A
 * folder whose process still runs (or whose number another process now has) is left alone, and so
 * is one this user may not remove.
 */
function removeLeftFolders(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name)?.[1] ?? Number.NaN);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    try {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // another user's, or in use: not ours to remove
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it runs, as another user
  }
}

export interface ScratchItem {
  name: string;
  line: number;
  plainBarcode: string | null;
  plainLine: number | null;
  variants: number;
}

export interface ScratchUnit {
  itemId: number;
  variantId: number | null;
  line: number;
}

export interface StockEntry {
  warehouse: string;
  quantity: number;
}

export interface ReorderEntry {
  warehouse: string;
  minimum: number;
  target: number | null;
}

/** An item as the catalogue takes it, with the line it came from (for problems found later; a variant's: `variantLine`). */
export interface ItemWithLine {
  item: CatalogueItem;
  line: number;
}

export class CsvCatalogueScratch {
  private readonly dir: string;
  private readonly db: BetterSqlite3.Database;
  private readonly statements: Record<string, BetterSqlite3.Statement>;
  /** Rows added since the scratch file's last commit. */
  private rowsInTransaction = 0;

  constructor() {
    removeLeftFolders();
    this.dir = mkdtempSync(path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
    try {
      this.db = new Database(path.join(this.dir, 'rows.db'));
    } catch (error) {
      rmSync(this.dir, { recursive: true, force: true });
      throw error;
    }
    // No flush to disk: the file is thrown away whatever happens. (Its rollback journal stays: better-sqlite3's
    // defensive mode refuses journal_mode OFF, and a journal on disk costs no memory.)
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    this.db.exec(`
      CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, line INTEGER NOT NULL,
        plain_barcode TEXT, plain_line INTEGER, variants INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX items_in_file_order ON items (line);
      CREATE TABLE units (barcode TEXT PRIMARY KEY, item_id INTEGER NOT NULL, variant_id INTEGER, line INTEGER NOT NULL) WITHOUT ROWID;
      -- Keyed in file order under their item or unit (the line that named its barcode first), so that
      -- reading them back in the file's order of items is one pass over each table, with no sort; the
      -- checks look one up among its item's variants or its unit's entries, a few rows each.
      CREATE TABLE variants (item_id INTEGER NOT NULL, line INTEGER NOT NULL, variant_id INTEGER NOT NULL, name TEXT NOT NULL,
        barcode TEXT NOT NULL, PRIMARY KEY (item_id, line)) WITHOUT ROWID;
      CREATE TABLE entries (unit_line INTEGER NOT NULL, line INTEGER NOT NULL, warehouse TEXT NOT NULL, reorder INTEGER NOT NULL,
        quantity INTEGER, minimum INTEGER, target INTEGER, PRIMARY KEY (unit_line, line, reorder)) WITHOUT ROWID;
    `);
    const prepare = (sql: string) => this.db.prepare(sql);
    this.statements = {
      item: prepare('SELECT name, line, plain_barcode AS plainBarcode, plain_line AS plainLine, variants FROM items WHERE id = +?'),
      addItem: prepare('INSERT INTO items (id, name, line) VALUES (?, ?, ?)'),
      setPlain: prepare('UPDATE items SET plain_barcode = ?, plain_line = ? WHERE id = +?'),
      countVariant: prepare('UPDATE items SET variants = variants + 1 WHERE id = +?'),
      unit: prepare('SELECT item_id AS itemId, variant_id AS variantId, line FROM units WHERE barcode = +?'),
      addUnit: prepare('INSERT INTO units (barcode, item_id, variant_id, line) VALUES (?, ?, ?, ?)'),
      variant: prepare('SELECT name, barcode, line FROM variants WHERE item_id = +? AND variant_id = +?'),
      addVariant: prepare('INSERT INTO variants (item_id, variant_id, name, barcode, line) VALUES (?, ?, ?, ?, ?)'),
      entryLine: prepare('SELECT line FROM entries WHERE unit_line = +? AND warehouse = +? AND reorder = +?').pluck(),
      addEntry: prepare(
        'INSERT INTO entries (unit_line, warehouse, reorder, line, quantity, minimum, target) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      itemsInOrder: prepare(
        'SELECT id, name, coalesce(plain_line, line) AS line, line AS firstLine, plain_barcode AS plainBarcode FROM items WHERE items.line > +? ORDER BY items.line LIMIT +?',
      ),
      variantsOf: prepare('SELECT variant_id AS id, name, barcode, line FROM variants WHERE item_id = +? ORDER BY line'),
      entriesOf: prepare('SELECT warehouse, reorder, quantity, minimum, target FROM entries WHERE unit_line = +? ORDER BY line'),
      variantLine: prepare('SELECT line FROM variants WHERE item_id = +? ORDER BY line LIMIT 1 OFFSET +?').pluck(),
    };
    this.db.exec('BEGIN');
  }

  /** Called once per row added: commits now and then, so the page cache stays the bound. */
  rowDone(): void {
    if (!this.db.inTransaction) throw new Error('the rows of a catalogue CSV were read back before all were added');
    if (++this.rowsInTransaction < ROWS_PER_TRANSACTION) return;
    this.db.exec('COMMIT; BEGIN');
    this.rowsInTransaction = 0;
  }

  item(id: number): ScratchItem | undefined {
    return this.statements.item!.get(id) as ScratchItem | undefined;
  }

  addItem(id: number, name: string, line: number): void {
    this.statements.addItem!.run(id, name, line);
  }

  unit(barcode: string): ScratchUnit | undefined {
    return this.statements.unit!.get(barcode) as ScratchUnit | undefined;
  }

  addPlainUnit(itemId: number, barcode: string, line: number): void {
    this.statements.addUnit!.run(barcode, itemId, null, line);
    this.statements.setPlain!.run(barcode, line, itemId);
  }

  variant(itemId: number, variantId: number): { name: string; barcode: string; line: number } | undefined {
    return this.statements.variant!.get(itemId, variantId) as { name: string; barcode: string; line: number } | undefined;
  }

  addVariantUnit(itemId: number, variantId: number, name: string, barcode: string, line: number): void {
    this.statements.addUnit!.run(barcode, itemId, variantId, line);
    this.statements.addVariant!.run(itemId, variantId, name, barcode, line);
    this.statements.countVariant!.run(itemId);
  }

  /** The line of the stock (or reorder) entry in `warehouse` ('' for none) of the unit first named on `unitLine`, if there is one. */
  entryLine(unitLine: number, warehouse: string, reorder: boolean): number | undefined {
    return this.statements.entryLine!.get(unitLine, warehouse, reorder ? 1 : 0) as number | undefined;
  }

  addStock(unitLine: number, warehouse: string, line: number, quantity: number): void {
    this.statements.addEntry!.run(unitLine, warehouse, 0, line, quantity, null, null);
  }

  addReorder(unitLine: number, warehouse: string, line: number, minimum: number, target: number | undefined): void {
    this.statements.addEntry!.run(unitLine, warehouse, 1, line, null, minimum, target ?? null);
  }

  /** The items as the catalogue takes them, in the order the file first named them; each unit's entries in file order. */
  *items(): Generator<ItemWithLine> {
    // Read as often as asked (a dry run, then the import): the rows were all added before the first read.
    if (this.db.inTransaction) this.db.exec('COMMIT');
    // One read transaction for the whole pass: outside one, each statement takes and drops SQLite's
    // file lock and reads the file's header again (14 µs a unit, most of the pass).
    this.db.exec('BEGIN');
    try {
      for (let after = 0; ;) {
        const page = this.statements.itemsInOrder!.all(after, ITEMS_PER_PAGE) as {
          id: number;
          name: string;
          line: number;
          firstLine: number;
          plainBarcode: string | null;
        }[];
        if (page.length === 0) return;
        after = page[page.length - 1]!.firstLine;
        for (const { id, name, line, plainBarcode } of page) {
          if (plainBarcode !== null) {
            yield { item: { id, name, barcode: plainBarcode, ...this.entriesOf(line) }, line };
            continue;
          }
          const variants = this.statements.variantsOf!.all(id) as { id: number; name: string; barcode: string; line: number }[];
          yield {
            item: { id, name, variants: variants.map((v) => ({ id: v.id, name: v.name, barcode: v.barcode, ...this.entriesOf(v.line) })) },
            line,
          };
        }
      }
    } finally {
      this.db.exec('COMMIT');
    }
  }

  /** The line of the `index`-th variant (in file order) of item `itemId`. */
  variantLine(itemId: number, index: number): number | undefined {
    return this.statements.variantLine!.get(itemId, index) as number | undefined;
  }

  /** The line of the stock entry of `barcode` in `warehouse` ('' for none), for the dry run's report. */
  stockLine(barcode: string, warehouse: string): number | undefined {
    const unit = this.unit(barcode);
    return unit && this.entryLine(unit.line, warehouse, false);
  }

  /** The stock and reorder entries of the unit first named on `unitLine`, in file order. */
  private entriesOf(unitLine: number): Pick<CatalogueItem, 'stock' | 'reorder'> {
    const stock: { warehouse?: string; quantity: number }[] = [];
    const reorder: { warehouse?: string; minimum: number; target?: number }[] = [];
    for (const e of this.statements.entriesOf!.all(unitLine) as (ReorderEntry & StockEntry & { reorder: number })[]) {
      const where = e.warehouse === '' ? {} : { warehouse: e.warehouse };
      if (e.reorder === 0) stock.push({ ...where, quantity: e.quantity });
      else reorder.push({ ...where, minimum: e.minimum, ...(e.target === null ? {} : { target: e.target }) });
    }
    return { ...(stock.length > 0 ? { stock } : {}), ...(reorder.length > 0 ? { reorder } : {}) };
  }

  /** Closes the scratch file and removes it. */
  close(): void {
    try {
      this.db.close();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
