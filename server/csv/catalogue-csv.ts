// Importing a catalogue from CSV (one row per barcode and warehouse): the rows are checked one by one,
// every bad line is reported with its line number (the first thousand listed, all counted), then
// they are turned into the JSON catalogue's structure and go through the same validation and import
// (server/catalogue), all or nothing.
// A dry run does the real import inside a transaction that is rolled back, and reports what it did.
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { MAX_BARCODE_LENGTH, fieldMessages, findControlCharacter, findUnsafeCharacter, parseQuantity } from '../../shared/index.ts';
import type { Catalogue } from '../catalogue/catalogue-schema.ts';
import { parseCatalogue } from '../catalogue/import-catalogue.ts';
import { type ImportSummary, catalogueRefused, isCatalogueRefusal } from '../store/catalogue-writer.ts';
import { ProblemList, unlistedProblems } from '../store/problem-list.ts';
import type { Store } from '../store/store.ts';
import { fromSpreadsheetText } from './spreadsheet-cells.ts';
import { CATALOGUE_CSV_COLUMNS } from './stock-csv.ts';

/** One data row of the file, with the line it starts on. */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

export interface ProgressReporter {
  (message: string): void;
}

const csvOptions = {
  columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
  bom: true,
  skip_empty_lines: true,
  info: true,
} as const;

/** The column separators a catalogue CSV may use: the comma, and the semicolon of spreadsheets set to a European locale. */
export type CsvDelimiter = ',' | ';';

/**
 * The separator of a file whose first line is `header`: a semicolon when the header has the catalogue's
 * columns only when split at semicolons (Excel writes "CSV" with ";" where the comma is the decimal mark).
 */
export function delimiterOf(header: string): CsvDelimiter {
  const columns = (separator: string) => header.split(separator).map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  const found = (separator: string) => CATALOGUE_CSV_COLUMNS.filter((c) => columns(separator).includes(c)).length;
  return found(';') > found(',') ? ';' : ',';
}

/** The first line of a file (up to 64 KiB of it), to choose its separator before parsing. */
function firstLine(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    return text.split(/\r?\n/, 1)[0] ?? '';
  } finally {
    closeSync(fd);
  }
}

/**
 * Hands each row of a CSV stream to `onRow` as it is read; refuses a header without the catalogue
 * columns, and says where a quote is left open. Returns how many rows there were.
 */
async function forEachRow(input: Readable, onRow: (row: CsvRow, count: number) => void, delimiter: CsvDelimiter = ','): Promise<number> {
  const parser = input.pipe(parse({ ...csvOptions, delimiter }));
  let count = 0;
  let lastLine = 1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      lastLine = info.lines;
      if (count === 0) checkHeader(record, input);
      // Text the export marked against formula injection reads back as it was (spreadsheet-cells.ts).
      const cells: Record<string, string> = {};
      for (const [column, value] of Object.entries(record)) cells[column] = fromSpreadsheetText(value);
      onRow({ line: info.lines, cells }, ++count);
    }
  } catch (error) {
    // csv-parse counts the line after the file's last line break; the quote opened on the line after
    // the last whole row.
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED')
      throw catalogueRefused([`line ${lastLine + 1}: a quote (") opened on this line is never closed; nothing after it could be read`]);
    throw error;
  }
  return count;
}

function checkHeader(record: Record<string, string>, input: Readable): void {
  const missing = CATALOGUE_CSV_COLUMNS.filter((column) => !(column in record));
  if (missing.length === 0) return;
  input.destroy();
  throw catalogueRefused([`header: missing column(s) ${missing.join(', ')}; expected ${CATALOGUE_CSV_COLUMNS.join(',')}`]);
}

/** Reads a CSV file as a stream, each row to `onRow`, reporting progress every tenth of the file for large files. */
async function readRows(file: string, onRow: (row: CsvRow) => void, progress?: ProgressReporter): Promise<number> {
  const size = statSync(file).size;
  const input = createReadStream(file);
  let nextReport = size / 10;
  return forEachRow(
    input,
    (row, count) => {
      onRow(row);
      if (progress && input.bytesRead >= nextReport) {
        progress(`read ${count} rows (${Math.min(100, Math.round((input.bytesRead / size) * 100))}%)`);
        while (nextReport <= input.bytesRead) nextReport += size / 10;
      }
    },
    delimiterOf(firstLine(file)),
  );
}

/** Reads every row of a CSV file into memory: how the file is read, on its own (the import checks rows as they stream: convertCatalogueCsv). */
export async function readCatalogueCsv(file: string, progress?: ProgressReporter): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  await readRows(file, (row) => rows.push(row), progress);
  return rows;
}

export interface CsvConversion {
  /** The catalogue of the good rows (undefined when even those do not make one). */
  catalogue: Catalogue | undefined;
  /**
   * `line 7: quantity: A valid integer is required.` — the first bad lines (MAX_PROBLEMS_LISTED), in file
   * order. A real import refuses the file when there is any.
   */
  problems: string[];
  /** How many problems in all, listed or not. */
  problemCount: number;
  /** Line of each (barcode, warehouse) stock entry, to point the dry-run report at the file. */
  lineOfStock: Map<string, number>;
  /** Catalogue path (`items[3]`, `items[3].variants[0]`) → the line it came from. */
  lineOfPath: Map<string, number>;
}

/** `accounts[0].items[3].barcode: …` → `line 12: barcode: …`, for problems found in the catalogue. */
export function inFileTerms(problem: string, lineOfPath: ReadonlyMap<string, number>): string {
  const match = /^accounts\[0\]\.(items\[\d+\](?:\.variants\[\d+\])?)(?:\.([\w.[\]]+))?: (.*)$/s.exec(problem);
  const line = match ? lineOfPath.get(match[1]!) : undefined;
  if (!match || line === undefined) return problem;
  return `line ${line}: ${match[2] ? `${match[2]}: ` : ''}${match[3]}`;
}

const stockKey = (barcode: string, warehouse: string) => `${warehouse}\u0000${barcode}`;

function positiveId(text: string): number | undefined {
  if (!/^\s*\d{1,15}\s*$/.test(text)) return undefined;
  const n = Number(text.trim());
  return n >= 1 && n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

/** A reorder level cell (minimum, target): empty or absent is none; else an integer from 0 to MAX_QUANTITY. */
function reorderLevel(cell: string | undefined, field: string, bad: (field: string, message: string) => void): number | undefined {
  const text = (cell ?? '').trim();
  if (text === '') return undefined;
  const parsed = parseQuantity(text);
  if (typeof parsed === 'string') {
    bad(field, parsed);
    return undefined;
  }
  if (parsed < 0) {
    bad(field, fieldMessages.minValue(0));
    return undefined;
  }
  return parsed;
}

/**
 * Reads a catalogue CSV for one existing account and checks each row as it is read: only what the
 * checks across rows and the catalogue itself need is kept, not the rows (at 526,500 lines they were
 * 158 MB of a 330 MB peak; bench/NOTES.md). A file that cannot be read as CSV throws, as
 * readCatalogueCsv does, before the account is named a problem.
 */
export async function convertCatalogueCsv(
  store: Store,
  accountName: string,
  file: string,
  progress?: ProgressReporter,
): Promise<{ conversion: CsvConversion; rows: number }> {
  const builder = await csvCatalogueBuilder(store, accountName);
  const rows = await readRows(file, (row) => builder.add(row), progress);
  progress?.(`checking ${rows} rows`);
  return { conversion: await builder.finish(), rows };
}

/** The checks of a catalogue CSV's rows, one row at a time (`add`), and the catalogue they make (`finish`). */
async function csvCatalogueBuilder(
  store: Store,
  accountName: string,
): Promise<{ add: (row: CsvRow) => void; finish: () => Promise<CsvConversion> }> {
  const problems = new ProblemList();
  const lineOfStock = new Map<string, number>();
  const lineOfReorder = new Map<string, number>();
  const account = await store.accounts.find(accountName);
  if (!account) {
    return {
      add: () => {},
      finish: async () => ({
        catalogue: undefined,
        problems: [`account: no account named "${accountName}"; create it (and its warehouses) with a JSON catalogue first`],
        problemCount: 1,
        lineOfStock,
        lineOfPath: new Map(),
      }),
    };
  }
  const warehouses = await store.stock.warehouses(account);
  const warehouseNames = new Set(warehouses.map((w) => w.name));

  interface Unit {
    line: number;
    itemId: number;
    variantId: number | null;
    stock: { warehouse?: string; quantity: number }[];
    reorder: { warehouse?: string; minimum: number; target?: number }[];
  }
  interface Item {
    id: number;
    name: string;
    line: number;
    plain?: Unit & { barcode: string };
    variants: Map<number, { name: string; barcode: string; unit: Unit }>;
  }
  const items = new Map<number, Item>();
  const units = new Map<string, Unit>();

  const add = ({ line, cells }: CsvRow): void => {
    const bad = (field: string, message: string) => problems.add(`line ${line}: ${field}: ${message}`);
    const before = problems.count;
    const itemId = positiveId(cells.item_id ?? '');
    if (itemId === undefined) bad('item_id', 'A valid integer is required.');
    const itemName = (cells.item_name ?? '').trim();
    if (itemName === '') bad('item_name', 'This field may not be blank.');
    const unsafeItemName = findUnsafeCharacter(itemName);
    if (unsafeItemName) bad('item_name', fieldMessages.unsafeCharacter(unsafeItemName.name, unsafeItemName.position));
    const variantText = (cells.variant_id ?? '').trim();
    const variantId = variantText === '' ? null : positiveId(variantText);
    if (variantId === undefined) bad('variant_id', 'A valid integer is required.');
    const variantName = (cells.variant_name ?? '').trim();
    if (variantId !== null && variantId !== undefined && variantName === '') bad('variant_name', 'This field may not be blank.');
    if (variantId === null && variantName !== '') bad('variant_name', 'a variant name needs a variant_id');
    const unsafeVariantName = findUnsafeCharacter(variantName);
    if (unsafeVariantName) bad('variant_name', fieldMessages.unsafeCharacter(unsafeVariantName.name, unsafeVariantName.position));
    const barcode = cells.barcode ?? '';
    if (barcode === '') bad('barcode', 'This field may not be blank.');
    else if (barcode.length > MAX_BARCODE_LENGTH) bad('barcode', fieldMessages.maxLength(MAX_BARCODE_LENGTH));
    else {
      const control = findControlCharacter(barcode);
      if (control) bad('barcode', fieldMessages.controlCharacter(control.name, control.position));
    }
    const warehouse = cells.warehouse ?? '';
    const quantityText = (cells.quantity ?? '').trim();
    let quantity: number | undefined;
    if (quantityText !== '') {
      const parsed = parseQuantity(quantityText);
      if (typeof parsed === 'string') bad('quantity', parsed);
      else quantity = parsed;
    }
    // Optional columns of reorder points (docs/REORDER.md): a minimum, and a target to order up to.
    const minimum = reorderLevel(cells.minimum, 'minimum', bad);
    const target = reorderLevel(cells.target, 'target', bad);
    if (target !== undefined && minimum === undefined && (cells.minimum ?? '').trim() === '') bad('minimum', 'a target needs a minimum');
    // An empty quantity means "no stock entry"; a row that names a warehouse says something about it: a quantity or a minimum.
    if (quantityText === '' && warehouse !== '' && (cells.minimum ?? '').trim() === '') bad('quantity', 'This field is required.');
    if (account.warehousesEnabled) {
      if (warehouse === '' && (quantityText !== '' || (cells.minimum ?? '').trim() !== '')) bad('warehouse', 'This field is required.');
      else if (warehouse !== '' && !warehouseNames.has(warehouse)) bad('warehouse', `No warehouses found with name: ${warehouse}`);
    } else if (warehouse !== '') {
      bad('warehouse', `account "${account.name}" has no warehouses; leave this column empty`);
    }
    if (problems.count > before || itemId === undefined || variantId === undefined) return;

    // Consistency with the rows before: one name per item, one unit per barcode, one entry per warehouse.
    let item = items.get(itemId);
    if (!item) items.set(itemId, (item = { id: itemId, name: itemName, line, variants: new Map() }));
    else if (item.name !== itemName) {
      bad('item_name', `item ${itemId} is named "${item.name}" on line ${item.line}`);
      return;
    }
    const existing = units.get(barcode);
    let unit: Unit;
    if (existing) {
      if (existing.itemId !== itemId || existing.variantId !== variantId) {
        bad(
          'barcode',
          `barcode "${barcode}" belongs to ${existing.variantId === null ? `item ${existing.itemId}` : `variant ${existing.variantId}`} on line ${existing.line}`,
        );
        return;
      }
      unit = existing;
      if (variantId !== null && item.variants.get(variantId)?.name !== variantName) {
        bad('variant_name', `variant ${variantId} is named "${item.variants.get(variantId)?.name}" on line ${existing.line}`);
        return;
      }
    } else if (variantId === null) {
      if (item.plain || item.variants.size > 0) {
        bad(
          'barcode',
          `item ${itemId} already has ${item.plain ? `barcode "${item.plain.barcode}"` : 'variants'} (line ${item.plain?.line ?? item.line}); an item holds stock itself or through variants`,
        );
        return;
      }
      unit = { line, itemId, variantId: null, stock: [], reorder: [] };
      item.plain = { ...unit, barcode }; // shares unit.stock
      units.set(barcode, unit);
    } else {
      if (item.plain) {
        bad(
          'variant_id',
          `item ${itemId} has its own barcode "${item.plain.barcode}" (line ${item.plain.line}); it cannot also have variants`,
        );
        return;
      }
      const known = item.variants.get(variantId);
      if (known) {
        bad('barcode', `variant ${variantId} has barcode "${known.barcode}" on line ${known.unit.line}`);
        return;
      }
      unit = { line, itemId, variantId, stock: [], reorder: [] };
      item.variants.set(variantId, { name: variantName, barcode, unit });
      units.set(barcode, unit);
    }
    if (quantity !== undefined) {
      const key = stockKey(barcode, warehouse);
      const first = lineOfStock.get(key);
      if (first !== undefined) {
        bad('warehouse', `barcode "${barcode}" already has a quantity${warehouse ? ` in ${warehouse}` : ''} on line ${first}`);
        return;
      }
      lineOfStock.set(key, line);
      unit.stock.push(warehouse === '' ? { quantity } : { warehouse, quantity });
    }
    if (minimum !== undefined) {
      const key = stockKey(barcode, warehouse);
      const first = lineOfReorder.get(key);
      if (first !== undefined) {
        bad('warehouse', `barcode "${barcode}" already has a minimum${warehouse ? ` in ${warehouse}` : ''} on line ${first}`);
        return;
      }
      lineOfReorder.set(key, line);
      unit.reorder.push({ ...(warehouse === '' ? {} : { warehouse }), minimum, ...(target === undefined ? {} : { target }) });
    }
  };

  const finish = async (): Promise<CsvConversion> => {
    // The good rows still make a catalogue, so a dry run shows what they would change beside the problems.
    const lineOfPath = new Map<string, number>();
    [...items.values()].forEach((item, i) => {
      lineOfPath.set(`items[${i}]`, item.plain?.line ?? item.line);
      [...item.variants.values()].forEach((variant, j) => lineOfPath.set(`items[${i}].variants[${j}]`, variant.unit.line));
    });
    const document = {
      accounts: [
        {
          name: account.name,
          warehouses_enabled: account.warehousesEnabled,
          ...(account.warehousesEnabled ? { warehouses } : {}),
          items: [...items.values()].map((item) =>
            item.plain
              ? {
                  id: item.id,
                  name: item.name,
                  barcode: item.plain.barcode,
                  ...(item.plain.stock.length > 0 ? { stock: item.plain.stock } : {}),
                  ...(item.plain.reorder.length > 0 ? { reorder: item.plain.reorder } : {}),
                }
              : {
                  id: item.id,
                  name: item.name,
                  variants: [...item.variants.entries()].map(([id, v]) => ({
                    id,
                    name: v.name,
                    barcode: v.barcode,
                    ...(v.unit.stock.length > 0 ? { stock: v.unit.stock } : {}),
                    ...(v.unit.reorder.length > 0 ? { reorder: v.unit.reorder } : {}),
                  })),
                },
          ),
        },
      ],
    };
    try {
      return {
        catalogue: await parseCatalogue(document),
        problems: [...problems.listed],
        problemCount: problems.count,
        lineOfStock,
        lineOfPath,
      };
    } catch (error) {
      if (isCatalogueRefusal(error)) {
        problems.addAll(
          error.problems.map((p) => inFileTerms(p, lineOfPath)),
          error.problemCount,
        );
        return { catalogue: undefined, problems: [...problems.listed], problemCount: problems.count, lineOfStock, lineOfPath };
      }
      throw error;
    }
  };
  return { add, finish };
}

export interface QuantityChange {
  line: number | null;
  barcode: string;
  warehouse: string | null;
  old_quantity: number | null;
  new_quantity: number;
}

export interface DryRunReport {
  summary: ImportSummary | null;
  /** The first problems (MAX_PROBLEMS_LISTED), in file order. */
  problems: string[];
  /** How many problems in all, listed or not. */
  problemCount: number;
  newItems: { id: number; name: string }[];
  renamedItems: { id: number; from: string; to: string }[];
  newVariants: { id: number; name: string }[];
  renamedVariants: { id: number; from: string; to: string }[];
  quantityChanges: QuantityChange[];
}

/** Runs the import for real in a transaction that is rolled back, and reports exactly what it changed. */
export async function dryRunCatalogueImport(store: Store, conversion: CsvConversion): Promise<DryRunReport> {
  const report: DryRunReport = {
    summary: null,
    problems: [...conversion.problems],
    problemCount: conversion.problemCount,
    newItems: [],
    renamedItems: [],
    newVariants: [],
    renamedVariants: [],
    quantityChanges: [],
  };
  if (!conversion.catalogue) return report;
  try {
    const { quantityChanges, ...changes } = await store.catalogue.dryRun(conversion.catalogue);
    Object.assign(report, changes);
    report.quantityChanges = quantityChanges.map((c) => ({
      line: conversion.lineOfStock.get(stockKey(c.barcode, c.warehouse ?? '')) ?? null,
      ...c,
    }));
  } catch (error) {
    if (!isCatalogueRefusal(error)) throw error;
    const problems = new ProblemList();
    problems.addAll(conversion.problems, conversion.problemCount);
    problems.addAll(
      error.problems.map((p) => inFileTerms(p, conversion.lineOfPath)),
      error.problemCount,
    );
    report.problems = [...problems.listed];
    report.problemCount = problems.count;
  }
  return report;
}

/** The real run: all rows or none. Throws a CatalogueRefusal listing the first bad lines and counting all. */
export async function importCatalogueCsv(store: Store, conversion: CsvConversion): Promise<ImportSummary> {
  if (!conversion.catalogue || conversion.problemCount > 0) throw catalogueRefused(conversion.problems, conversion.problemCount);
  try {
    return await store.catalogue.write(conversion.catalogue);
  } catch (error) {
    if (isCatalogueRefusal(error))
      throw catalogueRefused(
        error.problems.map((p) => inFileTerms(p, conversion.lineOfPath)),
        error.problemCount,
      );
    throw error;
  }
}

/** The dry-run report as text for the terminal. */
export function formatDryRun(file: string, accountName: string, rows: number, report: DryRunReport): string {
  const out: string[] = [`Dry run of ${file} for account "${accountName}": nothing was written.`];
  for (const item of report.newItems) out.push(`  new item ${item.id} "${item.name}"`);
  for (const item of report.renamedItems) out.push(`  rename item ${item.id} "${item.from}" -> "${item.to}"`);
  for (const variant of report.newVariants) out.push(`  new variant ${variant.id} "${variant.name}"`);
  for (const variant of report.renamedVariants) out.push(`  rename variant ${variant.id} "${variant.from}" -> "${variant.to}"`);
  for (const change of report.quantityChanges) {
    const where = change.warehouse === null ? '' : ` in ${change.warehouse}`;
    const at = change.line === null ? '' : `line ${change.line}: `;
    out.push(`  ${at}${change.barcode}${where}: ${change.old_quantity ?? '(none)'} -> ${change.new_quantity}`);
  }
  for (const problem of report.problems) out.push(`  problem: ${problem}`);
  const more = unlistedProblems(report.problems.length, report.problemCount);
  if (more !== undefined) out.push(`  ${more}`);
  out.push(
    `${rows} row(s); ${report.quantityChanges.length} quantit${report.quantityChanges.length === 1 ? 'y' : 'ies'} would change${report.problemCount > 0 ? ' (good rows only: fix the problems first, the import takes all or nothing)' : ''}; ` +
      `${report.newItems.length} new item(s), ${report.newVariants.length} new variant(s); ${report.problemCount} problem(s).`,
  );
  return out.join('\n');
}
