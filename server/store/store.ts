// The store's one interface: every operation the API, the CLI and the launcher need, each run in one
// transaction of the engine (or, for a stocktake commit, one per batch). Callers never see queries,
// connections or transactions; engines never see operations (engine.ts).
import type { CommitBody, CreateStocktakeBody, HistoryQuery, ScanBody, UndoBody, UpdateLineBody } from '../../shared/index.ts';
import type { Catalogue } from '../catalogue/catalogue-schema.ts';
import { type Account, findAccountByName, gtinClashes, listAccounts, setGtinEquivalence } from './accounts.ts';
import { readBarcodeLabels } from './barcode-labels.ts';
import { dryRunCatalogue, writeCatalogueStream } from './catalogue-import.ts';
import { type CatalogueWriter, writeCatalogue } from './catalogue-writer.ts';
import { checkConsistency } from './consistency.ts';
import type { Engine, ScratchKeys } from './engine.ts';
import { type OnceKey, answerOnce } from './idempotent-answers.ts';
import { createSignInCode, redeemSignInCode } from './signin-codes.ts';
import { readStockExport } from './stock-export.ts';
import { readBarcodeLabelsByGtin, readStockRecordsByGtin } from './gtin-lookup.ts';
import { readStockHistory } from './stock-history.ts';
import { listWarehouses, readStockRecords, warehousesOf } from './stock-read.ts';
import { adjustRows, updateRows } from './stock-write.ts';
import { type CommitHooks, commitStocktake } from './stocktake-commit.ts';
import { createStocktake, getStocktake, listLines, listStocktakes, recordScan, reviewStocktake, undoLastScan, updateLine } from './stocktakes.ts';
import { type Caller, authenticate, createToken, listTokens, revokeToken } from './tokens.ts';

export type { Account, Caller };
export type { Answer, OnceKey } from './idempotent-answers.ts';

/** How a write is told apart and answered once: the Idempotency-Key sent with it, if any. */
export interface WriteOnce {
  once?: OnceKey | undefined;
}

/** What recorded a stock write, and why (a row's own reason and reference win). */
export interface WriteSource extends WriteOnce {
  source: string;
  reason?: string;
  reference?: string;
}

export function createStore(engine: Engine) {
  const write = engine.write.bind(engine);
  const read = engine.read.bind(engine);
  return {
    /** `sqlite` or `postgres`. */
    kind: engine.kind,
    /** Where the data is, for messages (never with a password). */
    location: engine.location,

    accounts: {
      list: () => read((q) => listAccounts(q)),
      find: (name: string) => read((q) => findAccountByName(q, name)),
      /** Turns GTIN equivalence on or off; undefined when there is no such account. */
      setGtinEquivalence: (name: string, on: boolean) => write((q) => setGtinEquivalence(q, name, on)),
      /** Barcodes of the account that are one GTIN written in different forms, on different units. */
      gtinClashes: (account: Account) => read((q) => gtinClashes(q, account.id)),
    },

    tokens: {
      create: (accountName: string, label: string | null) => write((q) => createToken(q, accountName, label)),
      list: (accountName?: string) => read((q) => listTokens(q, accountName)),
      revoke: (id: number) => write((q) => revokeToken(q, id)),
      /** The caller a presented key stands for; undefined for an unknown or revoked key. */
      authenticate: (key: string) => authenticate(engine, key),
    },

    signIn: {
      createCode: (accountName: string, ttlMs?: number) => write((q) => createSignInCode(q, accountName, ttlMs)),
      redeem: (code: string) => write((q) => redeemSignInCode(q, code)),
    },

    stock: {
      async read(caller: Account, barcodes: readonly string[]) {
        const warehouses = caller.warehousesEnabled ? await warehousesOf(engine, caller) : [];
        if (caller.gtinEquivalence) return read((q) => readStockRecordsByGtin(q, caller, barcodes, warehouses));
        return read((q) => readStockRecords(q, caller, barcodes, warehouses));
      },
      warehouses: (caller: Account) => listWarehouses(engine, caller),
      update: (caller: Caller, rows: readonly unknown[], { once, ...source }: WriteSource) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 200, body: await updateRows(q, caller, rows, { ...source, tokenId: caller.tokenId }) }))),
      adjust: (caller: Caller, rows: readonly unknown[], { once, ...source }: WriteSource) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 200, body: await adjustRows(q, caller, rows, { ...source, tokenId: caller.tokenId }) }))),
      labels: (caller: Account, barcodes: readonly string[]) =>
        read((q) => (caller.gtinEquivalence ? readBarcodeLabelsByGtin(q, caller, barcodes) : readBarcodeLabels(q, caller, barcodes))),
      exportRows: (caller: Account, warehouseName?: string) => read((q) => readStockExport(q, caller, warehouseName)),
    },

    history: {
      page: (caller: Account, query: HistoryQuery) => read((q) => readStockHistory(q, caller, query)),
    },

    stocktakes: {
      list: (caller: Account) => read((q) => listStocktakes(q, caller)),
      create: (caller: Caller, body: CreateStocktakeBody, { once }: WriteOnce = {}) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 201, body: await createStocktake(q, caller, body) }))),
      get: (caller: Account, id: number) => read((q) => getStocktake(q, caller, id)),
      lines: (caller: Account, id: number) => read((q) => listLines(q, caller, id)),
      updateLine: (caller: Caller, id: number, line: number, body: UpdateLineBody, { once }: WriteOnce = {}) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 200, body: await updateLine(q, caller, id, line, body) }))),
      scan: (caller: Caller, id: number, body: ScanBody, { once }: WriteOnce = {}) =>
        write((q) =>
          answerOnce(q, caller.id, once, async () => {
            const result = await recordScan(q, caller, id, body);
            return { status: result.scan.duplicate ? 200 : 201, body: result };
          }),
        ),
      undo: (caller: Caller, id: number, body: UndoBody, { once }: WriteOnce = {}) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 200, body: await undoLastScan(q, caller, id, body) }))),
      review: (caller: Account, id: number) => read((q) => reviewStocktake(q, caller, id)),
      /** Resumable: one transaction per batch of lines, so a commit cut short is finished by committing again. */
      commit: (caller: Caller, id: number, body: CommitBody, hooks?: CommitHooks) => commitStocktake(engine, caller, id, body, hooks),
    },

    catalogue: {
      /** Writes a parsed catalogue, all or nothing. */
      write: (catalogue: Catalogue) => write((q) => writeCatalogue(q, catalogue)),
      /** What writing it would change; nothing is written. */
      dryRun: (catalogue: Catalogue) => dryRunCatalogue(engine, catalogue),
      /** One bulk transaction for a streamed import (catalogue/import-catalogue-file.ts). */
      writeStream: <T>(work: (writer: CatalogueWriter, scratch: ScratchKeys) => Promise<T>) => writeCatalogueStream(engine, work),
    },

    /**
     * A write refused before it ran (its body failed the checks), sent with an Idempotency-Key: a key
     * already used with another request answers 422 like any write under it; otherwise `refusal` is
     * thrown. Nothing is stored.
     */
    refuseOnce: (caller: Caller, once: OnceKey, refusal: Error) => write((q) => answerOnce(q, caller.id, once, () => Promise.reject(refusal))),

    /** The engine's integrity checks and the rule that history and stock agree. */
    check: () => checkConsistency(engine),
    /** Lets in-flight work finish, then releases the database. */
    close: () => engine.close(),
  };
}

export type Store = ReturnType<typeof createStore>;
