// Writes validated catalogue parts into the store, one account header and one item at a time, so a
// whole document and a streamed file share it. Must run inside one transaction (the caller's).
// Ids are the keys, so writing the same catalogue twice changes nothing the second time; nothing is
// ever deleted. Conflicts with what the database holds are collected as problems, not thrown.
import type { Database } from '../store/database.ts';
import { NO_WAREHOUSE } from '../store/schema.ts';
import { type StockUnit, setQuantity } from '../store/stock-write.ts';
import type { CatalogueAccountHeader, CatalogueItem, CatalogueStockEntry } from './catalogue-schema.ts';

export interface ImportSummary {
  accounts: number;
  warehouses: number;
  items: number;
  variants: number;
  barcodes: number;
  /** Quantities that changed (each also written to the stock history). */
  quantitiesChanged: number;
}

export class CatalogueWriter {
  readonly summary: ImportSummary = { accounts: 0, warehouses: 0, items: 0, variants: 0, barcodes: 0, quantitiesChanged: 0 };
  readonly problems: string[] = [];
  private readonly db: Database;
  private readonly at = new Date().toISOString();
  private readonly change = { source: 'import' };
  private account: { id: number; name: string; path: string; warehouseIds: Map<string, number> } | undefined;
  private readonly sql;

  constructor(db: Database) {
    this.db = db;
    const k = db.kysely;
    // Built once and reused for every row: compiling a kysely builder per row would cost more than SQLite.
    this.sql = {
      itemOwner: db.prepared('import.itemOwner', () => k.selectFrom('items').select(['account_id', 'name']).where('id', '=', 0)),
      insertItem: db.prepared('import.insertItem', () => k.insertInto('items').values({ id: 0, account_id: 0, name: '' })),
      renameItem: db.prepared('import.renameItem', () => k.updateTable('items').set({ name: '' }).where('id', '=', 0)),
      variantOwner: db.prepared('import.variantOwner', () => k.selectFrom('variants').select(['item_id', 'name']).where('id', '=', 0)),
      insertVariant: db.prepared('import.insertVariant', () => k.insertInto('variants').values({ id: 0, item_id: 0, account_id: 0, name: '' })),
      renameVariant: db.prepared('import.renameVariant', () => k.updateTable('variants').set({ name: '' }).where('id', '=', 0)),
      unitOfItem: db.prepared('import.unitOfItem', () =>
        k.selectFrom('stock_units').select(['id', 'barcode']).where('item_id', '=', 0).where('variant_id', 'is', null),
      ),
      unitOfVariant: db.prepared('import.unitOfVariant', () => k.selectFrom('stock_units').select(['id', 'barcode']).where('variant_id', '=', 0)),
      unitByBarcode: db.prepared('import.unitByBarcode', () =>
        k.selectFrom('stock_units').select('id').where('account_id', '=', 0).where('barcode', '=', ''),
      ),
      insertUnit: db.prepared('import.insertUnit', () =>
        k.insertInto('stock_units').values({ account_id: 0, barcode: '', item_id: 0, variant_id: 0 }),
      ),
      setUnitBarcode: db.prepared('import.setUnitBarcode', () => k.updateTable('stock_units').set({ barcode: '' }).where('id', '=', 0)),
    };
  }

  /**
   * Creates or checks account `a` and its warehouses. False when the account cannot take items
   * (its scenario conflicts with the database): its items are then skipped, as the problem says why.
   */
  beginAccount(account: CatalogueAccountHeader, a: number): boolean {
    const { db } = this;
    const k = db.kysely;
    const path = `accounts[${a}]`;
    this.summary.accounts++;
    this.account = undefined;
    const existing = db.first(k.selectFrom('accounts').selectAll().where('name', '=', account.name));
    let accountId: number;
    if (existing) {
      accountId = existing.id;
      if ((existing.warehouses_enabled === 1) !== account.warehouses_enabled) {
        this.problems.push(
          `${path}.warehouses_enabled: account "${account.name}" already exists with warehouses_enabled ${existing.warehouses_enabled === 1}; changing the scenario of an account is not supported`,
        );
        return false;
      }
    } else {
      accountId = Number(db.run(k.insertInto('accounts').values({ name: account.name, warehouses_enabled: account.warehouses_enabled ? 1 : 0 })).lastInsertRowid);
    }

    const warehouseIds = new Map<string, number>();
    account.warehouses?.forEach((w, i) => {
      this.summary.warehouses++;
      const owner = db.first(k.selectFrom('warehouses').select(['account_id', 'name']).where('id', '=', w.id));
      if (owner && owner.account_id !== accountId) return this.problems.push(`${path}.warehouses[${i}].id: warehouse id ${w.id} belongs to another account`);
      const sameName = db.first(k.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('name', '=', w.name));
      if (sameName && sameName.id !== w.id) return this.problems.push(`${path}.warehouses[${i}].name: warehouse "${w.name}" already exists with id ${sameName.id}`);
      if (!owner) db.run(k.insertInto('warehouses').values({ id: w.id, account_id: accountId, name: w.name }));
      else if (owner.name !== w.name) db.run(k.updateTable('warehouses').set({ name: w.name }).where('id', '=', w.id));
      warehouseIds.set(w.name, w.id);
    });
    this.account = { id: accountId, name: account.name, path, warehouseIds };
    return true;
  }

  /** Writes item `i` of the account last begun. */
  writeItem(item: CatalogueItem, i: number): void {
    const account = this.account;
    if (!account) return;
    const { sql, summary } = this;
    const itemPath = `${account.path}.items[${i}]`;
    summary.items++;
    const owner = sql.itemOwner.get(item.id);
    if (owner && owner.account_id !== account.id) {
      this.problems.push(`${itemPath}.id: item id ${item.id} belongs to another account`);
      return;
    }
    if (!owner) sql.insertItem.run(item.id, account.id, item.name);
    else if (owner.name !== item.name) sql.renameItem.run(item.name, item.id);

    if (item.barcode !== undefined) {
      const unit = this.upsertUnit(item.barcode, item.id, null, `${itemPath}.barcode`, !owner);
      if (unit) this.applyStock(unit, item.stock);
    }
    item.variants?.forEach((variant, j) => {
      const variantPath = `${itemPath}.variants[${j}]`;
      summary.variants++;
      const vOwner = sql.variantOwner.get(variant.id);
      if (vOwner && vOwner.item_id !== item.id) return this.problems.push(`${variantPath}.id: variant id ${variant.id} belongs to another item`);
      if (!vOwner) sql.insertVariant.run(variant.id, item.id, account.id, variant.name);
      else if (vOwner.name !== variant.name) sql.renameVariant.run(variant.name, variant.id);
      const unit = this.upsertUnit(variant.barcode, item.id, variant.id, `${variantPath}.barcode`, !vOwner);
      if (unit) this.applyStock(unit, variant.stock);
    });
  }

  /** `created`: the item or variant was inserted just now, so no unit can hold it yet (one lookup saved per row). */
  private upsertUnit(barcode: string, itemId: number, variantId: number | null, where: string, created: boolean): StockUnit | undefined {
    const { sql } = this;
    const account = this.account!;
    const holder = created ? undefined : variantId === null ? sql.unitOfItem.get(itemId) : sql.unitOfVariant.get(variantId);
    const byBarcode = sql.unitByBarcode.get(account.id, barcode);
    if (byBarcode && byBarcode.id !== holder?.id) {
      this.problems.push(`${where}: barcode "${barcode}" already belongs to another item or variant of account "${account.name}"`);
      return undefined;
    }
    this.summary.barcodes++;
    if (!holder) {
      const id = Number(sql.insertUnit.run(account.id, barcode, itemId, variantId).lastInsertRowid);
      return { id, barcode, itemId, variantId };
    }
    if (holder.barcode !== barcode) sql.setUnitBarcode.run(barcode, holder.id);
    return { id: holder.id, barcode, itemId, variantId };
  }

  private applyStock(unit: StockUnit, stock: CatalogueStockEntry[] | undefined): void {
    const account = this.account!;
    for (const entry of stock ?? []) {
      const warehouseId = entry.warehouse === undefined ? NO_WAREHOUSE : account.warehouseIds.get(entry.warehouse);
      if (warehouseId === undefined) continue; // only after a warehouse problem already reported
      const before = setQuantity(this.db, account.id, unit, warehouseId, entry.quantity, this.change, this.at);
      if (before !== entry.quantity) this.summary.quantitiesChanged++;
    }
  }
}
