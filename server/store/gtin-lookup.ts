// Barcode lookups of accounts that turned GTIN equivalence on (docs/API.md): a barcode that is a
// valid GTIN also finds the unit stored under another form of the same GTIN (UPC-A, EAN-13,
// GTIN-14, GTIN-8 padded with zeros). The exact barcode always wins; then the longest form.
// Accounts with the setting off never come here: their lookups stay the plain statements.
import { type BarcodeLabel, type StockRecord, type Warehouse, equivalentBarcodes } from '../../shared/index.ts';
import type { Account } from './accounts.ts';
import { readBarcodeLabels } from './barcode-labels.ts';
import { type Param, type Queries, statement } from './engine.ts';
import { readStockRecords } from './stock-read.ts';

/** For each barcode asked for, the forms to try in order, and every form once for the query. */
function formsOf(barcodes: readonly string[]): { tried: Map<string, string[]>; all: string[] } {
  const tried = new Map<string, string[]>();
  for (const barcode of barcodes) if (!tried.has(barcode)) tried.set(barcode, equivalentBarcodes(barcode));
  return { tried, all: [...new Set([...tried.values()].flat())] };
}

/** The first form of `barcode` that `found` has, with the value found under it. */
function firstFound<T>(forms: readonly string[], found: (form: string) => T | undefined): { form: string; value: T } | undefined {
  for (const form of forms) {
    const value = found(form);
    if (value !== undefined) return { form, value };
  }
  return undefined;
}

/** A unit found for a barcode: `barcode` as asked for, `matchedBarcode` the stored one when they differ. */
export interface EquivalentUnit {
  id: number;
  barcode: string;
  itemId: number;
  variantId: number | null;
  matchedBarcode?: string;
}

const unitsByAnyForm = statement('stock.units.gtin', (k, p: Param<{ accountId: number; barcodes: string[] }>) =>
  k
    .selectFrom('stock_units')
    .select(['id', 'barcode', 'item_id', 'variant_id'])
    .where('account_id', '=', p('accountId'))
    .where('barcode', 'in', p.list('barcodes')),
);

/** The units the barcodes name under GTIN equivalence, keyed by the barcode as asked for. */
export async function findUnitsByGtin(q: Queries, accountId: number, barcodes: readonly string[]): Promise<Map<string, EquivalentUnit>> {
  const units = new Map<string, EquivalentUnit>();
  if (barcodes.length === 0) return units;
  const { tried, all } = formsOf(barcodes);
  const stored = new Map((await q.all(unitsByAnyForm, { accountId, barcodes: all })).map((row) => [row.barcode, row]));
  for (const [barcode, forms] of tried) {
    const hit = firstFound(forms, (form) => stored.get(form));
    if (!hit) continue;
    const { value: row, form } = hit;
    units.set(barcode, {
      id: row.id,
      barcode,
      itemId: row.item_id,
      variantId: row.variant_id,
      ...(form !== barcode ? { matchedBarcode: form } : {}),
    });
  }
  return units;
}

/**
 * readStockRecords under GTIN equivalence: records keep the barcode as asked for (clients match
 * answers by it) and carry `matched_barcode`, the catalogue's barcode, when another form matched.
 */
export async function readStockRecordsByGtin(
  q: Queries,
  account: Account,
  barcodes: readonly string[],
  warehouses: readonly Warehouse[],
): Promise<Map<string, StockRecord[]>> {
  const { tried, all } = formsOf(barcodes);
  const stored = await readStockRecords(q, account, all, warehouses);
  const records = new Map<string, StockRecord[]>();
  for (const [barcode, forms] of tried) {
    const hit = firstFound(forms, (form) => stored.get(form));
    if (!hit) continue;
    records.set(barcode, hit.form === barcode ? hit.value : hit.value.map((record) => ({ ...record, barcode, matched_barcode: hit.form })));
  }
  return records;
}

/** readBarcodeLabels under GTIN equivalence, keyed by the barcode as asked for. */
export async function readBarcodeLabelsByGtin(
  q: Queries,
  account: Account,
  barcodes: readonly string[],
): Promise<Record<string, BarcodeLabel>> {
  const { tried, all } = formsOf(barcodes);
  const stored = await readBarcodeLabels(q, account, all);
  const labels: Record<string, BarcodeLabel> = Object.create(null) as Record<string, BarcodeLabel>;
  for (const [barcode, forms] of tried) {
    const hit = firstFound(forms, (form) => stored[form]);
    if (hit) labels[barcode] = hit.value;
  }
  return labels;
}
