// Paths of the API (service spec section 4). Served with and without the trailing slash.
export const API_BASE = '/api/v1';
export const INVENTORY_PATH = `${API_BASE}/core/item/inventory_by_barcode/`;
export const WAREHOUSES_PATH = `${API_BASE}/core/warehouse/`;
// POS integration (issue 6): atomic adjustments beside the spec's update endpoint.
export const ADJUST_PATH = `${INVENTORY_PATH}adjust/`;
