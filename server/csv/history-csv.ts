// The stock history as CSV (docs/STOCKTAKE.md, "Stock history"): one row per change, newest first, with
// who made it and where, for a spreadsheet. Written page by page (the history's own cursor pages, each
// its own short read), so memory stays flat whatever the size of the history. Text cells are guarded
// against formula injection like every export (a person may be named `=HYPERLINK(…)`).
import { stringify } from 'csv-stringify/sync';
import { type HistoryEntry, type HistoryQuery, MAX_HISTORY_PAGE } from '../../shared/index.ts';
import type { Account, Store } from '../store/store.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const HISTORY_CSV_COLUMNS = [
  'occurred_at',
  'barcode',
  'item_id',
  'variant_id',
  'warehouse',
  'kind',
  'value',
  'old_quantity',
  'new_quantity',
  'source',
  'reason',
  'reference',
  'actor',
  'instance',
  'movement',
] as const;

function historyCsv(entries: readonly HistoryEntry[], header: boolean): string {
  const cells = entries.map((e) => [
    e.occurred_at,
    spreadsheetText(e.barcode),
    e.item,
    e.liquid_stock ?? '',
    spreadsheetText(e.warehouse_name ?? ''),
    e.kind,
    e.value,
    e.old_quantity ?? '',
    e.new_quantity,
    spreadsheetText(e.source),
    spreadsheetText(e.reason ?? ''),
    spreadsheetText(e.reference ?? ''),
    spreadsheetText(e.actor ?? ''),
    e.instance,
    e.movement,
  ]);
  return stringify(cells, { header, columns: [...HISTORY_CSV_COLUMNS] });
}

/** The history CSV of an account as chunks of text, one per page of the history. */
export async function historyCsvChunks(
  store: Store,
  account: Account,
  query: Omit<HistoryQuery, 'limit' | 'cursor'>,
): Promise<AsyncGenerator<string>> {
  const pageOf = (cursor?: string) => store.history.page(account, { ...query, limit: MAX_HISTORY_PAGE, ...(cursor ? { cursor } : {}) });
  const first = await pageOf();
  return (async function* chunks() {
    let page = first;
    yield historyCsv(page.results, true);
    while (page.nextCursor !== null) {
      page = await pageOf(page.nextCursor);
      if (page.results.length > 0) yield historyCsv(page.results, false);
    }
  })();
}
