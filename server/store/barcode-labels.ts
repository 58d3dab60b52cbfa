// The names behind barcodes (item, and variant when the barcode names one), for the scanner UI: the
// stock records of the API carry only ids, and a person at the shelf reads names.
import type { BarcodeLabel } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import type { Queries } from './engine.ts';

export async function readBarcodeLabels(q: Queries, account: Account, barcodes: readonly string[]): Promise<Record<string, BarcodeLabel>> {
  // No prototype: a barcode such as `__proto__` is an ordinary key here.
  const labels: Record<string, BarcodeLabel> = Object.create(null) as Record<string, BarcodeLabel>;
  if (barcodes.length === 0) return labels;
  const rows = await q.all(
    q.k
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
