// Reads what the UI shows for barcodes: the stock records (the API) and the names behind them.
import type { BarcodeLabel, StockRecord } from '../../../shared/index.ts';
import type { ApiClient } from '../api/api-client.ts';

export interface BarcodeInfo {
  barcode: string;
  /** Empty when the account has no such barcode. */
  records: StockRecord[];
  label: BarcodeLabel | undefined;
}

/** Looks up to 50 barcodes in two parallel requests; names are a nicety, so their failure is ignored. */
export async function lookUpBarcodes(client: ApiClient, barcodes: readonly string[]): Promise<BarcodeInfo[]> {
  const [stock, labels] = await Promise.all([
    client.readStock(barcodes),
    client.labels(barcodes).catch((): Record<string, BarcodeLabel> => ({})),
  ]);
  return barcodes.map((barcode) => ({
    barcode,
    records: stock.results.filter((r) => r.barcode === barcode),
    label: labels[barcode],
  }));
}

/** Splits pasted text into barcodes: one per line (commas separate too), blanks dropped, repeats once. */
export function splitBarcodeList(text: string): string[] {
  return [...new Set(text.split(/[\r\n,]+/).map((s) => s.trim()).filter((s) => s !== ''))];
}

/** "Mug", "T-shirt · S", or the ids when names are unknown. */
export function describe(info: { records: StockRecord[]; label: BarcodeLabel | undefined }): string {
  if (info.label) return info.label.variant_name ? `${info.label.item_name} · ${info.label.variant_name}` : info.label.item_name;
  const first = info.records[0];
  if (!first) return '';
  return first.liquid_stock === null ? `Item ${first.item}` : `Item ${first.item} · variant ${first.liquid_stock}`;
}

/** Quantity of a barcode's records in one warehouse (or the only figure without warehouses). */
export function quantityIn(records: readonly StockRecord[], warehouse: string | null): number | undefined {
  const record = warehouse === null ? records[0] : records.find((r) => 'warehouse_name' in r && r.warehouse_name === warehouse);
  return record?.quantity;
}
