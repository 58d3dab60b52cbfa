// The read answer's own JSON writer (server/api/read-answer.ts) writes exactly what
// JSON.stringify(assembleReadResponse(…)) writes, for any records and barcodes.
import { describe, expect, it } from 'vitest';
import { type StockRecord, assembleReadResponse } from '../../shared/index.ts';
import { readAnswerJson } from '../../server/api/read-answer.ts';
import { seededRandom } from '../support/seeded-random.ts';

const awkward = [
  '0000000000017',
  'a"b',
  'back\\slash',
  'tab\there',
  'nl\nx',
  '\u0001ctl',
  'Süd-Lager',
  'ẞtraße 😀',
  '</script>',
  '\u2028sep',
  '',
];

describe('read answer JSON', () => {
  it('equals JSON.stringify of the assembled answer, with and without warehouses', () => {
    const random = seededRandom(17);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random.next() * list.length)]!;
    for (let run = 0; run < 300; run++) {
      const warehouses = run % 3 !== 0;
      const barcodes = Array.from({ length: 1 + Math.floor(random.next() * 12) }, (_, i) => `${pick(awkward)}${i}`);
      const byBarcode = new Map<string, StockRecord[]>();
      for (const barcode of barcodes) {
        if (random.next() < 0.2) continue; // unknown barcode
        const records: StockRecord[] = [];
        const count = warehouses ? Math.floor(random.next() * 4) : 1;
        for (let w = 0; w < count; w++) {
          const plain = {
            item: Math.floor(random.next() * 1e9),
            liquid_stock: random.next() < 0.5 ? null : Math.floor(random.next() * 1e6),
            barcode,
            quantity: Math.floor(random.next() * 2e6) - 1e6,
            ...(random.next() < 0.2 ? { matched_barcode: pick(awkward) } : {}),
          };
          // Warehouse ids repeat across runs under other names: a kept serialised name must never leak.
          records.push(warehouses ? { ...plain, warehouse: 1 + Math.floor(random.next() * 5), warehouse_name: pick(awkward) } : plain);
        }
        byBarcode.set(barcode, records);
      }
      const recordsOf = (barcode: string) => byBarcode.get(barcode);
      expect(readAnswerJson(barcodes, recordsOf).toString('utf8')).toBe(JSON.stringify(assembleReadResponse(barcodes, recordsOf)));
    }
  });
});
