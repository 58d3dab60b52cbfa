// Not a ceiling: the server's own read path (the store's read of 50 barcodes through the engine,
// and the answer's JSON bytes: store.stock.read + readAnswerJson) in a tight loop in one process,
// with no HTTP. Set beside the storage ceiling (a fixed yardstick: plain better-sqlite3, the
// straightforward query and JSON.stringify), it separates what the server gains by doing the
// storage work cheaper than the yardstick from what it loses between requests.
// Prints one JSON line: {"perSecond", "iterations", "seconds"}.
import { readAnswerJson } from '../server/api/read-answer.ts';
import { openStore } from '../server/store/open-store.ts';
import { WAREHOUSE_ACCOUNT } from '../test/support/catalogue-generator.ts';
import { mulberry32 } from './random.ts';
import { readBarcodes } from './workloads.ts';

const [dbFile, secondsText, warehouseBarcodesText, seedText] = process.argv.slice(2);
if (!dbFile) throw new Error('usage: server-read-loop.ts <db> <seconds> <warehouseBarcodes> <seed>');
const random = mulberry32(Number(seedText));
const pool = Array.from({ length: 2000 }, () => readBarcodes(random, Number(warehouseBarcodesText)));
const store = await openStore(dbFile);
const account = (await store.accounts.find(WAREHOUSE_ACCOUNT))!;
let next = 0;
const once = async () => {
  const barcodes = pool[next++ % pool.length]!;
  const records = await store.stock.read(account, barcodes);
  return readAnswerJson(barcodes, (barcode) => records.get(barcode));
};
for (const until = performance.now() + 500; performance.now() < until;) await once();
let iterations = 0;
const started = performance.now();
const until = started + Number(secondsText) * 1000;
while (performance.now() < until) {
  await once();
  iterations++;
}
const elapsed = (performance.now() - started) / 1000;
await store.close();
console.log(JSON.stringify({ perSecond: iterations / elapsed, iterations, seconds: elapsed }));
