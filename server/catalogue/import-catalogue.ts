// Loads a validated catalogue into the store in one transaction. Ids are the keys, so importing the
// same catalogue twice changes nothing the second time. Nothing is ever deleted by an import.
import type { Database } from '../store/database.ts';
import { NO_WAREHOUSE } from '../store/schema.ts';
import { type StockUnit, setQuantity } from '../store/stock-write.ts';
import { type Catalogue, type CatalogueAccount, catalogueSchema, formatPath } from './catalogue-schema.ts';

export class CatalogueError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The catalogue was refused (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

export interface ImportSummary {
  accounts: number;
  warehouses: number;
  items: number;
  variants: number;
  barcodes: number;
  /** Quantities that changed (each also written to the stock history). */
  quantitiesChanged: number;
}

/** Validates a parsed JSON document against the catalogue format; throws CatalogueError with every problem. */
export function parseCatalogue(document: unknown): Catalogue {
  const parsed = catalogueSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  throw new CatalogueError(parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`));
}

/** Writes the catalogue, all or nothing. Conflicts with what the database holds are refused too. */
export function importCatalogue(db: Database, catalogue: Catalogue): ImportSummary {
  const summary: ImportSummary = { accounts: 0, warehouses: 0, items: 0, variants: 0, barcodes: 0, quantitiesChanged: 0 };
  const problems: string[] = [];
  const at = new Date().toISOString();
  const change = { source: 'import' };
  db.transaction(() => {
    catalogue.accounts.forEach((account, a) => importAccount(db, account, `accounts[${a}]`, problems, summary, change, at));
    // Throwing rolls the whole transaction back.
    if (problems.length > 0) throw new CatalogueError(problems);
  });
  return summary;
}

function importAccount(
  db: Database,
  account: CatalogueAccount,
  path: string,
  problems: string[],
  summary: ImportSummary,
  change: { source: string },
  at: string,
): void {
  const k = db.kysely;
  summary.accounts++;
  const existing = db.first(k.selectFrom('accounts').selectAll().where('name', '=', account.name));
  let accountId: number;
  if (existing) {
    accountId = existing.id;
    if ((existing.warehouses_enabled === 1) !== account.warehouses_enabled) {
      problems.push(`${path}.warehouses_enabled: account "${account.name}" already exists with warehouses_enabled ${existing.warehouses_enabled === 1}; changing the scenario of an account is not supported`);
      return;
    }
  } else {
    accountId = Number(db.run(k.insertInto('accounts').values({ name: account.name, warehouses_enabled: account.warehouses_enabled ? 1 : 0 })).lastInsertRowid);
  }

  const warehouseIds = new Map<string, number>();
  account.warehouses?.forEach((w, i) => {
    summary.warehouses++;
    const owner = db.first(k.selectFrom('warehouses').select(['account_id', 'name']).where('id', '=', w.id));
    if (owner && owner.account_id !== accountId) return problems.push(`${path}.warehouses[${i}].id: warehouse id ${w.id} belongs to another account`);
    const sameName = db.first(k.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('name', '=', w.name));
    if (sameName && sameName.id !== w.id) return problems.push(`${path}.warehouses[${i}].name: warehouse "${w.name}" already exists with id ${sameName.id}`);
    if (!owner) db.run(k.insertInto('warehouses').values({ id: w.id, account_id: accountId, name: w.name }));
    else if (owner.name !== w.name) db.run(k.updateTable('warehouses').set({ name: w.name }).where('id', '=', w.id));
    warehouseIds.set(w.name, w.id);
  });

  const itemOwner = db.prepared('import.itemOwner', () => k.selectFrom('items').select(['account_id', 'name']).where('id', '=', 0));
  const insertItem = db.prepared('import.insertItem', () => k.insertInto('items').values({ id: 0, account_id: 0, name: '' }));
  const renameItem = db.prepared('import.renameItem', () => k.updateTable('items').set({ name: '' }).where('id', '=', 0));
  const variantOwner = db.prepared('import.variantOwner', () => k.selectFrom('variants').select(['item_id', 'name']).where('id', '=', 0));
  const insertVariant = db.prepared('import.insertVariant', () => k.insertInto('variants').values({ id: 0, item_id: 0, account_id: 0, name: '' }));
  const renameVariant = db.prepared('import.renameVariant', () => k.updateTable('variants').set({ name: '' }).where('id', '=', 0));

  const upsertUnit = (barcode: string, itemId: number, variantId: number | null, where: string): StockUnit | undefined => {
    const holder = db.first(
      variantId === null
        ? k.selectFrom('stock_units').select(['id', 'barcode']).where('item_id', '=', itemId).where('variant_id', 'is', null)
        : k.selectFrom('stock_units').select(['id', 'barcode']).where('variant_id', '=', variantId),
    );
    const byBarcode = db.first(k.selectFrom('stock_units').select('id').where('account_id', '=', accountId).where('barcode', '=', barcode));
    if (byBarcode && byBarcode.id !== holder?.id) {
      problems.push(`${where}: barcode "${barcode}" already belongs to another item or variant of account "${account.name}"`);
      return undefined;
    }
    summary.barcodes++;
    if (!holder) {
      const id = Number(db.run(k.insertInto('stock_units').values({ account_id: accountId, barcode, item_id: itemId, variant_id: variantId })).lastInsertRowid);
      return { id, barcode, itemId, variantId };
    }
    if (holder.barcode !== barcode) db.run(k.updateTable('stock_units').set({ barcode }).where('id', '=', holder.id));
    return { id: holder.id, barcode, itemId, variantId };
  };

  const applyStock = (unit: StockUnit, stock: { warehouse?: string | undefined; quantity: number }[] | undefined) => {
    for (const entry of stock ?? []) {
      const warehouseId = entry.warehouse === undefined ? NO_WAREHOUSE : warehouseIds.get(entry.warehouse);
      if (warehouseId === undefined) continue; // only after a warehouse problem already reported
      const before = setQuantity(db, accountId, unit, warehouseId, entry.quantity, change, at);
      if (before !== entry.quantity) summary.quantitiesChanged++;
    }
  };

  account.items.forEach((item, i) => {
    const itemPath = `${path}.items[${i}]`;
    summary.items++;
    const owner = itemOwner.get(item.id);
    if (owner && owner.account_id !== accountId) return problems.push(`${itemPath}.id: item id ${item.id} belongs to another account`);
    if (!owner) insertItem.run(item.id, accountId, item.name);
    else if (owner.name !== item.name) renameItem.run(item.name, item.id);

    if (item.barcode !== undefined) {
      const unit = upsertUnit(item.barcode, item.id, null, `${itemPath}.barcode`);
      if (unit) applyStock(unit, item.stock);
    }
    item.variants?.forEach((variant, j) => {
      const variantPath = `${itemPath}.variants[${j}]`;
      summary.variants++;
      const vOwner = variantOwner.get(variant.id);
      if (vOwner && vOwner.item_id !== item.id) return problems.push(`${variantPath}.id: variant id ${variant.id} belongs to another item`);
      if (!vOwner) insertVariant.run(variant.id, item.id, accountId, variant.name);
      else if (vOwner.name !== variant.name) renameVariant.run(variant.name, variant.id);
      const unit = upsertUnit(variant.barcode, item.id, variant.id, `${variantPath}.barcode`);
      if (unit) applyStock(unit, variant.stock);
    });
  });
}
