// Importing a catalogue from CSV (one row per barcode and warehouse): the rows are checked one by one,
// every bad line is reported with its line number (the first thousand listed, all counted), and what
// the checks across rows need is kept on disk (server/store/sqlite/catalogue-csv-scratch.ts); then the
// items are read back one at a time, in the order the file first named them, and go through the
// streamed JSON import's checks and writer (server/catalogue/catalogue-event-sink.ts), all or nothing.
// A dry run does the real import inside a transaction that is rolled back, and reports what it did.
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { MAX_BARCODE_LENGTH, fieldMessages, findControlCharacter, findUnsafeCharacter, parseQuantity } from '../../shared/index.ts';
import { CatalogueEventSink } from '../catalogue/catalogue-event-sink.ts';
import { checkCatalogueItem } from '../catalogue/catalogue-json-events.ts';
import type { CatalogueAccountHeader, CatalogueItem } from '../catalogue/catalogue-schema.ts';
import type { Account } from '../store/accounts.ts';
import { type StoredQuantityChange, noChanges } from '../store/catalogue-import.ts';
import { type CatalogueRefusal, type ImportSummary, catalogueRefused, isCatalogueRefusal } from '../store/catalogue-writer.ts';
import { ProblemList, unlistedProblems } from '../store/problem-list.ts';
import type { Store } from '../store/store.ts';
import { CsvCatalogueScratch } from '../store/sqlite/catalogue-csv-scratch.ts';
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
  /** The account's fields as the catalogue names them; undefined when there is no such account (`problems` says so). */
  header: CatalogueAccountHeader | undefined;
  /**
   * `line 7: quantity: A valid integer is required.` — the first bad lines (MAX_PROBLEMS_LISTED), in file
   * order. A real import refuses the file when there is any.
   */
  problems: string[];
  /** How many problems in all, listed or not. */
  problemCount: number;
  /** The good rows' items, in the order the file first named them, read back one at a time from the scratch file. */
  items(): Generator<CatalogueItem>;
  /** Catalogue path (`items[3]`, `items[3].variants[0]`) → the line it came from, for items `items()` handed out. */
  lineOfPath(path: string): number | undefined;
  /** The line of the stock entry of `barcode` in `warehouse` ('' for none), to point the dry-run report at the file. */
  lineOfStock(barcode: string, warehouse: string): number | undefined;
  /** Removes the scratch file: call once done with the conversion. */
  close(): void;
}

/** `accounts[0].items[3].barcode: …` → `line 12: barcode: …`, for problems found in the catalogue. */
export function inFileTerms(problem: string, lineOfPath: (path: string) => number | undefined): string {
  const match = /^accounts\[0\]\.(items\[\d+\](?:\.variants\[\d+\])?)(?:\.([\w.[\]]+))?: (.*)$/s.exec(problem);
  const line = match ? lineOfPath(match[1]!) : undefined;
  if (!match || line === undefined) return problem;
  return `line ${line}: ${match[2] ? `${match[2]}: ` : ''}${match[3]}`;
}

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
 * Reads a catalogue CSV for one existing account and checks each row as it is read: what the checks
 * across rows and the catalogue need is kept in a scratch file on disk
 * (server/store/sqlite/catalogue-csv-scratch.ts), not in memory. A file that cannot be read as CSV throws, as readCatalogueCsv does, before the
 * account is named a problem. The caller closes the conversion (it removes the scratch file).
 */
export async function convertCatalogueCsv(
  store: Store,
  accountName: string,
  file: string,
  progress?: ProgressReporter,
): Promise<{ conversion: CsvConversion; rows: number }> {
  const account = await store.accounts.find(accountName);
  const scratch = new CsvCatalogueScratch();
  try {
    const builder = csvCatalogueBuilder(scratch, account ? { account, warehouses: await store.stock.warehouses(account) } : undefined);
    const rows = await readRows(file, (row) => builder.add(row), progress);
    progress?.(`checking ${rows} rows`);
    if (!account) {
      const problem = `account: no account named "${accountName}"; create it (and its warehouses) with a JSON catalogue first`;
      return { conversion: conversionOf(scratch, undefined, [problem], 1), rows };
    }
    const header = {
      name: account.name,
      warehouses_enabled: account.warehousesEnabled,
      ...(account.warehousesEnabled ? { warehouses: builder.warehouses } : {}),
    };
    return { conversion: conversionOf(scratch, header, [...builder.problems.listed], builder.problems.count), rows };
  } catch (error) {
    scratch.close();
    throw error;
  }
}

/** The conversion's view of the scratch file: its items in file order, and the lines of what they hold. */
function conversionOf(
  scratch: CsvCatalogueScratch,
  header: CatalogueAccountHeader | undefined,
  problems: string[],
  problemCount: number,
): CsvConversion {
  // Item i of the catalogue as handed out: its id and line (8 bytes each; a variant's line is read again when a problem names it).
  const itemIds: number[] = [];
  const itemLines: number[] = [];
  return {
    header,
    problems,
    problemCount,
    *items() {
      itemIds.length = 0;
      itemLines.length = 0;
      if (!header) return;
      for (const { item, line } of scratch.items()) {
        itemIds.push(item.id);
        itemLines.push(line);
        yield item;
      }
    },
    lineOfPath(path) {
      const match = /^items\[(\d+)\](?:\.variants\[(\d+)\])?$/.exec(path);
      if (!match) return undefined;
      const i = Number(match[1]);
      if (match[2] === undefined) return itemLines[i];
      return itemIds[i] === undefined ? undefined : scratch.variantLine(itemIds[i], Number(match[2]));
    },
    lineOfStock: (barcode, warehouse) => scratch.stockLine(barcode, warehouse),
    close: () => scratch.close(),
  };
}

/** The checks of a catalogue CSV's rows, one row at a time (`add`); what they keep goes to `scratch`. */
function csvCatalogueBuilder(
  scratch: CsvCatalogueScratch,
  known: { account: Account; warehouses: { id: number; name: string }[] } | undefined,
): { add: (row: CsvRow) => void; problems: ProblemList; warehouses: { id: number; name: string }[] } {
  const problems = new ProblemList();
  if (!known) return { add: () => {}, problems, warehouses: [] };
  const { account, warehouses } = known;
  const warehouseNames = new Set(warehouses.map((w) => w.name));

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
    scratch.rowDone();

    // Consistency with the rows before: one name per item, one unit per barcode, one entry per warehouse.
    let item = scratch.item(itemId);
    if (!item) {
      scratch.addItem(itemId, itemName, line);
      item = { name: itemName, line, plainBarcode: null, plainLine: null, variants: 0 };
    } else if (item.name !== itemName) {
      bad('item_name', `item ${itemId} is named "${item.name}" on line ${item.line}`);
      return;
    }
    const existing = scratch.unit(barcode);
    // The unit's entries are kept under the line that first named its barcode (catalogue-csv-scratch.ts).
    const unitLine = existing ? existing.line : line;
    if (existing) {
      if (existing.itemId !== itemId || existing.variantId !== variantId) {
        bad(
          'barcode',
          `barcode "${barcode}" belongs to ${existing.variantId === null ? `item ${existing.itemId}` : `variant ${existing.variantId}`} on line ${existing.line}`,
        );
        return;
      }
      if (variantId !== null) {
        const named = scratch.variant(itemId, variantId)?.name;
        if (named !== variantName) {
          bad('variant_name', `variant ${variantId} is named "${named}" on line ${existing.line}`);
          return;
        }
      }
    } else if (variantId === null) {
      if (item.plainBarcode !== null || item.variants > 0) {
        bad(
          'barcode',
          `item ${itemId} already has ${item.plainBarcode !== null ? `barcode "${item.plainBarcode}"` : 'variants'} (line ${item.plainLine ?? item.line}); an item holds stock itself or through variants`,
        );
        return;
      }
      scratch.addPlainUnit(itemId, barcode, line);
    } else {
      if (item.plainBarcode !== null) {
        bad(
          'variant_id',
          `item ${itemId} has its own barcode "${item.plainBarcode}" (line ${item.plainLine}); it cannot also have variants`,
        );
        return;
      }
      const known = scratch.variant(itemId, variantId);
      if (known) {
        bad('barcode', `variant ${variantId} has barcode "${known.barcode}" on line ${known.line}`);
        return;
      }
      scratch.addVariantUnit(itemId, variantId, variantName, barcode, line);
    }
    if (quantity !== undefined) {
      const first = scratch.entryLine(unitLine, warehouse, false);
      if (first !== undefined) {
        bad('warehouse', `barcode "${barcode}" already has a quantity${warehouse ? ` in ${warehouse}` : ''} on line ${first}`);
        return;
      }
      scratch.addStock(unitLine, warehouse, line, quantity);
    }
    if (minimum !== undefined) {
      const first = scratch.entryLine(unitLine, warehouse, true);
      if (first !== undefined) {
        bad('warehouse', `barcode "${barcode}" already has a minimum${warehouse ? ` in ${warehouse}` : ''} on line ${first}`);
        return;
      }
      scratch.addReorder(unitLine, warehouse, line, minimum, target);
    }
  };
  return { add, problems, warehouses };
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
  /** How many quantities would change (also when they were handed over rather than kept in `quantityChanges`). */
  quantityChangeCount: number;
}

/** Items handed to the dry run's names look-up at a time (store.catalogue.dryRunStream's beforeWriting). */
const ITEMS_PER_LOOKUP = 500;

/**
 * Hands the conversion's items to `sink` as a streamed catalogue file's values: each item, the
 * account, the document. `beforeWriting` sees each run of items before the sink does.
 */
async function streamConversion(
  sink: CatalogueEventSink,
  conversion: CsvConversion,
  beforeWriting?: (items: readonly CatalogueItem[]) => Promise<void>,
): Promise<ImportSummary> {
  const header = conversion.header!;
  let index = 0;
  let run: CatalogueItem[] = [];
  const handRun = async () => {
    await beforeWriting?.(run);
    for (const item of run) {
      await sink.handle({ kind: 'item', account: 0, index, checked: checkCatalogueItem(item), ...(index === 0 ? { header } : {}) });
      index++;
    }
    run = [];
  };
  for (const item of conversion.items()) {
    run.push(item);
    if (run.length >= ITEMS_PER_LOOKUP) await handRun();
  }
  await handRun();
  await sink.handle({ kind: 'account', account: 0, value: { ...header, items: [] } });
  await sink.handle({ kind: 'root', value: { accounts: [] } });
  return sink.finish();
}

/** A refusal of the catalogue the rows made, its problems pointed at the file's lines. */
function inFileRefusal(error: CatalogueRefusal, conversion: CsvConversion): CatalogueRefusal {
  return catalogueRefused(
    error.problems.map((p) => inFileTerms(p, (path) => conversion.lineOfPath(path))),
    error.problemCount,
  );
}

/** What a dry run changes besides quantities: new and renamed items and variants. */
type ItemChanges = Pick<DryRunReport, 'newItems' | 'renamedItems' | 'newVariants' | 'renamedVariants'>;

/**
 * Runs the import for real in a transaction that is rolled back, and reports exactly what it changed.
 * With `onQuantityChanges` the quantity changes are handed over a page at a time, with the item
 * changes made before them, instead of being kept in the report (a file of a million lines makes a
 * million of them).
 */
export async function dryRunCatalogueImport(
  store: Store,
  conversion: CsvConversion,
  onQuantityChanges?: (changes: QuantityChange[], items: ItemChanges) => void,
): Promise<DryRunReport> {
  const report: DryRunReport = {
    ...noChanges(),
    quantityChanges: [],
    summary: null,
    problems: [...conversion.problems],
    problemCount: conversion.problemCount,
  };
  if (!conversion.header) return report;
  const inFile = (changes: StoredQuantityChange[]): QuantityChange[] =>
    changes.map((c) => ({ line: conversion.lineOfStock(c.barcode, c.warehouse ?? '') ?? null, ...c }));
  try {
    const { quantityChanges, ...changes } = await store.catalogue.dryRunStream(
      (writer, scratch, beforeWriting) => streamConversion(new CatalogueEventSink(writer, scratch), conversion, beforeWriting),
      onQuantityChanges && ((page, items) => onQuantityChanges(inFile(page), items)),
    );
    Object.assign(report, changes);
    report.quantityChanges = inFile(quantityChanges);
  } catch (error) {
    if (!isCatalogueRefusal(error)) throw error;
    const problems = new ProblemList();
    problems.addAll(conversion.problems, conversion.problemCount);
    const refused = inFileRefusal(error, conversion);
    problems.addAll(refused.problems, refused.problemCount);
    report.problems = [...problems.listed];
    report.problemCount = problems.count;
  }
  return report;
}

/** The real run: all rows or none. Throws a CatalogueRefusal listing the first bad lines and counting all. */
export async function importCatalogueCsv(store: Store, conversion: CsvConversion): Promise<ImportSummary> {
  if (!conversion.header) throw catalogueRefused(conversion.problems, conversion.problemCount);
  if (conversion.problemCount > 0) {
    // Refused whatever else: the good rows' catalogue is checked too (nothing written), so one run tells every problem.
    const problems = new ProblemList();
    problems.addAll(conversion.problems, conversion.problemCount);
    try {
      await store.catalogue.dryRunStream((writer, scratch) =>
        streamConversion(new CatalogueEventSink(writer, scratch, { checkOnly: true }), conversion),
      );
    } catch (error) {
      if (!isCatalogueRefusal(error)) throw error;
      const inFile = inFileRefusal(error, conversion);
      problems.addAll(inFile.problems, inFile.problemCount);
    }
    throw catalogueRefused(problems.listed, problems.count);
  }
  try {
    return await store.catalogue.writeStream((writer, scratch) => streamConversion(new CatalogueEventSink(writer, scratch), conversion));
  } catch (error) {
    if (isCatalogueRefusal(error)) throw inFileRefusal(error, conversion);
    throw error;
  }
}

/** The dry run's first line and its item changes. */
function dryRunHead(file: string, accountName: string, items: ItemChanges): string[] {
  const out: string[] = [`Dry run of ${file} for account "${accountName}": nothing was written.`];
  for (const item of items.newItems) out.push(`  new item ${item.id} "${item.name}"`);
  for (const item of items.renamedItems) out.push(`  rename item ${item.id} "${item.from}" -> "${item.to}"`);
  for (const variant of items.newVariants) out.push(`  new variant ${variant.id} "${variant.name}"`);
  for (const variant of items.renamedVariants) out.push(`  rename variant ${variant.id} "${variant.from}" -> "${variant.to}"`);
  return out;
}

function quantityChangeLine(change: QuantityChange): string {
  const where = change.warehouse === null ? '' : ` in ${change.warehouse}`;
  const at = change.line === null ? '' : `line ${change.line}: `;
  return `  ${at}${change.barcode}${where}: ${change.old_quantity ?? '(none)'} -> ${change.new_quantity}`;
}

/** The dry run's problems and its last line. */
function dryRunTail(rows: number, report: DryRunReport): string[] {
  const out: string[] = [];
  for (const problem of report.problems) out.push(`  problem: ${problem}`);
  const more = unlistedProblems(report.problems.length, report.problemCount);
  if (more !== undefined) out.push(`  ${more}`);
  const changed = report.quantityChangeCount;
  out.push(
    `${rows} row(s); ${changed} quantit${changed === 1 ? 'y' : 'ies'} would change${report.problemCount > 0 ? ' (good rows only: fix the problems first, the import takes all or nothing)' : ''}; ` +
      `${report.newItems.length} new item(s), ${report.newVariants.length} new variant(s); ${report.problemCount} problem(s).`,
  );
  return out;
}

/** The dry-run report as text for the terminal. */
export function formatDryRun(file: string, accountName: string, rows: number, report: DryRunReport): string {
  return [...dryRunHead(file, accountName, report), ...report.quantityChanges.map(quantityChangeLine), ...dryRunTail(rows, report)].join(
    '\n',
  );
}

/**
 * Runs the dry run and prints its report line by line as it is made, the quantity changes a page at
 * a time (the report of a million-line file is never held whole). Returns the report, without its
 * quantity changes.
 */
export async function printDryRun(
  store: Store,
  conversion: CsvConversion,
  file: string,
  accountName: string,
  rows: number,
  print: (line: string) => void,
): Promise<DryRunReport> {
  let headPrinted = false;
  const report = await dryRunCatalogueImport(store, conversion, (changes, items) => {
    if (!headPrinted) for (const line of dryRunHead(file, accountName, items)) print(line);
    headPrinted = true;
    for (const change of changes) print(quantityChangeLine(change));
  });
  if (!headPrinted) for (const line of dryRunHead(file, accountName, report)) print(line);
  for (const line of dryRunTail(rows, report)) print(line);
  return report;
}
