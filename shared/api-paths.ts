// Paths of the API. Served with and without the trailing slash.
export const API_BASE = '/api/v1';
export const INVENTORY_PATH = `${API_BASE}/core/item/inventory_by_barcode/`;
export const WAREHOUSES_PATH = `${API_BASE}/core/warehouse/`;
/** One warehouse: `{id}` is its id. */
export const WAREHOUSE_PATH = `${WAREHOUSES_PATH}{id}/`;
// Point-of-sale integration: atomic adjustments beside the spec's update endpoint.
export const ADJUST_PATH = `${INVENTORY_PATH}adjust/`;
// Reorder points and the low-stock list (docs/REORDER.md).
export const REORDER_POINTS_PATH = `${API_BASE}/reorder-points/`;
export const LOW_STOCK_PATH = `${API_BASE}/low-stock/`;
export const LOW_STOCK_CSV_PATH = `${API_BASE}/low-stock.csv`;
/** The low-stock webhook of the account (docs/REORDER.md, "Webhook"). */
export const LOW_STOCK_WEBHOOK_PATH = `${API_BASE}/low-stock/webhook/`;
