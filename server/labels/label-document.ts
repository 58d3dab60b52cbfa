// From a label query to the labels a document prints (docs/LABELS.md): the source's barcodes and
// names, the symbology of each, the layout and how many. Shared by labels.pdf, labels.zpl, the print
// endpoint and the CLI, so each prints exactly the same labels.
import {
  DEFAULT_ROLL_LAYOUT,
  DEFAULT_SHEET_LAYOUT,
  type LabelLayout,
  type LabelQuery,
  type LabelSymbol,
  MAX_LABELS_PER_DOCUMENT,
  labelLayout,
  labelMessages,
  parseBarcodeList,
  symbolFor,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import type { Account } from '../store/accounts.ts';
import type { LabelSource } from '../store/labels/label-sources.ts';
import type { Store } from '../store/store.ts';

export interface PrintedLabel {
  barcode: string;
  itemName: string | null;
  variantName: string | null;
  warehouse: string | null;
  symbol: LabelSymbol;
}

export interface LabelJob {
  layout: LabelLayout;
  labels: PrintedLabel[];
  /** Positions left empty at the start of the first sheet. */
  skip: number;
}

function sourceOf(query: LabelQuery): LabelSource {
  const given = [query.barcodes !== undefined, query.items !== undefined, query.variants !== undefined, query.stocktake !== undefined];
  const count = given.filter(Boolean).length;
  if (count > 1 || (count === 0 && query.warehouse === undefined)) throw badRequest(labelMessages.oneSource);
  if (query.barcodes !== undefined) {
    const parsed = parseBarcodeList(query.barcodes);
    if (!parsed.ok) throw badRequest(parsed.detail);
    return { barcodes: parsed.barcodes };
  }
  if (query.items !== undefined) return { items: query.items.slice(0, MAX_LABELS_PER_DOCUMENT + 1) };
  if (query.variants !== undefined) return { variants: query.variants.slice(0, MAX_LABELS_PER_DOCUMENT + 1) };
  if (query.stocktake !== undefined) return { stocktake: query.stocktake };
  return { warehouse: query.warehouse! };
}

/** The labels of `query` for the caller's account; `medium` picks the default layout (sheets for PDF, a roll for ZPL). */
export async function labelJob(store: Store, caller: Account, query: LabelQuery, medium: 'pdf' | 'zpl'): Promise<LabelJob> {
  const layout = labelLayout(query.layout ?? (medium === 'pdf' ? DEFAULT_SHEET_LAYOUT : DEFAULT_ROLL_LAYOUT))!;
  if (medium === 'zpl' && layout.kind !== 'roll') throw badRequest(labelMessages.zplNeedsRoll(layout.id));
  // The warehouse must be one of the account's, whether it is the source or only printed on the labels.
  if (query.warehouse !== undefined) await store.stock.exportWarehouse(caller, query.warehouse);
  const source = sourceOf(query);
  const rows = await store.labels.rows(caller, source);
  if (rows.length === 0) throw badRequest(labelMessages.noLabels);
  const total = rows.length * query.copies;
  if (total > MAX_LABELS_PER_DOCUMENT) throw badRequest(labelMessages.tooManyLabels(total));
  const labels: PrintedLabel[] = [];
  for (const row of rows) {
    let symbol: LabelSymbol;
    try {
      symbol = symbolFor(row.barcode, {
        ...(query.batch !== undefined ? { batch: query.batch } : {}),
        ...(query.expiry !== undefined ? { expiry: query.expiry } : {}),
        gs1: query.gs1,
      });
    } catch (error) {
      throw badRequest((error as Error).message);
    }
    for (let copy = 0; copy < query.copies; copy++) labels.push({ ...row, warehouse: query.warehouse ?? null, symbol });
  }
  return { layout, labels, skip: layout.kind === 'sheet' ? query.skip : 0 };
}
