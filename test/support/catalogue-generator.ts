// Writes a synthetic catalogue of N barcodes straight to a file, a chunk at a time (never the whole
// document in memory), and describes it so the load generator can pick existing barcodes.
// Shape: a warehouse account ("bench-wh", 3 warehouses) holds 90% of the barcodes, a no-warehouse
// account ("bench-plain") the rest. In every run of 6 barcodes, 4 are items without variants and 2
// are the variants of one item, so a third of the barcodes are variants.
import { closeSync, openSync, writeSync } from 'node:fs';
import { mulberry32 } from './seeded-random.ts';

export const WAREHOUSE_ACCOUNT = 'bench-wh';
export const PLAIN_ACCOUNT = 'bench-plain';
export const WAREHOUSE_NAMES = ['W1', 'W2', 'W3'] as const;

export interface GeneratedCatalogue {
  file: string;
  barcodes: number;
  bytes: number;
  /** Barcodes of the warehouse account are `barcodeOf(0 .. warehouseBarcodes-1)`. */
  warehouseBarcodes: number;
}

/** The k-th barcode of the catalogue: 13 digits, leading zeros kept (a string, never a number). */
export function barcodeOf(k: number): string {
  return `2${String(k).padStart(12, '0')}`;
}

/** A barcode no account has (prefix 9). */
export function unknownBarcodeOf(k: number): string {
  return `9${String(k).padStart(12, '0')}`;
}

export function generateCatalogue(file: string, barcodes: number, seed = 42): GeneratedCatalogue {
  const random = mulberry32(seed);
  const fd = openSync(file, 'w');
  let buffer = '';
  let bytes = 0;
  const write = (text: string) => {
    buffer += text;
    if (buffer.length > 1 << 20) flush();
  };
  const flush = () => {
    bytes += writeSync(fd, buffer);
    buffer = '';
  };

  const warehouseBarcodes = Math.round(barcodes * 0.9);
  let itemId = 1;
  let variantId = 1;
  let k = 0;

  const stockOf = (warehouses: boolean): string => {
    if (k % 20 === 19) return ''; // a known barcode without any stock definition
    const quantity = () => Math.floor(random() * 500);
    if (!warehouses) return `,"stock":[{"quantity":${quantity()}}]`;
    const entries = [`{"warehouse":"W1","quantity":${quantity()}}`];
    if (k % 3 !== 0) entries.push(`{"warehouse":"W2","quantity":${quantity()}}`);
    if (k % 3 === 2) entries.push(`{"warehouse":"W3","quantity":${quantity()}}`);
    return `,"stock":[${entries.join(',')}]`;
  };

  const writeItems = (count: number, warehouses: boolean) => {
    const end = k + count;
    let first = true;
    while (k < end) {
      if (!first) write(',');
      first = false;
      if (k % 6 === 4 && k + 2 <= end) {
        const item = itemId++;
        const variants: string[] = [];
        for (const size of ['S', 'M']) {
          variants.push(`{"id":${variantId++},"name":"Size ${size}","barcode":"${barcodeOf(k)}"${stockOf(warehouses)}}`);
          k++;
        }
        write(`\n{"id":${item},"name":"Shirt ${item}","variants":[${variants.join(',')}]}`);
      } else {
        const item = itemId++;
        write(`\n{"id":${item},"name":"Article ${item}","barcode":"${barcodeOf(k)}"${stockOf(warehouses)}}`);
        k++;
      }
    }
  };

  write(`{"accounts":[\n{"name":"${WAREHOUSE_ACCOUNT}","warehouses_enabled":true,"warehouses":[`);
  write(WAREHOUSE_NAMES.map((name, i) => `{"id":${i + 1},"name":"${name}"}`).join(','));
  write('],"items":[');
  writeItems(warehouseBarcodes, true);
  write(`]},\n{"name":"${PLAIN_ACCOUNT}","warehouses_enabled":false,"items":[`);
  writeItems(barcodes - warehouseBarcodes, false);
  write(']}\n]}\n');
  flush();
  closeSync(fd);
  return { file, barcodes, bytes, warehouseBarcodes };
}
