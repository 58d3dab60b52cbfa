// The store's one interface: every operation the API, the CLI and the launcher need, each run in one
// transaction of the engine (or, for a stocktake commit, one per batch). Callers never see queries,
// connections or transactions; engines never see operations (engine.ts).
import type {
  CommitBody,
  CreateStocktakeBody,
  HistoryQuery,
  PullPage,
  PushAnswer,
  ScanBody,
  SignInRole,
  SyncMovement,
  SyncState,
  TokenRole,
  UndoBody,
  UpdateLineBody,
  VersionVector,
} from '../../shared/index.ts';
import { apiError, badRequest } from '../errors.ts';
import { syncMessages } from '../../shared/index.ts';
import type { Catalogue } from '../catalogue/catalogue-schema.ts';
import { type Account, findAccountByName, gtinClashes, listAccounts, setGtinEquivalence } from './accounts.ts';
import { readBarcodeLabels } from './barcode-labels.ts';
import { dryRunCatalogue, writeCatalogueStream } from './catalogue-import.ts';
import { type CatalogueWriter, writeCatalogue } from './catalogue-writer.ts';
import { checkConsistency } from './consistency.ts';
import type { Engine, ScratchKeys } from './engine.ts';
import { type OnceKey, answerOnce } from './idempotent-answers.ts';
import { MovementLog, type StoreClock, systemClock } from './movements/movement-log.ts';
import { createSignInCode, redeemSignInCode } from './signin-codes.ts';
import { type ExportCursor, exportWarehouseId, readStockExportPage } from './stock-export.ts';
import { readBarcodeLabelsByGtin, readStockRecordsByGtin } from './gtin-lookup.ts';
import { readStockHistory } from './stock-history.ts';
import { listWarehouses, readStockRecords, warehousesOf } from './stock-read.ts';
import { adjustRows, updateRows } from './stock-write.ts';
import type { Queries } from './engine.ts';
import { linesChangedAfter } from './stocktakes/changes.ts';
import { type CommitHooks, commitStocktake } from './stocktakes/commit.ts';
import { recordScan, undoLastScan, updateLine } from './stocktakes/counting.ts';
import { listLines } from './stocktakes/lines.ts';
import { reviewLinesPage, reviewStocktake } from './stocktakes/review.ts';
import { createStocktake, getStocktake, listStocktakes } from './stocktakes/sessions.ts';
import { type Caller, authenticate, createToken, listTokens, reapplyRevocation, revokeToken, setTokenRole } from './tokens.ts';
import { applyMovements } from './sync/apply-movements.ts';
import { catalogueDocument } from './sync/catalogue-document.ts';
import { listConflicts } from './sync/conflicts.ts';
import { heldOf, heldVector, instanceId } from './sync/held-vector.ts';
import {
  type Link,
  advanceLink,
  createLink,
  linkOfAccount,
  linkStatus,
  listLinks,
  recordRegistered,
  recordRound,
  recordReachable,
  removeLink,
  setUpstreamVector,
} from './sync/links.ts';
import { arrivalBefore, countPending, notHeldBy, pullPage, readMovements } from './sync/movement-pages.ts';
import { type PulledFrom, checkPulledOrigins, checkPushedOrigins, registerFollower } from './sync/followers.ts';
import { makeInternalCodes } from './labels/internal-codes.ts';
import { type LabelSource, readLabelRows } from './labels/label-sources.ts';
import { readLabelSettings, writeLabelSettings } from './labels/label-settings.ts';

export type { Account, Caller, Link };
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

export interface StoreOptions {
  /** The wall clock movements are stamped with; tests skew it to play instances whose clocks disagree. */
  clock?: StoreClock;
}

export function createStore(engine: Engine, { clock = systemClock }: StoreOptions = {}) {
  const write = engine.write.bind(engine);
  const read = engine.read.bind(engine);
  /** A write that records movements: the log's clock and sequences are read once and its clock written back at the end. */
  const writeMovements = <T>(work: (log: MovementLog, q: Queries) => Promise<T>) =>
    write(async (q) => {
      const log = await MovementLog.open(q, clock);
      const result = await work(log, q);
      await log.close();
      return result;
    });
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
      create: (accountName: string, label: string | null, role: TokenRole) => write((q) => createToken(q, accountName, label, role)),
      list: (accountName?: string) => read((q) => listTokens(q, accountName)),
      revoke: (id: number) => write((q) => revokeToken(q, id)),
      /** Gives an active token another role; false when there is no such active token. */
      setRole: (id: number, role: TokenRole) => write((q) => setTokenRole(q, id, role)),
      /** Revokes again, at its original time, a token a restore brought back (matched by id and prefix). */
      reapplyRevocation: (id: number, prefix: string, revokedAt: string) => write((q) => reapplyRevocation(q, id, prefix, revokedAt)),
      /** The caller a presented key stands for; undefined for an unknown or revoked key. */
      authenticate: (key: string) => authenticate(engine, key),
    },

    signIn: {
      /**
       * `tokenIdleDays`: how long the token the code is exchanged for may go unused (0: never; default
       * DEFAULT_SIGNIN_TOKEN_IDLE_DAYS); `role`: that token's role (default manager).
       */
      createCode: (accountName: string, ttlMs?: number, tokenIdleDays?: number, role?: SignInRole) =>
        write((q) => createSignInCode(q, accountName, ttlMs, new Date(), tokenIdleDays, role)),
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
        writeMovements((log, q) =>
          answerOnce(q, caller.id, once, async () => ({
            status: 200,
            body: await updateRows(log, caller, rows, { ...source, tokenId: caller.tokenId }),
          })),
        ),
      adjust: (caller: Caller, rows: readonly unknown[], { once, ...source }: WriteSource) =>
        writeMovements((log, q) =>
          answerOnce(q, caller.id, once, async () => ({
            status: 200,
            body: await adjustRows(log, caller, rows, { ...source, tokenId: caller.tokenId }),
          })),
        ),
      labels: (caller: Account, barcodes: readonly string[]) =>
        read((q) => (caller.gtinEquivalence ? readBarcodeLabelsByGtin(q, caller, barcodes) : readBarcodeLabels(q, caller, barcodes))),
      /** The warehouse an export is limited to (400 for an unknown name or an account without warehouses). */
      exportWarehouse: (caller: Account, warehouseName: string) => read((q) => exportWarehouseId(q, caller, warehouseName)),
      /** One page of the stock export, each its own read (store/stock-export.ts). */
      exportPage: (caller: Account, warehouseId: number | undefined, after: ExportCursor | null, units?: number) =>
        read((q) => readStockExportPage(q, caller, warehouseId, after, units)),
    },

    history: {
      page: (caller: Account, query: HistoryQuery) => read((q) => readStockHistory(q, caller, query)),
    },

    stocktakes: {
      /** One page, newest first, of sessions older than `before` (a session id). */
      list: (caller: Account, limit: number, before?: number) => read((q) => listStocktakes(q, caller, limit, before)),
      create: (caller: Caller, body: CreateStocktakeBody, { once }: WriteOnce = {}) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 201, body: await createStocktake(q, caller, body) }))),
      get: (caller: Account, id: number) => read((q) => getStocktake(q, caller, id)),
      lines: (caller: Account, id: number) => read((q) => listLines(q, caller, id)),
      /** The lines changed since a counting page's `after` (every line without it): what it asks every two seconds. */
      changes: (caller: Account, id: number, after?: string) => read((q) => linesChangedAfter(q, caller, id, after)),
      updateLine: (caller: Caller, id: number, line: number, body: UpdateLineBody, { once }: WriteOnce = {}) =>
        writeMovements((log, q) =>
          answerOnce(q, caller.id, once, async () => ({ status: 200, body: await updateLine(log, caller, id, line, body) })),
        ),
      scan: (caller: Caller, id: number, body: ScanBody, { once }: WriteOnce = {}) =>
        writeMovements((log, q) =>
          answerOnce(q, caller.id, once, async () => {
            const result = await recordScan(log, caller, id, body);
            return { status: result.scan.duplicate ? 200 : 201, body: result };
          }),
        ),
      undo: (caller: Caller, id: number, body: UndoBody, { once }: WriteOnce = {}) =>
        write((q) => answerOnce(q, caller.id, once, async () => ({ status: 200, body: await undoLastScan(q, caller, id, body) }))),
      review: (caller: Account, id: number) => read((q) => reviewStocktake(q, caller, id)),
      /** One page of the review's lines (known or unknown) after line `afterId`, each its own read: for the counts CSV. */
      reviewLinesPage: (caller: Account, id: number, known: boolean, afterId: number, limit?: number) =>
        read((q) => reviewLinesPage(q, caller, id, known, afterId, limit)),
      /** Resumable: one transaction per batch of lines, so a commit cut short is finished by committing again. */
      commit: (caller: Caller, id: number, body: CommitBody, hooks?: CommitHooks) =>
        commitStocktake(engine, clock, caller, id, body, hooks),
    },

    catalogue: {
      /** Writes a parsed catalogue, all or nothing. */
      write: (catalogue: Catalogue) => writeMovements((log) => writeCatalogue(log, catalogue)),
      /** What writing it would change; nothing is written. */
      dryRun: (catalogue: Catalogue) => dryRunCatalogue(engine, clock, catalogue),
      /** One bulk transaction for a streamed import (catalogue/import-catalogue-file.ts). */
      writeStream: <T>(work: (writer: CatalogueWriter, scratch: ScratchKeys) => Promise<T>) => writeCatalogueStream(engine, clock, work),
    },

    /**
     * A write refused before it ran (its body failed the checks), sent with an Idempotency-Key: a key
     * already used with another request answers 422 like any write under it; otherwise `refusal` is
     * thrown. Nothing is stored.
     */
    refuseOnce: (caller: Caller, once: OnceKey, refusal: Error) =>
      write((q) => answerOnce(q, caller.id, once, () => Promise.reject(refusal))),

    /** Printable labels and the shop's own codes (docs/LABELS.md). */
    labels: {
      /** The barcodes and names a label document prints, for one source. */
      rows: (caller: Account, source: LabelSource) => read((q) => readLabelRows(q, caller, source)),
      settings: (account: Account) => read((q) => readLabelSettings(q, account.id)),
      setSettings: (account: Account, change: Parameters<typeof writeLabelSettings>[2]) =>
        write((q) => writeLabelSettings(q, account.id, change)),
      /** New items, each with a code of the account's prefix, written as an import writes them. */
      makeCodes: (account: Account, names: readonly string[]) => writeMovements((log) => makeInternalCodes(log, account, names)),
    },

    /** Sync between instances (docs/SYNC.md): the upstream's side, then the links of this one. */
    sync: {
      /** What this instance holds of the account, and its clock. */
      state: (account: Account): Promise<SyncState> =>
        read(async (q) => ({
          instance: await instanceId(q),
          now: clock.now(),
          account: account.name,
          warehouses_enabled: account.warehousesEnabled,
          catalogue_version: (await q.first(q.k.selectFrom('accounts').select('catalogue_version').where('id', '=', account.id)))!
            .catalogue_version,
          vector: await heldVector(q, account.id),
        })),
      /**
       * The account's movements recorded here after `after`, in that order, but those the caller
       * holds (`have`); on the last page the cursor moves past everything recorded, left out or not.
       */
      pull: (account: Account, after: number, limit: number, have?: VersionVector): Promise<PullPage> =>
        read(async (q) => ({ ...pullPage(await readMovements(q, account.id, after, limit + 1), limit, after, have), now: clock.now() })),
      /**
       * Movements of other instances pushed by a registered follower (`caller`), each applied once, in
       * order; all or nothing. The answer's vector names the batch's origins only (what the follower
       * merges into what it knows of this instance); the state answers the whole vector.
       */
      push: (caller: Caller, movements: readonly SyncMovement[]): Promise<PushAnswer> =>
        writeMovements(async (log, q) => {
          await checkPushedOrigins(q, caller, movements, await instanceId(q), clock.now());
          const result = await applyMovements(log, caller, movements, clock.now());
          return { ...result, vector: await heldOf(q, caller.id, new Set(movements.map((m) => m.origin))), now: clock.now() };
        }),
      /** Registers the caller's follower instance, under the label its owner chose (docs/SYNC.md). */
      register: (caller: Caller, instance: string, label: string) =>
        write(async (q) => registerFollower(q, caller, instance, label, await instanceId(q), clock.now())),
      catalogue: (account: Account) => read((q) => catalogueDocument(q, account)),
      status: (account: Account) => read((q) => linkStatus(q, account, clock.now())),
      conflicts: (account: Account, state: 'open' | 'all', limit: number) => read((q) => listConflicts(q, account.id, state, limit)),

      links: () => read((q) => listLinks(q)),
      linkOf: (account: Account) => read((q) => linkOfAccount(q, account.id)),
      /** `registeredAt`: when the upstream took this instance's registration (null: the next round registers). */
      link: (accountName: string, upstreamUrl: string, token: string, label: string | null = null, registeredAt: string | null = null) =>
        write(async (q) => {
          const account = await findAccountByName(q, accountName);
          if (!account) throw badRequest(`No account named "${accountName}" here yet: link copies it from the upstream first.`);
          const existing = await linkOfAccount(q, account.id);
          if (existing) throw badRequest(syncMessages.alreadyLinked(accountName, existing.upstreamUrl));
          await createLink(q, account.id, { upstreamUrl, token, label, registeredAt }, new Date(clock.now()).toISOString());
        }),
      recordRegistered: (account: Account) => write((q) => recordRegistered(q, account.id, new Date(clock.now()).toISOString())),
      /** This instance's id: the `origin` of the movements made here. */
      instance: () => read((q) => instanceId(q)),
      /** This instance's id and the highest sequence it holds of its own movements of the account. */
      ownHighest: (account: Account) =>
        read(async (q) => {
          const instance = await instanceId(q);
          return { instance, seq: (await heldOf(q, account.id, [instance]))[instance]! };
        }),
      unlink: (account: Account) => write((q) => removeLink(q, account.id)),
      /**
       * Writes the catalogue the upstream handed down for `accountName` (at `sync link`, and when its
       * version moved), and the version it was, in one transaction. A document that names any other
       * account is refused whole: a link touches its own account only, whatever the upstream (or
       * anything on the path to it) sends.
       */
      writeUpstreamCatalogue: (accountName: string, catalogue: Catalogue, version: number) =>
        writeMovements(async (log, q) => {
          const named = catalogue.accounts.map((a) => a.name);
          if (named.length !== 1 || named[0] !== accountName)
            throw apiError(502, syncMessages.catalogueOfOtherAccounts(accountName, named));
          const summary = await writeCatalogue(log, catalogue, { fromUpstream: true });
          const account = await findAccountByName(q, accountName);
          await q.run(q.k.updateTable('sync_links').set({ catalogue_version: version }).where('account_id', '=', account!.id));
          return summary;
        }),
      /**
       * The movements the upstream does not hold yet, oldest first, recorded here after `after` (the
       * previous page's `last`: a round's next batch does not scan past the ones it pushed again).
       */
      pending: (account: Account, upstream: VersionVector, limit: number, after = 0) =>
        read(async (q) => {
          const page = await readMovements(q, account.id, after, limit);
          return {
            movements: page.filter(notHeldBy(upstream)).map(({ arrival: _, bytes: __, ...m }) => m),
            last: page.at(-1)?.arrival ?? after,
          };
        }),
      /** Just before where the movements named (`{origin: seq}`) arrived here: a push resumes from there. */
      arrivalBefore: (account: Account, movements: Record<string, number>) => read((q) => arrivalBefore(q, account.id, movements)),
      countPending: (account: Account, upstream: VersionVector, pushCursor = 0) =>
        read((q) => countPending(q, account.id, upstream, pushCursor)),
      /**
       * A pulled page applied and the link's cursor moved past it, together. A page of movements all
       * held here already (this instance's own, coming back) writes nothing: its cursor is written
       * with the round's record (recordRound's pullCursor), and a round cut before that pulls it again.
       */
      applyPulled: (account: Account, movements: readonly SyncMovement[], cursor: number, from: PulledFrom) =>
        writeMovements(async (log, q) => {
          await checkPulledOrigins(q, account, movements, await instanceId(q), from, clock.now());
          const result = await applyMovements(log, account, movements, clock.now());
          if (result.applied > 0) await advanceLink(q, account.id, cursor);
          return result;
        }),
      setUpstreamVector: (account: Account, vector: VersionVector) => write((q) => setUpstreamVector(q, account.id, vector)),
      recordRound: (account: Account, round: Parameters<typeof recordRound>[2]) => write((q) => recordRound(q, account.id, round)),
      recordReachable: (account: Account, upstreamInstance: string) => write((q) => recordReachable(q, account.id, upstreamInstance)),
      now: () => clock.now(),
    },

    /** The engine's integrity checks and the rule that history and stock agree. */
    check: () => checkConsistency(engine),
    /** Lets in-flight work finish, then releases the database. */
    close: () => engine.close(),
  };
}

export type Store = ReturnType<typeof createStore>;
