// The cross-field rules of the catalogue format (one of barcode/variants, stock that fits the
// scenario, unique ids and barcodes), checked one account and one item at a time, so the same rules
// serve the whole-document schema and the streaming file import. First uses are remembered as
// small integers rather than path arrays: a million-barcode catalogue must fit in little memory.
import type { CatalogueAccountHeader, CatalogueItem, CatalogueReorderEntry, CatalogueStockEntry } from './catalogue-schema.ts';
import { type FirstUse, type FirstUses, MemoryFirstUses } from './first-uses.ts';

export type Path = (string | number)[];
export type ReportIssue = (path: Path, message: string) => void;

/** `['accounts', 0, 'items', 3, 'barcode']` → `accounts[0].items[3].barcode`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out === '' ? '(catalogue)' : out;
}

interface CheckedAccount {
  index: number;
  warehousesEnabled: boolean;
  warehouseNames: Set<string>;
}

export class CatalogueChecker {
  private readonly report: ReportIssue;
  private readonly accountNames = new Map<string, Path>();
  private readonly warehouseIds = new Map<number, Path>();
  /**
   * First uses of item ids (code: item ordinal, `itemBase[a] + i`), variant ids (code: variant
   * ordinal, whose item ordinal and index are in the two arrays below) and barcodes (code: the item
   * ordinal for an item's barcode, -(variant ordinal + 1) for a variant's).
   */
  private readonly uses: FirstUses;
  private readonly variantItem: number[] = [];
  private readonly variantIndex: number[] = [];
  /** First item ordinal of each account checked so far, by account index. */
  private readonly itemBase: { account: number; base: number }[] = [];
  private nextItemBase = 0;
  private account: CheckedAccount | undefined;
  /** Items taken by queueItem and the keys they claim, until `settle`. */
  private readonly queuedItems: { item: CatalogueItem; i: number; account: CheckedAccount }[] = [];
  private readonly queuedKeys: FirstUse[] = [];

  constructor(report: ReportIssue, uses: FirstUses = new MemoryFirstUses()) {
    this.report = report;
    this.uses = uses;
  }

  /** Checks an account's own fields (after `settle`: its problems come after the items before it); its items follow. */
  checkAccount(account: CatalogueAccountHeader, a: number): void {
    if (this.queuedItems.length > 0) throw new Error('checkAccount before the queued items were settled');
    const path: Path = ['accounts', a];
    this.uniquePath(this.accountNames, account.name, [...path, 'name'], 'account name');
    if (!account.warehouses_enabled && account.warehouses && account.warehouses.length > 0) {
      this.report([...path, 'warehouses'], 'an account with warehouses_enabled false has no warehouses');
    }
    const warehouseNames = new Map<string, Path>();
    account.warehouses?.forEach((w, i) => {
      this.uniquePath(this.warehouseIds, w.id, [...path, 'warehouses', i, 'id'], 'warehouse id');
      this.uniquePath(warehouseNames, w.name, [...path, 'warehouses', i, 'name'], 'warehouse name');
    });
    this.account = { index: a, warehousesEnabled: account.warehouses_enabled, warehouseNames: new Set(warehouseNames.keys()) };
    this.itemBase.push({ account: a, base: this.nextItemBase });
  }

  /** Checks item `i` of the account last given to checkAccount, at once (queueItem, then settle). */
  async checkItem(item: CatalogueItem, i: number): Promise<void> {
    this.queueItem(item, i);
    await this.settle();
  }

  /** First uses waiting for `settle`: a streamed import settles every few hundred of them. */
  get queuedUses(): number {
    return this.queuedKeys.length;
  }

  /**
   * Takes item `i` of the account last given to checkAccount; its rules are checked and reported at
   * the next `settle`, in the order the items came. Its ids and barcodes are claimed there together
   * with those of the items queued beside it: one statement per 64 keys on PostgreSQL, not one each.
   */
  queueItem(item: CatalogueItem, i: number): void {
    const account = this.account;
    if (!account) throw new Error('queueItem before checkAccount');
    const base = this.itemBase[this.itemBase.length - 1]!.base;
    const ordinal = base + i;
    this.nextItemBase = Math.max(this.nextItemBase, ordinal + 1);
    const barcodes = { barcodesOfAccount: account.index };
    // The keys in the order they were claimed one by one before: the item's id and barcode, then each
    // variant's id and barcode.
    this.queuedKeys.push({ kind: 'item', key: item.id, code: ordinal });
    if (item.barcode !== undefined) this.queuedKeys.push({ kind: barcodes, key: item.barcode, code: ordinal });
    for (const [j, variant] of (item.variants ?? []).entries()) {
      const variantOrdinal = this.variantItem.length;
      this.variantItem.push(ordinal);
      this.variantIndex.push(j);
      this.queuedKeys.push({ kind: 'variant', key: variant.id, code: variantOrdinal });
      this.queuedKeys.push({ kind: barcodes, key: variant.barcode, code: -(variantOrdinal + 1) });
    }
    this.queuedItems.push({ item, i, account });
  }

  /** Claims the queued items' keys and reports their problems, item after item, each in its place. */
  async settle(): Promise<void> {
    if (this.queuedItems.length === 0) return;
    const items = this.queuedItems.splice(0);
    const firsts = await this.uses.claimAll(this.queuedKeys.splice(0));
    let next = 0;
    for (const { item, i, account } of items) {
      const itemPath: Path = ['accounts', account.index, 'items', i];
      const firstItem = firsts[next++];
      if (firstItem !== undefined) this.duplicate([...itemPath, 'id'], 'item id', item.id, [...this.itemPath(firstItem), 'id']);
      if ((item.barcode === undefined) === (item.variants === undefined)) {
        this.report(itemPath, 'an item has either "barcode" (it holds stock itself) or "variants", not both and not neither');
      }
      if (item.variants && item.stock)
        this.report([...itemPath, 'stock'], 'an item with variants holds no stock itself; give stock per variant');
      if (item.variants && item.reorder)
        this.report([...itemPath, 'reorder'], 'an item with variants holds no stock itself; give reorder points per variant');
      if (item.barcode !== undefined) this.barcodeUsed(item.barcode, firsts[next++], [...itemPath, 'barcode']);
      this.checkStock(account, item.stock, [...itemPath, 'stock']);
      this.checkReorder(account, item.reorder, [...itemPath, 'reorder']);
      for (const [j, variant] of (item.variants ?? []).entries()) {
        const variantPath: Path = [...itemPath, 'variants', j];
        const firstVariant = firsts[next++];
        if (firstVariant !== undefined)
          this.duplicate([...variantPath, 'id'], 'variant id', variant.id, [...this.variantPath(firstVariant), 'id']);
        this.barcodeUsed(variant.barcode, firsts[next++], [...variantPath, 'barcode']);
        this.checkStock(account, variant.stock, [...variantPath, 'stock']);
        this.checkReorder(account, variant.reorder, [...variantPath, 'reorder']);
      }
    }
  }

  private checkStock(account: CheckedAccount, stock: CatalogueStockEntry[] | undefined, path: Path): void {
    this.checkPlaces(account, stock, path, 'stock entry');
  }

  /** Reorder points name their warehouses as stock entries do; a target is at least the minimum. */
  private checkReorder(account: CheckedAccount, reorder: CatalogueReorderEntry[] | undefined, path: Path): void {
    this.checkPlaces(account, reorder, path, 'reorder point');
    reorder?.forEach((r, i) => {
      if (r.target !== undefined && r.target < r.minimum) this.report([...path, i, 'target'], 'The target may not be below the minimum.');
    });
  }

  /** One entry per warehouse of the account (a declared one), or at most one without a warehouse in an account without warehouses. */
  private checkPlaces(
    account: CheckedAccount,
    entries: readonly { warehouse?: string | undefined }[] | undefined,
    path: Path,
    what: string,
  ): void {
    if (!entries) return;
    if (!account.warehousesEnabled) {
      if (entries.length > 1) this.report(path, `an account without warehouses has at most one ${what} per barcode`);
      entries.forEach((s, i) => {
        if (s.warehouse !== undefined)
          this.report(
            [...path, i, 'warehouse'],
            `an account without warehouses has no warehouse in its ${what === 'stock entry' ? 'stock entries' : `${what}s`}`,
          );
      });
      return;
    }
    const used = new Map<string, Path>();
    entries.forEach((s, i) => {
      const where: Path = [...path, i, 'warehouse'];
      if (s.warehouse === undefined) return this.report(where, 'This field is required.');
      if (!account.warehouseNames.has(s.warehouse)) return this.report(where, `No warehouses found with name: ${s.warehouse}`);
      this.uniquePath(used, s.warehouse, where, `${what} for warehouse`);
    });
  }

  /** `first`: the code of the barcode's first use when this one is not the first. */
  private barcodeUsed(barcode: string, first: number | undefined, path: Path): void {
    if (first !== undefined)
      this.duplicate(
        path,
        'barcode',
        barcode,
        first >= 0 ? [...this.itemPath(first), 'barcode'] : [...this.variantPath(-first - 1), 'barcode'],
      );
  }

  private uniquePath<K>(map: Map<K, Path>, key: K, path: Path, what: string): void {
    const first = map.get(key);
    if (first) this.duplicate(path, what, key, first);
    else map.set(key, path);
  }

  private duplicate(path: Path, what: string, key: unknown, first: Path): void {
    this.report(path, `duplicate ${what} ${JSON.stringify(key)}, first used at ${formatPath(first)}`);
  }

  private itemPath(ordinal: number): Path {
    for (let k = this.itemBase.length - 1; k >= 0; k--) {
      const { account, base } = this.itemBase[k]!;
      if (base <= ordinal) return ['accounts', account, 'items', ordinal - base];
    }
    throw new Error(`no account holds item ordinal ${ordinal}`);
  }

  private variantPath(ordinal: number): Path {
    return [...this.itemPath(this.variantItem[ordinal]!), 'variants', this.variantIndex[ordinal]!];
  }
}
