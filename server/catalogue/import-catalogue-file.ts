// Imports a catalogue file as a stream: the JSON is parsed a chunk at a time and every item is
// validated and written as soon as it is complete, so a million-barcode file never sits in memory.
// The parsing and each item's own structure run on another thread (catalogue-file-events.ts); the
// checks across items and the writing run here (catalogue-event-sink.ts).
// Same rules, same messages and the same all-or-nothing transaction as parseCatalogue followed by
// importCatalogue (import-catalogue.ts), which a test checks on the same documents.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { badRequest } from '../errors.ts';
import type { CatalogueWriter, ImportSummary } from '../store/catalogue-writer.ts';
import type { ScratchKeys } from '../store/engine.ts';
import type { Store } from '../store/store.ts';
import { CatalogueEventSink } from './catalogue-event-sink.ts';
import { catalogueFileEvents } from './catalogue-file-events.ts';
import { type JsonSyntaxProblem, decodeEvents } from './catalogue-json-events.ts';

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
const PROGRESS_EVERY_MS = 1000;

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
  const sink = new CatalogueEventSink(writer, scratch);
  // The file is parsed on another thread (catalogue-file-events.ts); its values are handled here in
  // file order, a chunk's worth at a time.
  let syntaxProblem: JsonSyntaxProblem | undefined;
  let lastProgress = performance.now();
  for await (const message of catalogueFileEvents(fd)) {
    if (message.type === 'unreadable') throw badRequest(`Cannot read ${file}: ${message.message}`);
    for (const event of decodeEvents(message.events)) await sink.handle(event);
    if (message.type === 'end') syntaxProblem = message.syntaxProblem;
    else if (options.onProgress && performance.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = performance.now();
      options.onProgress({ bytesRead: message.bytesRead, totalBytes, barcodes: writer.summary.barcodes });
    }
  }
  if (syntaxProblem || !sink.sawRoot) {
    const message = syntaxProblem?.message ?? '';
    const absolute = /absolute position "(\d+)"/.exec(message);
    const endedEarly = !syntaxProblem || /ended in mid-parsing/.test(message);
    const offset = endedEarly ? totalBytes : absolute ? Number(absolute[1]) : (syntaxProblem?.lastTokenOffset ?? 0);
    const { line, column } = lineAndColumn(fd, offset);
    const reason = totalBytes === 0 ? jsonMessages.empty : endedEarly ? jsonMessages.endsEarly : jsonProblem(message);
    throw badRequest(`${file} is not valid JSON at line ${line}, column ${column}: ${reason}`);
  }
  return sink.finish();
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
