// Turns the bytes of a catalogue file into the values the streaming import acts on, in file order:
// each item as soon as it is complete (with its own structure already checked), each account once
// its last key is read, and the document itself. It keeps nothing of a value it has handed on, so a
// million-barcode file never sits in memory. Pure computation: it runs in the import's parse worker
// (catalogue-parse-worker.ts), beside the thread that checks and writes.
import { JSONParser } from '@streamparser/json';
import type { z } from 'zod';
import { type CatalogueItem, type JsonObject, catalogueItemSchema, isJsonObject, withoutUnknownKeys } from './catalogue-schema.ts';

/** An item's own structure, checked: its schema issues, and the item to go on with (if any). */
export interface CheckedItem {
  /** The schema's issues, paths relative to the item; empty when it passed. */
  issues: z.core.$ZodIssue[];
  /** The item as the schema returns it; also when unknown keys were its only issues (they are dropped). */
  item: CatalogueItem | undefined;
}

export type CatalogueEvent =
  | { kind: 'root'; value: unknown }
  | {
      kind: 'item';
      account: number;
      index: number;
      checked: CheckedItem;
      /**
       * The account's fields as they stood when this item was read, on the first item by which its
       * header (name, scenario and, with warehouses, the warehouses) was complete; otherwise absent.
       */
      header?: unknown;
    }
  | { kind: 'account'; account: number; value: unknown };

/** Where the JSON stopped being JSON. */
export interface JsonSyntaxProblem {
  message: string;
  /** The offset of the last token read before it (for a parser message that names no position). */
  lastTokenOffset: number;
}

/** The header is complete once name, scenario and (in the warehouse scenario) warehouses were read. */
const headerReady = (value: JsonObject) =>
  'name' in value && 'warehouses_enabled' in value && ('warehouses' in value || value.warehouses_enabled !== true);

/** The item schema as the whole-document parse applies it: unknown keys alone do not stop the item. */
export function checkCatalogueItem(value: unknown): CheckedItem {
  const first = catalogueItemSchema.safeParse(value);
  if (first.success) return { issues: [], item: first.data };
  const issues = first.error.issues;
  if (!issues.every((issue) => issue.code === 'unrecognized_keys')) return { issues, item: undefined };
  const again = catalogueItemSchema.safeParse(withoutUnknownKeys(value, issues));
  return { issues, item: again.success ? again.data : undefined };
}

export class CatalogueJsonEvents {
  private events: CatalogueEvent[] = [];
  private problem: JsonSyntaxProblem | undefined;
  private lastTokenOffset = 0;
  /** The account whose header was handed on with an item (its items after that carry none). */
  private headerSentFor = -1;
  private readonly parser: JSONParser;

  constructor() {
    // Strings and numbers are gathered in fixed buffers rather than by concatenation: less garbage per token.
    this.parser = new JSONParser({
      paths: ['$.accounts.*.items.*', '$.accounts.*', '$'],
      stringBufferSize: 64 * 1024,
      numberBufferSize: 64,
    });
    this.parser.onValue = ({ value, key, parent, stack }) => {
      if (stack.length === 0) return void this.events.push({ kind: 'root', value });
      if (stack[1]?.key !== 'accounts' || typeof key !== 'number' || !Array.isArray(parent)) return;
      if (stack.length === 2) {
        this.events.push({ kind: 'account', account: key, value });
        parent.length -= 1; // done with it: the parser keeps nothing of an account it has emitted
      } else if (stack.length === 4 && typeof stack[2]!.key === 'number' && Array.isArray(stack[2]!.value) && stack[3]!.key === 'items') {
        const account = stack[2]!.key;
        const fields = stack[3]!.value;
        const event: CatalogueEvent = { kind: 'item', account, index: key, checked: checkCatalogueItem(value) };
        if (this.headerSentFor !== account && isJsonObject(fields) && headerReady(fields)) {
          // A copy: later keys of the same chunk must not count yet.
          event.header = { ...fields };
          this.headerSentFor = account;
        }
        this.events.push(event);
        parent.length -= 1;
      }
    };
    this.parser.onError = (error) => {
      this.problem ??= { message: error.message, lastTokenOffset: this.lastTokenOffset };
    };
    // Where the parser was when it refused the text: the offset of the last token it read.
    const tokenizer = (this.parser as unknown as { tokenizer: { onToken: (info: { offset: number }) => void } }).tokenizer;
    const passOn = tokenizer.onToken;
    tokenizer.onToken = (info) => {
      this.lastTokenOffset = info.offset;
      passOn(info);
    };
  }

  /** The syntax problem that stopped the parse, if any: no more bytes should be given after it. */
  get syntaxProblem(): JsonSyntaxProblem | undefined {
    return this.problem;
  }

  /** The events completed by these bytes (the parser calls back synchronously within a write). */
  write(bytes: Uint8Array): CatalogueEvent[] {
    this.parser.write(bytes);
    return this.take();
  }

  /** The end of the file: the events it completes, and the problem if the JSON ended early. */
  end(): CatalogueEvent[] {
    if (!this.problem && !this.parser.isEnded) this.parser.end();
    return this.take();
  }

  private take(): CatalogueEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

/**
 * A batch of events as it crosses to the importing thread: as one JSON text (JSON.parse reads it in
 * less than half the time structured cloning takes), a plain item as a short array rather than an
 * object of named fields (a third of the text less). The raw values the importing thread checks
 * itself (an account, the document, a header) are structured-cloned beside it, since JSON would not
 * keep a number such as 1e400 (Infinity) or -0 as the file gave it.
 */
export interface EncodedEvents {
  json: string;
  raw: unknown[];
}

/** A plain item: account, index, the checked item (null if none) and, when it had any, its issues. */
type ItemTuple = [number, number, CatalogueItem | null, z.core.$ZodIssue[]?];

export function encodeEvents(events: readonly CatalogueEvent[]): EncodedEvents {
  const raw: unknown[] = [];
  const plain = events.map((event): ItemTuple | CatalogueEvent => {
    if (event.kind !== 'item') return { ...event, value: raw.push(event.value) - 1 };
    if (event.header !== undefined) return { ...event, header: raw.push(event.header) - 1 };
    const { account, index, checked } = event;
    return checked.issues.length === 0 ? [account, index, checked.item ?? null] : [account, index, checked.item ?? null, checked.issues];
  });
  return { json: JSON.stringify(plain), raw };
}

export function decodeEvents({ json, raw }: EncodedEvents): CatalogueEvent[] {
  return (JSON.parse(json) as (ItemTuple | CatalogueEvent)[]).map((event): CatalogueEvent => {
    if (Array.isArray(event)) {
      const [account, index, item, issues] = event;
      return { kind: 'item', account, index, checked: { issues: issues ?? [], item: item ?? undefined } };
    }
    if (event.kind !== 'item') event.value = raw[event.value as number];
    else event.header = raw[event.header as number];
    return event;
  });
}
