// Catalogue imports beyond writing a parsed document (catalogue-writer.ts): the same run as a dry
// run that is rolled back and reports what it would have changed, and the one bulk transaction a
// streamed file is written in. The format's own rules live in server/catalogue/.
import type { CatalogueItem } from '../catalogue/catalogue-schema.ts';
import { CatalogueWriter, type ImportSummary } from './catalogue-writer.ts';
import type { Engine, Queries, ScratchKeys } from './engine.ts';
import { MovementLog, type StoreClock } from './movements/movement-log.ts';

/** One bulk write for a streamed import: the writer and a scratch table for the uniqueness checks. */
export function writeCatalogueStream<T>(
  engine: Engine,
  clock: StoreClock,
  work: (writer: CatalogueWriter, scratch: ScratchKeys) => Promise<T>,
): Promise<T> {
  return engine.write(
    async (q) => {
      const scratch = await engine.scratchKeys(q);
      const log = await MovementLog.open(q, clock);
      const writer = new CatalogueWriter(log);
      try {
        const result = await work(writer, scratch);
        await writer.finish();
        await log.close();
        return result;
      } finally {
        await scratch.drop();
      }
    },
    { bulk: true, addsUnits: true },
  );
}

export interface DryRunChanges {
  summary: ImportSummary;
  newItems: { id: number; name: string }[];
  renamedItems: { id: number; from: string; to: string }[];
  newVariants: { id: number; name: string }[];
  renamedVariants: { id: number; from: string; to: string }[];
  /** The stock history rows the import wrote, in order (empty when they were handed to `onQuantityChanges` instead). */
  quantityChanges: StoredQuantityChange[];
  /** How many history rows the import wrote. */
  quantityChangeCount: number;
}

export interface StoredQuantityChange {
  barcode: string;
  warehouse: string | null;
  old_quantity: number | null;
  new_quantity: number;
}

/** A dry run's report before it has found anything. */
export function noChanges(): Omit<DryRunChanges, 'summary'> {
  return { newItems: [], renamedItems: [], newVariants: [], renamedVariants: [], quantityChanges: [], quantityChangeCount: 0 };
}

/** The history rows a dry run reads back at a time. */
const CHANGES_PER_PAGE = 1000;

/** Carries the dry run's report out of the transaction it rolls back. */
class RollBack extends Error {
  readonly changes: DryRunChanges;
  constructor(changes: DryRunChanges) {
    super('dry run');
    this.changes = changes;
  }
}

async function namesOf(q: Queries, table: 'items' | 'variants', ids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of await q.all(
      q.k
        .selectFrom(table)
        .select(['id', 'name'])
        .where('id', 'in', ids.slice(i, i + 500)),
    ))
      names.set(row.id, row.name);
  }
  return names;
}

/** Before the dry run writes `items`, it reads their names as they stand (`beforeWriting`): how it tells new and renamed ones. */
export type BeforeWriting = (items: readonly CatalogueItem[]) => Promise<void>;

/**
 * Runs a streamed import (`work`, as writeCatalogueStream's) for real in a transaction that is then
 * rolled back, and reports exactly what it changed. `work` hands each run of items to `beforeWriting`
 * before the writer takes them.
 */
export async function dryRunCatalogueStream(
  engine: Engine,
  clock: StoreClock,
  work: (writer: CatalogueWriter, scratch: ScratchKeys, beforeWriting: BeforeWriting) => Promise<ImportSummary>,
  onQuantityChanges?: (
    page: StoredQuantityChange[],
    items: Omit<DryRunChanges, 'summary' | 'quantityChanges' | 'quantityChangeCount'>,
  ) => void,
): Promise<DryRunChanges> {
  try {
    await engine.write(
      async (q) => {
        const scratch = await engine.scratchKeys(q);
        try {
          const last = await q.first(q.k.selectFrom('stock_history').select((eb) => eb.fn.max('id').as('id')));
          const log = await MovementLog.open(q, clock);
          const writer = new CatalogueWriter(log);
          const changes = noChanges();
          const beforeWriting: BeforeWriting = async (items) => {
            const itemsBefore = await namesOf(
              q,
              'items',
              items.map((i) => i.id),
            );
            const variantsBefore = await namesOf(
              q,
              'variants',
              items.flatMap((i) => (i.variants ?? []).map((v) => v.id)),
            );
            for (const item of items) {
              const before = itemsBefore.get(item.id);
              if (before === undefined) changes.newItems.push({ id: item.id, name: item.name });
              else if (before !== item.name) changes.renamedItems.push({ id: item.id, from: before, to: item.name });
              for (const variant of item.variants ?? []) {
                const was = variantsBefore.get(variant.id);
                if (was === undefined) changes.newVariants.push({ id: variant.id, name: variant.name });
                else if (was !== variant.name) changes.renamedVariants.push({ id: variant.id, from: was, to: variant.name });
              }
            }
          };
          const summary = await work(writer, scratch, beforeWriting);
          await writer.finish();
          // Through the log's queries: the movements it still holds are written first. A page at a
          // time, in order: a catalogue of a million rows makes a million changes.
          for (let after = Number(last?.id ?? 0); ;) {
            const page = await log.q.all(
              q.k
                .selectFrom('stock_history as h')
                .innerJoin('stock_units as u', 'u.id', 'h.unit_id')
                .leftJoin('warehouses as w', 'w.id', 'h.warehouse_id')
                .select(['h.id', 'u.barcode', 'w.name as warehouse', 'h.old_quantity', 'h.new_quantity'])
                .where('h.id', '>', after)
                .orderBy('h.id')
                .limit(CHANGES_PER_PAGE),
            );
            if (page.length === 0) break;
            after = Number(page[page.length - 1]!.id);
            const rows = page.map(({ id: _id, ...change }) => change);
            changes.quantityChangeCount += rows.length;
            if (onQuantityChanges) onQuantityChanges(rows, changes);
            else changes.quantityChanges.push(...rows);
          }
          throw new RollBack({ summary, ...changes });
        } finally {
          await scratch.drop();
        }
      },
      { bulk: true, addsUnits: true },
    );
  } catch (error) {
    if (error instanceof RollBack) return error.changes;
    throw error;
  }
  throw new Error('the dry run did not roll back');
}
