// Roles (docs/API.md, "Roles"): every token has one, and every endpoint of the table declares which
// roles may call it (server/api/). The groups below are those declarations, named by what they allow,
// so the server and the scanner UI decide from the same lists: the UI hides what the signed-in role
// may not do, the server refuses it with 403.

/** Every role, in the order tables show them. */
export const ROLES = ['till', 'counter', 'manager', 'admin', 'api', 'sync', 'device', 'full'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * `full` is every endpoint, as before roles existed: only tokens made before then have it (migration
 * 0025_token_roles), because nobody can tell which of them are integrations and which are sync links.
 * No new token gets it.
 */
export const LEGACY_ROLE = 'full' satisfies Role;

/** A role a token can be given: any but `full`. */
export type TokenRole = Exclude<Role, typeof LEGACY_ROLE>;
/** The roles a token can be given (`token create --role`, `token role`). */
export const GRANTABLE_ROLES = ROLES.filter((role): role is TokenRole => role !== LEGACY_ROLE);

/** What `token create` makes without `--role`: what integrations need (the service spec's and the POS endpoints). */
export const DEFAULT_TOKEN_ROLE = 'api' satisfies TokenRole;

/**
 * The roles a sign-in link of the scanner UI may sign in with; without one it signs in as a manager.
 * `device` makes a shared scanner PC, on which people sign in with their badge or PIN.
 */
export const SIGNIN_ROLES = ['counter', 'manager', 'admin', 'device'] as const satisfies readonly Role[];
export type SignInRole = (typeof SIGNIN_ROLES)[number];
export const DEFAULT_SIGNIN_ROLE = 'manager' satisfies SignInRole;

/** One line per role: what it is for (`token create --help`, `token list`, docs/API.md). */
export const ROLE_PURPOSES: Record<Role, string> = {
  till: 'a till: reads stock and warehouses, adjusts by deltas for sales and deliveries',
  counter: 'a person on the shop floor: what a till may, plus setting stock and counting into stocktakes in the scanner UI',
  manager: 'every stock change; starting, reviewing and committing stocktakes; the history, the CSV export, sync conflicts',
  admin: "what a manager may, plus the account's people (badges, PINs, roles) and how soon an idle shared scanner signs its person out",
  api: 'an integration: reads, sets and adjusts stock, lists warehouses, as the service spec and POS endpoints do',
  sync: 'what a follower links with: the upstream side of sync only',
  device: 'a shared scanner PC: people sign in on it with their badge or PIN, and it may do nothing else itself',
  full: 'every endpoint, as before roles; only tokens made before roles have it: narrow it',
};

const TILL_AND_UP = ['till', 'counter', 'manager', 'admin', 'api'] as const satisfies readonly Role[];
const SCANNER_UI = ['counter', 'manager', 'admin'] as const satisfies readonly Role[];
const MANAGERS = ['manager', 'admin'] as const satisfies readonly Role[];

/** The roles a person can have (docs/API.md, "People"): the scanner UI's. */
export const PERSON_ROLES = SCANNER_UI;
export type PersonRole = (typeof PERSON_ROLES)[number];
export function isPersonRole(value: unknown): value is PersonRole {
  return typeof value === 'string' && (PERSON_ROLES as readonly string[]).includes(value);
}

/**
 * Who may do what. Each endpoint's `roles` is one of these; `full` may call every endpoint and is
 * never listed. A role decision is per endpoint, so a guarded set (`compare_quantity`) is a set: a
 * till that needs one is an integration (`api`) or a `counter`.
 */
export const MAY = {
  /** Signing out (revoking the token itself) and asking who the token is: any token. */
  anyToken: GRANTABLE_ROLES,
  /** Reading stock by barcode and the warehouses. */
  readStock: TILL_AND_UP,
  /** Adding deltas: sales and deliveries. */
  adjustStock: TILL_AND_UP,
  /** Setting absolute quantities (guarded or not); recording the quantity that decides a sync conflict. */
  setStock: ['counter', 'manager', 'admin', 'api'],
  /** The scanner UI's own reads: names behind barcodes, the sync status. */
  scannerUi: SCANNER_UI,
  /** Running a round of this instance's link now (Sync now): whoever sees the sync status; it changes nothing but when. */
  syncNow: SCANNER_UI,
  /** Counting into an open stocktake: its list, its lines, scans, undo, editing a line. */
  count: SCANNER_UI,
  /** Starting a stocktake. */
  startStocktake: MANAGERS,
  /** Reviewing (book quantities, even in blind mode), exporting and committing a stocktake. */
  commitStocktake: MANAGERS,
  /** The stock history of everyone. */
  history: MANAGERS,
  /** The stock export (CSV). */
  exportStock: MANAGERS,
  /** The sync conflicts to decide. */
  conflicts: MANAGERS,
  /** The upstream side of sync: state, push, pull, catalogue. */
  syncUpstream: ['sync'],
  /** Printing labels (PDF, ZPL, the label printer): whoever scans may print what they scan; integrations too. */
  printLabels: ['counter', 'manager', 'admin', 'api'],
  /** Adding items with codes of the shop's own: a change of the catalogue. */
  makeCodes: ['manager', 'admin', 'api'],
  /** The account's people (adding, badges, PINs, roles, revoking) and its settings for shared scanners. */
  people: ['admin'],
  /** The audit log: what changed that is not a movement, and who did it. */
  audit: MANAGERS,
  /** Signing a person in on a shared scanner PC (badge or PIN), and the names to choose from for a PIN. */
  personSignIn: ['device'],
  /** The low-stock list and reorder points: whoever works the shelves sees what runs out; purchasing integrations too. */
  lowStock: ['counter', 'manager', 'admin', 'api'],
  /** Setting reorder points: a change of the catalogue, a purchasing decision (a counter counts, a till sells). */
  setReorderPoints: ['manager', 'admin', 'api'],
  /** Where the account's low-stock events are sent, and the secret they are signed with: an admin's. */
  lowStockWebhook: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

/** True when `role` may call an endpoint open to `roles` (`full` may call every one). */
export function roleMay(role: Role, roles: readonly Role[]): boolean {
  return role === LEGACY_ROLE || roles.includes(role);
}

/** The roles that may call an endpoint declared for `roles`, `full` included, in table order. */
export function rolesAllowed(roles: readonly Role[]): Role[] {
  return ROLES.filter((role) => roleMay(role, roles));
}
