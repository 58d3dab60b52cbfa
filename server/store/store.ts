// The store's one interface: every operation the API, the CLI and the launcher need, each run in one
// transaction of the engine (or, for a stocktake commit, one per batch). Callers never see queries,
// connections or transactions; engines never see operations (engine.ts).
import type {
  AuditQuery,
  CommitBody,
  CreateStocktakeBody,
  HistoryQuery,
  LowStockQuery,
  StockChartQuery,
  MovementsPerDayQuery,
  PullPage,
  PushAnswer,
  ReorderPointRow,
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
import { type MovementSourceName, syncMessages } from '../../shared/index.ts';
import type { Catalogue } from '../catalogue/catalogue-schema.ts';
import { type Account, findAccountByName, gtinClashes, listAccounts, setGtinEquivalence } from './accounts.ts';
import { readBarcodeLabels } from './barcode-labels.ts';
import { type BeforeWriting, dryRunCatalogueStream, writeCatalogueStream } from './catalogue-import.ts';
import { type CatalogueWriter, type ImportSummary, writeCatalogue } from './catalogue-writer.ts';
import { checkConsistency } from './consistency.ts';
import type { Engine, ScratchKeys, WriteOptions } from './engine.ts';
import { type OnceKey, answerOnce } from './idempotent-answers.ts';
import { MovementLog, type StoreClock, systemClock } from './movements/movement-log.ts';
import { createSignInCode, redeemSignInCode } from './signin-codes.ts';
import { type ExportCursor, exportWarehouseId, readStockExportPage } from './stock-export.ts';
import { readBarcodeLabelsByGtin, readStockRecordsByGtin } from './gtin-lookup.ts';
import { readStockHistory } from './stock-history.ts';
import { readLowStockPage } from './low-stock.ts';
import { readStockChart } from './stock-chart.ts';
import { readMovementsPerDay } from './movements-per-day.ts';
import { readReorderPoints, setReorderPoints } from './reorder-points.ts';
import { dueEvents, queueCrossings, recordAttempt, setLowStockWebhook } from './low-stock-events.ts';
import { listWarehouses, readStockRecords, warehousesOf } from './stock-read.ts';
import { adjustRows, updateRows } from './stock-write.ts';
import type { Queries } from './engine.ts';
import { linesChangedAfter } from './stocktakes/changes.ts';
import { type CommitHooks, commitStocktake } from './stocktakes/commit.ts';
import { recordScan, undoLastScan, updateLine } from './stocktakes/counting.ts';
import { listLines } from './stocktakes/lines.ts';
import { reviewLinesPage, reviewStocktake } from './stocktakes/review.ts';
import { createStocktake, getStocktake, listStocktakes } from './stocktakes/sessions.ts';
import { type Caller, TokenLines, authenticate, createToken, listTokens, reapplyRevocation, revokeToken, setTokenRole } from './tokens.ts';
import { type Actor, type AuditRecord, actorOf, readAudit, recordAudit } from './audit.ts';
import {
  type NewPerson,
  type PersonChange,
  type StoredPin,
  addPerson,
  changePerson,
  listPeople,
  personByBadge,
  personForPin,
  replaceBadge,
  revokeBadge,
  revokePerson,
  setPersonIdleMinutes,
  signInPeople,
  signInPerson,
} from './people.ts';
import { createPinGuard } from './pin-guard.ts';
import { hashPin, hashSecret, newPinSalt, pinMatches } from './secret-hash.ts';
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
import { arrivalBefore, countPending, heldUpstreamUpTo, readNotHeld } from './sync/movement-pages.ts';
import { type PulledFrom, checkPulledOrigins, checkPushedOrigins, registerFollower } from './sync/followers.ts';
import { makeInternalCodes } from './labels/internal-codes.ts';
import { type LabelSource, readLabelRows } from './labels/label-sources.ts';
import { readLabelSettings, writeLabelSettings } from './labels/label-settings.ts';

export type { Account, Actor, Caller, Link };
export { actorOf };

/** The account of `name`, or 400 naming it (the command line names accounts). */
async function accountNamed(q: Queries, name: string): Promise<Account> {
  const account = await findAccountByName(q, name);
  if (!account) throw badRequest(`No account named "${name}". Import a catalogue that defines it first.`);
  return account;
}

/** A PIN as stored; hashed before the transaction, since scrypt takes tens of milliseconds on purpose. */
async function storedPin(pin: string | null | undefined): Promise<StoredPin | null | undefined> {
  if (pin === undefined || pin === null) return pin;
  const salt = newPinSalt();
  return { salt, hash: await hashPin(pin, salt) };
}

/** How a person signs in on a shared scanner: the answer, or why not (a wrong PIN waits `retryAfterSeconds` when slowed). */
export type PersonSignInResult =
  | { ok: true; person: { id: number; name: string }; role: string; token: string; idleMinutes: number }
  | { ok: false; reason: 'badge-unknown' | 'no-person' | 'no-pin' | 'pin-wrong' | 'slowed'; retryAfterSeconds?: number; name?: string };
export type { Answer, OnceKey } from './idempotent-answers.ts';

/** How a write is told apart and answered once: the Idempotency-Key sent with it, if any. */
export interface WriteOnce {
  once?: OnceKey | undefined;
}

/** What recorded a stock write, and why (a row's own reason and reference win). */
export interface WriteSource extends WriteOnce {
  source: MovementSourceName;
  reason?: string;
  reference?: string;
}

export interface StoreOptions {
  /** The wall clock movements are stamped with; tests skew it to play instances whose clocks disagree. */
  clock?: StoreClock;
}

/** An audit entry about a token, in the account the token belongs to. */
async function auditToken(q: Queries, tokenId: number, actor: Actor, record: Omit<AuditRecord, 'subject'>): Promise<void> {
  const token = await q.first(q.k.selectFrom('api_tokens').select(['account_id', 'label', 'role']).where('id', '=', tokenId));
  if (!token) return;
  await recordAudit(q, token.account_id, actor, { ...record, subject: `token ${tokenId}${token.label ? ` (${token.label})` : ''}` });
}

export function createStore(engine: Engine, { clock = systemClock }: StoreOptions = {}) {
  const write = engine.write.bind(engine);
  const read = engine.read.bind(engine);
  // Wrong PINs are slowed per person of this database (pin-guard.ts).
  const pinGuard = createPinGuard();
  const tokenLines = new TokenLines();
  /**
   * A write that records movements: the log's clock and sequences are read once, its movements
   * written together, and its clock written back at the end. `q` is the log's (MovementLog.q), whose
   * every statement sees the movements recorded before it.
   */
  const writeMovements = <T>(work: (log: MovementLog, q: Queries) => Promise<T>, options?: WriteOptions) =>
    write(async (q) => {
      const log = await MovementLog.open(q, clock);
      const result = await work(log, log.q);
      await log.close();
      return result;
    }, options);
  return {
    /** `sqlite` or `postgres`. */
    kind: engine.kind,
    /** Where the data is, for messages (never with a password). */
    location: engine.location,

    accounts: {
      list: () => read((q) => listAccounts(q)),
      find: (name: string) => read((q) => findAccountByName(q, name)),
      /** Turns GTIN equivalence on or off; undefined when there is no such account. */
      setGtinEquivalence: (name: string, on: boolean, actor?: Actor) =>
        write(async (q) => {
          const before = await findAccountByName(q, name);
          const changed = await setGtinEquivalence(q, name, on);
          if (changed && actor && before?.gtinEquivalence !== on)
            await recordAudit(q, changed.id, actor, {
              action: 'account.settings',
              subject: `account ${name}`,
              detail: { gtin_equivalence: on },
            });
          return changed;
        }),
      /** Barcodes of the account that are one GTIN written in different forms, on different units. */
      gtinClashes: (account: Account) => read((q) => gtinClashes(q, account.id)),
    },

    tokens: {
      /** `actor`: who made it, for the audit log (the command line); tests leave it out. */
      create: (accountName: string, label: string | null, role: TokenRole, actor?: Actor) =>
        write(async (q) => {
          const made = await createToken(q, accountName, label, role);
          if (actor) await auditToken(q, made.id, actor, { action: 'token.create', detail: { role, label } });
          return made;
        }),
      list: (accountName?: string) => read((q) => listTokens(q, accountName)),
      revoke: (id: number, actor?: Actor) =>
        write(async (q) => {
          const revoked = await revokeToken(q, id);
          if (revoked && actor) await auditToken(q, id, actor, { action: 'token.revoke' });
          return revoked;
        }),
      /** Gives an active token another role; false when there is no such active token. */
      setRole: (id: number, role: TokenRole, actor?: Actor) =>
        write(async (q) => {
          const before = await q.first(q.k.selectFrom('api_tokens').select('role').where('id', '=', id));
          const changed = await setTokenRole(q, id, role);
          if (changed && actor) await auditToken(q, id, actor, { action: 'token.role', detail: { from: before?.role, to: role } });
          return changed;
        }),
      /** Revokes again, at its original time, a token a restore brought back (matched by id and prefix). */
      reapplyRevocation: (id: number, prefix: string, revokedAt: string) => write((q) => reapplyRevocation(q, id, prefix, revokedAt)),
      /**
       * The caller a presented key stands for; undefined for an unknown or revoked key. `client`
       * (the address it came from, as the rate limit counts it) names the line a key never seen
       * valid is looked up in (TokenLines).
       */
      authenticate: (key: string, client?: string) => authenticate(engine, key, tokenLines, client),
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
            body: await updateRows(log, caller, rows, { ...source, tokenId: caller.tokenId, actor: actorOf(caller).name }),
          })),
        ),
      adjust: (caller: Caller, rows: readonly unknown[], { once, ...source }: WriteSource) =>
        writeMovements((log, q) =>
          answerOnce(q, caller.id, once, async () => ({
            status: 200,
            body: await adjustRows(log, caller, rows, { ...source, tokenId: caller.tokenId, actor: actorOf(caller).name }),
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

    /** Reorder points and the low-stock list (docs/REORDER.md). */
    reorder: {
      points: (caller: Account, barcodes: readonly string[]) => read((q) => readReorderPoints(q, caller, barcodes)),
      /** All rows or none; refused on a follower, whose catalogue comes from its upstream. */
      set: (caller: Caller, rows: readonly ReorderPointRow[]) => write((q) => setReorderPoints(q, caller, rows)),
      /** One page, the reorder points walked in stretches, each its own read (store/low-stock.ts). */
      lowStockPage: (caller: Account, query: LowStockQuery) => readLowStockPage(read, caller, query, clock.now()),
      /** The account's webhook for crossings of a minimum (url null: none); only later crossings are sent. */
      setWebhook: (caller: Caller, url: string | null, secret: string) => write((q) => setLowStockWebhook(q, caller, url, secret)),
      /** Queues the crossings recorded since the last pass (server/webhooks/ runs it, after the writes). */
      queueCrossings: () => write((q) => queueCrossings(q, new Date(clock.now()).toISOString())),
      dueEvents: (limit: number) => read((q) => dueEvents(q, new Date(clock.now()).toISOString(), limit)),
      recordAttempt: (id: number, outcome: Parameters<typeof recordAttempt>[2]) => write((q) => recordAttempt(q, id, outcome)),
      now: () => clock.now(),
    },

    history: {
      page: (caller: Account, query: HistoryQuery) => read((q) => readStockHistory(q, caller, query)),
      /** A barcode's quantity over a period per warehouse, downsampled (store/stock-chart.ts). */
      chart: (caller: Account, query: StockChartQuery) => readStockChart(read, caller, query, clock.now()),
      /** A warehouse's (or the account's) sales, receipts, counts and sets per day of a period (store/movements-per-day.ts). */
      perDay: (caller: Account, query: MovementsPerDayQuery, stretch?: number) =>
        readMovementsPerDay(read, caller, query, clock.now(), stretch),
    },

    /** The audit log (audit.ts): read in pages; entries are written by the operations they record. */
    audit: {
      page: (account: Account, query: AuditQuery) => read((q) => readAudit(q, account.id, query)),
      /** Records what happened outside the store's own operations (a catalogue import, a sync link) for an account by name. */
      record: (accountName: string, actor: Actor, record: AuditRecord) =>
        write(async (q) => recordAudit(q, (await accountNamed(q, accountName)).id, actor, record)),
      recordFor: (account: Account, actor: Actor, record: AuditRecord) => write((q) => recordAudit(q, account.id, actor, record)),
    },

    /** People on shared scanners (people.ts): an admin's endpoints and commands, and signing in. */
    people: {
      list: (account: Account) => read((q) => listPeople(q, account.id)),
      listByName: (accountName: string) => read(async (q) => listPeople(q, (await accountNamed(q, accountName)).id)),
      add: async (account: Account | string, actor: Actor, person: Omit<NewPerson, 'pin'> & { pin?: string | undefined }) => {
        const pin = (await storedPin(person.pin)) ?? undefined;
        return write(async (q) =>
          addPerson(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, { ...person, pin }),
        );
      },
      change: async (account: Account | string, actor: Actor, id: number, change: Omit<PersonChange, 'pin'> & { pin?: string | null }) => {
        const pin = await storedPin(change.pin);
        return write(async (q) =>
          changePerson(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, id, { role: change.role, pin }),
        );
      },
      newBadge: (account: Account | string, actor: Actor, id: number) =>
        write(async (q) => replaceBadge(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, id)),
      revokeBadge: (account: Account | string, actor: Actor, id: number) =>
        write(async (q) => revokeBadge(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, id)),
      revoke: (account: Account | string, actor: Actor, id: number) =>
        write(async (q) => revokePerson(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, id)),
      setIdleMinutes: (account: Account | string, actor: Actor, minutes: number) =>
        write(async (q) => setPersonIdleMinutes(q, typeof account === 'string' ? await accountNamed(q, account) : account, actor, minutes)),
      /** Who may sign in on the account's shared scanners (names and whether each has a PIN). */
      forSignIn: (account: Account) => read((q) => signInPeople(q, account.id)),
      /** A badge scanned on a shared scanner of `account`: only a badge of that account's active people signs in. */
      signInWithBadge: (account: Account, badge: string): Promise<PersonSignInResult> =>
        write(async (q) => {
          const row = await personByBadge(q, account.id, hashSecret(badge));
          const signedIn = row && (await signInPerson(q, account, row));
          return signedIn ? { ok: true as const, ...signedIn } : { ok: false as const, reason: 'badge-unknown' as const };
        }),
      /** A person chosen by id and a PIN typed; wrong PINs of that person are slowed (pin-guard.ts). */
      async signInWithPin(account: Account, personId: number, pin: string): Promise<PersonSignInResult> {
        const key = `${account.id}:${personId}`;
        const wait = pinGuard.wait(key);
        if (wait > 0) return { ok: false, reason: 'slowed', retryAfterSeconds: Math.ceil(wait / 1000) };
        const row = await read((q) => personForPin(q, account.id, personId));
        if (!row) return { ok: false, reason: 'no-person' };
        if (row.pin_hash === null || row.pin_salt === null) return { ok: false, reason: 'no-pin', name: row.name };
        if (!(await pinMatches(pin, row.pin_salt, row.pin_hash))) {
          pinGuard.failed(key);
          return { ok: false, reason: 'pin-wrong' };
        }
        const signedIn = await write((q) => signInPerson(q, account, row));
        if (!signedIn) return { ok: false, reason: 'no-person' };
        pinGuard.succeeded(key);
        return { ok: true, ...signedIn };
      },
    },

    stocktakes: {
      /** One page, newest first, of sessions older than `before` (a session id). */
      list: (caller: Account, limit: number, before?: number) => read((q) => listStocktakes(q, caller, limit, before)),
      create: (caller: Caller, body: CreateStocktakeBody, { once }: WriteOnce = {}) =>
        write((q) =>
          answerOnce(q, caller.id, once, async () => {
            const made = await createStocktake(q, caller, body);
            await recordAudit(q, caller.id, actorOf(caller), {
              action: 'stocktake.start',
              subject: `stocktake ${made.id}${made.name ? ` (${made.name})` : ''}`,
            });
            return { status: 201, body: made };
          }),
        ),
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
        write((q) =>
          answerOnce(q, caller.id, once, async () => {
            const undone = await undoLastScan(q, caller, id, body);
            await recordAudit(q, caller.id, actorOf(caller), {
              action: 'stocktake.undo',
              subject: `stocktake ${id}`,
              detail: { barcode: undone.undone.barcode, amount: undone.undone.amount },
            });
            return { status: 200, body: undone };
          }),
        ),
      review: (caller: Account, id: number) => read((q) => reviewStocktake(q, caller, id)),
      /** One page of the review's lines (known or unknown) after line `afterId`, each its own read: for the counts CSV. */
      reviewLinesPage: (caller: Account, id: number, known: boolean, afterId: number, limit?: number) =>
        read((q) => reviewLinesPage(q, caller, id, known, afterId, limit)),
      /** Resumable: one transaction per batch of lines, so a commit cut short is finished by committing again. */
      commit: (caller: Caller, id: number, body: CommitBody, hooks?: CommitHooks) =>
        commitStocktake(engine, clock, caller, id, body, hooks, actorOf(caller)),
    },

    catalogue: {
      /** Writes a parsed catalogue, all or nothing. */
      write: (catalogue: Catalogue) => writeMovements((log) => writeCatalogue(log, catalogue), { addsUnits: true }),
      /** A streamed import (as writeStream's) run for real and rolled back: what it would change. */
      dryRunStream: (
        work: (writer: CatalogueWriter, scratch: ScratchKeys, beforeWriting: BeforeWriting) => Promise<ImportSummary>,
        onQuantityChanges?: Parameters<typeof dryRunCatalogueStream>[3],
      ) => dryRunCatalogueStream(engine, clock, work, onQuantityChanges),
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
        read(async (q) => ({ ...(await readNotHeld(q, account.id, after, limit, have)), now: clock.now() })),
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
        writeMovements(
          async (log, q) => {
            const named = catalogue.accounts.map((a) => a.name);
            if (named.length !== 1 || named[0] !== accountName)
              throw apiError(502, syncMessages.catalogueOfOtherAccounts(accountName, named));
            const summary = await writeCatalogue(log, catalogue, { fromUpstream: true });
            const account = await findAccountByName(q, accountName);
            await q.run(q.k.updateTable('sync_links').set({ catalogue_version: version }).where('account_id', '=', account!.id));
            return summary;
          },
          { addsUnits: true },
        ),
      /**
       * The movements the upstream does not hold yet, oldest first, recorded here after `after` (the
       * previous page's `last`: a round's next batch does not scan past the ones it pushed again).
       */
      pending: (account: Account, upstream: VersionVector, limit: number, after = 0) =>
        read(async (q) => {
          const page = await readNotHeld(q, account.id, after, limit, upstream);
          return { movements: page.movements, last: page.next_cursor };
        }),
      /** Just before where the movements named (`{origin: seq}`) arrived here: a push resumes from there. */
      arrivalBefore: (account: Account, movements: Record<string, number>) => read((q) => arrivalBefore(q, account.id, movements)),
      /** Where a push starts reading: every movement recorded here up to this arrival id is held by the upstream (`upstream`, what it holds per origin). */
      heldUpstreamUpTo: (account: Account, upstream: VersionVector) => read((q) => heldUpstreamUpTo(q, account.id, upstream)),
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
