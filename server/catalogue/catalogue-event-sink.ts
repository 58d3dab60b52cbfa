// The checks and writing of a streamed catalogue, fed its values in file order (catalogue-json-events.ts):
// each item as soon as it is complete, each account once its last key is read, and the document
// itself. A JSON file's values come from its parse worker (import-catalogue-file.ts); a CSV's items
// from the rows gathered on disk (server/csv/catalogue-csv.ts). Same rules and messages as
// parseCatalogue followed by importCatalogue (import-catalogue.ts), which a test checks on the same
// documents; the writer takes exactly the items of a file without problems so far.
import type { z } from 'zod';
import type { CatalogueWriter, ImportSummary } from '../store/catalogue-writer.ts';
import type { ScratchKeys } from '../store/engine.ts';
import { catalogueRefused } from '../store/catalogue-writer.ts';
import { ProblemList } from '../store/problem-list.ts';
import { CatalogueChecker, type Path, formatPath } from './catalogue-checks.ts';
import {
  type CatalogueItem,
  catalogueAccountHeaderSchema,
  catalogueAccountSchema,
  catalogueRootSchema,
  isJsonObject,
} from './catalogue-schema.ts';
import type { CatalogueEvent, CheckedItem } from './catalogue-json-events.ts';
import { ScratchFirstUses } from './first-uses.ts';

/** Ids and barcodes the checker claims at a time (CatalogueChecker.queueItem): a few statements, not one per key. */
const CHECK_USES = 512;
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

export class CatalogueEventSink {
  private readonly writer: CatalogueWriter;
  private readonly schemaProblems = new ProblemList();
  private readonly crossProblems = new ProblemList();
  private readonly checker: CatalogueChecker;
  private account: AccountState | undefined;
  /** Whether the document's own value (its `accounts` array) was handed over. */
  sawRoot = false;
  /**
   * Items whose rules are queued in the checker: handed to the writer once `settle` has reported
   * their problems (so the writer takes exactly the items of a file without problems so far).
   */
  private readonly checking: { state: AccountState; item: CatalogueItem; i: number }[] = [];

  /** Checks only: no account or item reaches the writer (a CSV whose own lines were refused still has its catalogue's problems told). */
  private readonly checkOnly: boolean;

  constructor(writer: CatalogueWriter, scratch: ScratchKeys, options: { checkOnly?: boolean } = {}) {
    this.writer = writer;
    this.checkOnly = options.checkOnly ?? false;
    this.checker = new CatalogueChecker(
      (path, message) => this.crossProblems.add(`${formatPath(path)}: ${message}`),
      new ScratchFirstUses(scratch),
    );
  }

  /** Writing stops at the first problem of the file itself: the import will be refused anyway. */
  private writing(): boolean {
    return !this.checkOnly && this.schemaProblems.count === 0 && this.crossProblems.count === 0;
  }

  private schemaIssues(issues: readonly z.core.$ZodIssue[], prefix: Path): void {
    for (const issue of issues) this.schemaProblems.add(`${formatPath([...prefix, ...(issue.path as Path)])}: ${issue.message}`);
  }

  private async settle(): Promise<void> {
    await this.checker.settle();
    for (const { state, item, i } of this.checking.splice(0)) if (state.writable && this.writing()) await this.writer.writeItem(item, i);
  }

  private async checkHeader(state: AccountState, value: unknown): Promise<void> {
    await this.settle(); // the items before it, and their problems, come first
    const header = catalogueAccountHeaderSchema.safeParse(value);
    if (!header.success) return this.schemaIssues(header.error.issues, ['accounts', state.index]);
    state.headerValid = true;
    this.checker.checkAccount(header.data, state.index);
    state.writable = this.writing() && (await this.writer.beginAccount(header.data, state.index));
  }

  private async handleItem(state: AccountState, checked: CheckedItem, i: number): Promise<void> {
    this.schemaIssues(checked.issues, ['accounts', state.index, 'items', i]);
    if (!checked.item || !state.headerValid) return;
    this.checker.queueItem(checked.item, i);
    this.checking.push({ state, item: checked.item, i });
    if (this.checker.queuedUses >= CHECK_USES) await this.settle();
  }

  /** One value of the document, in file order. */
  async handle(event: CatalogueEvent): Promise<void> {
    if (event.kind === 'item') await this.onItem(event.account, event.header, event.checked, event.index);
    else if (event.kind === 'account') await this.onAccountEnd(event.account, event.value);
    else this.onRoot(event.value);
  }

  /** `header` is the account's fields, given with the first item by which they were complete. */
  private async onItem(a: number, header: unknown, checked: CheckedItem, i: number): Promise<void> {
    if (!this.account || this.account.index !== a)
      this.account = { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    const account = this.account;
    if (!account.checkedKeys && isJsonObject(header)) {
      account.checkedKeys = new Set(HEADER_KEYS.filter((key) => key in header));
      await this.checkHeader(account, header);
    }
    if (account.checkedKeys) await this.handleItem(account, checked, i);
    else account.pending.push({ checked, i });
  }

  private async onAccountEnd(a: number, value: unknown): Promise<void> {
    await this.settle();
    const state =
      this.account && this.account.index === a
        ? this.account
        : { index: a, checkedKeys: undefined, headerValid: false, writable: false, pending: [] };
    this.account = undefined;
    // The full account schema catches unknown keys and a wrong `items`; its items were checked one by one.
    const whole = isJsonObject(value) && Array.isArray(value.items) ? { ...value, items: [] } : value;
    const full = catalogueAccountSchema.safeParse(whole);
    if (!state.checkedKeys) {
      // The header was not complete before the items (or there were none): check it now, then the held items.
      if (!full.success) this.schemaIssues(full.error.issues, ['accounts', a]);
      state.checkedKeys = new Set(HEADER_KEYS);
      const header = catalogueAccountHeaderSchema.safeParse(value);
      if (header.success) {
        state.headerValid = true;
        this.checker.checkAccount(header.data, a);
        state.writable = this.writing() && (await this.writer.beginAccount(header.data, a));
      }
      for (const { checked, i } of state.pending) await this.handleItem(state, checked, i);
      return;
    }
    if (!full.success) {
      const seen = state.checkedKeys;
      this.schemaIssues(
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
      this.crossProblems.add(`${formatPath(['accounts', a, 'warehouses'])}: an account with warehouses_enabled false has no warehouses`);
    }
  }

  private onRoot(value: unknown): void {
    this.sawRoot = true;
    const root = catalogueRootSchema.safeParse(isJsonObject(value) && Array.isArray(value.accounts) ? { ...value, accounts: [] } : value);
    if (!root.success) this.schemaIssues(root.error.issues, []);
  }

  /**
   * After the last value: every problem at once, as the README promises (the first
   * MAX_PROBLEMS_LISTED listed, all counted), or the summary. The rules across fields ran for every
   * item whose own structure was right, so their findings stand beside the structural ones; the
   * writer's come once its last chunk of items is written.
   */
  async finish(): Promise<ImportSummary> {
    await this.settle();
    if (this.writing()) await this.writer.writePending();
    const problems = new ProblemList();
    problems.addAll(this.schemaProblems.listed, this.schemaProblems.count);
    problems.addAll(this.crossProblems.listed, this.crossProblems.count);
    if (problems.count === 0) problems.addAll(this.writer.problems.listed, this.writer.problems.count);
    if (problems.count > 0) throw catalogueRefused(problems.listed, problems.count);
    return this.writer.summary;
  }
}
