// Every text a client can read in an error, in one place, so server, UI and tests agree to the letter.
// Field messages follow Django REST Framework's wording, which clients of such APIs already handle.
import { MAX_BARCODES_PER_READ, MAX_COUNTED_CONFLICTS, MAX_QUANTITY, MAX_ROWS_PER_UPDATE, MIN_QUANTITY } from './limits.ts';

/** Longest piece of client input repeated inside a message; longer input is cut and marked with `…`. */
export const MAX_QUOTED_CHARS = 256;

/** Client input as a message quotes it: bounded, so a message (and a stored answer) never repeats megabytes. */
function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_QUOTED_CHARS - 1] ?? '') ? MAX_QUOTED_CHARS - 1 : MAX_QUOTED_CHARS;
  return `${text.slice(0, end)}…`;
}

export const fieldMessages = {
  barcodeNotFound: (barcode: string) => `No items or variants found with barcode: ${quoted(barcode)}`,
  warehouseNotFound: (name: string) => `No warehouses found with name: ${quoted(name)}`,
  required: 'This field is required.',
  notNull: 'This field may not be null.',
  blank: 'This field may not be blank.',
  notAString: 'Not a valid string.',
  notAnInteger: 'A valid integer is required.',
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  maxValue: (max: number) => `Ensure this value is less than or equal to ${max}.`,
  minValue: (min: number) => `Ensure this value is greater than or equal to ${min}.`,
  notAnObject: (got: string) => `Invalid data. Expected a dictionary, but got ${got}.`,
  /** `where`: `U+0000 (NUL) at position 2` (shared/control-characters.ts). */
  /** A barcode that is stored or counted as given: spaces around it would make it one no scan ever finds. */
  surroundingSpace: 'A barcode may not begin or end with a space: no scan carries one, so it would never be found.',
  controlCharacter: (name: string, position: number) => `A barcode may not contain control characters: ${name} at position ${position}.`,
  /** `name`: `U+202E` or `U+001B (ESC)` (shared/control-characters.ts, findUnsafeCharacter). */
  unsafeCharacter: (name: string, position: number) =>
    `This text may not contain control characters or characters that reverse its direction: ${name} at position ${position}.`,
} as const;

export const requestMessages = {
  notAuthenticated: 'Authentication credentials were not provided.',
  invalidToken: 'Invalid token.',
  barcodesRequired: "Query parameter 'barcodes' is required: a comma-separated list of barcodes.",
  barcodeListControlCharacter: (entry: number, name: string, position: number) =>
    `Barcode ${entry} of the list contains a control character: ${name} at position ${position}. Barcodes may not contain control characters.`,
  tooManyBarcodes: (got: number) => `Too many barcodes: at most ${MAX_BARCODES_PER_READ} per request, got ${got}.`,
  tooManyRows: (got: number) => `Too many rows: at most ${MAX_ROWS_PER_UPDATE} per request, got ${got}.`,
  expectedList: (got: string) => `Expected a list of rows but got type "${got}".`,
  unsupportedMediaType: (type: string) => `Unsupported media type "${type}" in request.`,
  jsonParseError: (reason: string) => `JSON parse error - ${reason}`,
  invalidUtf8: 'Request body is not valid UTF-8.',
  jsonTooDeep: (limit: number) => `JSON parse error - nesting deeper than ${limit} levels.`,
  bodyTooLarge: (limit: number) => `Request body is larger than the limit of ${limit} bytes.`,
  notFound: 'Not found.',
  methodNotAllowed: (method: string) => `Method "${method}" not allowed.`,
  internal: 'Internal server error.',
} as const;

/** The JSON type name of a value, as DRF names it in its messages ("list", "str", "int", …). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}

// --- Point-of-sale integration: adjust endpoint, guarded sets, reasons, Idempotency-Key ---------
export const posFieldMessages = {
  /** A guarded set (`compare_quantity`) found another quantity stored: the row is not applied. */
  staleQuantity: (current: number, expected: number) =>
    `Stock changed: the current quantity is ${current}, not ${expected} (compare_quantity). This row was not applied.`,
  /** An adjustment whose result would leave the allowed quantity range: the row is not applied. */
  resultAboveMax: (max: number, current: number) =>
    `Ensure the resulting quantity is less than or equal to ${max}; the current quantity is ${current}.`,
  resultBelowMin: (min: number, current: number) =>
    `Ensure the resulting quantity is greater than or equal to ${min}; the current quantity is ${current}.`,
  reasonFormat: (max: number) =>
    `Enter a short code of at most ${max} characters: letters, digits, "_", "-" or "." (e.g. sale, receipt, correction, count).`,
} as const;

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export const idempotencyMessages = {
  answerTooLarge: (limit: number) =>
    `The answer to this request would be larger than the ${limit} bytes kept for an Idempotency-Key; nothing was written. Send fewer rows per request.`,
  storedAnswersFull: (count: number, bytes: number, hours: number, maxCount: number, maxBytes: number, retryAfterSeconds: number) =>
    `This account already has ${count} stored answers (${mebibytes(bytes)}) of requests sent with an Idempotency-Key in the last ${hours} hours; ` +
    `at most ${maxCount} answers or ${mebibytes(maxBytes)} are kept. Nothing was written. Retry in ${retryAfterSeconds} seconds, when the oldest expires, ` +
    'or send the request without an Idempotency-Key.',
  invalidKey: (max: number) => `Idempotency-Key must be 1 to ${max} visible ASCII characters.`,
  inFlight: 'A request with this Idempotency-Key is still being processed. Retry after it has finished.',
  reusedWithOtherRequest:
    'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
} as const;

// Sign-in of the scanner UI with a one-time link (docs/UI.md).
export const signInMessages = {
  /** A sign-in link opened while this device is signed in as another account: asked before switching. */
  switchQuestion: (current: string, offered: string) =>
    `This device is signed in as "${current}". The sign-in link you opened is for "${offered}". Switch to "${offered}"?`,
  switchConfirm: (offered: string) => `Switch to ${offered}`,
  switchCancel: (current: string) => `Stay signed in as ${current}`,
  /** A sign-in link that failed while this device stays signed in. */
  linkFailedStaying: (reason: string, current: string) => `${reason} You are still signed in as "${current}".`,
  dismiss: 'OK',
  /** Signed out on the device, but the server was not reached to revoke the token. */
  signOutNotRevoked:
    'Signed out on this device, but the server could not be reached to revoke its token: revoke it on the server computer with `barcode-inventory token list` and `token revoke <id>`.',
  codeRequired: 'A sign-in code is required: {"code": "<code from the sign-in link>"}.',
  invalidCode: 'This sign-in link is not valid: it was already used, has expired, or is mistyped. Ask for a new one.',
} as const;

// --- People on shared scanners and the audit log (docs/API.md, "People", "Audit log") ---
export const peopleMessages = {
  noSuchPerson: (id: number) => `No person with id ${id} in this account.`,
  personRevoked: (name: string) => `${name} was revoked and can no longer sign in; add them again to give them a new badge.`,
  nameTaken: (name: string) => `There is already a person named "${name}" in this account: give a name that tells them apart.`,
  noBadge: (name: string) => `${name} has no badge that works.`,
  /** The person-sign-in body was neither a badge nor a person and a PIN. */
  signInBody: 'Send {"badge": "<the scanned badge>"} or {"person": <id>, "pin": "<digits>"}.',
  badgeUnknown:
    'This badge does not work here: it was replaced or revoked, or it is of another account. Ask an admin of this account for a new one.',
  badgeMalformed: 'This is not a whole badge: scan it again.',
  pinWrong: 'Wrong PIN: try again.',
  pinNone: (name: string) => `${name} has no PIN here: scan your badge, or ask an admin to set a PIN.`,
  noSuchSignInPerson: 'Choose your name from the list: this person cannot sign in here.',
  pinSlowed: (seconds: number) =>
    `Too many wrong PINs for this person: the next try is possible in ${seconds} seconds. Scanning the badge works meanwhile.`,
  /** A badge sent where a barcode belongs (a stocktake scan, a read, a set): refused without repeating it. */
  badgeIsNotABarcode:
    "This is a person's badge, not a barcode: it is never looked up, set or counted. Scan it on a shared scanner to sign in.",
  added: (id: number, name: string, account: string, role: string) =>
    `Added person ${id}, ${name}, to account "${account}" with role ${role}.`,
  /** Above the badge itself, on the last line: shown this once. */
  badgeMade: (name: string, replaced: boolean) =>
    replaced ? `${name}'s new badge (the old one no longer works), shown once:` : `${name}'s badge, shown once:`,
  badgePage: (file: string) => `Badge page written to ${file}: print it, then delete the file (the badge signs in as this person).`,
  badgeRevoked: (id: number, name: string) => `The badge of person ${id}, ${name}, no longer works; their sign-ins have ended.`,
  revoked: (id: number, name: string) => `Person ${id}, ${name}, can no longer sign in; their sign-ins have ended.`,
  changed: (id: number, name: string) => `Person ${id}, ${name}, changed.`,
  idleSet: (account: string, minutes: number) =>
    `Shared scanners of account "${account}" now sign their person out after ${minutes} minutes without use.`,
  noPeople: 'No people.',
} as const;

// --- Roles (docs/API.md, "Roles") ---
/** The machine-readable `code` of a 403 for a role that may not call an endpoint. */
export const ROLE_FORBIDDEN_CODE = 'role_forbidden';

const orList = (roles: readonly string[]) => (roles.length < 2 ? roles.join('') : `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`);

export const roleMessages = {
  /** The 403 of an endpoint the caller's role may not call: `roles` are those that may. */
  forbidden: (role: string, method: string, path: string, roles: readonly string[]) =>
    `This token's role is "${role}", which may not call ${method} ${path}; only a token of role ${orList(roles)} may.`,
  /** A role a command cannot give (a misspelt one, `full`, or one without a scanner UI for a sign-in link). */
  cannotGive: (given: string, choices: readonly string[]) => `Cannot give role "${given}": choose ${orList(choices)}.`,
  /** A token pasted into the scanner UI whose role has no screen there (a till, an integration, a sync link). */
  noScannerUi: (role: string, uiRoles: readonly string[]) =>
    `This token's role is "${role}": it is for a till, an integration or a sync link, not for the scanner UI. ` +
    `Sign in with a sign-in link (barcode-inventory signin-link) or a token of role ${orList(uiRoles)}.`,
} as const;

/** What `barcode-inventory token …` says. */
export const tokenMessages = {
  created: (id: number, account: string, role: string, purpose: string) =>
    `Created token ${id} for account "${account}" with role ${role} (${purpose}). Keep it secret: it is not shown again.`,
  /** After a token made without --role: what it got, and why a narrower role is better. */
  defaultRoleAdvice: (role: string) =>
    `No --role given: this ${role} token may read, set and adjust stock like any integration. Give each token the narrowest role ` +
    "it needs: --role till for a till (reads and adjusts), --role sync for a follower's sync link, --role counter for the scanner UI.",
  roleChanged: (id: number, role: string, purpose: string) => `Token ${id} now has role ${role} (${purpose}).`,
  noActiveToken: (id: number) => `No active token with id ${id}.`,
  /** The role column of a token whose stored role this version does not know: it is refused. */
  noRole: '(none: refused)',
  /** Under `token list` while tokens made before roles are active. */
  legacyHint: (ids: readonly number[]) =>
    (ids.length === 1
      ? `Token ${ids[0]} has role full: every endpoint, as before roles. It was`
      : `Tokens ${ids.join(', ')} have role full: every endpoint, as before roles. They were`) +
    " made before roles existed, when nothing told an integration from a follower's sync link. Give each the role it needs: " +
    'barcode-inventory token role <id> <role> (api for an integration, sync for a sync link, till for a till).',
} as const;

// --- Stocktakes, stock history and data exchange ---
export const stocktakeMessages = {
  notFound: 'Stocktake not found.',
  lineNotFound: 'Stocktake line not found.',
  readOnly: (status: string) => `This stocktake is ${status}: it is read-only.`,
  committing: 'This stocktake is being committed: counting is closed. Send the commit again to resume it.',
  zeroOptionChanged: (chosen: boolean) =>
    `This stocktake's commit was started with zero_uncounted ${chosen}; resume it with the same option.`,
  nothingToUndo: 'Nothing to undo.',
  resolutionOfKnown: 'Only an unknown barcode has a resolution.',
  invalidBody: (problems: string) => `Invalid request body: ${problems}`,
  invalidQuery: (problems: string) => `Invalid query parameters: ${problems}`,
  scanIdReused: 'scan_id was already used for another barcode or amount in this stocktake.',
} as const;

// --- Hardening: refusals of the HTTP guards, the auth rate limit and storage faults ---
export const hardeningMessages = {
  hostNotAllowed: (host: string) =>
    `Host "${host}" is not allowed: this server only answers to 127.0.0.1, localhost and [::1] (start it with --host to open it to the network).`,
  originNotAllowed: (origin: string) => `Origin "${origin}" is not allowed to call this API.`,
  crossSiteRefused: 'Requests from another site are not allowed to call this API (Sec-Fetch-Site).',
  tooManyAuthFailures: (seconds: number) => `Too many failed authentication attempts from this address. Try again in ${seconds} seconds.`,
  storageUnavailable: 'The database is unavailable right now (disk full, read-only or busy); nothing was written. Try again later.',
} as const;

// --- Sync between instances (docs/SYNC.md) ---
export const syncMessages = {
  movementRefused: (id: string, why: string) => `Movement ${id} was refused: ${why} Nothing of this batch was applied.`,
  hlcNotOfOrigin: 'its timestamp does not name its origin instance.',
  tooFarAhead: (hours: number, at: string) =>
    `it happened at ${at}, more than ${hours} h ahead of this instance's clock: the clock of the instance that made it is wrong.`,
  idMismatch: 'its id is not <origin>-<seq>.',
  timestampReused: (other: string) =>
    `its timestamp is that of movement ${other}, and an instance never gives two of its movements one timestamp.`,
  seenOnAdjust: 'an adjustment carries no "seen".',
  outOfRange: (quantity: number) =>
    `it would leave a quantity at ${quantity}, outside the allowed range ${MIN_QUANTITY} to ${MAX_QUANTITY}.`,
  seenTooLong: (names: number, max: number) => `its "seen" names ${names} instances, more than the ${max} an account may have.`,
  unknownUnit: (item: number, variant: number | null, account: string) =>
    `it names item ${item}${variant === null ? '' : ` / variant ${variant}`}, which account "${account}" does not have (is the catalogue of the instance that sent it up to date?).`,
  unknownWarehouse: (warehouse: number | null, account: string) =>
    warehouse === null
      ? `it names no warehouse, and account "${account}" keeps stock per warehouse.`
      : `it names warehouse ${warehouse}, which account "${account}" does not have.`,
  sameIdOtherMovement: (id: string) =>
    `Movement ${id} is recorded here with other content: two databases use the same instance id (a restored copy that kept running?). Nothing of this batch was applied; see docs/SYNC.md, "Restoring a backup".`,
  gap: (id: string, origin: string, next: number) =>
    `Movement ${id} would leave a gap: this instance holds the movements of ${origin} up to ${next - 1}. Send from ${origin}-${next} on. Nothing of this batch was applied.`,
  clockWarning: (skewMs: number) =>
    `The upstream's clock is ${Math.round(Math.abs(skewMs) / 60_000)} minutes ${skewMs > 0 ? 'ahead of' : 'behind'} this computer's. Set both clocks right: quantities stay correct, but times shown will look wrong.`,
  linkedAccountImport: (account: string, upstream: string) =>
    `account "${account}" follows ${upstream}: its catalogue comes from there. Import it there; it reaches this instance with the next sync.`,
  linkedAccountReorderPoints: (account: string, upstream: string) =>
    `Account "${account}" follows ${upstream}: its reorder points are part of its catalogue. Set them there; they reach this instance with the next sync.`,
  notLinked: (account: string) => `Account "${account}" is not linked to an upstream.`,
  alreadyLinked: (account: string, upstream: string) =>
    `Account "${account}" already follows ${upstream}; unlink it first (barcode-inventory sync unlink --account ${account}).`,
  scenarioDiffers: (account: string) =>
    `Account "${account}" keeps stock per warehouse here and not upstream, or the other way round: they cannot be linked.`,
  // Who may speak for an origin (docs/SYNC.md): the upstream's refusals, the follower's alarm.
  notRegistered:
    'This token has not registered a follower here, so it may not push movements. Link the follower again ' +
    '(barcode-inventory sync link --upstream … --account … --token-file …): it registers when it links. A follower of an earlier ' +
    'version does not register: upgrade it first. Nothing of this batch was applied.',
  followerOfItself: (instance: string) => `Instance ${instance} is this instance itself: it cannot follow itself.`,
  instanceTaken: (instance: string, label: string) =>
    `Instance ${instance} is registered here already, as "${label}", by another token that is still valid. If that computer was ` +
    'replaced, revoke its token here first (barcode-inventory token list, token revoke); two computers copied from one database ' +
    'cannot both follow: give the second a database of its own.',
  tokenTaken: (instance: string, label: string) =>
    `This token registered instance ${instance} ("${label}") already: a token speaks for one follower. Make a token for each ` +
    'computer that follows this one (barcode-inventory token create).',
  originIsOwn: (origin: string) =>
    `Movements of ${origin} were refused: that is this instance's own id, and only this instance makes its movements. Nothing of this batch was applied.`,
  originOfAnother: (origin: string, owner: string) =>
    `Movements of ${origin} were refused: ${owner} brings them here, not the follower of this token. Nothing of this batch was applied.`,
  ownerFollower: (instance: string, label: string) => `the follower "${label}" (instance ${instance})`,
  ownerUpstream: "this instance's own upstream",
  originLimit: (origin: string, account: string, max: number) =>
    `Movements of ${origin} were refused: account "${account}" would then hold the movements of more than ${max} instances here, ` +
    'the most it may. Nothing of this batch was applied.',
  forgedOwnMovements: (upstream: string, count: number, instance: string) =>
    `${upstream} holds ${count} ${count === 1 ? 'movement' : 'movements'} said to be made on this computer (instance ${instance}) ` +
    "that this computer never made: someone is pushing with this instance's id there, or this database was restored from an " +
    'older backup (docs/SYNC.md, "Restoring a backup"). None of them was taken here; sync stops until it is sorted out.',
  catalogueOfOtherAccounts: (account: string, named: readonly string[]) =>
    `The upstream's catalogue names ${named.length === 0 ? 'no account' : named.map((n) => `"${n}"`).join(', ')} where it must name account "${account}" alone, ` +
    'the one linked: nothing of it was written. A link copies its own account only.',
  upstreamRefused: (status: number, detail: string) => `The upstream answered ${status}: ${detail}`,
  upstreamUnreachable: (url: string, reason: string) => `The upstream ${url} cannot be reached: ${reason}`,
  upstreamAnswerTooLarge: (status: number, mib: number) =>
    `The upstream answered ${status} with more than ${mib} MiB, more than any answer of a barcode-inventory server: it was dropped unread.`,

  // What the scanner UI's indicator and `sync status` say of a link (docs/UI.md, "Sync"): short words
  // for the indicator, a sentence for the sync view, the indicator's label and the CLI. `when` is a
  // time already written for the reader (the UI in the browser's locale, the CLI as ISO 8601).
  inSync: 'In sync',
  waiting: (n: number) => `${plural(n, 'change', 'changes')} waiting`,
  /** Beside "Offline since …", where a phone has room for a few words only. */
  alsoWaiting: (n: number) => `${n} waiting`,
  offlineSince: (when: string) => `Offline since ${when}`,
  conflicts: (n: number) => (n > MAX_COUNTED_CONFLICTS ? `${MAX_COUNTED_CONFLICTS}+ conflicts` : plural(n, 'conflict', 'conflicts')),
  checkClock: 'Check the clock',
  catchingUp: 'Catching up',
  problem: 'Sync problem',
  summary: (status: Pick<SyncStatusWords, 'state' | 'upstream' | 'pending' | 'conflicts'>, when: string | null): string => {
    const pending =
      status.pending === 0 ? '' : ` ${plural(status.pending, 'change made here waits', 'changes made here wait')} to be sent.`;
    const upstream = status.upstream ?? '';
    let text: string;
    if (status.state === 'in_sync') text = `In sync with ${upstream}${when ? ` (checked ${when})` : ''}.`;
    else if (status.state === 'offline')
      text = `Offline: ${upstream} cannot be reached${when ? ` since ${when}` : ''}. Scanning and counting go on here; everything is sent when it is back.${pending}`;
    else if (status.state === 'unlinked') text = 'This account does not follow an upstream.';
    else if (status.state === 'error')
      text = `Sync with ${upstream} has stopped: it answers, but something is wrong (the last problem below).${pending}`;
    else text = status.pending > 0 ? `Sending to ${upstream}:${pending}` : `Catching up with ${upstream}.`;
    if (status.conflicts === 0) return text;
    const open =
      status.conflicts > MAX_COUNTED_CONFLICTS
        ? `More than ${MAX_COUNTED_CONFLICTS} conflicts need`
        : plural(status.conflicts, 'conflict needs', 'conflicts need');
    return `${text} ${open} a decision.`;
  },
  // The conflicts view.
  conflictExplain:
    'Two quantities were recorded for the same item without either computer knowing of the other (a count made offline, say). ' +
    'The later one counts for now. Record the right quantity, and the conflict is resolved here and, after the next sync, everywhere.',
  conflictAgainstSale:
    'A quantity was set without knowing of a sale or delivery recorded before it elsewhere. The set quantity counts for now.',
  /** A conflict (a group) of more than one change: the view and `sync conflicts` show the latest and what it overrode. */
  madeUnseen: (n: number, since: string) =>
    `${n} changes made without seeing each other since ${since}; the latest and what it overrode are shown.`,
  keepValue: (n: number) => `Keep ${n}`,
  countedLabel: (barcode: string) => `Counted quantity of ${barcode}`,
  resolvedAs: (n: number | null) => (n === null ? 'Resolved' : `Resolved: ${n} now`),
  thisComputer: 'this computer',
  upstreamComputer: (url: string) => `the upstream (${url})`,
  otherComputer: (instance: string) => `another computer (${instance})`,
} as const;

/** The fields of a link's status the words above read (shared/sync-schemas.ts, SyncStatus). */
interface SyncStatusWords {
  state: 'unlinked' | 'in_sync' | 'waiting' | 'offline' | 'error';
  upstream: string | null;
  pending: number;
  conflicts: number;
}

function plural(n: number, one: string, other: string): string {
  return `${n} ${n === 1 ? one : other}`;
}
