// The reports of docs/REORDER.md at scale, the `reports` rows of `npm run bench`: a page of the
// low-stock list, the stock chart of an item with 100,000 movements, and a warehouse's movements per
// day, each against a bound written here (REPORT_BOUNDS) and in docs/REORDER.md. On a generated
// catalogue imported with the project's importer (bench/import-child.ts) into a fresh SQLite file,
// then, with plain SQL, reorder points on every tenth unit of the warehouse account in its first
// warehouse, sales of those units spread over the last 90 days (0.6 per barcode), and one unit with
// CHART_MOVEMENTS movements over the same 90 days. Measured in-process through the store (no HTTP):
// the median of RUNS after two warm-ups.
//
// Alone: node bench/reports-scale.ts [--barcodes 10000] [--chart-movements 100000] [--dir DIR]
// (prints the report's section, then one JSON line)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { DEFAULT_LOW_STOCK_PAGE, movementsPerDayQuerySchema, lowStockQuerySchema } from '../shared/index.ts';
import { HLC_KEY_COUNTERS } from '../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../server/store/movements/movement-names.ts';
import { openStore } from '../server/store/open-store.ts';
import { WAREHOUSE_ACCOUNT, WAREHOUSE_NAMES, barcodeOf, generateCatalogue } from '../test/support/catalogue-generator.ts';
import { ROOT, runNode } from './processes.ts';

export const CHART_MOVEMENTS = 100_000;
const RUNS = 15;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The bound each row is held to (docs/REORDER.md, "At scale"): milliseconds on the 1M-barcode
 * database, or for the movements per day, whose cost is one pass over the period's movements in the
 * database, `perMovement` ms for each movement the period holds on top of `fixed`.
 */
export const REPORT_BOUNDS = {
  lowStockPage: 500,
  lowStockWarehousePage: 500,
  chart90d: 400,
  chartAll: 400,
  perDay30Warehouse: { fixed: 50, perMovement: 0.0015 },
  perDay90Warehouse: { fixed: 50, perMovement: 0.0015 },
  perDay90Account: { fixed: 50, perMovement: 0.0015 },
} as const;
export type ReportRow = keyof typeof REPORT_BOUNDS;

/** A row's bound in ms for what its answer held, and how it is written. */
function boundOf(row: ReportRow, measured: { movements?: number }): { ms: number; text: string } {
  const bound = REPORT_BOUNDS[row];
  if (typeof bound === 'number') return { ms: bound, text: `≤ ${fmt(bound)} ms` };
  const ms = bound.fixed + bound.perMovement * (measured.movements ?? 0);
  return { ms, text: `≤ ${fmt(ms)} ms (${fmt(bound.fixed)} + ${fmt(bound.perMovement * 1000, 1)} per 1,000 movements)` };
}

export interface ReportsResult {
  command: string;
  date: string;
  barcodes: number;
  reorderPoints: number;
  sales: number;
  chartMovements: number;
  /** Per row: the median and the slowest of RUNS, in ms, and what the answer held. */
  rows: Record<ReportRow, { medianMs: number; maxMs: number; answer: string; movements?: number }>;
  loadAverage: number[];
}

const rowNames = (r: ReportsResult): Record<ReportRow, string> => ({
  lowStockPage: `low-stock list, first page of ${DEFAULT_LOW_STOCK_PAGE}, every warehouse`,
  lowStockWarehousePage: `low-stock list, first page of ${DEFAULT_LOW_STOCK_PAGE}, one warehouse`,
  chart90d: `stock chart of an item with ${r.chartMovements.toLocaleString('en-US')} movements, 90 days`,
  chartAll: `stock chart of an item with ${r.chartMovements.toLocaleString('en-US')} movements, all`,
  perDay30Warehouse: 'movements per day, one warehouse, 30 days',
  perDay90Warehouse: 'movements per day, one warehouse, 90 days',
  perDay90Account: 'movements per day, the whole account, 90 days',
});

/** Adds the reorder points and the history the rows read, straight into the database. */
function addHistory(dbFile: string, now: number, barcodes: number, chartMovements: number) {
  const db = new BetterSqlite3(dbFile);
  try {
    const account = (db.prepare('SELECT id FROM accounts WHERE name = ?').get(WAREHOUSE_ACCOUNT) as { id: number }).id;
    const warehouse = (
      db.prepare('SELECT id FROM warehouses WHERE account_id = ? AND name = ?').get(account, WAREHOUSE_NAMES[0]) as { id: number }
    ).id;
    const sales = Math.round(barcodes * 0.6);
    const first = now - 90 * DAY_MS;
    // The order key of counter 0 (movements/hlc.ts); the engine makes the text from it and the origin.
    const key = (wall: string) => `(${wall}) * ${HLC_KEY_COUNTERS}`;
    db.exec('BEGIN');
    const points = db
      .prepare(
        'INSERT INTO reorder_points (unit_id, warehouse_id, account_id, minimum, target) SELECT id, ?, account_id, 100, 300 FROM stock_units WHERE account_id = ? AND id % 10 = 0',
      )
      .run(warehouse, account).changes;
    // Sales of the units with a reorder point, one every few seconds over the 90 days.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
            u(k, id, item_id, variant_id) AS (SELECT row_number() OVER (ORDER BY id) - 1, id, item_id, variant_id FROM stock_units WHERE account_id = ? AND id % 10 = 0)
       INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
       SELECT ?, u.id, u.item_id, u.variant_id, ?, 'bench', 1 + n.i, 'adjust', -1 - n.i % 3, ${key(`${first} + n.i * ${Math.floor((90 * DAY_MS) / sales)}`)}, 50, 49 - n.i % 3, ${SOURCE_IDS.api}, ${first}
       FROM n JOIN u ON u.k = n.i % ?`,
    ).run(sales - 1, account, account, warehouse, points);
    // One unit's long life: sales, deliveries and now and then a count, over the same 90 days.
    const unit = db
      .prepare('SELECT id, item_id, variant_id FROM stock_units WHERE account_id = ? AND barcode = ?')
      .get(account, barcodeOf(1)) as {
      id: number;
      item_id: number;
      variant_id: number | null;
    };
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key, old_quantity, new_quantity, source_id, created_ms)
       SELECT ?, ?, ?, ?, ?, 'bench', ? + n.i, CASE WHEN n.i % 500 = 0 THEN 'count' ELSE 'adjust' END, CASE WHEN n.i % 500 = 0 THEN 200 + n.i % 97 WHEN n.i % 40 = 0 THEN 60 ELSE -1 END,
              ${key(`${first} + n.i * ${Math.floor((90 * DAY_MS) / chartMovements)}`)}, 200 + (n.i * 7) % 300, 200 + (n.i * 13) % 300, ${SOURCE_IDS.api}, ${first}
       FROM n`,
    ).run(chartMovements - 1, account, unit.id, unit.item_id, unit.variant_id, warehouse, sales + 1);
    db.exec('COMMIT');
    // A database in use has its planner statistics (the importer's ANALYZE ran before these rows).
    db.exec('ANALYZE');
    return { account, warehouse, points, sales };
  } finally {
    db.close();
  }
}

async function measure<T>(work: () => Promise<T>, describe: (answer: T) => string, movementsOf?: (answer: T) => number) {
  let answer: T | undefined;
  for (let i = 0; i < 2; i++) answer = await work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    answer = await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    medianMs: times[times.length >> 1]!,
    maxMs: times.at(-1)!,
    answer: describe(answer!),
    ...(movementsOf ? { movements: movementsOf(answer!) } : {}),
  };
}

export async function benchReports(options: {
  chartMovements?: number;
  dir: string;
  barcodes: number;
  seed: number;
  command: string;
  log: (text: string) => void;
}): Promise<ReportsResult> {
  const { dir, barcodes, log, chartMovements = CHART_MOVEMENTS } = options;
  const catalogueFile = path.join(dir, 'reports-catalogue.json');
  const dbFile = path.join(dir, 'reports.db');
  log(`reports: generating and importing ${barcodes.toLocaleString('en-US')} barcodes`);
  generateCatalogue(catalogueFile, barcodes, options.seed);
  const imported = await runNode([path.join(ROOT, 'bench', 'import-child.ts'), catalogueFile, dbFile]);
  if (!/^BENCH .*"exitCode":0/m.test(imported.stdout)) throw new Error(`import failed:\n${imported.stdout}\n${imported.stderr}`);
  rmSync(catalogueFile, { force: true });
  const now = Date.now();
  log(`reports: reorder points, sales and an item of ${chartMovements.toLocaleString('en-US')} movements`);
  const added = addHistory(dbFile, now, barcodes, chartMovements);
  const store = await openStore(dbFile);
  try {
    const account = (await store.accounts.find(WAREHOUSE_ACCOUNT))!;
    log(`reports: ${RUNS} runs of each row after two warm-ups`);
    const page = (warehouse?: number) => () =>
      store.reorder.lowStockPage(account, lowStockQuerySchema.parse(warehouse === undefined ? {} : { warehouse }));
    const pageAnswer = (p: Awaited<ReturnType<ReturnType<typeof page>>>) => `${p.results.length} entries`;
    const chart = (range: '90d' | 'all') => () => store.history.chart(account, { barcode: barcodeOf(1), range });
    const chartAnswer = (c: Awaited<ReturnType<ReturnType<typeof chart>>>) => {
      const s = c.series.find((x) => x.warehouse === added.warehouse)!;
      return `${s.points.length} points of ${s.movements.toLocaleString('en-US')} movements`;
    };
    const perDay = (days: number, warehouse?: number) => () =>
      store.history.perDay(account, movementsPerDayQuerySchema.parse({ days, ...(warehouse === undefined ? {} : { warehouse }) }));
    type PerDayAnswer = Awaited<ReturnType<ReturnType<typeof perDay>>>;
    const movementsOf = ({ totals: t }: PerDayAnswer) => t.sales.movements + t.receipts.movements + t.counts.movements + t.sets.movements;
    const perDayAnswer = (d: PerDayAnswer) => `${d.days.length} days, ${movementsOf(d).toLocaleString('en-US')} movements`;
    const rows = {
      lowStockPage: await measure(page(), pageAnswer),
      lowStockWarehousePage: await measure(page(added.warehouse), pageAnswer),
      chart90d: await measure(chart('90d'), chartAnswer),
      chartAll: await measure(chart('all'), chartAnswer),
      perDay30Warehouse: await measure(perDay(30, added.warehouse), perDayAnswer, movementsOf),
      perDay90Warehouse: await measure(perDay(90, added.warehouse), perDayAnswer, movementsOf),
      perDay90Account: await measure(perDay(90), perDayAnswer, movementsOf),
    };
    return {
      command: options.command,
      date: new Date().toISOString(),
      barcodes,
      reorderPoints: added.points,
      sales: added.sales,
      chartMovements,
      rows,
      loadAverage: os.loadavg(),
    };
  } finally {
    await store.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const label = (barcodes: number) => (barcodes >= 1_000_000 ? `${barcodes / 1_000_000}M` : `${barcodes / 1000}k`);

/** The rows of the report's targets table: each report's median against its bound. */
export function reportTargetRows(r: ReportsResult): string[] {
  return (Object.keys(REPORT_BOUNDS) as ReportRow[]).map((row) => {
    const { medianMs } = r.rows[row];
    const bound = boundOf(row, r.rows[row]);
    return `| ${rowNames(r)[row]}, ${label(r.barcodes)} | ${fmt(medianMs, 1)} ms | ${bound.text} | ${medianMs <= bound.ms ? '✅ met' : '❌ missed'} |`;
  });
}

/** The report's section on the reports: every row with its median, slowest run, answer and bound. */
export function renderReports(r: ReportsResult): string[] {
  return [
    '## Reports (low-stock list, stock chart, movements per day)',
    '',
    `Measured by \`${r.command}\` — ${r.date}, load average (1/5/15 min) ${r.loadAverage.map((n) => fmt(n, 2)).join(' / ')} after it. The ${label(r.barcodes)} catalogue with ${fmt(r.reorderPoints)} reorder points, ${fmt(r.sales)} sales over 90 days and one item of ${fmt(r.chartMovements)} movements (bench/reports-scale.ts); each row through the store in-process, no HTTP, the median of ${RUNS} runs after two warm-ups. The bounds are those of docs/REORDER.md, "At scale": fixed ones for the list and the chart, a cost per movement of the period for the movements per day.`,
    '',
    '| report | answer | median ms | slowest ms | bound | |',
    '|---|---|---|---|---|---|',
    ...(Object.keys(REPORT_BOUNDS) as ReportRow[]).map((row) => {
      const m = r.rows[row];
      const bound = boundOf(row, m);
      return `| ${rowNames(r)[row]} | ${m.answer} | ${fmt(m.medianMs, 1)} | ${fmt(m.maxMs, 1)} | ${bound.text} | ${m.medianMs <= bound.ms ? '✅' : '❌'} |`;
    }),
    '',
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { barcodes: { type: 'string', default: '10000' }, 'chart-movements': { type: 'string' }, dir: { type: 'string' } },
  });
  const dir = values.dir ?? mkdtempSync(path.join(os.tmpdir(), 'bi-reports-'));
  try {
    const result = await benchReports({
      dir,
      barcodes: Number(values.barcodes),
      ...(values['chart-movements'] === undefined ? {} : { chartMovements: Number(values['chart-movements']) }),
      seed: 7,
      command: `node bench/reports-scale.ts ${process.argv.slice(2).join(' ')}`.trim(),
      log: (text) => console.log(text),
    });
    console.log(renderReports(result).join('\n'));
    console.log(JSON.stringify(result));
  } finally {
    if (values.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}
