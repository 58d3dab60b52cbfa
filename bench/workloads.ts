// The questions the bench asks, built up front from a seed (so building them costs the load
// generator nothing while it measures): GET of 50 barcodes (45 existing, 5 unknown) and POST of 50
// rows, against the warehouse account of a generated catalogue.
import { INVENTORY_PATH } from '../shared/index.ts';
import { WAREHOUSE_NAMES, barcodeOf, unknownBarcodeOf } from '../test/support/catalogue-generator.ts';
import { distinctInts, mulberry32 } from './random.ts';

export const BARCODES_PER_GET = 50;
export const UNKNOWN_PER_GET = 5;
export const ROWS_PER_POST = 50;
const POOL_SIZE = 2000;
/**
 * POSTs are never repeated within a run: a repeated row sets a quantity to the value it already
 * has, which writes nothing and skips the fsync, and would flatter the result.
 */
const POST_POOL_SIZE = 8000;

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** The barcodes of one GET: 45 existing ones of the warehouse account and 5 that nobody has. */
export function readBarcodes(random: () => number, warehouseBarcodes: number): string[] {
  const known = distinctInts(random, BARCODES_PER_GET - UNKNOWN_PER_GET, warehouseBarcodes).map(barcodeOf);
  const unknown = distinctInts(random, UNKNOWN_PER_GET, 1_000_000_000).map(unknownBarcodeOf);
  const all = [...known, ...unknown];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/** The rows of one POST: 50 distinct existing barcodes, each set in one of the three warehouses. */
export function updateRows(
  random: () => number,
  warehouseBarcodes: number,
): { barcode: string; warehouse_name: string; quantity: number }[] {
  return distinctInts(random, ROWS_PER_POST, warehouseBarcodes).map((k) => ({
    barcode: barcodeOf(k),
    warehouse_name: WAREHOUSE_NAMES[Math.floor(random() * WAREHOUSE_NAMES.length)]!,
    quantity: Math.floor(random() * 1000),
  }));
}

export function getRequests(warehouseBarcodes: number, seed: number): BenchRequest[] {
  const random = mulberry32(seed);
  return Array.from({ length: POOL_SIZE }, () => ({
    method: 'GET',
    path: `${INVENTORY_PATH}?barcodes=${readBarcodes(random, warehouseBarcodes).join(',')}`,
  }));
}

export function postRequests(warehouseBarcodes: number, seed: number): BenchRequest[] {
  const random = mulberry32(seed);
  return Array.from({ length: POST_POOL_SIZE }, () => ({
    method: 'POST',
    path: INVENTORY_PATH,
    body: JSON.stringify(updateRows(random, warehouseBarcodes)),
  }));
}

/** 90 reads to 10 writes, interleaved at random. */
export function mixedRequests(warehouseBarcodes: number, seed: number): BenchRequest[] {
  const random = mulberry32(seed);
  const gets = getRequests(warehouseBarcodes, seed + 1);
  const posts = postRequests(warehouseBarcodes, seed + 2);
  return Array.from({ length: POST_POOL_SIZE }, (_, i) => (random() < 0.1 ? posts[i]! : gets[i % POOL_SIZE]!));
}
