// Every call the UI makes to the server, made with the token of the signed-in account: stock, names,
// warehouses, history and stocktakes. Rows are checked with the server's own rules before they are sent.
import type { z } from 'zod';
import {
  ACCOUNT_PATH,
  ADJUST_PATH,
  IDEMPOTENCY_KEY_HEADER,
  INVENTORY_PATH,
  LABELS_PATH,
  LABELS_PDF_PATH,
  LABEL_CODES_PATH,
  LOW_STOCK_CSV_PATH,
  STOCK_CHART_PATH,
  type ChartRange,
  type StockChart,
  stockChartSchema,
  MOVEMENTS_PER_DAY_PATH,
  type MovementsPerDay,
  movementsPerDaySchema,
  LOW_STOCK_PATH,
  REORDER_POINTS_PATH,
  MAX_BARCODES_PER_READ,
  MAX_ROWS_PER_UPDATE,
  SIGNIN_PATH,
  SIGNOUT_PATH,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_NOW_PATH,
  SYNC_STATUS_PATH,
  WAREHOUSES_PATH,
  type AccountInfo,
  type AdjustRow,
  type BarcodeLabel,
  type CommitResult,
  type Conflict,
  type CreateStocktakeBody,
  type FieldErrors,
  type LabelCodesAnswer,
  type HistoryPage,
  type LowStockPage,
  type ReorderPoint,
  type ReorderPointRow,
  type ReadResponse,
  type ScanResult,
  type SignInResponse,
  type SyncNowAnswer,
  type SyncStatus,
  type Stocktake,
  type StocktakeLine,
  type StocktakeChanges,
  type StocktakeReview,
  type UndoResult,
  type UnknownResolution,
  type UpdateResponse,
  type UpdateRow,
  type Warehouse,
  accountInfoSchema,
  labelCodesAnswerSchema,
  adjustResponseSchema,
  checkAdjustRow,
  checkUpdateRow,
  commitResultSchema,
  conflictListSchema,
  historyPageSchema,
  lowStockPageSchema,
  reorderPointListSchema,
  labelsResponseSchema,
  noContentSchema,
  readResponseSchema,
  scanResultSchema,
  signInResponseSchema,
  stocktakeChangesSchema,
  stocktakeLineSchema,
  stocktakePageSchema,
  stocktakePath,
  stocktakeReviewSchema,
  stocktakeSchema,
  syncNowAnswerSchema,
  syncStatusSchema,
  undoResultSchema,
  updateResponseSchema,
  warehouseListSchema,
  isTimeZone,
} from '../../../shared/index.ts';
import { apiTexts } from '../common/texts.ts';
import { ApiError, requestFile, requestJson } from './request-json.ts';

/** Exchanges a one-time code of a sign-in link for the account's token; the only call made before sign-in. */
/** The device's IANA time zone (`Europe/Berlin`), when the browser names one the server can check. */
function deviceTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : undefined;
}

export function redeemSignInCode(code: string): Promise<SignInResponse> {
  return requestJson(signInResponseSchema, SIGNIN_PATH, { method: 'POST', body: { code } });
}

/** A row as the user entered it: the quantity is still text. */
export interface RowInput {
  barcode: string;
  quantity: string;
  warehouse_name?: string;
}

/** A row to add to stock as the user entered it: the delta is still text. */
export interface AdjustInput {
  barcode: string;
  delta: string;
  warehouse_name?: string;
}

/** Outcome of a row sent in an update: its record, or its errors (found locally or by the server). */
export type RowOutcome = { ok: true; quantity: number } | { ok: false; errors: FieldErrors };

/** How a write is sent: with an Idempotency-Key, sending it again (after a reload) never applies it twice. */
export interface WriteOptions {
  idempotencyKey?: string;
}

/** One scan of a stocktake as the count view sends it. */
export interface StocktakeScan {
  barcode: string;
  amount: number;
  scan_id: string;
  terminal: string;
}

export interface StocktakeCalls {
  list(): Promise<Stocktake[]>;
  create(body: Partial<CreateStocktakeBody>): Promise<Stocktake>;
  get(id: number): Promise<Stocktake>;
  scan(id: number, scan: StocktakeScan): Promise<ScanResult>;
  undo(id: number, terminal: string): Promise<UndoResult>;
  setCount(id: number, line: number, counted: number): Promise<StocktakeLine>;
  resolve(id: number, line: number, resolution: UnknownResolution): Promise<StocktakeLine>;
  /** The lines changed since `after` (the `after` of the last answer), every line without it: the counting page's refresh. */
  changes(id: number, after?: string): Promise<StocktakeChanges>;
  review(id: number): Promise<StocktakeReview>;
  /** Every line of the session as the counts CSV (the review lists only the first MAX_REVIEW_LINES). */
  countsCsv(id: number): Promise<Blob>;
  commit(id: number, zeroUncounted: boolean): Promise<CommitResult>;
}

export interface ApiClient {
  /** The token the client sends (an admin's people calls use it too: people/people-client.ts). */
  readonly token: string;
  account(): Promise<AccountInfo>;
  /** Revokes this client's token on the server (signing out of the device). */
  signOut(): Promise<void>;
  warehouses(): Promise<Warehouse[]>;
  readStock(barcodes: readonly string[]): Promise<ReadResponse>;
  labels(barcodes: readonly string[]): Promise<Record<string, BarcodeLabel>>;
  /** A PDF of printable labels (docs/LABELS.md): `query` holds one source (barcodes, stocktake, …) and the layout. */
  labelsPdf(query: Record<string, string>): Promise<Blob>;
  /** New items for goods without a barcode, each with a code of the shop's own. */
  makeCodes(names: readonly string[]): Promise<LabelCodesAnswer['codes']>;
  /** Posts valid rows in one request; returns one outcome per given row, in order. */
  updateStock(rows: readonly RowInput[], warehousesEnabled: boolean, options?: WriteOptions): Promise<RowOutcome[]>;
  /** Adds each valid row's delta to the stock in one request (the adjust endpoint); one outcome per row. */
  adjustStock(rows: readonly AdjustInput[], warehousesEnabled: boolean, options?: WriteOptions): Promise<RowOutcome[]>;
  /** One page (20 entries, newest first) of a barcode's stock changes; `cursor` pages back. */
  history(barcode: string, cursor?: string): Promise<HistoryPage>;
  stocktake: StocktakeCalls;
  /** A barcode's stock over a period, per warehouse, downsampled by the server. */
  stockChart(barcode: string, range: ChartRange): Promise<StockChart>;
  /** Sales, receipts, counts and sets per day of the last `days` days, days from midnight on this device's clock. */
  movementsPerDay(query: { warehouse?: number; days: number }): Promise<MovementsPerDay>;
  /** The reorder points of these barcodes (docs/REORDER.md), each with the quantity there and whether it is low. */
  reorderPoints(barcodes: readonly string[]): Promise<ReorderPoint[]>;
  /** Sets (or with `minimum: null` removes) reorder points; all rows or none. */
  setReorderPoints(rows: readonly ReorderPointRow[]): Promise<ReorderPoint[]>;
  /** One page of the low-stock list, most urgent first; `warehouse` an id, `cursor` the last page's next_cursor. */
  lowStock(query: { warehouse?: number; cursor?: string; limit?: number }): Promise<LowStockPage>;
  /** The low-stock list as CSV for the supplier. */
  lowStockCsv(warehouse?: number): Promise<Blob>;
  /** This instance's link to its upstream (docs/SYNC.md): in sync, waiting, offline, conflicts. */
  syncStatus(): Promise<SyncStatus>;
  /** Runs a round of the link now (or joins the one running) and answers when it ends: what it did, and the status after it. */
  syncNow(): Promise<SyncNowAnswer>;
  /** The account's conflicts, newest first: the open ones, or all (resolved included). */
  conflicts(state: 'open' | 'all'): Promise<Conflict[]>;
  /** Calls `listener` after each write of stock this client made (the sync indicator looks again); returns the unsubscribe. */
  onStockWritten(listener: () => void): () => void;
}

function barcodesQuery(barcodes: readonly string[]): string {
  if (barcodes.length === 0 || barcodes.length > MAX_BARCODES_PER_READ) {
    throw new ApiError(400, apiTexts.barcodesPerRead(MAX_BARCODES_PER_READ));
  }
  // Commas separate barcodes on the wire; a barcode containing one cannot be read by this endpoint.
  return `?barcodes=${encodeURIComponent(barcodes.join(','))}`;
}

/** The client of one signed-in account: created once at sign-in, it holds the token for every call. */
export function createApiClient(token: string): ApiClient {
  const writeListeners = new Set<() => void>();
  /** Tells the listeners once a write has been answered (applied or not: the server may have moved). */
  const written = <T>(promise: Promise<T>): Promise<T> => {
    const tell = () => writeListeners.forEach((listener) => listener());
    void promise.then(tell, tell);
    return promise;
  };
  const stocktakeCall = <S extends z.ZodType>(schema: S, path: string, method = 'GET', body?: unknown): Promise<z.infer<S>> =>
    requestJson(schema, path, { method, body, token, unreachable: apiTexts.stocktakeUnreachable });

  /**
   * Checks each row with the server's own rules, posts the valid ones in one request, and answers one
   * outcome per row in order: rejected rows are matched to the server's errors by what was sent.
   */
  async function writeRows<Row extends object>(
    path: string,
    rows: readonly object[],
    check: (row: unknown) => { ok: true; row: Row } | { ok: false; errors: FieldErrors },
    options: WriteOptions,
  ): Promise<RowOutcome[]> {
    if (rows.length > MAX_ROWS_PER_UPDATE) throw new ApiError(400, apiTexts.rowsPerWrite(MAX_ROWS_PER_UPDATE));
    const outcomes: (RowOutcome | undefined)[] = rows.map(() => undefined);
    const send: { index: number; row: Row }[] = [];
    rows.forEach((row, index) => {
      const checked = check(row);
      if (checked.ok)
        send.push({ index, row: checked.row }); // normalised: numbers as JSON integers
      else outcomes[index] = { ok: false, errors: checked.errors };
    });
    if (send.length > 0) {
      const answer: UpdateResponse = await requestJson(path === ADJUST_PATH ? adjustResponseSchema : updateResponseSchema, path, {
        method: 'POST',
        body: send.map((s) => s.row),
        token,
        ...(options.idempotencyKey ? { headers: { [IDEMPOTENCY_KEY_HEADER]: options.idempotencyKey } } : {}),
      });
      // The server answers applied rows in request order in `results`, rejected ones in `errors`
      // with the row echoed; match the rejected ones by identity of what was sent.
      const rejected = answer.errors.slice();
      const results = answer.results.slice();
      for (const { index, row } of send) {
        const at = rejected.findIndex((e) => sameRow(e.data, row));
        if (at >= 0) {
          outcomes[index] = { ok: false, errors: rejected[at]!.errors };
          rejected.splice(at, 1);
        } else {
          const record = results.shift();
          outcomes[index] = record
            ? { ok: true, quantity: record.quantity }
            : { ok: false, errors: { non_field_errors: apiTexts.noAnswerForRow } };
        }
      }
    }
    return outcomes.map((o) => o ?? { ok: false, errors: { non_field_errors: apiTexts.notSent } });
  }

  return {
    token,
    account: () => requestJson(accountInfoSchema, ACCOUNT_PATH, { token }),
    signOut: () => requestJson(noContentSchema, SIGNOUT_PATH, { method: 'POST', token }),
    warehouses: () => requestJson(warehouseListSchema, WAREHOUSES_PATH, { token }),
    readStock: (barcodes) => requestJson(readResponseSchema, INVENTORY_PATH + barcodesQuery(barcodes), { token }),
    labels: async (barcodes) => (await requestJson(labelsResponseSchema, LABELS_PATH + barcodesQuery(barcodes), { token })).labels,
    labelsPdf: (query) => requestFile(`${LABELS_PDF_PATH}?${new URLSearchParams(query).toString()}`, { token }),
    makeCodes: async (names) =>
      (
        await requestJson(labelCodesAnswerSchema, LABEL_CODES_PATH, {
          method: 'POST',
          body: { items: names.map((name) => ({ name })) },
          token,
        })
      ).codes,

    updateStock: (rows, warehousesEnabled, options = {}) =>
      written(writeRows<UpdateRow>(INVENTORY_PATH, rows, (row) => checkUpdateRow(row, warehousesEnabled), options)),
    adjustStock: (rows, warehousesEnabled, options = {}) =>
      written(writeRows<AdjustRow>(ADJUST_PATH, rows, (row) => checkAdjustRow(row, warehousesEnabled), options)),

    history: (barcode, cursor) =>
      requestJson(
        historyPageSchema,
        `${STOCK_HISTORY_PATH}?${new URLSearchParams({ barcode, limit: '20', ...(cursor ? { cursor } : {}) })}`,
        {
          token,
          unreachable: apiTexts.historyUnreachable,
        },
      ),

    stocktake: {
      // The newest page of sessions (the server pages the list; older ones are for the API, not this screen).
      list: async () => (await stocktakeCall(stocktakePageSchema, STOCKTAKES_PATH)).results,
      create: (body) => stocktakeCall(stocktakeSchema, STOCKTAKES_PATH, 'POST', body),
      get: (id) => stocktakeCall(stocktakeSchema, stocktakePath(id)),
      scan: (id, scan) => stocktakeCall(scanResultSchema, stocktakePath(id, 'scans'), 'POST', scan),
      undo: (id, terminal) => stocktakeCall(undoResultSchema, stocktakePath(id, 'undo'), 'POST', { terminal }),
      setCount: (id, line, counted) => stocktakeCall(stocktakeLineSchema, stocktakePath(id, `lines/${line}`), 'PATCH', { counted }),
      resolve: (id, line, resolution) => stocktakeCall(stocktakeLineSchema, stocktakePath(id, `lines/${line}`), 'PATCH', { resolution }),
      changes: (id, after) =>
        stocktakeCall(stocktakeChangesSchema, `${stocktakePath(id, 'changes')}${after === undefined ? '' : `?after=${after}`}`),
      review: (id) => stocktakeCall(stocktakeReviewSchema, stocktakePath(id, 'review')),
      countsCsv: (id) => requestFile(`${stocktakePath(id)}counts.csv`, { token, unreachable: apiTexts.stocktakeUnreachable }),
      commit: (id, zeroUncounted) =>
        written(stocktakeCall(commitResultSchema, stocktakePath(id, 'commit'), 'POST', { zero_uncounted: zeroUncounted })),
    },

    stockChart: (barcode, range) =>
      requestJson(stockChartSchema, `${STOCK_CHART_PATH}?${new URLSearchParams({ barcode, range })}`, { token }),
    movementsPerDay: ({ warehouse, days }) =>
      requestJson(
        movementsPerDaySchema,
        `${MOVEMENTS_PER_DAY_PATH}?${new URLSearchParams({
          days: String(days),
          // The device's time zone, so a period across a change of summer time counts each hour on
          // its own day; its offset now for a browser that names none.
          utc_offset: String(-new Date().getTimezoneOffset()),
          ...(deviceTimeZone() ? { time_zone: deviceTimeZone()! } : {}),
          ...(warehouse === undefined ? {} : { warehouse: String(warehouse) }),
        })}`,
        { token },
      ),
    reorderPoints: async (barcodes) =>
      (await requestJson(reorderPointListSchema, REORDER_POINTS_PATH + barcodesQuery(barcodes), { token })).results,
    setReorderPoints: async (rows) =>
      (await requestJson(reorderPointListSchema, REORDER_POINTS_PATH, { method: 'POST', body: rows, token })).results,
    lowStock: ({ warehouse, cursor, limit = 50 }) =>
      requestJson(
        lowStockPageSchema,
        `${LOW_STOCK_PATH}?${new URLSearchParams({ limit: String(limit), ...(warehouse === undefined ? {} : { warehouse: String(warehouse) }), ...(cursor ? { cursor } : {}) })}`,
        { token },
      ),
    lowStockCsv: (warehouse) => requestFile(`${LOW_STOCK_CSV_PATH}${warehouse === undefined ? '' : `?warehouse=${warehouse}`}`, { token }),

    syncStatus: () => requestJson(syncStatusSchema, SYNC_STATUS_PATH, { token }),
    syncNow: () => requestJson(syncNowAnswerSchema, SYNC_NOW_PATH, { method: 'POST', token }),
    conflicts: (state) => requestJson(conflictListSchema, `${SYNC_CONFLICTS_PATH}?state=${state}`, { token }),
    onStockWritten: (listener) => {
      writeListeners.add(listener);
      return () => writeListeners.delete(listener);
    },
  };
}

/** Whether an echoed row is the row sent: same barcode, number and warehouse. */
function sameRow(data: unknown, row: object): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  const r = row as Record<string, unknown>;
  return d.barcode === r.barcode && d.quantity === r.quantity && d.delta === r.delta && d.warehouse_name === r.warehouse_name;
}
