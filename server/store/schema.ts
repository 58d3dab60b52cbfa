// Table types for kysely. Column names are snake_case as in SQL.
import type { Generated } from 'kysely';

export interface AccountTable {
  id: Generated<number>;
  name: string;
  /** 1: stock per warehouse; 0: one stock figure per barcode. */
  warehouses_enabled: number;
  /** 1: barcodes that are valid GTINs match by their 14-digit form (migration 0020). */
  gtin_equivalence: Generated<number>;
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

/** A count session: open → committing → committed; a committed one is read-only and kept. */
export interface StocktakeTable {
  id: Generated<number>;
  account_id: number;
  /** The counted warehouse; 0 (NO_WAREHOUSE) for an account without warehouses. */
  warehouse_id: number;
  name: string;
  /** 1: the book quantity is hidden while counting. */
  blind: number;
  status: string;
  /** Fixed when the commit starts: 1 when uncounted expected lines are set to zero. */
  zero_uncounted: number | null;
  token_id: number | null;
  created_at: string;
  commit_started_at: string | null;
  committed_at: string | null;
}

/** One barcode of a session; unit_id NULL marks an unknown barcode (its own queue). */
export interface StocktakeLineTable {
  id: Generated<number>;
  stocktake_id: number;
  barcode: string;
  unit_id: number | null;
  counted: number;
  /** Unknown barcodes only: pending, ignored or kept. */
  resolution: string | null;
  /** 1 when the commit added this line for an expected unit nobody scanned (counted 0). */
  zeroed: Generated<number>;
  created_at: string;
  updated_at: string;
  /** NULL until the commit handled the line: applied or failed. Never applied twice. */
  commit_state: string | null;
  /** Book quantity read in the commit batch that applied the line. */
  book_quantity: number | null;
  /** JSON field errors of a failed line. */
  commit_errors: string | null;
}

/** Every scan and edit, so the last scan of a terminal can be undone and a resent scan is not counted twice. */
export interface StocktakeScanTable {
  id: Generated<number>;
  stocktake_id: number;
  line_id: number;
  /** scan (adds amount) or set (an edit: amount is the new count). */
  kind: string;
  amount: number;
  client_scan_id: string | null;
  terminal: string | null;
  token_id: number | null;
  created_at: string;
  undone_at: string | null;
}

/** A one-time code of a sign-in link (scanner UI): exchanged once for a new API token of its account. */
export interface SigninCodeTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 of the code, hex. */
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
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
  stocktakes: StocktakeTable;
  stocktake_lines: StocktakeLineTable;
  stocktake_scans: StocktakeScanTable;
  signin_codes: SigninCodeTable;
}

/** Sentinel warehouse id of the one stock figure of a no-warehouse account. */
export const NO_WAREHOUSE = 0;
