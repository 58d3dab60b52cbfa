// Table types for kysely. Column names are snake_case as in SQL.
import type { Generated } from 'kysely';

export interface AccountTable {
  id: Generated<number>;
  name: string;
  /** 1: stock per warehouse; 0: one stock figure per barcode. */
  warehouses_enabled: number;
}

export interface WarehouseTable {
  id: number;
  account_id: number;
  name: string;
}

export interface ItemTable {
  id: number;
  account_id: number;
  name: string;
}

export interface VariantTable {
  id: number;
  item_id: number;
  account_id: number;
  name: string;
}

/**
 * A stock unit is what a barcode names and what holds stock: an item without variants
 * (variant_id NULL) or one variant of an item.
 */
export interface StockUnitTable {
  id: Generated<number>;
  account_id: number;
  barcode: string;
  item_id: number;
  variant_id: number | null;
}

/** Quantity of a unit in a warehouse; warehouse_id 0 is the single figure of a no-warehouse account. */
export interface StockTable {
  unit_id: number;
  warehouse_id: number;
  quantity: number;
}

/** Append-only: one row per change of a quantity. */
export interface StockHistoryTable {
  id: Generated<number>;
  account_id: number;
  unit_id: number;
  item_id: number;
  variant_id: number | null;
  warehouse_id: number;
  old_quantity: number | null;
  new_quantity: number;
  /** What made the change: api, import, ui, stocktake, … */
  source: string;
  token_id: number | null;
  reason: string | null;
  reference: string | null;
  /** ISO 8601 UTC with milliseconds. */
  created_at: string;
}

export interface ApiTokenTable {
  id: Generated<number>;
  account_id: number;
  label: string | null;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  /** First characters of the key, to tell tokens apart in a listing. */
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** The answer of a write sent with an Idempotency-Key (migration 0002_pos, docs/POS.md). */
export interface IdempotencyKeyTable {
  account_id: number;
  key: string;
  /** SHA-256, hex, of the method, path and canonical JSON body of the first request. */
  request_hash: string;
  status: number;
  /** The first response's body, JSON. */
  response_body: string;
  /** ISO 8601 UTC; keys older than IDEMPOTENCY_KEY_TTL_HOURS are purged lazily. */
  created_at: string;
}

export interface Schema {
  accounts: AccountTable;
  warehouses: WarehouseTable;
  items: ItemTable;
  variants: VariantTable;
  stock_units: StockUnitTable;
  stock: StockTable;
  stock_history: StockHistoryTable;
  api_tokens: ApiTokenTable;
  idempotency_keys: IdempotencyKeyTable;
}

/** Sentinel warehouse id of the one stock figure of a no-warehouse account. */
export const NO_WAREHOUSE = 0;
