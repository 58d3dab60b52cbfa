// A stocktake of a whole warehouse, at scale: the figures of docs/STOCKTAKE.md ("Commit", "Review",
// "What a counting page asks"). On a generated catalogue (test/support/catalogue-generator.ts) imported
// into a fresh SQLite file, in-process through the store: a session in the first warehouse with a
// few scans, its commit with the uncounted set to 0 (time, the longest pause of the event loop,
// the progress poll), then what the pages ask of the committed session (the review; every line),
// and of an open session of `--open-lines` lines (every line; the changes after one scan).
// Not part of `npm run bench`: a tool for those figures, which are absolute times of this machine.
//
//   node bench/stocktake-scale.ts [--barcodes 100000] [--open-lines 20000] [--dir DIR]
//
// Prints a line per figure, then one JSON line with them all.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { importCatalogueFile } from '../server/catalogue/import-catalogue-file.ts';
import { openStore } from '../server/store/open-store.ts';
import type { Caller } from '../server/store/store.ts';
import { WAREHOUSE_ACCOUNT, WAREHOUSE_NAMES, barcodeOf, generateCatalogue } from '../test/support/catalogue-generator.ts';

const { values } = parseArgs({
  options: {
    barcodes: { type: 'string', default: '100000' },
    'open-lines': { type: 'string', default: '20000' },
    dir: { type: 'string' },
  },
});
const barcodes = Number(values.barcodes);
const openLines = Number(values['open-lines']);
const dir = values.dir ?? mkdtempSync(path.join(os.tmpdir(), 'bi-stocktake-scale-'));
const figures: Record<string, number> = {};
const note = (name: string, value: number, unit: string) => {
  figures[name] = Math.round(value * 10) / 10;
  console.log(`${name}: ${figures[name]!.toLocaleString('en-US')} ${unit}`);
};
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const catalogue = generateCatalogue(path.join(dir, 'catalogue.json'), barcodes);
const store = await openStore(path.join(dir, 'stocktake.db'));
try {
  await importCatalogueFile(store, catalogue.file);
  const account = (await store.accounts.find(WAREHOUSE_ACCOUNT))!;
  const { id: tokenId } = await store.tokens.create(WAREHOUSE_ACCOUNT, 'stocktake scale', 'manager');
  const caller: Caller = { ...account, tokenId, role: 'manager' };
  const warehouse_name = WAREHOUSE_NAMES[0];

  // A session of a few scans, committed with the uncounted set to 0.
  const { id } = (await store.stocktakes.create(caller, { warehouse_name, blind: false })).body;
  for (let k = 0; k < 3; k++) await store.stocktakes.scan(caller, id, { barcode: barcodeOf(k), amount: 2 });
  const polls: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const [result, commitMs] = await timed(() =>
    store.stocktakes.commit(
      caller,
      id,
      { zero_uncounted: true },
      {
        // The page's progress poll, every 100th batch here (it asks once a second).
        afterBatch: async (batch) => {
          if (batch % 100 === 0) polls.push((await timed(() => store.stocktakes.get(account, id)))[1]);
        },
      },
    ),
  );
  loop.disable();
  note('zeroing commit: lines', result.applied, '');
  note('zeroing commit', commitMs / 1000, 's');
  note('zeroing commit: longest event-loop pause', loop.max / 1e6, 'ms');
  if (polls.length > 0) note('progress poll (median)', polls.sort((a, b) => a - b)[polls.length >> 1]!, 'ms');
  const [review, reviewMs] = await timed(() => store.stocktakes.review(account, id));
  note('review of the committed session', reviewMs, 'ms');
  note('review: answer', bytesOf(review), 'bytes');
  const [lines, linesMs] = await timed(() => store.stocktakes.lines(account, id));
  note('every line of the committed session', linesMs, 'ms');
  note('every line of the committed session: answer', bytesOf(lines), 'bytes');

  // An open session of `openLines` counted lines: what a counting page asks every two seconds.
  const open = (await store.stocktakes.create(caller, { warehouse_name, blind: false })).body;
  const count = Math.min(openLines, catalogue.warehouseBarcodes);
  for (let k = 0; k < count; k++) await store.stocktakes.scan(caller, open.id, { barcode: barcodeOf(k), amount: 1 });
  const [all, allMs] = await timed(() => store.stocktakes.changes(account, open.id));
  note('open session, every line', allMs, 'ms');
  note('open session, every line: answer', bytesOf(all), 'bytes');
  await store.stocktakes.scan(caller, open.id, { barcode: barcodeOf(0), amount: 1 });
  const [changed, changedMs] = await timed(() => store.stocktakes.changes(account, open.id, all.after));
  note('open session, the changes after one scan', changedMs, 'ms');
  note('open session, the changes after one scan: answer', bytesOf(changed), 'bytes');
  console.log(JSON.stringify({ barcodes, openLines: count, ...figures }));
} finally {
  await store.close();
  if (values.dir === undefined) rmSync(dir, { recursive: true, force: true });
}
