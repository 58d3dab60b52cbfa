// Imports a catalogue file as a stream: the JSON is parsed a chunk at a time and every item is
// validated and written as soon as it is complete, so a million-barcode file never sits in memory.
// Same rules, same messages and the same all-or-nothing transaction as parseCatalogue followed by
// importCatalogue (import-catalogue.ts), which a test checks on the same documents.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { JSONParser } from '@streamparser/json';
import type { z } from 'zod';
import type { Database } from '../store/database.ts';
import { withTemporaryTablesOnDisk } from '../store/sqlite-pragmas.ts';
import { CatalogueChecker, type Path, formatPath } from './catalogue-checks.ts';
import { catalogueAccountHeaderSchema, catalogueAccountSchema, catalogueItemSchema, catalogueRootSchema } from './catalogue-schema.ts';
import { TableFirstUses } from './first-uses.ts';
import { CatalogueWriter, type ImportSummary } from './catalogue-writer.ts';
import { CatalogueError } from './import-catalogue.ts';

/** The file cannot be read, or is not JSON: the message is ready for the user. */
export class CatalogueFileError extends Error {}

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  barcodes: number;
}

export interface FileImportOptions {
  /** Called about once a second while a large file is read. */
  onProgress?: (progress: ImportProgress) => void;
}

const CHUNK_BYTES = 1 << 20;
/** A full garbage collection every this many bytes read (see collectGarbage). */
const COLLECT_EVERY_BYTES = 16 << 20;

/**
 * A full collection on demand. Parsing and validating a big file promotes short-lived objects to
 * the old generation faster than V8 chooses to clean it while busy: on a 1M-barcode file the
 * importer's heap grew past 200 MB of garbage. Collecting every 16 MB read keeps the heap near its
 * live size (a few MB) for ~10 ms per collection.
 */
let gc: (() => void) | undefined;
function collectGarbage(): void {
  // Made on first use only: the CLI's other commands (serve) load this module too.
  gc ??= typeof globalThis.gc === 'function' ? globalThis.gc : (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc') as () => void);
  gc();
}
const PROGRESS_EVERY_MS = 1000;
const HEADER_KEYS = ['name', 'warehouses_enabled', 'warehouses'] as const;

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

interface AccountState {
  index: number;
  /** Header fields present when the header was checked (before the items); undefined while not checked. */
  checkedKeys: Set<string> | undefined;
  /** The header passed its schema: its items are checked across fields (and written). */
  headerValid: boolean;
  /** The writer accepted the account (no scenario conflict). */
  writable: boolean;
  /** Items that arrived before the header was complete (only when `items` precedes the header keys). */
  pending: { item: unknown; i: number }[];
}

/** A copy of `value` without the keys that `issues` (all unrecognized_keys) name. */
function withoutUnknownKeys(value: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const copy = structuredClone(value);
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    let node: unknown = copy;
    for (const key of issue.path) node = (node as Record<PropertyKey, unknown>)[key];
    for (const key of issue.keys) delete (node as Record<string, unknown>)[key];
  }
  return copy;
}

/** Reads, validates and writes a catalogue file in one transaction; throws CatalogueError or CatalogueFileError. */
export function importCatalogueFile(db: Database, file: string, options: FileImportOptions = {}): ImportSummary {
  let fd: number;
  let totalBytes: number;
  try {
    fd = openSync(file, 'r');
    totalBytes = fstatSync(fd).size;
  } catch (error) {
    throw new CatalogueFileError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    // The scratch table of first uses (first-uses.ts) grows with the file: keep it on disk.
    return withTemporaryTablesOnDisk(db.sqlite, () => db.transaction(() => streamInto(db, file, fd, totalBytes, options)));
  } finally {
    closeSync(fd);
  }
}

function streamInto(db: Database, file: string, fd: number, totalBytes: number, options: FileImportOptions): ImportSummary {
  const schemaProblems: string[] = [];
  let onlyUnknownKeys = true; // zod skips the cross-field rules after any other structural problem
  const crossProblems: string[] = [];
  const schemaIssues = (issues: readonly z.core.$ZodIssue[], prefix: Path) => {
    for (const issue of issues) {
      if (issue.code !== 'unrecognized_keys') onlyUnknownKeys = false;
      schemaProblems.push(`${formatPath([...prefix, ...(issue.path as Path)])}: ${issue.message}`);
    }
  };
  const firstUses = new TableFirstUses(db);
  const checker = new CatalogueChecker((path, message) => crossProblems.push(`${formatPath(path)}: ${message}`), firstUses);
  const writer = new CatalogueWriter(db);
  /** Writing stops at the first problem of the file itself: the import will be refused anyway. */
  const writing = () => schemaProblems.length === 0 && crossProblems.length === 0;
  let account: AccountState | undefined;
  let sawRoot = false;

  const checkHeader = (state: AccountState, value: unknown) => {
    const header = catalogueAccountHeaderSchema.safeParse(value);
    if (!header.success) return schemaIssues(header.error.issues, ['accounts', state.index]);
    state.headerValid = true;
    checker.checkAccount(header.data, state.index);
    state.writable = writing() && writer.beginAccount(header.data, state.index);
  };

  const handleItem = (state: AccountState, value: unknown, i: number) => {
    let item = catalogueItemSchema.safeParse(value);
    if (!item.success) {
      schemaIssues(item.error.issues, ['accounts', state.index, 'items', i]);
      // Like zod on the whole document: unknown keys alone do not stop the cross-field rules.
      if (!item.error.issues.every((issue) => issue.code === 'unrecognized_keys')) return;
      item = catalogueItemSchema.safeParse(withoutUnknownKeys(value, item.error.issues));
      if (!item.success) return;
    }
    if (!state.headerValid) return;
    checker.checkItem(item.data, i);
    if (state.writable && writing()) writer.writeItem(item.data, i);
  };

  /** The header is complete once name, scenario and (in the warehouse scenario) warehouses were read. */
  const headerReady = (value: JsonObject) => 'name' in value && 'warehouses_enabled' in value && ('warehouses' in value || value.warehouses_enabled !== true);

  const onItem = (a: number, accountValue: unknown, value: unknown, i: number) => {
    if (!account || account.index !== a) account = { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    if (!account.checkedKeys && isObject(accountValue) && headerReady(accountValue)) {
      account.checkedKeys = new Set(HEADER_KEYS.filter((key) => key in accountValue));
      checkHeader(account, accountValue);
    }
    if (account.checkedKeys) handleItem(account, value, i);
    else account.pending.push({ item: value, i });
  };

  const onAccountEnd = (a: number, value: unknown) => {
    const state = account && account.index === a ? account : { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    account = undefined;
    // The full account schema catches unknown keys and a wrong `items`; its items were checked one by one.
    const whole = isObject(value) && Array.isArray(value.items) ? { ...value, items: [] } : value;
    const full = catalogueAccountSchema.safeParse(whole);
    if (!state.checkedKeys) {
      // The header was not complete before the items (or there were none): check it now, then the held items.
      if (!full.success) schemaIssues(full.error.issues, ['accounts', a]);
      state.checkedKeys = new Set(HEADER_KEYS);
      const header = catalogueAccountHeaderSchema.safeParse(value);
      if (header.success) {
        state.headerValid = true;
        checker.checkAccount(header.data, a);
        state.writable = writing() && writer.beginAccount(header.data, a);
      }
      for (const { item, i } of state.pending) handleItem(state, item, i);
      return;
    }
    if (!full.success) {
      const seen = state.checkedKeys;
      schemaIssues(full.error.issues.filter((issue) => !seen.has(String(issue.path[0]))), ['accounts', a]);
    }
    // Warehouses given after the items of a no-warehouse account: the rule still holds.
    const late = isObject(value) ? value.warehouses : undefined;
    if (!state.checkedKeys.has('warehouses') && Array.isArray(late) && late.length > 0 && isObject(value) && value.warehouses_enabled === false) {
      crossProblems.push(`${formatPath(['accounts', a, 'warehouses'])}: an account with warehouses_enabled false has no warehouses`);
    }
  };

  const onRoot = (value: unknown) => {
    sawRoot = true;
    const root = catalogueRootSchema.safeParse(isObject(value) && Array.isArray(value.accounts) ? { ...value, accounts: [] } : value);
    if (!root.success) schemaIssues(root.error.issues, []);
  };

  let failure: unknown;
  let syntaxError: Error | undefined;
  // Strings and numbers are gathered in fixed buffers rather than by concatenation: less garbage per token.
  const parser = new JSONParser({ paths: ['$.accounts.*.items.*', '$.accounts.*', '$'], stringBufferSize: 64 * 1024, numberBufferSize: 64 });
  parser.onValue = ({ value, key, parent, stack }) => {
    try {
      if (stack.length === 0) return onRoot(value);
      if (stack[1]?.key !== 'accounts' || typeof key !== 'number' || !Array.isArray(parent)) return;
      if (stack.length === 2) {
        onAccountEnd(key, value);
        parent.length -= 1; // done with it: the parser keeps nothing of an account it has emitted
      } else if (stack.length === 4 && typeof stack[2]!.key === 'number' && Array.isArray(stack[2]!.value) && stack[3]!.key === 'items') {
        onItem(stack[2]!.key, stack[3]!.value, value, key);
        parent.length -= 1;
      }
    } catch (error) {
      failure = error;
      throw error;
    }
  };
  parser.onError = (error) => {
    if (failure === undefined) syntaxError ??= error;
  };

  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let bytesRead = 0;
  let lastProgress = performance.now();
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
    } catch (error) {
      throw new CatalogueFileError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    if (n === 0) break;
    bytesRead += n;
    parser.write(buffer.subarray(0, n));
    if (bytesRead % COLLECT_EVERY_BYTES < n) collectGarbage();
    if (failure !== undefined) throw failure;
    if (syntaxError) break;
    if (options.onProgress && performance.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = performance.now();
      options.onProgress({ bytesRead, totalBytes, barcodes: writer.summary.barcodes });
    }
  }
  if (!syntaxError && !parser.isEnded) parser.end();
  if (failure !== undefined) throw failure;
  if (syntaxError || !sawRoot) {
    throw new CatalogueFileError(`${file} is not valid JSON: ${syntaxError ? syntaxError.message : 'Unexpected end of JSON input'}`);
  }

  firstUses.close();
  if (schemaProblems.length > 0) throw new CatalogueError(onlyUnknownKeys ? [...schemaProblems, ...crossProblems] : schemaProblems);
  if (crossProblems.length > 0) throw new CatalogueError(crossProblems);
  if (writer.problems.length > 0) throw new CatalogueError(writer.problems);
  return writer.summary;
}
