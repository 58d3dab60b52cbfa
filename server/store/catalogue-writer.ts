// Writes validated catalogue parts into the store, one account header at a time and its items a
// chunk at a time (writeChunk), so a whole document and a streamed file share it. Runs in the
// caller's transaction (one per import).
// Ids are the keys, so writing the same catalogue twice changes nothing the second time; nothing is
// ever deleted. Conflicts with what the database holds are collected as problems, not thrown.
import type {
  Catalogue,
  CatalogueAccountHeader,
  CatalogueItem,
  CatalogueReorderEntry,
  CatalogueStockEntry,
} from '../catalogue/catalogue-schema.ts';
import { type MovementSourceName, UPSTREAM_CATALOGUE_ACTOR, syncMessages } from '../../shared/index.ts';
import { type ApiError, apiError, isApiError } from '../errors.ts';
import { sql } from 'kysely';
import { type Param, type Queries, columnsOf, inChunks, statement } from './engine.ts';
import type { MovementLog } from './movements/movement-log.ts';
import { writeReorderPoint } from './reorder-points.ts';
import { NO_WAREHOUSE } from './schema.ts';
import { type Actor, commandLineActor, recordAudit } from './audit.ts';
import { type StockUnit, setQuantity } from './stock-write.ts';
import { ProblemList, formatCount, unlistedProblems } from './problem-list.ts';

export interface ImportSummary {
  accounts: number;
  warehouses: number;
  items: number;
  variants: number;
  barcodes: number;
  /** Quantities that changed (each also written to the stock history). */
  quantitiesChanged: number;
}

/**
 * A refused catalogue: its first problems (MAX_PROBLEMS_LISTED at most, problem-list.ts), each naming
 * its place (`accounts[0].items[3].barcode: …`), and how many there were in all; nothing was written.
 */
export type CatalogueRefusal = ApiError & { problems: string[]; problemCount: number };

/**
 * The refusal of a catalogue with `problemCount` problems, of which `problems` are the first, in file
 * order (a ProblemList's `listed` and `count`). Its message says the total, lists those, and says how
 * many more there were: a file with a million bad rows must not become a message of a million lines.
 */
export function catalogueRefused(problems: readonly string[], problemCount: number = problems.length): CatalogueRefusal {
  const more = unlistedProblems(problems.length, problemCount);
  const error = apiError(
    400,
    `The catalogue was refused (${formatCount(problemCount)} problem${problemCount === 1 ? '' : 's'}); nothing was written:\n` +
      [...problems, ...(more === undefined ? [] : [more])].map((line) => `  ${line}`).join('\n'),
    { code: 'catalogue_refused' },
  );
  return Object.assign(error, { problems: [...problems], problemCount });
}

export function isCatalogueRefusal(error: unknown): error is CatalogueRefusal {
  return isApiError(error) && Array.isArray((error as { problems?: unknown }).problems);
}

// An import writes a chunk of items at a time (see CatalogueWriter.writeChunk): what the chunk's ids
// and barcodes already are is read in one statement per kind and per MAX_CHUNK_LENGTH values, and
// what it adds goes in as multi-row INSERTs; a statement per row made a million-barcode import pay
// millions of statements (a round trip each on PostgreSQL).
const itemsById = statement('import.itemsById', (k, p: Param<{ ids: number[] }>) =>
  k.selectFrom('items').select(['id', 'account_id', 'name']).where('id', 'in', p.list('ids')),
);
const insertItems = statement('import.insertItems', (k, p: Param<{ accountId: number; id: number[]; name: string[] }>) => {
  const ids = p.list('id') as unknown as number[];
  const names = p.list('name') as unknown as string[];
  return k.insertInto('items').values(ids.map((_, i) => ({ id: ids[i]!, account_id: p('accountId'), name: names[i]! })));
});
/**
 * New names for many rows of `items` or `variants` in one statement (`CASE id WHEN … THEN …`): a
 * re-import that renames every item is a statement per chunk, not one per item (on PostgreSQL each
 * is a round trip: 100,000 renames took 10.7 s one by one; bench/NOTES.md, "Re-imports").
 */
function renameAll(table: 'items' | 'variants', name: string) {
  return statement(name, (k, p: Param<{ id: number[]; name: string[] }>) => {
    const ids = p.list('id') as unknown as number[];
    const names = p.list('name') as unknown as string[];
    const newName = sql<string>`case ${sql.ref('id')} ${sql.join(
      ids.map((id, i) => sql`when ${id} then ${names[i]!}`),
      sql` `,
    )} end`;
    return k.updateTable(table).set({ name: newName }).where('id', 'in', ids);
  });
}
const renameItems = renameAll('items', 'import.renameItems');
const variantsById = statement('import.variantsById', (k, p: Param<{ ids: number[] }>) =>
  k.selectFrom('variants').select(['id', 'item_id', 'name']).where('id', 'in', p.list('ids')),
);
const insertVariants = statement(
  'import.insertVariants',
  (k, p: Param<{ accountId: number; id: number[]; itemId: number[]; name: string[] }>) => {
    const ids = p.list('id') as unknown as number[];
    const itemIds = p.list('itemId') as unknown as number[];
    const names = p.list('name') as unknown as string[];
    return k
      .insertInto('variants')
      .values(ids.map((_, i) => ({ id: ids[i]!, item_id: itemIds[i]!, account_id: p('accountId'), name: names[i]! })));
  },
);
const renameVariants = renameAll('variants', 'import.renameVariants');
/**
 * The units of items that hold stock themselves. By account too: SQLite answers an IN list from
 * stock_units_export_order, not from the partial index stock_units_plain_item (a scan, 8 ms a chunk).
 */
const unitsOfItems = statement('import.unitsOfItems', (k, p: Param<{ accountId: number; itemIds: number[] }>) =>
  k
    .selectFrom('stock_units')
    .select(['id', 'barcode', 'item_id', 'variant_id'])
    .where('account_id', '=', p('accountId'))
    .where('item_id', 'in', p.list('itemIds'))
    .where('variant_id', 'is', null),
);
const unitsOfVariants = statement('import.unitsOfVariants', (k, p: Param<{ variantIds: number[] }>) =>
  k.selectFrom('stock_units').select(['id', 'barcode', 'item_id', 'variant_id']).where('variant_id', 'in', p.list('variantIds')),
);
const unitsByBarcode = statement('import.unitsByBarcode', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units')
    .select(['id', 'barcode', 'item_id', 'variant_id'])
    .where('account_id', '=', p('accountId'))
    .where('barcode', 'in', p.list('barcodes')),
);
// The ids come back by RETURNING. During a bulk write SQLite keeps temporary tables on disk, and
// RETURNING buffers its rows in one: that made a one-row insert four times slower, but a 64-row one
// only 21% (255 against 210 us at 100k), less than reading the ids back by barcode (one more
// statement per 64 units, a round trip on PostgreSQL).
const insertUnits = statement(
  'import.insertUnits',
  (k, p: Param<{ accountId: number; barcode: string[]; itemId: number[]; variantId: (number | null)[] }>) => {
    const barcodes = p.list('barcode') as unknown as string[];
    const itemIds = p.list('itemId') as unknown as number[];
    const variantIds = p.list('variantId') as unknown as (number | null)[];
    return k
      .insertInto('stock_units')
      .values(
        barcodes.map((_, i) => ({ account_id: p('accountId'), barcode: barcodes[i]!, item_id: itemIds[i]!, variant_id: variantIds[i]! })),
      )
      .returning(['id', 'barcode']);
  },
);
const setUnitBarcode = statement('import.setUnitBarcode', (k, p: Param<{ id: number; barcode: string }>) =>
  k
    .updateTable('stock_units')
    .set({ barcode: p('barcode') })
    .where('id', '=', p('id')),
);

const reorderOfUnits = statement('import.reorderOfUnits', (k, p: Param<{ unitIds: number[] }>) =>
  k.selectFrom('reorder_points').select(['unit_id', 'warehouse_id', 'minimum', 'target']).where('unit_id', 'in', p.list('unitIds')),
);
const insertReorderPoints = statement(
  'import.insertReorderPoints',
  (k, p: Param<{ accountId: number; unitId: number[]; warehouseId: number[]; minimum: number[]; target: (number | null)[] }>) => {
    const unitIds = p.list('unitId') as unknown as number[];
    const warehouseIds = p.list('warehouseId') as unknown as number[];
    const minimums = p.list('minimum') as unknown as number[];
    const targets = p.list('target') as unknown as (number | null)[];
    return k.insertInto('reorder_points').values(
      unitIds.map((_, i) => ({
        unit_id: unitIds[i]!,
        warehouse_id: warehouseIds[i]!,
        account_id: p('accountId'),
        minimum: minimums[i]!,
        target: targets[i]!,
      })),
    );
  },
);

/** Items are written this many barcodes at a time (an item's own and its variants'): see writeChunk. */
export const CHUNK_BARCODES = 512;

/** A unit as a chunk sees it: read from the database (`id` known) or inserted by the chunk (`id` once inserted). */
interface ChunkUnit {
  id: number | undefined;
  barcode: string;
  itemId: number;
  variantId: number | null;
}

/** A barcode of the chunk that was written: its stock and reorder points follow once its unit's id is known. */
interface Placed {
  unit: ChunkUnit;
  /** This item or variant inserted the unit just now: it holds no stock anywhere yet. */
  isNew: boolean;
  stock: CatalogueStockEntry[] | undefined;
  reorder: CatalogueReorderEntry[] | undefined;
}

export class CatalogueWriter {
  readonly summary: ImportSummary = { accounts: 0, warehouses: 0, items: 0, variants: 0, barcodes: 0, quantitiesChanged: 0 };
  /** Conflicts with what the database holds, in file order (bounded: problem-list.ts). */
  readonly problems = new ProblemList();
  private readonly log: MovementLog;
  private readonly q: Queries;
  private readonly change: { source: MovementSourceName; actor: string };
  private account: { id: number; name: string; path: string; warehouseIds: Map<string, number> } | undefined;
  /** Items taken by writeItem and not written yet (see writeChunk), and how many barcodes they have. */
  private pending: { item: CatalogueItem; i: number }[] = [];
  private pendingBarcodes = 0;
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
    await this.writePending(); // the previous account's last items
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
        this.problems.add(`${path}.name: ${syncMessages.linkedAccountImport(account.name, link.upstream_url)}`);
        return false;
      }
      if ((existing.warehouses_enabled === 1) !== account.warehouses_enabled) {
        this.problems.add(
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
        this.problems.add(`${path}.warehouses[${i}].id: warehouse id ${w.id} belongs to another account`);
        continue;
      }
      const sameName = await q.first(
        q.k.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('name', '=', w.name),
      );
      if (sameName && sameName.id !== w.id) {
        this.problems.add(`${path}.warehouses[${i}].name: warehouse "${w.name}" already exists with id ${sameName.id}`);
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

  /**
   * Takes item `i` of the account last begun. Items are written a chunk at a time (writeChunk): when
   * CHUNK_BARCODES barcodes are waiting, and before anything that reads what they wrote (the next
   * account, `writePending`, `finish`).
   */
  async writeItem(item: CatalogueItem, i: number): Promise<void> {
    if (!this.account) return;
    this.summary.items++;
    this.pending.push({ item, i });
    this.pendingBarcodes += (item.barcode === undefined ? 0 : 1) + (item.variants?.length ?? 0);
    if (this.pendingBarcodes >= CHUNK_BARCODES) await this.writePending();
  }

  /** Writes the items still waiting: `problems` and the database are complete after it. */
  async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = this.pending;
    this.pending = [];
    this.pendingBarcodes = 0;
    await this.writeChunk(chunk);
  }

  /**
   * Writes a chunk of items of the current account with a few statements whatever its length. It
   * reads what the database holds of the chunk's item ids, variant ids, units and barcodes (one
   * statement per kind and MAX_CHUNK_LENGTH values), decides every item in file order against that
   * and what the chunk's earlier items changed (the same decisions, problems and order as writing
   * one item after the other), then writes: new items and variants, renames, new units (multi-row
   * INSERTs, the units' ids returned by theirs), and the stock as the movement log's `set`
   * movements, recorded with no statement between them so the log writes them MAX_CHUNK_LENGTH rows
   * per statement.
   */
  private async writeChunk(chunk: readonly { item: CatalogueItem; i: number }[]): Promise<void> {
    const { q, summary } = this;
    const account = this.account!;

    // What the database holds.
    const items = new Map<number, { account_id: number; name: string }>();
    await inChunks(
      q,
      chunk.map(({ item }) => item.id),
      async (ids) => {
        for (const row of await q.all(itemsById, { ids })) items.set(row.id, row);
      },
    );
    const variantIds = chunk.flatMap(({ item }) => (item.variants ?? []).map((v) => v.id));
    const variants = new Map<number, { item_id: number; name: string }>();
    await inChunks(q, variantIds, async (ids) => {
      for (const row of await q.all(variantsById, { ids })) variants.set(row.id, row);
    });
    // One object per unit, however it was found: a holder and a barcode's unit compare by identity.
    const units = new Map<number, ChunkUnit>();
    const unitOf = (row: { id: number; barcode: string; item_id: number; variant_id: number | null }) => {
      let unit = units.get(row.id);
      if (!unit) units.set(row.id, (unit = { id: row.id, barcode: row.barcode, itemId: row.item_id, variantId: row.variant_id }));
      return unit;
    };
    const ofItem = new Map<number, ChunkUnit>();
    await inChunks(
      q,
      chunk.filter(({ item }) => item.barcode !== undefined && items.has(item.id)).map(({ item }) => item.id),
      async (itemIds) => {
        for (const row of await q.all(unitsOfItems, { accountId: account.id, itemIds })) ofItem.set(row.item_id, unitOf(row));
      },
    );
    const ofVariant = new Map<number, ChunkUnit>();
    await inChunks(
      q,
      variantIds.filter((id) => variants.has(id)),
      async (ids) => {
        for (const row of await q.all(unitsOfVariants, { variantIds: ids })) ofVariant.set(row.variant_id!, unitOf(row));
      },
    );
    const byBarcode = new Map<string, ChunkUnit>();
    await inChunks(
      q,
      chunk.flatMap(({ item }) => [...(item.barcode === undefined ? [] : [item.barcode]), ...(item.variants ?? []).map((v) => v.barcode)]),
      async (barcodes) => {
        for (const row of await q.all(unitsByBarcode, { accountId: account.id, barcodes })) byBarcode.set(row.barcode, unitOf(row));
      },
    );

    // The decisions, item after item; the maps above follow what each changes, for the items after it.
    const newItems: { id: number; name: string }[] = [];
    const renamedItems = new Map<number, string>();
    const newVariants: { id: number; itemId: number; name: string }[] = [];
    const renamedVariants = new Map<number, string>();
    const newUnits: ChunkUnit[] = [];
    const renamedUnits: { id: number; barcode: string }[] = [];
    const placed: Placed[] = [];
    /** The unit of an item or variant (`holder`), given `barcode`; undefined after a problem. */
    const upsertUnit = (barcode: string, itemId: number, variantId: number | null, where: string, holder: ChunkUnit | undefined) => {
      const taken = byBarcode.get(barcode);
      if (taken && taken !== holder) {
        this.problems.add(`${where}: barcode "${barcode}" already belongs to another item or variant of account "${account.name}"`);
        return undefined;
      }
      summary.barcodes++;
      if (!holder) {
        const unit: ChunkUnit = { id: undefined, barcode, itemId, variantId };
        newUnits.push(unit);
        byBarcode.set(barcode, unit);
        if (variantId === null) ofItem.set(itemId, unit);
        else ofVariant.set(variantId, unit);
        this.changedAccounts.add(account.id);
        return { unit, isNew: true };
      }
      if (holder.barcode !== barcode) {
        if (byBarcode.get(holder.barcode) === holder) byBarcode.delete(holder.barcode);
        holder.barcode = barcode;
        byBarcode.set(barcode, holder);
        if (holder.id !== undefined) renamedUnits.push({ id: holder.id, barcode });
        this.changedAccounts.add(account.id);
      }
      return { unit: holder, isNew: false };
    };
    for (const { item, i } of chunk) {
      const itemPath = `${account.path}.items[${i}]`;
      const owner = items.get(item.id);
      if (owner && owner.account_id !== account.id) {
        this.problems.add(`${itemPath}.id: item id ${item.id} belongs to another account`);
        continue;
      }
      if (!owner) {
        newItems.push({ id: item.id, name: item.name });
        items.set(item.id, { account_id: account.id, name: item.name });
        this.changedAccounts.add(account.id);
      } else if (owner.name !== item.name) {
        // Inserted by an earlier item of the chunk (only a document that repeats an id): it goes in renamed.
        const inserted = newItems.find((row) => row.id === item.id);
        if (inserted) inserted.name = item.name;
        else renamedItems.set(item.id, item.name);
        owner.name = item.name;
        this.changedAccounts.add(account.id);
      }
      if (item.barcode !== undefined) {
        const unit = upsertUnit(item.barcode, item.id, null, `${itemPath}.barcode`, owner ? ofItem.get(item.id) : undefined);
        if (unit) placed.push({ ...unit, stock: item.stock, reorder: item.reorder });
      }
      for (const [j, variant] of (item.variants ?? []).entries()) {
        const variantPath = `${itemPath}.variants[${j}]`;
        summary.variants++;
        const vOwner = variants.get(variant.id);
        if (vOwner && vOwner.item_id !== item.id) {
          this.problems.add(`${variantPath}.id: variant id ${variant.id} belongs to another item`);
          continue;
        }
        if (!vOwner) {
          newVariants.push({ id: variant.id, itemId: item.id, name: variant.name });
          variants.set(variant.id, { item_id: item.id, name: variant.name });
          this.changedAccounts.add(account.id);
        } else if (vOwner.name !== variant.name) {
          const inserted = newVariants.find((row) => row.id === variant.id);
          if (inserted) inserted.name = variant.name;
          else renamedVariants.set(variant.id, variant.name);
          vOwner.name = variant.name;
          this.changedAccounts.add(account.id);
        }
        const unit = upsertUnit(
          variant.barcode,
          item.id,
          variant.id,
          `${variantPath}.barcode`,
          vOwner ? ofVariant.get(variant.id) : undefined,
        );
        if (unit) placed.push({ ...unit, stock: variant.stock, reorder: variant.reorder });
      }
    }

    // The writes: renames of units before the new units, which may take a barcode one of them gave up.
    await inChunks(q, newItems, (rows) => q.run(insertItems, { accountId: account.id, ...columnsOf(rows, 0, rows.length) }).then(() => {}));
    await inChunks(q, [...renamedItems], (renames) =>
      q.run(renameItems, { id: renames.map(([id]) => id), name: renames.map(([, name]) => name) }).then(() => {}),
    );
    await inChunks(q, newVariants, (rows) =>
      q.run(insertVariants, { accountId: account.id, ...columnsOf(rows, 0, rows.length) }).then(() => {}),
    );
    await inChunks(q, [...renamedVariants], (renames) =>
      q.run(renameVariants, { id: renames.map(([id]) => id), name: renames.map(([, name]) => name) }).then(() => {}),
    );
    for (const rename of renamedUnits) await q.run(setUnitBarcode, rename);
    await inChunks(q, newUnits, async (rows) => {
      const ids = new Map<string, number>();
      for (const row of await q.all(insertUnits, {
        accountId: account.id,
        barcode: rows.map((u) => u.barcode),
        itemId: rows.map((u) => u.itemId),
        variantId: rows.map((u) => u.variantId),
      }))
        ids.set(row.barcode, row.id);
      for (const unit of rows) unit.id = ids.get(unit.barcode)!;
    });

    // The stock: what the units that were there hold is read first, so `set` reads nothing per row.
    await this.log.readQuantities(
      placed.flatMap(({ unit, isNew, stock }) =>
        isNew
          ? []
          : (stock ?? []).flatMap((entry) => {
              const warehouseId = this.warehouseOf(entry);
              return warehouseId === undefined ? [] : [{ unitId: unit.id!, warehouseId }];
            }),
      ),
    );
    for (const { unit, isNew, stock } of placed) await this.applyStock(unit as StockUnit, isNew, stock);
    await this.applyReorder(placed);
  }

  /** The warehouse of a stock entry or reorder point; undefined only after a warehouse problem already reported. */
  private warehouseOf(entry: { warehouse?: string | undefined }): number | undefined {
    return entry.warehouse === undefined ? NO_WAREHOUSE : this.account!.warehouseIds.get(entry.warehouse);
  }

  /** The import's last step: reorder points upstream no longer has go, and the catalogue version of every account it changed moves on. */
  async finish(): Promise<void> {
    await this.writePending();
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

  /**
   * Sets the reorder points the chunk's units name (writeReorderPoint's rules, in one read and
   * multi-row inserts per chunk; a changed one is updated on its own); an import leaves the others
   * (from upstream, finish() removes them).
   */
  private async applyReorder(placed: readonly Placed[]): Promise<void> {
    const { q } = this;
    const account = this.account!;
    const wanted = placed.filter(({ reorder }) => reorder !== undefined && reorder.length > 0);
    if (wanted.length === 0) return;
    const known = new Map<string, { minimum: number; target: number | null }>();
    await inChunks(q, [...new Set(wanted.filter(({ isNew }) => !isNew).map(({ unit }) => unit.id!))], async (unitIds) => {
      for (const row of await q.all(reorderOfUnits, { unitIds })) known.set(`${row.unit_id}:${row.warehouse_id}`, row);
    });
    const inserts = new Map<string, { unitId: number; warehouseId: number; minimum: number; target: number | null }>();
    for (const { unit, reorder } of wanted) {
      for (const entry of reorder!) {
        const warehouseId = this.warehouseOf(entry);
        if (warehouseId === undefined) continue; // only after a warehouse problem already reported
        const key = `${unit.id}:${warehouseId}`;
        this.handedDown.get(account.id)?.add(key);
        const level = { minimum: entry.minimum, target: entry.target ?? null };
        const existing = known.get(key);
        if (existing && existing.minimum === level.minimum && existing.target === level.target) continue;
        known.set(key, level);
        this.changedAccounts.add(account.id);
        const inserted = inserts.get(key);
        if (inserted) Object.assign(inserted, level);
        else if (existing) await writeReorderPoint(q, account.id, unit.id!, warehouseId, level);
        else inserts.set(key, { unitId: unit.id!, warehouseId, ...level });
      }
    }
    await inChunks(q, [...inserts.values()], async (rows) => {
      await q.run(insertReorderPoints, { accountId: account.id, ...columnsOf(rows, 0, rows.length) });
    });
  }

  /** `isNew`: the unit was inserted just now, so it holds no stock anywhere yet (no quantity to read). */
  private async applyStock(unit: StockUnit, isNew: boolean, stock: CatalogueStockEntry[] | undefined): Promise<void> {
    const account = this.account!;
    for (const entry of stock ?? []) {
      const warehouseId = this.warehouseOf(entry);
      if (warehouseId === undefined) continue; // only after a warehouse problem already reported
      const before = await setQuantity(this.log, account.id, unit, warehouseId, entry.quantity, this.change, {
        onlyIfChanged: true,
        ...(isNew ? { current: null } : {}),
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
  await writer.writePending();
  if (writer.problems.count > 0) throw catalogueRefused(writer.problems.listed, writer.problems.count);
  await writer.finish();
  return writer.summary;
}
