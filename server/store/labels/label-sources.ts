// What a label document prints (docs/LABELS.md): for each barcode of the source asked for, the names
// on its label. Sources: barcodes, items (each its own barcode or its variants'), variants, the
// unknown barcodes of a stocktake, or every barcode with stock in a warehouse. Read in one read of the
// engine; the caller bounds how many labels that makes.
import { MAX_LABELS_PER_DOCUMENT, fieldMessages, labelMessages } from '../../../shared/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';

/** One label's content: a barcode and the names printed with it (null where the catalogue has none). */
export interface LabelRow {
  barcode: string;
  itemName: string | null;
  variantName: string | null;
}

export type LabelSource =
  | { barcodes: readonly string[] }
  | { items: readonly number[] }
  | { variants: readonly number[] }
  | { stocktake: number }
  | { warehouse: string };

/** Chunks for `in (…)` lists, so no statement carries thousands of parameters. */
const CHUNK = 500;

export async function readLabelRows(q: Queries, account: Account, source: LabelSource): Promise<LabelRow[]> {
  const units = () =>
    q.k
      .selectFrom('stock_units as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.barcode', 'i.name as itemName', 'v.name as variantName'])
      .where('u.account_id', '=', account.id);

  if ('barcodes' in source) {
    const rows = new Map<string, LabelRow>();
    for (let i = 0; i < source.barcodes.length; i += CHUNK) {
      for (const row of await q.all(units().where('u.barcode', 'in', source.barcodes.slice(i, i + CHUNK)))) rows.set(row.barcode, row);
    }
    // In the order asked; a barcode the catalogue does not know is printed all the same, without names
    // (a shelf label for a code the shop uses, say).
    return source.barcodes.map((barcode) => rows.get(barcode) ?? { barcode, itemName: null, variantName: null });
  }
  if ('items' in source || 'variants' in source) {
    const ids = 'items' in source ? source.items : source.variants;
    const column = 'items' in source ? 'u.item_id' : 'u.variant_id';
    const rows: (LabelRow & { key: number })[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      rows.push(
        ...(
          await q.all(
            units()
              .select([`${column} as key`, 'u.variant_id'])
              .where(column, 'in', ids.slice(i, i + CHUNK))
              .orderBy('u.item_id')
              .orderBy('u.variant_id'),
          )
        ).map(({ variant_id: _, ...row }) => ({ ...row, key: Number(row.key) })),
      );
    }
    const order = new Map(ids.map((id, index) => [id, index]));
    return rows.sort((a, b) => order.get(a.key)! - order.get(b.key)!).map(({ key: _, ...row }) => row);
  }
  if ('stocktake' in source) {
    const session = await q.first(
      q.k.selectFrom('stocktakes').select('id').where('id', '=', source.stocktake).where('account_id', '=', account.id),
    );
    if (!session) throw notFound(labelMessages.stocktakeNotFound(source.stocktake));
    const lines = await q.all(
      q.k
        .selectFrom('stocktake_lines')
        .select('barcode')
        .where('stocktake_id', '=', source.stocktake)
        .where('unit_id', 'is', null)
        .orderBy('id')
        .limit(MAX_LABELS_PER_DOCUMENT + 1),
    );
    return lines.map(({ barcode }) => ({ barcode, itemName: null, variantName: null }));
  }
  const warehouse = await q.first(
    q.k.selectFrom('warehouses').select('id').where('account_id', '=', account.id).where('name', '=', source.warehouse),
  );
  if (!warehouse) throw badRequest(fieldMessages.warehouseNotFound(source.warehouse));
  return q.all(
    units()
      .innerJoin('stock as s', 's.unit_id', 'u.id')
      .where('s.warehouse_id', '=', warehouse.id)
      .orderBy('u.item_id')
      .orderBy('u.variant_id')
      .limit(MAX_LABELS_PER_DOCUMENT + 1),
  );
}
