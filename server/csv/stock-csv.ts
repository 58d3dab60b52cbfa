// Stock as CSV, in the same columns the CSV catalogue import reads, so an export can be edited and
// imported back. Written page by page (store/stock-export.ts): each page is its own short read and
// becomes one chunk of text, so memory stays flat whatever the size of the account.
import { stringify } from 'csv-stringify/sync';
import type { Account, Store } from '../store/store.ts';
import type { ExportRow } from '../store/stock-export.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const CATALOGUE_CSV_COLUMNS = ['item_id', 'item_name', 'variant_id', 'variant_name', 'barcode', 'warehouse', 'quantity'] as const;

export function stockCsv(rows: readonly ExportRow[], header = true): string {
  const cells = rows.map((row) => [
    row.item_id,
    spreadsheetText(row.item_name),
    row.variant_id ?? '',
    spreadsheetText(row.variant_name ?? ''),
    spreadsheetText(row.barcode),
    spreadsheetText(row.warehouse ?? ''),
    row.quantity ?? '',
  ]);
  return stringify(cells, { header, columns: [...CATALOGUE_CSV_COLUMNS] });
}

/**
 * The stock CSV of an account as chunks of text, one per page. The warehouse is looked up before the
 * first chunk, so an unknown one is refused (400) before anything is sent.
 */
export async function stockCsvChunks(store: Store, account: Account, warehouseName?: string): Promise<AsyncGenerator<string>> {
  const warehouseId = warehouseName === undefined ? undefined : await store.stock.exportWarehouse(account, warehouseName);
  const first = await store.stock.exportPage(account, warehouseId, null);
  return (async function* chunks() {
    let page = first;
    yield stockCsv(page.rows, true);
    while (page.next !== null) {
      page = await store.stock.exportPage(account, warehouseId, page.next);
      if (page.rows.length > 0) yield stockCsv(page.rows, false);
    }
  })();
}
