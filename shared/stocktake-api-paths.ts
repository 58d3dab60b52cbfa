// Paths of the stocktake, stock history, export and API-description endpoints.
import { API_BASE } from './api-paths.ts';

export const STOCKTAKES_PATH = `${API_BASE}/stocktakes/`;
export const STOCK_HISTORY_PATH = `${API_BASE}/stock-history/`;
export const STOCK_EXPORT_PATH = `${API_BASE}/export/stock.csv`;
/** The stock history as CSV, with who made each change: the same filters as the history. */
export const HISTORY_EXPORT_PATH = `${API_BASE}/export/history.csv`;
export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
export const API_DOCS_PATH = `${API_BASE}/docs/`;

/** `/api/v1/stocktakes/12/` and its sub-resources. */
export const stocktakePath = (id: number, sub = ''): string => `${STOCKTAKES_PATH}${id}/${sub ? `${sub}/` : ''}`;
