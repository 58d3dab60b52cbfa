// The read endpoint's answer written straight to JSON bytes: the same text as
// JSON.stringify(assembleReadResponse(…)) (test/api/read-answer.test.ts holds them equal), built from
// the records' known shape instead of walking generic objects. The part of a record that names its
// warehouse is the same for every record of that warehouse, so it is serialised once and kept.
import { type StockRecord, fieldMessages } from '../../shared/index.ts';

/** `,"warehouse":1,"warehouse_name":"Main"}` by warehouse id, with the name it was made for. */
const warehouseTails = new Map<number, { name: string; tail: string }>();
const MAX_KEPT_TAILS = 10_000;

function warehouseTail(id: number, name: string): string {
  const kept = warehouseTails.get(id);
  if (kept !== undefined && kept.name === name) return kept.tail;
  if (warehouseTails.size >= MAX_KEPT_TAILS) warehouseTails.clear();
  const tail = `,"warehouse":${id},"warehouse_name":${JSON.stringify(name)}}`;
  warehouseTails.set(id, { name, tail });
  return tail;
}

/** JSON of a whole number or null, as JSON.stringify writes it. */
const numberOrNull = (n: number | null) => (n === null ? 'null' : String(n));

/**
 * The read answer as UTF-8 JSON: records of each found barcode in request order, one error entry per
 * unknown barcode (shared/partial-result.ts, assembleReadResponse, says the rules).
 */
export function readAnswerJson(barcodes: readonly string[], recordsOf: (barcode: string) => readonly StockRecord[] | undefined): Buffer {
  let results = '';
  let errors = '';
  for (const barcode of barcodes) {
    const records = recordsOf(barcode);
    if (records && records.length > 0) {
      for (const record of records) {
        // `"barcode":…` and the warehouse tail are written from the record, not from the request:
        // they are the stored values.
        const head = `{"item":${record.item},"liquid_stock":${numberOrNull(record.liquid_stock)},"barcode":${JSON.stringify(record.barcode)},"quantity":${record.quantity}${record.matched_barcode === undefined ? '' : `,"matched_barcode":${JSON.stringify(record.matched_barcode)}`}`;
        const tail = 'warehouse' in record ? warehouseTail(record.warehouse, record.warehouse_name) : '}';
        results += results === '' ? head + tail : `,${head}${tail}`;
      }
    } else {
      const entry = `{"barcode":${JSON.stringify(barcode)},"errors":{"barcode":${JSON.stringify(fieldMessages.barcodeNotFound(barcode))}}}`;
      errors += errors === '' ? entry : `,${entry}`;
    }
  }
  return Buffer.from(`{"results":[${results}],"errors":[${errors}]}`);
}
