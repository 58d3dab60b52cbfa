// A stocktake session's counts as CSV: every line, known or unknown, with book and difference.
import { stringify } from 'csv-stringify/sync';
import type { StocktakeReview } from '../../shared/index.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const COUNTS_CSV_COLUMNS = [
  'barcode', 'item_id', 'variant_id', 'name', 'known', 'resolution', 'counted', 'book_quantity', 'difference', 'commit',
] as const;

export function sessionCountsCsv(review: StocktakeReview): string {
  const rows = [...review.lines, ...review.unknown].map((line) => [
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
  return stringify(rows, { header: true, columns: [...COUNTS_CSV_COLUMNS] });
}
