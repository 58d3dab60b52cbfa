// Stock as CSV, in the same columns the CSV catalogue import reads, so an export can be edited and
// imported back. The rows come from the store (store/stock-export.ts).
import { stringify } from 'csv-stringify/sync';
import type { ExportRow } from '../store/stock-export.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const CATALOGUE_CSV_COLUMNS = ['item_id', 'item_name', 'variant_id', 'variant_name', 'barcode', 'warehouse', 'quantity'] as const;

export function stockCsv(rows: readonly ExportRow[]): string {
  const cells = rows.map((row) => [
    row.item_id,
    spreadsheetText(row.item_name),
    row.variant_id ?? '',
    spreadsheetText(row.variant_name ?? ''),
    spreadsheetText(row.barcode),
    spreadsheetText(row.warehouse ?? ''),
    row.quantity ?? '',
  ]);
  return stringify(cells, { header: true, columns: [...CATALOGUE_CSV_COLUMNS] });
}
