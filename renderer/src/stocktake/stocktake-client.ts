// The stocktake views' way to the server: same-origin requests with the signed-in token, every answer
// parsed with the shared zod schemas through api-client's requestJson, so failures are ApiError as in
// the rest of the UI.
import type { z } from 'zod';
import {
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  type CommitResult,
  type CreateStocktakeBody,
  type HistoryPage,
  type ScanResult,
  type Stocktake,
  type StocktakeLine,
  type StocktakeReview,
  type UnknownResolution,
  commitResultSchema,
  historyPageSchema,
  scanResultSchema,
  stocktakeLineListSchema,
  stocktakeLineSchema,
  stocktakeListSchema,
  stocktakePath,
  stocktakeReviewSchema,
  stocktakeSchema,
  undoResultSchema,
  type UndoResult,
} from '../../../shared/index.ts';
import { requestJson } from '../api/api-client.ts';
import { loadToken } from '../app/account-storage.ts';

const UNREACHABLE = 'The server cannot be reached. Scans are kept and sent when it is back.';

/** A request with the signed-in token; fetch, error and parsing are api-client's `requestJson`. */
function call<S extends z.ZodType>(schema: S, path: string, method = 'GET', body?: unknown): Promise<z.infer<S>> {
  return requestJson(schema, path, { method, body, token: loadToken(), unreachable: UNREACHABLE });
}

export const stocktakeClient = {
  list: (): Promise<Stocktake[]> => call(stocktakeListSchema, STOCKTAKES_PATH),
  create: (body: Partial<CreateStocktakeBody>): Promise<Stocktake> => call(stocktakeSchema, STOCKTAKES_PATH, 'POST', body),
  get: (id: number): Promise<Stocktake> => call(stocktakeSchema, stocktakePath(id)),
  lines: (id: number): Promise<StocktakeLine[]> => call(stocktakeLineListSchema, stocktakePath(id, 'lines')),
  scan: (id: number, scan: { barcode: string; amount: number; scan_id: string; terminal: string }): Promise<ScanResult> =>
    call(scanResultSchema, stocktakePath(id, 'scans'), 'POST', scan),
  undo: (id: number, terminal: string): Promise<UndoResult> => call(undoResultSchema, stocktakePath(id, 'undo'), 'POST', { terminal }),
  setCount: (id: number, line: number, counted: number): Promise<StocktakeLine> =>
    call(stocktakeLineSchema, stocktakePath(id, `lines/${line}`), 'PATCH', { counted }),
  resolve: (id: number, line: number, resolution: UnknownResolution): Promise<StocktakeLine> =>
    call(stocktakeLineSchema, stocktakePath(id, `lines/${line}`), 'PATCH', { resolution }),
  review: (id: number): Promise<StocktakeReview> => call(stocktakeReviewSchema, stocktakePath(id, 'review')),
  commit: (id: number, zeroUncounted: boolean): Promise<CommitResult> =>
    call(commitResultSchema, stocktakePath(id, 'commit'), 'POST', { zero_uncounted: zeroUncounted }),
  history: (barcode: string, cursor?: string): Promise<HistoryPage> =>
    call(historyPageSchema, `${STOCK_HISTORY_PATH}?${new URLSearchParams({ barcode, limit: '20', ...(cursor ? { cursor } : {}) })}`),
};
