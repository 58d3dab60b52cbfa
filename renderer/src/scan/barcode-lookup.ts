// Reads what the UI shows for scans and barcodes: the stock records (the API) and the names behind
// them. A GS1 scan brings several forms of its GTIN; the first one the account has is the item.
import { type BarcodeLabel, type Gs1Data, MAX_BARCODES_PER_READ, type ReadResponse, type StockRecord } from '../../../shared/index.ts';
import type { ApiClient } from '../api/api-client.ts';
import { appTexts, scanTexts } from '../common/texts.ts';
import { type Scan, plainScan } from './scanned-code.ts';

export interface BarcodeInfo {
  /** The catalogue's barcode when found (what a write must name), else the barcode looked up first. */
  barcode: string;
  /** What was scanned or typed, when it differs from `barcode` (another GTIN form, a GS1 scan). */
  scanned?: string;
  /** Empty when the account has no such barcode. */
  records: StockRecord[];
  label: BarcodeLabel | undefined;
  gs1?: Gs1Data;
}

/** Looks up scans in as few requests as the read's limit allows: stock and names in parallel; names are a nicety, so their failure is ignored. */
export async function lookUpScans(client: ApiClient, scans: readonly Scan[]): Promise<BarcodeInfo[]> {
  const all = [...new Set(scans.flatMap((s) => s.barcodes))];
  const results: StockRecord[] = [];
  const labels: Record<string, BarcodeLabel> = {};
  for (let start = 0; start < all.length; start += MAX_BARCODES_PER_READ) {
    const chunk = all.slice(start, start + MAX_BARCODES_PER_READ);
    const [stock, names]: [ReadResponse, Record<string, BarcodeLabel>] = await Promise.all([
      client.readStock(chunk),
      client.labels(chunk).catch((): Record<string, BarcodeLabel> => ({})),
    ]);
    results.push(...stock.results);
    Object.assign(labels, names);
  }
  return scans.map((scan) => {
    const found = scan.barcodes.find((b) => results.some((r) => r.barcode === b));
    const records = found === undefined ? [] : results.filter((r) => r.barcode === found);
    // Under the account's GTIN equivalence the server names the catalogue's own form.
    const barcode = records[0]?.matched_barcode ?? found ?? scan.barcodes[0]!;
    const info: BarcodeInfo = {
      barcode,
      records: records.map(({ matched_barcode: _, ...r }) => ({ ...r, barcode })),
      label: found === undefined ? undefined : labels[found],
    };
    if (scan.text !== barcode) info.scanned = scan.text;
    if (scan.gs1) info.gs1 = scan.gs1;
    return info;
  });
}

/** Looks up typed or pasted barcodes, each exactly as written. */
export function lookUpBarcodes(client: ApiClient, barcodes: readonly string[]): Promise<BarcodeInfo[]> {
  return lookUpScans(client, barcodes.map(plainScan));
}

/** Splits pasted text into barcodes: one per line (commas separate too), blanks dropped, repeats once. */
export function splitBarcodeList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\r\n,]+/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** "Mug", "T-shirt · S", or the ids when names are unknown. */
export function describe(info: { records: StockRecord[]; label: BarcodeLabel | undefined }): string {
  if (info.label) return appTexts.itemName(info.label.item_name, info.label.variant_name);
  const first = info.records[0];
  if (!first) return '';
  return scanTexts.itemIds(first.item, first.liquid_stock);
}

/** Quantity of a barcode's records in one warehouse (or the only figure without warehouses). */
export function quantityIn(records: readonly StockRecord[], warehouse: string | null): number | undefined {
  const record = warehouse === null ? records[0] : records.find((r) => 'warehouse_name' in r && r.warehouse_name === warehouse);
  return record?.quantity;
}

/** Quantity per warehouse name ('' without warehouses), for showing the quantity where stock goes. */
export function quantitiesOf(records: readonly StockRecord[]): Record<string, number> {
  const quantities: Record<string, number> = {};
  for (const r of records) quantities['warehouse_name' in r ? r.warehouse_name : ''] = r.quantity;
  return quantities;
}
