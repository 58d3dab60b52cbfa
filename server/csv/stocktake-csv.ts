// A stocktake session's counts as CSV: every line, known ones first then unknown ones, each in the
// order first scanned, with book and difference. Written page by page (each page its own short read),
// so the CSV of a session of any size never sits in memory whole.
import { stringify } from 'csv-stringify/sync';
import type { StocktakeLine } from '../../shared/index.ts';
import type { Account, Store } from '../store/store.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const COUNTS_CSV_COLUMNS = [
  'barcode',
  'item_id',
  'variant_id',
  'name',
  'known',
  'resolution',
  'counted',
  'book_quantity',
  'difference',
  'commit',
] as const;

export function countsCsv(lines: readonly StocktakeLine[], header: boolean): string {
  const rows = lines.map((line) => [
    spreadsheetText(line.barcode),
    line.item ?? '',
    line.liquid_stock ?? '',
    spreadsheetText(line.name ?? ''),
    line.known ? 'yes' : 'no',
    line.resolution ?? '',
    line.counted,
    line.book_quantity ?? '',
    line.difference ?? '',
    line.commit?.state ?? '',
  ]);
  return stringify(rows, { header, columns: [...COUNTS_CSV_COLUMNS] });
}

/** The counts CSV as chunks of text; the session is looked up first, so an unknown one is a 404 before anything is sent. */
export async function sessionCountsCsvChunks(store: Store, account: Account, id: number): Promise<AsyncGenerator<string>> {
  const first = await store.stocktakes.reviewLinesPage(account, id, true, 0);
  return (async function* chunks() {
    yield countsCsv(first, true);
    for (const known of [true, false]) {
      let page = known ? first : await store.stocktakes.reviewLinesPage(account, id, false, 0);
      if (!known && page.length > 0) yield countsCsv(page, false);
      while (page.length > 0) {
        page = await store.stocktakes.reviewLinesPage(account, id, known, page.at(-1)!.id);
        if (page.length > 0) yield countsCsv(page, false);
      }
    }
  })();
}
