// The low-stock list as CSV for a supplier or a purchasing spreadsheet (docs/REORDER.md): one row per
// unit and warehouse at or below its minimum, in the list's order, with the quantity to order.
// Written page by page, each page its own short read, like the stock export.
import { stringify } from 'csv-stringify/sync';
import { MAX_LOW_STOCK_PAGE, type LowStockEntry } from '../../shared/index.ts';
import type { Account, Store } from '../store/store.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const LOW_STOCK_CSV_COLUMNS = [
  'barcode',
  'item_id',
  'item_name',
  'variant_id',
  'variant_name',
  'warehouse',
  'quantity',
  'minimum',
  'target',
  'suggested_order',
  'sold_30_days',
] as const;

export function lowStockCsv(entries: readonly LowStockEntry[], header: boolean): string {
  const cells = entries.map((e) => [
    spreadsheetText(e.barcode),
    e.item,
    spreadsheetText(e.item_name),
    e.liquid_stock ?? '',
    spreadsheetText(e.variant_name ?? ''),
    spreadsheetText(e.warehouse_name ?? ''),
    e.quantity,
    e.minimum,
    e.target ?? '',
    e.suggested_order,
    e.sold,
  ]);
  return stringify(cells, { header, columns: [...LOW_STOCK_CSV_COLUMNS] });
}

/** The whole list as chunks of text, one per page; the first page is read before anything is sent, so a bad warehouse is a 400. */
export async function lowStockCsvChunks(store: Store, account: Account, warehouse: number | undefined): Promise<AsyncGenerator<string>> {
  const query = (cursor?: string) => ({
    limit: MAX_LOW_STOCK_PAGE,
    ...(warehouse === undefined ? {} : { warehouse }),
    ...(cursor ? { cursor } : {}),
  });
  const first = await store.reorder.lowStockPage(account, query());
  return (async function* chunks() {
    let page = first;
    yield lowStockCsv(page.results, true);
    while (page.nextCursor !== null) {
      page = await store.reorder.lowStockPage(account, query(page.nextCursor));
      yield lowStockCsv(page.results, false);
    }
  })();
}
