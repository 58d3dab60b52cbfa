// The names behind barcodes (item, and variant when the barcode names one), for the scanner UI: the
// stock records of the API carry only ids, and a person at the shelf reads names.
import type { BarcodeLabel } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Database } from './database.ts';

export function readBarcodeLabels(db: Database, account: Account, barcodes: readonly string[]): Record<string, BarcodeLabel> {
  const labels: Record<string, BarcodeLabel> = {};
  if (barcodes.length === 0) return labels;
  const rows = db.all(
    db.kysely
      .selectFrom('stock_units as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.barcode', 'i.name as item_name', 'v.name as variant_name'])
      .where('u.account_id', '=', account.id)
      .where('u.barcode', 'in', [...new Set(barcodes)]),
  );
  for (const row of rows) labels[row.barcode] = { item_name: row.item_name, variant_name: row.variant_name };
  return labels;
}
