// Table types for kysely. Column names are snake_case as in SQL.
import type { Generated, GeneratedAlways } from 'kysely';

export interface AccountTable {
  id: Generated<number>;
  name: string;
  /** 1: stock per warehouse; 0: one stock figure per barcode. */
  warehouses_enabled: number;
  /**
   * What this instance had seen of other instances' movements of the account (sync_vectors) when a
   * set or count made here last needed it; null before any arrived.
   */
  seen_vector: Generated<number | null>;
  /** 1: movements of other instances arrived since `seen_vector` was interned (the next set or count made here interns it again). */
  seen_stale: Generated<number>;
  /** Moves with every catalogue write that changes the account; downstream instances copy the catalogue when it moves. */
  catalogue_version: Generated<number>;
  /** 1: barcodes that are valid GTINs match by their 14-digit form (migration 0020). */
  gtin_equivalence: Generated<number>;
  /** Minutes without use after which a person's sign-in on a shared scanner expires (migration 0026). */
  person_idle_minutes: Generated<number>;
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

/**
 * The movement log (docs/SYNC.md): one immutable movement per change of a quantity, made here or by
 * another instance. Only old_quantity/new_quantity change after insertion: they are the quantities
 * before and after the movement in fold (hlc) order, recomputed when an earlier movement arrives late.
 */
export interface StockHistoryTable {
  /** Local arrival order (what a downstream instance pulls by). */
  id: Generated<number>;
  account_id: number;
  unit_id: number;
  item_id: number;
  variant_id: number | null;
  warehouse_id: number;
  /** The instance that made the movement, and its sequence number for the account there (gapless). */
  origin: string;
  seq: number;
  /** set (absolute), count (a stocktake line: there were `value` at `hlc`) or adjust (a delta). */
  kind: string;
  value: number;
  /**
   * Hybrid logical clock timestamp (movements/hlc.ts): the order of the fold. Computed by the engine
   * from `hlc_key`, `hlc_counter` and `origin` (migration 0037_lean_history_rows), never written.
   */
  hlc: GeneratedAlways<string>;
  /** The timestamp's order key (movements/hlc.ts, hlcKey): what the history's indexes hold; order by `hlc_key, hlc`. */
  hlc_key: number;
  /** The timestamp's counter (the order key caps it at 1023; the text shows it whole). */
  hlc_counter: number;
  /** For set and count: what the origin had seen of other instances then (sync_vectors). */
  seen_vector: number | null;
  old_quantity: number | null;
  new_quantity: number;
  /** What made the change: its name's id in movement_sources (movements/movement-names.ts, SOURCE_IDS). */
  source_id: number;
  token_id: number | null;
  reason: string | null;
  reference: string | null;
  /** When it was recorded at its origin, in milliseconds since 1970 (sync sends it as ISO 8601 text). */
  created_ms: number;
  /** Who made it: a person, a token's label, the command line, as its origin recorded it (migration 0032); null before. Its name is in movement_actors (migration 0036). */
  actor_id: number | null;
}

/** The names of who made movements, each once (migration 0036_movement_actor_ids). */
export interface MovementActorTable {
  id: Generated<number>;
  name: string;
}

/** The names of what records movements (migration 0037_lean_history_rows): fixed ids for this version's. */
export interface MovementSourceTable {
  id: number;
  name: string;
}

/** This database's identity as an instance, and its clock's latest timestamp. One row. */
export interface InstanceTable {
  id: string;
  last_hlc: string | null;
  created_at: string;
}

/** A version vector, `{"origin": highest seq}` as canonical JSON, found by a hash of that text. */
export interface SyncVectorTable {
  id: Generated<number>;
  account_id: number;
  /** The first 16 hex digits of the body's SHA-256 (movements/movement-log.ts, vectorHash). */
  hash: string;
  body: string;
}

/**
 * A group of conflicts of one unit and warehouse (docs/SYNC.md, "Conflicts"; the rules are
 * movements/fold.ts): sets and counts made without seeing what they overrode, from the first to the
 * last, open until a set or count made having seen all of them.
 */
export interface StockConflictGroupTable {
  id: Generated<number>;
  account_id: number;
  unit_id: number;
  warehouse_id: number;
  first_origin: string;
  first_seq: number;
  first_hlc: string;
  /** The last conflicting movement: the one the fold keeps for now (`later` in the API). */
  last_origin: string;
  last_seq: number;
  /** Its first counterpart (`earlier` in the API). */
  earlier_origin: string;
  earlier_seq: number;
  /** How many conflicting movements the group holds. */
  movements: number;
  /** 1: some member conflicts with the set or count before it. */
  racing: number;
  /** `{origin: highest seq}` over every member and counterpart: a set or count resolves the group when its seen vector covers it. */
  members: string;
  /** 1 while open (at most one per place), 0 once resolved. */
  open: number;
  resolved_origin: string | null;
  resolved_seq: number | null;
  resolved_hlc: string | null;
  detected_at: string;
}

/** An account of this instance that follows an upstream instance (docs/SYNC.md). */
export interface SyncLinkTable {
  account_id: number;
  upstream_url: string;
  /** An API token of the same account on the upstream. */
  token: string;
  upstream_instance: string | null;
  /** The upstream's arrival id up to which its movements were pulled. */
  pull_cursor: Generated<number>;
  /** The upstream catalogue version last copied. */
  catalogue_version: number | null;
  linked_at: string;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  /** Why the last round failed, for a program (shared/sync-schemas.ts, syncProblemCodes); null with last_error from before codes. */
  last_error_code: string | null;
  offline_since: string | null;
  clock_skew_ms: number | null;
  /** `{origin: highest seq}` the upstream held at the last round. */
  upstream_vector: string | null;
  /** The label this instance registers with upstream (`sync link --label`); null: the machine's hostname. */
  label: string | null;
  /** When the upstream took this instance's registration; null: to do at the next round (a link made by an earlier version). */
  registered_at: string | null;
  /** The arrival id here up to which the upstream holds every movement: where a push starts reading. */
  push_cursor: Generated<number>;
}

/** An instance that follows this one for an account, registered with the token it uses (docs/SYNC.md). */
export interface SyncFollowerTable {
  account_id: number;
  instance: string;
  /** Chosen by its owner at `sync link` ("Laptop 2"), for people. */
  label: string;
  token_id: number;
  registered_at: string;
}

/** Who may push an origin's movements here; every origin held but this instance's own has a row. */
export interface SyncOriginTable {
  account_id: number;
  origin: string;
  /**
   * The owning follower's instance; `(upstream)`: this instance's own upstream sends it (no follower
   * may push it here); `(unowned)`: held from before owners were kept (sync/followers.ts).
   */
  owner: string;
  claimed_at: string;
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
  /** Last authenticated use, recorded at most every TOUCH_EVERY_MS for tokens that expire when idle (migration 0011). */
  last_used_at: string | null;
  /** Sign-in link tokens: refused once unused this long (from last_used_at, else created_at); null: never. */
  idle_expiry_seconds: number | null;
  /** The token's role (shared/roles.ts; migration 0025): '' or an unknown name is no role, and the token is refused. */
  role: string;
  /** The person the token is a sign-in of (a shared scanner, migration 0026); null for any other token. */
  person_id: number | null;
}

/** People of an account who sign in on shared scanners (migration 0026_people). */
export interface PersonTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** A role of PERSON_ROLES (shared/roles.ts). */
  role: string;
  /** SHA-256 of the badge, hex; null: no badge that works. */
  badge_hash: string | null;
  /** scrypt of the PIN with `pin_salt`, hex; null: no PIN. */
  pin_hash: string | null;
  pin_salt: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** The audit log (migration 0027_audit_log): append-only. */
export interface AuditLogTable {
  id: Generated<number>;
  account_id: number;
  at: string;
  actor: string;
  person_id: number | null;
  token_id: number | null;
  action: string;
  subject: string;
  /** JSON object, or null. */
  detail: string | null;
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
  /** Its size in bytes (UTF-8), summed per account against the caps (migration 0010). */
  response_bytes: Generated<number>;
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
  /** The number of the last write to the session's lines (migration 0024). */
  change_seq: Generated<number>;
  /** Who finished the commit (migration 0031); null before it, or for sessions committed before actors. */
  committed_by: Generated<string | null>;
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
  /** When the line was last scanned or edited: the time its count is a fact of. */
  counted_hlc: string | null;
  /** The session's change_seq of the line's last write. */
  change_seq: Generated<number>;
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
  /** Who scanned or edited (migration 0031): a person on a shared scanner, a token's label; null before. */
  actor: Generated<string | null>;
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
  /** The idle expiry the token made from this code gets; null: the default (migration 0011). */
  token_idle_expiry_seconds: number | null;
  /** The role of the token made from this code; null (codes made before roles): manager (migration 0025). */
  token_role: string | null;
}

/** An account's label settings (migration 0028); an account without a row has the defaults. */
export interface LabelSettingsTable {
  account_id: number;
  /** Prefix of the codes made for items without one; null: DEFAULT_CODE_PREFIX. */
  code_prefix: string | null;
  /** The number the next code of the prefix tries first. */
  next_code: Generated<number>;
  /** Where ZPL is sent: host:port of a label printer; null: none. */
  printer: string | null;
}

/** A unit's reorder point in a warehouse (migration 0034, docs/REORDER.md): low at or below `minimum`; a purchase orders up to `target`. */
export interface ReorderPointTable {
  unit_id: number;
  /** 0 (NO_WAREHOUSE) for an account without warehouses. */
  warehouse_id: number;
  account_id: number;
  minimum: number;
  /** null: order up to the minimum. */
  target: number | null;
}

/** Where an account's low-stock crossings are sent (migration 0034, docs/REORDER.md, "Webhook"). */
export interface LowStockWebhookTable {
  account_id: number;
  url: string;
  /** The HMAC-SHA256 key of the signature. */
  secret: string;
  /** The stock history id up to which crossings were looked for. */
  history_cursor: Generated<number>;
}

/** One crossing to deliver at least once under `event_id`, retried with backoff until a 2xx. */
export interface LowStockEventTable {
  id: Generated<number>;
  account_id: number;
  event_id: string;
  /** The JSON sent. */
  body: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  delivered_at: string | null;
  last_error: string | null;
}

export interface Schema {
  accounts: AccountTable;
  warehouses: WarehouseTable;
  items: ItemTable;
  variants: VariantTable;
  stock_units: StockUnitTable;
  stock: StockTable;
  stock_history: StockHistoryTable;
  movement_actors: MovementActorTable;
  movement_sources: MovementSourceTable;
  api_tokens: ApiTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  stocktakes: StocktakeTable;
  stocktake_lines: StocktakeLineTable;
  stocktake_scans: StocktakeScanTable;
  signin_codes: SigninCodeTable;
  instance: InstanceTable;
  sync_vectors: SyncVectorTable;
  stock_conflict_groups: StockConflictGroupTable;
  sync_links: SyncLinkTable;
  label_settings: LabelSettingsTable;
  people: PersonTable;
  audit_log: AuditLogTable;
  sync_followers: SyncFollowerTable;
  sync_origins: SyncOriginTable;
  reorder_points: ReorderPointTable;
  low_stock_webhooks: LowStockWebhookTable;
  low_stock_events: LowStockEventTable;
}

/** Sentinel warehouse id of the one stock figure of a no-warehouse account. */
export const NO_WAREHOUSE = 0;
