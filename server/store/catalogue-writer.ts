// Writes validated catalogue parts into the store, one account header and one item at a time, so a
// whole document and a streamed file share it. Runs in the caller's transaction (one per import).
// Ids are the keys, so writing the same catalogue twice changes nothing the second time; nothing is
// ever deleted. Conflicts with what the database holds are collected as problems, not thrown.
import type {
  Catalogue,
  CatalogueAccountHeader,
  CatalogueItem,
  CatalogueReorderEntry,
  CatalogueStockEntry,
} from '../catalogue/catalogue-schema.ts';
import { UPSTREAM_CATALOGUE_ACTOR, syncMessages } from '../../shared/index.ts';
import { type ApiError, apiError, isApiError } from '../errors.ts';
import { type Param, type Queries, statement } from './engine.ts';
import type { MovementLog } from './movements/movement-log.ts';
import { writeReorderPoint } from './reorder-points.ts';
import { NO_WAREHOUSE } from './schema.ts';
import { type Actor, commandLineActor, recordAudit } from './audit.ts';
import { type StockUnit, setQuantity } from './stock-write.ts';

export interface ImportSummary {
  accounts: number;
  warehouses: number;
  items: number;
  variants: number;
  barcodes: number;
  /** Quantities that changed (each also written to the stock history). */
  quantitiesChanged: number;
}

/** A refused catalogue: every problem, each naming its place (`accounts[0].items[3].barcode: …`); nothing was written. */
export type CatalogueRefusal = ApiError & { problems: string[] };

export function catalogueRefused(problems: string[]): CatalogueRefusal {
  const error = apiError(
    400,
    `The catalogue was refused (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    { code: 'catalogue_refused' },
  );
  return Object.assign(error, { problems });
}

export function isCatalogueRefusal(error: unknown): error is CatalogueRefusal {
  return isApiError(error) && Array.isArray((error as { problems?: unknown }).problems);
}

// Run for every row of an import: compiled once (building a kysely query per row costs more than the database's work).
const itemOwner = statement('import.itemOwner', (k, p: Param<{ id: number }>) =>
  k.selectFrom('items').select(['account_id', 'name']).where('id', '=', p('id')),
);
const insertItem = statement('import.insertItem', (k, p: Param<{ id: number; accountId: number; name: string }>) =>
  k.insertInto('items').values({ id: p('id'), account_id: p('accountId'), name: p('name') }),
);
const renameItem = statement('import.renameItem', (k, p: Param<{ id: number; name: string }>) =>
  k
    .updateTable('items')
    .set({ name: p('name') })
    .where('id', '=', p('id')),
);
const variantOwner = statement('import.variantOwner', (k, p: Param<{ id: number }>) =>
  k.selectFrom('variants').select(['item_id', 'name']).where('id', '=', p('id')),
);
const insertVariant = statement('import.insertVariant', (k, p: Param<{ id: number; itemId: number; accountId: number; name: string }>) =>
  k.insertInto('variants').values({ id: p('id'), item_id: p('itemId'), account_id: p('accountId'), name: p('name') }),
);
const renameVariant = statement('import.renameVariant', (k, p: Param<{ id: number; name: string }>) =>
  k
    .updateTable('variants')
    .set({ name: p('name') })
    .where('id', '=', p('id')),
);
const unitOfItem = statement('import.unitOfItem', (k, p: Param<{ itemId: number }>) =>
  k.selectFrom('stock_units').select(['id', 'barcode']).where('item_id', '=', p('itemId')).where('variant_id', 'is', null),
);
const unitOfVariant = statement('import.unitOfVariant', (k, p: Param<{ variantId: number }>) =>
  k.selectFrom('stock_units').select(['id', 'barcode']).where('variant_id', '=', p('variantId')),
);
const unitByBarcode = statement('import.unitByBarcode', (k, p: Param<{ accountId: number; barcode: string }>) =>
  k.selectFrom('stock_units').select('id').where('account_id', '=', p('accountId')).where('barcode', '=', p('barcode')),
);
// No RETURNING here: during a bulk write SQLite keeps temporary tables on disk, and RETURNING
// buffers its row in one, which made this insert four times slower; the id is read back by barcode.
const insertUnit = statement(
  'import.insertUnit',
  (k, p: Param<{ accountId: number; barcode: string; itemId: number; variantId: number | null }>) =>
    k
      .insertInto('stock_units')
      .values({ account_id: p('accountId'), barcode: p('barcode'), item_id: p('itemId'), variant_id: p('variantId') }),
);
const setUnitBarcode = statement('import.setUnitBarcode', (k, p: Param<{ id: number; barcode: string }>) =>
  k
    .updateTable('stock_units')
    .set({ barcode: p('barcode') })
    .where('id', '=', p('id')),
);

export class CatalogueWriter {
  readonly summary: ImportSummary = { accounts: 0, warehouses: 0, items: 0, variants: 0, barcodes: 0, quantitiesChanged: 0 };
  readonly problems: string[] = [];
  private readonly log: MovementLog;
  private readonly q: Queries;
  private readonly change: { source: string; actor: string };
  private account: { id: number; name: string; path: string; warehouseIds: Map<string, number> } | undefined;
  /** Accounts whose catalogue this import changed (their catalogue version moves at the end). */
  private readonly changedAccounts = new Set<number>();

  /** Every account the catalogue wrote: each gets an audit entry of the import. */
  private readonly written: { id: number; name: string }[] = [];

  /** Writing what an upstream instance handed down: the only way a linked account's catalogue changes. */
  private readonly fromUpstream: boolean;
  /**
   * From upstream only: the reorder points the document named, per account (`unit:warehouse`). The
   * document is the whole catalogue, so the account's other reorder points were removed up there.
   */
  private readonly handedDown = new Map<number, Set<string>>();

  constructor(log: MovementLog, options: { fromUpstream?: boolean } = {}) {
    this.log = log;
    this.q = log.q;
    this.fromUpstream = options.fromUpstream ?? false;
    this.change = { source: 'import', actor: this.actor().name };
  }

  /**
   * Who imports, for the audit log: a catalogue is imported on the server computer's command line (or
   * by the launcher it ran), or handed down by the upstream of a linked account.
   */
  private actor(): Actor {
    return this.fromUpstream ? { name: UPSTREAM_CATALOGUE_ACTOR } : commandLineActor();
  }

  /**
   * Creates or checks account `a` and its warehouses. False when the account cannot take items
   * (its scenario conflicts with the database): its items are then skipped, as the problem says why.
   */
  async beginAccount(account: CatalogueAccountHeader, a: number): Promise<boolean> {
    const { q } = this;
    const path = `accounts[${a}]`;
    this.summary.accounts++;
    this.account = undefined;
    const existing = await q.first(q.k.selectFrom('accounts').select(['id', 'warehouses_enabled']).where('name', '=', account.name));
    let accountId: number;
    if (existing) {
      accountId = existing.id;
      const link = this.fromUpstream
        ? undefined
        : await q.first(q.k.selectFrom('sync_links').select('upstream_url').where('account_id', '=', existing.id));
      if (link) {
        this.problems.push(`${path}.name: ${syncMessages.linkedAccountImport(account.name, link.upstream_url)}`);
        return false;
      }
      if ((existing.warehouses_enabled === 1) !== account.warehouses_enabled) {
        this.problems.push(
          `${path}.warehouses_enabled: account "${account.name}" already exists with warehouses_enabled ${existing.warehouses_enabled === 1}; changing the scenario of an account is not supported`,
        );
        return false;
      }
    } else {
      const created = await q.first(
        q.k
          .insertInto('accounts')
          .values({ name: account.name, warehouses_enabled: account.warehouses_enabled ? 1 : 0 })
          .returning('id'),
      );
      accountId = created!.id;
      this.changedAccounts.add(accountId);
    }
    this.written.push({ id: accountId, name: account.name });

    const warehouseIds = new Map<string, number>();
    for (const [i, w] of (account.warehouses ?? []).entries()) {
      this.summary.warehouses++;
      const owner = await q.first(q.k.selectFrom('warehouses').select(['account_id', 'name']).where('id', '=', w.id));
      if (owner && owner.account_id !== accountId) {
        this.problems.push(`${path}.warehouses[${i}].id: warehouse id ${w.id} belongs to another account`);
        continue;
      }
      const sameName = await q.first(
        q.k.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('name', '=', w.name),
      );
      if (sameName && sameName.id !== w.id) {
        this.problems.push(`${path}.warehouses[${i}].name: warehouse "${w.name}" already exists with id ${sameName.id}`);
        continue;
      }
      if (!owner) await q.run(q.k.insertInto('warehouses').values({ id: w.id, account_id: accountId, name: w.name }));
      else if (owner.name !== w.name) await q.run(q.k.updateTable('warehouses').set({ name: w.name }).where('id', '=', w.id));
      if (!owner || owner.name !== w.name) this.changedAccounts.add(accountId);
      warehouseIds.set(w.name, w.id);
    }
    this.account = { id: accountId, name: account.name, path, warehouseIds };
    if (this.fromUpstream) this.handedDown.set(accountId, new Set());
    return true;
  }

  /** Writes item `i` of the account last begun. */
  async writeItem(item: CatalogueItem, i: number): Promise<void> {
    const account = this.account;
    if (!account) return;
    const { q, summary } = this;
    const itemPath = `${account.path}.items[${i}]`;
    summary.items++;
    const owner = await q.first(itemOwner, { id: item.id });
    if (owner && owner.account_id !== account.id) {
      this.problems.push(`${itemPath}.id: item id ${item.id} belongs to another account`);
      return;
    }
    if (!owner) await q.run(insertItem, { id: item.id, accountId: account.id, name: item.name });
    else if (owner.name !== item.name) await q.run(renameItem, { id: item.id, name: item.name });
    if (!owner || owner.name !== item.name) this.changedAccounts.add(account.id);

    if (item.barcode !== undefined) {
      const unit = await this.upsertUnit(item.barcode, item.id, null, `${itemPath}.barcode`, !owner);
      if (unit) {
        await this.applyStock(unit, item.stock);
        await this.applyReorder(unit, item.reorder);
      }
    }
    for (const [j, variant] of (item.variants ?? []).entries()) {
      const variantPath = `${itemPath}.variants[${j}]`;
      summary.variants++;
      const vOwner = await q.first(variantOwner, { id: variant.id });
      if (vOwner && vOwner.item_id !== item.id) {
        this.problems.push(`${variantPath}.id: variant id ${variant.id} belongs to another item`);
        continue;
      }
      if (!vOwner) await q.run(insertVariant, { id: variant.id, itemId: item.id, accountId: account.id, name: variant.name });
      else if (vOwner.name !== variant.name) await q.run(renameVariant, { id: variant.id, name: variant.name });
      if (!vOwner || vOwner.name !== variant.name) this.changedAccounts.add(account.id);
      const unit = await this.upsertUnit(variant.barcode, item.id, variant.id, `${variantPath}.barcode`, !vOwner);
      if (unit) {
        await this.applyStock(unit, variant.stock);
        await this.applyReorder(unit, variant.reorder);
      }
    }
  }

  /** `created`: the item or variant was inserted just now, so no unit can hold it yet (one lookup saved per row). */
  /** `isNew`: the unit was inserted just now, so it holds no stock anywhere yet. */
  private async upsertUnit(
    barcode: string,
    itemId: number,
    variantId: number | null,
    where: string,
    created: boolean,
  ): Promise<(StockUnit & { isNew?: boolean }) | undefined> {
    const { q } = this;
    const account = this.account!;
    const holder = created
      ? undefined
      : variantId === null
        ? await q.first(unitOfItem, { itemId })
        : await q.first(unitOfVariant, { variantId });
    const byBarcode = await q.first(unitByBarcode, { accountId: account.id, barcode });
    if (byBarcode && byBarcode.id !== holder?.id) {
      this.problems.push(`${where}: barcode "${barcode}" already belongs to another item or variant of account "${account.name}"`);
      return undefined;
    }
    this.summary.barcodes++;
    if (!holder) {
      await q.run(insertUnit, { accountId: account.id, barcode, itemId, variantId });
      this.changedAccounts.add(account.id);
      const inserted = await q.first(unitByBarcode, { accountId: account.id, barcode });
      return { id: inserted!.id, barcode, itemId, variantId, isNew: true };
    }
    if (holder.barcode !== barcode) {
      await q.run(setUnitBarcode, { id: holder.id, barcode });
      this.changedAccounts.add(account.id);
    }
    return { id: holder.id, barcode, itemId, variantId };
  }

  /** The import's last step: reorder points upstream no longer has go, and the catalogue version of every account it changed moves on. */
  async finish(): Promise<void> {
    for (const [accountId, kept] of this.handedDown) {
      const held = await this.q.all(
        this.q.k.selectFrom('reorder_points').select(['unit_id', 'warehouse_id']).where('account_id', '=', accountId),
      );
      for (const point of held) {
        if (kept.has(`${point.unit_id}:${point.warehouse_id}`)) continue;
        await writeReorderPoint(this.q, accountId, point.unit_id, point.warehouse_id, { minimum: null, target: null });
        this.changedAccounts.add(accountId);
      }
    }
    // An upstream's catalogue is written again only when it moved; an import is recorded whatever it changed.
    const actor = this.actor();
    for (const { id, name } of this.written) {
      if (this.fromUpstream && !this.changedAccounts.has(id)) continue;
      await recordAudit(this.q, id, actor, { action: 'catalogue.import', subject: `account ${name}`, detail: { ...this.summary } });
    }
    for (const accountId of this.changedAccounts) {
      await this.q.run(
        this.q.k
          .updateTable('accounts')
          .set((eb) => ({ catalogue_version: eb('catalogue_version', '+', 1) }))
          .where('id', '=', accountId),
      );
    }
  }

  /** Sets the unit's reorder points the catalogue names; an import leaves the others (from upstream, finish() removes them). */
  private async applyReorder(unit: StockUnit, reorder: CatalogueReorderEntry[] | undefined): Promise<void> {
    const account = this.account!;
    for (const entry of reorder ?? []) {
      const warehouseId = entry.warehouse === undefined ? NO_WAREHOUSE : account.warehouseIds.get(entry.warehouse);
      if (warehouseId === undefined) continue; // only after a warehouse problem already reported
      this.handedDown.get(account.id)?.add(`${unit.id}:${warehouseId}`);
      if (await writeReorderPoint(this.q, account.id, unit.id, warehouseId, { minimum: entry.minimum, target: entry.target ?? null }))
        this.changedAccounts.add(account.id);
    }
  }

  private async applyStock(unit: StockUnit & { isNew?: boolean }, stock: CatalogueStockEntry[] | undefined): Promise<void> {
    const account = this.account!;
    for (const entry of stock ?? []) {
      const warehouseId = entry.warehouse === undefined ? NO_WAREHOUSE : account.warehouseIds.get(entry.warehouse);
      if (warehouseId === undefined) continue; // only after a warehouse problem already reported
      // A unit created just now holds no stock yet: no need to read a quantity that cannot exist.
      const before = await setQuantity(this.log, account.id, unit, warehouseId, entry.quantity, this.change, {
        onlyIfChanged: true,
        ...(unit.isNew ? { current: null } : {}),
      });
      if (before !== entry.quantity) this.summary.quantitiesChanged++;
    }
  }
}

/** Writes a parsed catalogue in the caller's transaction, all or nothing: conflicts with the database refuse it. */
export async function writeCatalogue(
  log: MovementLog,
  catalogue: Catalogue,
  options: { fromUpstream?: boolean } = {},
): Promise<ImportSummary> {
  const writer = new CatalogueWriter(log, options);
  for (const [a, account] of catalogue.accounts.entries()) {
    if (await writer.beginAccount(account, a)) {
      for (const [i, item] of account.items.entries()) await writer.writeItem(item, i);
    }
  }
  if (writer.problems.length > 0) throw catalogueRefused(writer.problems);
  await writer.finish();
  return writer.summary;
}
