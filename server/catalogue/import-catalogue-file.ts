// Imports a catalogue file as a stream: the JSON is parsed a chunk at a time and every item is
// validated and written as soon as it is complete, so a million-barcode file never sits in memory.
// The parsing and each item's own structure run on another thread (catalogue-file-events.ts); the
// checks across items and the writing run here.
// Same rules, same messages and the same all-or-nothing transaction as parseCatalogue followed by
// importCatalogue (import-catalogue.ts), which a test checks on the same documents.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { z } from 'zod';
import { badRequest } from '../errors.ts';
import type { CatalogueWriter, ImportSummary } from '../store/catalogue-writer.ts';
import type { ScratchKeys } from '../store/engine.ts';
import type { Store } from '../store/store.ts';
import { CatalogueChecker, type Path, formatPath } from './catalogue-checks.ts';
import {
  type CatalogueItem,
  catalogueAccountHeaderSchema,
  catalogueAccountSchema,
  catalogueRootSchema,
  isJsonObject,
} from './catalogue-schema.ts';
import { catalogueFileEvents } from './catalogue-file-events.ts';
import { type CheckedItem, type JsonSyntaxProblem, decodeEvents } from './catalogue-json-events.ts';
import { ScratchFirstUses } from './first-uses.ts';
import { catalogueRefused } from '../store/catalogue-writer.ts';
import { ProblemList } from '../store/problem-list.ts';

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  barcodes: number;
}

export interface FileImportOptions {
  /** Called about once a second while a large file is read. */
  onProgress?: (progress: ImportProgress) => void;
}

/** Bytes read at a time to find a problem's line and column. */
const CHUNK_BYTES = 1 << 20;
/** Ids and barcodes the checker claims at a time (CatalogueChecker.queueItem): a few statements, not one per key. */
const CHECK_USES = 512;
const PROGRESS_EVERY_MS = 1000;
const HEADER_KEYS = ['name', 'warehouses_enabled', 'warehouses'] as const;

interface AccountState {
  index: number;
  /** Header fields present when the header was checked (before the items); undefined while not checked. */
  checkedKeys: Set<string> | undefined;
  /** The header passed its schema: its items are checked across fields (and written). */
  headerValid: boolean;
  /** The writer accepted the account (no scenario conflict). */
  writable: boolean;
  /** Items that arrived before the header was complete (only when `items` precedes the header keys). */
  pending: { checked: CheckedItem; i: number }[];
}

/**
 * Reads, validates and writes a catalogue file in one transaction; throws a CatalogueRefusal listing
 * the first problems and counting all, or a 400 saying the file cannot be read or is not JSON.
 */
export async function importCatalogueFile(store: Store, file: string, options: FileImportOptions = {}): Promise<ImportSummary> {
  let fd: number;
  let totalBytes: number;
  try {
    fd = openSync(file, 'r');
    totalBytes = fstatSync(fd).size;
  } catch (error) {
    throw badRequest(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return await store.catalogue.writeStream((writer, scratch) => streamInto(writer, scratch, file, fd, totalBytes, options));
  } finally {
    closeSync(fd);
  }
}

async function streamInto(
  writer: CatalogueWriter,
  scratch: ScratchKeys,
  file: string,
  fd: number,
  totalBytes: number,
  options: FileImportOptions,
): Promise<ImportSummary> {
  const schemaProblems = new ProblemList();
  const crossProblems = new ProblemList();
  const schemaIssues = (issues: readonly z.core.$ZodIssue[], prefix: Path) => {
    for (const issue of issues) {
      schemaProblems.add(`${formatPath([...prefix, ...(issue.path as Path)])}: ${issue.message}`);
    }
  };
  const checker = new CatalogueChecker(
    (path, message) => crossProblems.add(`${formatPath(path)}: ${message}`),
    new ScratchFirstUses(scratch),
  );
  /** Writing stops at the first problem of the file itself: the import will be refused anyway. */
  const writing = () => schemaProblems.count === 0 && crossProblems.count === 0;
  let account: AccountState | undefined;
  let sawRoot = false;

  /**
   * Items whose rules are queued in the checker: handed to the writer once `settle` has reported
   * their problems (so the writer takes exactly the items of a file without problems so far).
   */
  const checking: { state: AccountState; item: CatalogueItem; i: number }[] = [];
  const settle = async () => {
    await checker.settle();
    for (const { state, item, i } of checking.splice(0)) if (state.writable && writing()) await writer.writeItem(item, i);
  };

  const checkHeader = async (state: AccountState, value: unknown) => {
    await settle(); // the items before it, and their problems, come first
    const header = catalogueAccountHeaderSchema.safeParse(value);
    if (!header.success) return schemaIssues(header.error.issues, ['accounts', state.index]);
    state.headerValid = true;
    checker.checkAccount(header.data, state.index);
    state.writable = writing() && (await writer.beginAccount(header.data, state.index));
  };

  const handleItem = async (state: AccountState, checked: CheckedItem, i: number) => {
    schemaIssues(checked.issues, ['accounts', state.index, 'items', i]);
    if (!checked.item || !state.headerValid) return;
    checker.queueItem(checked.item, i);
    checking.push({ state, item: checked.item, i });
    if (checker.queuedUses >= CHECK_USES) await settle();
  };

  /** `header` is the account's fields, given with the first item by which they were complete. */
  const onItem = async (a: number, header: unknown, checked: CheckedItem, i: number) => {
    if (!account || account.index !== a) account = { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    if (!account.checkedKeys && isJsonObject(header)) {
      account.checkedKeys = new Set(HEADER_KEYS.filter((key) => key in header));
      await checkHeader(account, header);
    }
    if (account.checkedKeys) await handleItem(account, checked, i);
    else account.pending.push({ checked, i });
  };

  const onAccountEnd = async (a: number, value: unknown) => {
    await settle();
    const state =
      account && account.index === a ? account : { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    account = undefined;
    // The full account schema catches unknown keys and a wrong `items`; its items were checked one by one.
    const whole = isJsonObject(value) && Array.isArray(value.items) ? { ...value, items: [] } : value;
    const full = catalogueAccountSchema.safeParse(whole);
    if (!state.checkedKeys) {
      // The header was not complete before the items (or there were none): check it now, then the held items.
      if (!full.success) schemaIssues(full.error.issues, ['accounts', a]);
      state.checkedKeys = new Set(HEADER_KEYS);
      const header = catalogueAccountHeaderSchema.safeParse(value);
      if (header.success) {
        state.headerValid = true;
        checker.checkAccount(header.data, a);
        state.writable = writing() && (await writer.beginAccount(header.data, a));
      }
      for (const { checked, i } of state.pending) await handleItem(state, checked, i);
      return;
    }
    if (!full.success) {
      const seen = state.checkedKeys;
      schemaIssues(
        full.error.issues.filter((issue) => !seen.has(String(issue.path[0]))),
        ['accounts', a],
      );
    }
    // Warehouses given after the items of a no-warehouse account: the rule still holds.
    const late = isJsonObject(value) ? value.warehouses : undefined;
    if (
      !state.checkedKeys.has('warehouses') &&
      Array.isArray(late) &&
      late.length > 0 &&
      isJsonObject(value) &&
      value.warehouses_enabled === false
    ) {
      crossProblems.add(`${formatPath(['accounts', a, 'warehouses'])}: an account with warehouses_enabled false has no warehouses`);
    }
  };

  const onRoot = (value: unknown) => {
    sawRoot = true;
    const root = catalogueRootSchema.safeParse(isJsonObject(value) && Array.isArray(value.accounts) ? { ...value, accounts: [] } : value);
    if (!root.success) schemaIssues(root.error.issues, []);
  };

  // The file is parsed on another thread (catalogue-file-events.ts); its values are handled here in
  // file order, a chunk's worth at a time.
  let syntaxProblem: JsonSyntaxProblem | undefined;
  let lastProgress = performance.now();
  for await (const message of catalogueFileEvents(fd)) {
    if (message.type === 'unreadable') throw badRequest(`Cannot read ${file}: ${message.message}`);
    for (const event of decodeEvents(message.events)) {
      if (event.kind === 'item') await onItem(event.account, event.header, event.checked, event.index);
      else if (event.kind === 'account') await onAccountEnd(event.account, event.value);
      else onRoot(event.value);
    }
    if (message.type === 'end') syntaxProblem = message.syntaxProblem;
    else if (options.onProgress && performance.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = performance.now();
      options.onProgress({ bytesRead: message.bytesRead, totalBytes, barcodes: writer.summary.barcodes });
    }
  }
  if (syntaxProblem || !sawRoot) {
    const message = syntaxProblem?.message ?? '';
    const absolute = /absolute position "(\d+)"/.exec(message);
    const endedEarly = !syntaxProblem || /ended in mid-parsing/.test(message);
    const offset = endedEarly ? totalBytes : absolute ? Number(absolute[1]) : (syntaxProblem?.lastTokenOffset ?? 0);
    const { line, column } = lineAndColumn(fd, offset);
    const reason = totalBytes === 0 ? jsonMessages.empty : endedEarly ? jsonMessages.endsEarly : jsonProblem(message);
    throw badRequest(`${file} is not valid JSON at line ${line}, column ${column}: ${reason}`);
  }

  // Every problem at once, as the README promises (the first MAX_PROBLEMS_LISTED listed, all counted):
  // the rules across fields ran for every item whose own structure was right, so their findings stand
  // beside the structural ones. The writer's come once its last chunk of items is written.
  await settle();
  if (writing()) await writer.writePending();
  const problems = new ProblemList();
  problems.addAll(schemaProblems.listed, schemaProblems.count);
  problems.addAll(crossProblems.listed, crossProblems.count);
  if (problems.count === 0) problems.addAll(writer.problems.listed, writer.problems.count);
  if (problems.count > 0) throw catalogueRefused(problems.listed, problems.count);
  return writer.summary;
}

/** The line and column (1-based, in characters) of byte `offset` of the file, read again from its start. */
function lineAndColumn(fd: number, offset: number): { line: number; column: number } {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let line = 1;
  let lineStart: Buffer[] = [];
  for (let position = 0; position < offset;) {
    const n = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, offset - position), position);
    if (n === 0) break;
    const chunk = buffer.subarray(0, n);
    let from = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      line++;
      lineStart = [];
      from = i + 1;
    }
    lineStart.push(Buffer.from(chunk.subarray(from)));
    position += n;
  }
  return { line, column: [...Buffer.concat(lineStart).toString('utf8')].length + 1 };
}

const jsonMessages = {
  empty: 'the file is empty.',
  endsEarly: 'the file ends before the JSON does: a closing bracket, brace or quote is missing.',
  missing: {
    COMMA: 'is a comma missing before it?',
    COLON: 'a colon (:) belongs after the name.',
    KEY: 'a name in double quotes belongs here.',
    VALUE: 'a value belongs here.',
  } as Record<string, string>,
};

/** The streaming parser's refusal in words a person fixing the file can act on, its own words after them. */
function jsonProblem(message: string): string {
  const token = /^Unexpected (?:partial )?\w+ \((.*)\) in state (\w+)/.exec(message);
  if (token) return `unexpected ${token[1]}: ${jsonMessages.missing[token[2]!] ?? 'it does not belong here.'} (${message})`;
  const character = /^Unexpected "(.*)" at chunk position/.exec(message);
  if (character)
    return `unexpected character "${character[1]}" (${message.replace(/ at chunk position "\d+" \(absolute position "\d+"\)/, '')})`;
  return message;
}
