// Every text the scanner UI shows a shop worker, in one place, so the wording stays one voice and a
// translation has one file to start from. What the server says lives in shared/messages.ts; the
// server's field messages follow Django REST Framework for API clients, so friendlyError() says them
// again in a shop worker's words.
import {
  MAX_BARCODES_PER_READ,
  MAX_QUANTITY,
  MIN_QUANTITY,
  MAX_ROWS_PER_UPDATE,
  type Gs1ErrorCode,
  type Role,
  fieldMessages,
} from '../../../shared/index.ts';
import { count, formatDate, formatDifference, formatNumber } from './format.ts';

export const appTexts = {
  title: 'Barcode inventory',
  starting: 'Starting…',
  scannerNav: 'Scanner',
  stocktakeNav: 'Stocktake',
  signOut: 'Sign out',
  soundOn: 'Sound on',
  soundOff: 'Sound off',
  settings: 'Settings',
  warehouse: 'Warehouse',
  views: 'Views',
  signedOut: (message: string) => `Signed out: ${message}`,
};

/** The signed-in role (the account's title in the top bar, the settings), and what the views say where a role sees less. */
export const roleTexts = {
  names: {
    till: 'Till',
    counter: 'Counter',
    manager: 'Manager',
    admin: 'Admin',
    api: 'Integration',
    sync: 'Sync link',
    device: 'Shared scanner',
    full: 'Full access',
  } satisfies Record<Role, string>,
  signedInAs: (name: string) => `Signed in as: ${name}`,
  managerStarts: 'A manager starts each stocktake; open one below to count into it.',
  managerDecides: 'A manager decides conflicts.',
};

/** What the UI's one client says when a request fails as a whole. */
export const apiTexts = {
  unreachable: 'The server cannot be reached. Is barcode-inventory still running?',
  stocktakeUnreachable: 'The server cannot be reached. Scans are kept and sent when it is back.',
  historyUnreachable: 'The server cannot be reached, so the history cannot be shown now. Try again in a moment.',
  answered: (status: number) => `The server answered ${status}.`,
  notUnderstood: 'The server sent an answer this UI does not understand.',
  barcodesPerRead: (max: number) => `Between 1 and ${formatNumber(max)} barcodes at a time.`,
  rowsPerWrite: (max: number) => `At most ${formatNumber(max)} rows at a time.`,
  noAnswerForRow: 'No answer for this row.',
  notSent: 'Not sent.',
};

export const modeTexts = {
  nav: 'Mode',
  lookup: {
    label: 'Look up',
    hint: `Scan to see stock. Several scans or a pasted list of up to ${MAX_BARCODES_PER_READ} barcodes work too.`,
    ready: 'Ready: scan a barcode',
  },
  set: {
    label: 'Set stock',
    hint: 'Scan the item, type the quantity you counted, press Enter.',
    ready: 'Scan the item whose stock you counted',
  },
  list: {
    label: 'List',
    hint: `Each scan counts one. Check the numbers, then send up to ${MAX_ROWS_PER_UPDATE} rows at once.`,
    ready: 'Scan items to count them',
  },
};

/** Scans the capture or the reader would not take, and why. */
export const scanTexts = {
  cutShort: (visible: string) =>
    `A scan came in while the page was still loading and may be missing its first characters (“${visible}”): scan it again.`,
  controlCharacter: (visible: string) =>
    `Ignored a scan with a control character (${visible}). Check the scanner's settings: it should send only the barcode and Enter.`,
  slow: (length: number, gapMs: number, maxGapMs: number) =>
    `${count(length, 'key', 'keys')} came too slowly for a scan (${formatNumber(gapMs)} ms apart; a scan's keys come at most ${formatNumber(maxGapMs)} ms apart). ` +
    'To type a barcode, use the “Type a barcode” field. For a slow scanner, run Settings → Test your scanner.',
  gs1: (error: Gs1ErrorCode, ai: string | undefined, visible: string) => `Not a readable GS1 code (${gs1Problem(error, ai)}): ${visible}`,
  unknown: (barcode: string) => `Unknown barcode: ${barcode}`,
  lookingUp: (what: string) => `Looking up ${what}…`,
  lookingUpMany: (n: number) => `Looking up ${count(n, 'barcode', 'barcodes')}…`,
  unknownOfMany: (unknown: number, all: number) => `${formatNumber(unknown)} of ${count(all, 'barcode is', 'barcodes are')} unknown`,
  foundAll: (n: number) => (n === 1 ? 'Found the barcode' : `Found all ${count(n, 'barcode', 'barcodes')}`),
  /** A found barcode whose names could not be read: its ids. */
  itemIds: (item: number, variant: number | null) => (variant === null ? `Item ${item}` : `Item ${item} · variant ${variant}`),
  stockIn: (name: string, quantity: number | undefined, warehouse: string | null) =>
    `${name}: ${quantity === undefined ? '–' : formatNumber(quantity)}${warehouse ? ` in ${warehouse}` : ' in stock'}`,
  tooManyPasted: (n: number) => `At most ${formatNumber(MAX_BARCODES_PER_READ)} barcodes at a time (got ${formatNumber(n)})`,
  badTypedBarcode: 'A barcode cannot contain control characters (tabs, line breaks from a paste…).',
  /** A badge scanned on a device that is not a shared scanner: nothing was looked up or counted. */
  badgeNotShared:
    "That was a person's badge, not a barcode: nothing was looked up or counted. Badges sign people in on a shared scanner (an admin sets one up with a sign-in link for a shared scanner).",
};

function gs1Problem(error: Gs1ErrorCode, ai: string | undefined): string {
  const at = ai ? ` (${ai})` : '';
  switch (error) {
    case 'unknown-ai':
      return 'an application identifier it does not know';
    case 'too-short':
      return `the data of${at} is too short`;
    case 'too-long':
      return `the data of${at} is too long: is the separator set right in Settings?`;
    case 'not-numeric':
      return `${at.trim()} must be digits`;
    case 'check-digit':
      return "the GTIN's check digit is wrong";
    case 'bad-date':
      return `the date in${at} does not exist`;
    case 'empty':
      return `nothing after${at}`;
  }
}

export const lookupTexts = {
  panel: 'Look up',
  typeLabel: 'Type a barcode',
  typeButton: 'Look up',
  pasteLabel: 'Paste a list (one per line)',
  pasteButton: 'Look up all',
  cards: 'Looked-up barcodes',
};

export const cardTexts = {
  unknown: 'Unknown barcode',
  loading: 'Looking up…',
  failed: 'Could not look up',
  inStock: 'in stock',
  scannedAs: (scanned: string) => `Scanned as ${scanned}`,
  batch: 'Batch',
  expiry: 'Expires',
  serial: 'Serial',
  countInScan: 'Count in the scan',
  expiryDate: (ymd: string) => formatDate(ymd),
  quantity: (n: number) => formatNumber(n),
};

export const historyTexts = {
  summary: 'History',
  none: 'No changes recorded.',
  older: 'Older changes',
  sources: { api: 'App or till', import: 'Import', stocktake: 'Stocktake', ui: 'Scanner' } as Record<string, string>,
  /** What a movement did: a count, a quantity set, or a change (a sale, a delivery). */
  kind: (kind: string, value: number) =>
    kind === 'count' ? `Counted ${formatNumber(value)}` : kind === 'set' ? `Set to ${formatNumber(value)}` : formatDifference(value),
  /** Who made a change: a person on a shared scanner, a till's or an app's token label. */
  by: (actor: string) => `by ${actor}`,
  /** The instance that made a change (sync: this computer, the shop PC, head office). */
  madeOn: (instance: string) => `Recorded by computer ${instance}`,
};

export const setTexts = {
  panel: 'Set stock',
  placeholder: 'Scan the item whose stock you counted.',
  quantityLabel: (warehouse: string | null) => `New quantity${warehouse ? ` in ${warehouse}` : ''}`,
  save: 'Save',
  results: 'Saved and refused quantities',
  typeNow: (name: string) => `${name}: type the new quantity, then Enter`,
  savingWhenFound: (barcode: string, quantity: string) => `Looking up ${barcode}: ${quantity} is saved as soon as it is found`,
  countFromScan: (name: string, n: number) => `${name}: the scan says ${formatNumber(n)}. Press Enter to save it, or type another number.`,
  saved: (name: string, quantity: number, warehouse: string | null) =>
    `${name}: ${formatNumber(quantity)}${warehouse ? ` in ${warehouse}` : ''} saved`,
  savedRow: (quantity: number, before: number | undefined) =>
    `Saved: ${formatNumber(quantity)}${before !== undefined ? ` (was ${formatNumber(before)})` : ''}`,
  savedOnScan: 'typed without Enter; saved when the next item was scanned',
  unconfirmedInvalid: (name: string, typed: string, problem: string) =>
    `${name}: “${typed}” is not saved: ${problem} Correct it and press Enter, or clear the field, then scan again.`,
  unknownTarget: 'This barcode is not in the catalogue: its stock cannot be set.',
  /** A quantity typed while its item was being looked up, found unusable after the next scan: the item is off screen, so say how to get back to it. */
  carriedNotSaved: (name: string, typed: string, problem?: string) =>
    `${name}: “${typed}” (typed before the next scan) is not saved: ${problem === undefined ? 'this barcode is not in the catalogue.' : `${problem} Scan it again to set its stock.`}`,
  chooseWarehouse: 'Choose a warehouse first (top bar)',
};

export const listTexts = {
  panel: 'List',
  placeholder: 'Scan items to count them. Each scan counts one.',
  whatToDo: 'When sent',
  setMode: 'Set stock to the counted number',
  addMode: 'Add the counted number to stock',
  send: (mode: 'set' | 'add', rows: number, warehouse: string | null) =>
    mode === 'set'
      ? `Set ${warehouse ?? 'stock'} to the counted numbers (${count(rows, 'row', 'rows')})`
      : `Add the counted numbers to ${warehouse ?? 'stock'} (${count(rows, 'row', 'rows')})`,
  clearSaved: 'Clear saved rows',
  clearAll: 'Clear list',
  keepList: 'Keep them',
  confirmClear: (rows: number) => `Clear ${count(rows, 'unsent row', 'unsent rows')}? They are not saved anywhere.`,
  heldBack: (n: number) =>
    `${count(n, 'unknown barcode is', 'unknown barcodes are')} held back and not sent: remove ${n === 1 ? 'it' : 'them'} or look ${n === 1 ? 'it' : 'them'} up.`,
  restored: (n: number) => `Your unsent list is back (${count(n, 'row', 'rows')}).`,
  resending: 'Finishing the list that was being sent when the page closed…',
  columns: { item: 'Item', counted: 'Counted', stock: 'Stock', result: 'Result', remove: 'Remove' },
  quantityOf: (barcode: string) => `Counted quantity of ${barcode}`,
  removeRow: (barcode: string) => `Remove ${barcode}`,
  now: 'now',
  unknownRow: 'Unknown barcode: not sent',
  looking: '…',
  willBe: (mode: 'set' | 'add', current: number | undefined, counted: number | null) => {
    if (counted === null) return current === undefined ? '' : `${formatNumber(current)} now`;
    if (mode === 'set') return current === undefined ? `→ ${formatNumber(counted)}` : `${formatNumber(current)} → ${formatNumber(counted)}`;
    return current === undefined
      ? formatDifference(counted)
      : `${formatNumber(current)} ${formatDifference(counted)} → ${formatNumber(current + counted)}`;
  },
  counted: (name: string, n: number) => `${name}: ${formatNumber(n)}`,
  full: `The list is full (${MAX_ROWS_PER_UPDATE} rows): send it first`,
  sending: (n: number) => `Sending ${count(n, 'row', 'rows')}…`,
  savedAll: (n: number) => `Saved ${count(n, 'row', 'rows')}`,
  savedSome: (saved: number, refused: number) =>
    `Saved ${formatNumber(saved)} of ${count(saved + refused, 'row', 'rows')}; ${count(refused, 'needs', 'need')} correcting (red)`,
  savedNone: (n: number) => `Nothing saved: ${count(n, 'row needs', 'rows need')} correcting (red)`,
  nothingToSend: 'Nothing to send: every row is unknown or already saved.',
  savedRow: (quantity: number, before: number | undefined) =>
    `Saved: ${formatNumber(quantity)}${before !== undefined ? ` (was ${formatNumber(before)})` : ''}`,
  chooseWarehouse: 'Choose a warehouse first (top bar)',
  countFromScan: (name: string, n: number) => `${name}: +${formatNumber(n)} from the scan`,
};

export const settingsTexts = {
  title: 'Settings',
  maxGap: "Longest pause between a scan's keys (ms)",
  minLength: 'Shortest scan while a field has focus (characters)',
  fastGap: "Keys this close (ms) are always a scanner's",
  suffix: 'Scanner suffix',
  reading: 'Scanner keyboard layout',
  readingPositions: 'US (the factory setting)',
  readingCharacters: "This computer's layout",
  prefix: 'Prefix the scanner sends (removed)',
  separator: 'GS1 separator sent instead of GS (optional)',
  sounds: 'Sounds',
  save: 'Save settings',
  cancel: 'Cancel',
  gapRange: (min: number, max: number) => `Pause: a whole number from ${min} to ${max}.`,
  lengthRange: (min: number, max: number) => `Length: a whole number from ${min} to ${max}.`,
  fastRange: (min: number, max: number) => `Fast keys: a whole number from ${min} to ${max}.`,
  separatorOne: 'The separator is one character, not a letter or digit.',
  gtinOn: 'GTIN matching is on for this account: UPC-A, EAN-13 and GTIN-14 forms of one product find each other.',
  gtinOff: 'Barcodes match exactly. An administrator can turn on GTIN matching (UPC-A = EAN-13 = GTIN-14) on the server computer with:',
  gtinCommand: (account: string) => `npx barcode-inventory account set --account ${account} --gtin-equivalence on`,
};

export const scannerTestTexts = {
  title: 'Test your scanner',
  intro: 'Scan the barcode below (on the screen, or printed). The app learns how your scanner types and says what it found.',
  print: 'Print the test barcode',
  start: 'Start the test',
  again: 'Test again',
  waiting: 'Waiting for the scan… (nothing else reacts to keys meanwhile; Esc stops)',
  stop: 'Stop',
  apply: 'Use these settings',
  applied: 'Saved: scans are now read with these settings.',
  barcodeLabel: (text: string) => `Test barcode: ${text}`,
  nothing: 'No scan arrived. Is the scanner connected and set to keyboard (USB HID) mode?',
  notFound: (seen: string) =>
    `The scan read as “${seen}”, which is not the test barcode in any layout this app knows. Set the scanner to a US keyboard layout (see its manual) and test again.`,
  same: 'Your scanner types the test barcode exactly: its layout and this computer’s agree.',
  positions:
    'Your scanner types as a US keyboard, and this computer uses another layout, which turns some of its keys into other characters. Scans are read by key position, so they come out right.',
  characters: "Your scanner is set up for this computer's keyboard layout: scans are read as typed.",
  prefix: (prefix: string) => `It sends “${prefix}” before each code: that is removed from every scan.`,
  noPrefix: 'It sends nothing before the code.',
  suffix: (suffix: string) => `It ends each scan with ${suffix}.`,
  noSuffix: 'It sends nothing after the code. Set it to send Enter (see its manual): without it, a scan cannot be told from typing.',
  timing: (fastest: number, slowest: number, maxGap: number) =>
    `Its keys came ${fastest === slowest ? formatNumber(fastest) : `${formatNumber(fastest)}–${formatNumber(slowest)}`} ms apart; with these settings a scan is keys at most ${formatNumber(maxGap)} ms apart.`,
};

export const stocktakeTexts = {
  title: 'Stocktake',
  all: 'All stocktakes',
  start: 'Start a stocktake',
  name: 'Name',
  namePlaceholder: 'e.g. Shelf A',
  blind: 'Blind count (hide the stock on the books while counting)',
  startButton: 'Start counting',
  sessions: 'Stocktakes',
  loading: 'Loading…',
  none: 'None yet.',
  columns: { name: 'Name', warehouse: 'Warehouse', status: 'Status', lines: 'Lines', started: 'Started', open: 'Open' },
  status: { open: 'Counting', committing: 'Being committed', committed: 'Committed' } as Record<string, string>,
  lines: (known: number, unknown: number) =>
    `${count(known, 'item', 'items')}${unknown > 0 ? `, ${count(unknown, 'unknown barcode', 'unknown barcodes')}` : ''}`,
  count: 'Count',
  review: 'Review',
  inWarehouse: (warehouse: string) => `in ${warehouse}`,
  blindBadge: 'Blind count',
  ready: 'Ready: scan to count',
  closed: (status: string) => `This stocktake is ${status.toLowerCase()}: counting is closed.`,
  seeReview: 'See the review',
  offline: 'The server cannot be reached: scans are kept on this device and sent when it is back.',
  waiting: (n: number) => `${count(n, 'scan is', 'scans are')} waiting to be sent.`,
  allSaved: 'All scans are saved on the server.',
  barcode: 'Barcode',
  amount: 'Amount',
  add: 'Add',
  undo: 'Undo my last scan',
  toReview: 'Review and commit…',
  counted: (n: number) => `Counted: ${count(n, 'item', 'items')}`,
  unknownHeading: (n: number, pending: number) =>
    `Unknown barcodes: ${formatNumber(n)}${pending > 0 ? ` (${formatNumber(pending)} not resolved)` : ''}`,
  columnsCount: {
    barcode: 'Barcode',
    name: 'Item',
    counted: 'Counted',
    book: 'On the books',
    actions: 'Actions',
    scanned: 'Scanned',
    resolution: 'Decision',
  },
  waitingFor: (n: number) => `+${formatNumber(n)} waiting`,
  edit: 'Edit',
  editCount: (barcode: string) => `Count of ${barcode}`,
  editOf: (barcode: string) => `Edit the count of ${barcode}`,
  historyOf: (barcode: string) => `History of ${barcode}`,
  save: 'Save',
  history: 'History',
  ignore: 'Ignore',
  keep: 'Keep for export',
  resolution: { pending: 'Not resolved', ignored: 'Ignored', kept: 'Kept for export' } as Record<string, string>,
  noneUnknown: 'None.',
  counting: (name: string, n: number) => `${name}: ${formatNumber(n)}`,
  plus: (barcode: string, n: number) => `${barcode}: +${formatNumber(n)}`,
  unknownScan: (barcode: string, n: number) => `Unknown barcode ${barcode}: kept in the unknown list (${formatNumber(n)})`,
  offlineNow: 'The server cannot be reached: scans are kept on this device.',
  manualInvalid: 'Give a barcode and a whole amount of at least 1.',
  undone: (barcode: string, n: number) => `Undone: ${barcode} −${formatNumber(n)}`,
  countInvalid: 'A count is a whole number of at least 0.',
  countSet: (barcode: string, n: number) => `${barcode}: count set to ${formatNumber(n)}`,
  gs1Details: (parts: string[]) => (parts.length > 0 ? ` (${parts.join(', ')})` : ''),
  // Review
  reviewTitle: (name: string) => `Review: ${name}`,
  backToCounting: 'Back to counting',
  reviewCounted: (lines: number, differ: number) =>
    `Counted: ${count(lines, 'item', 'items')}, ${formatNumber(differ)} ${differ === 1 ? 'differs' : 'differ'} from the books`,
  // The review lists the MAX_REVIEW_LINES that need a look first (shared/stocktake-schemas.ts).
  reviewLinesMore: (shown: number, total: number) =>
    `The ${formatNumber(shown)} that need a look first are listed below (refused by the commit, then those that differ, in the order counted); ${count(total - shown, 'more is', 'more are')} not. The CSV has every line.`,
  downloadCounts: 'Download every line (CSV)',
  downloadingCounts: 'Preparing the CSV…',
  // What was recorded after an item was counted (a sale at the till, a set): the commit keeps it.
  sinceCount: (moved: number | null, after: number) =>
    moved === null
      ? `Set again after the count: the commit leaves ${formatNumber(after)}`
      : `${moved > 0 ? '+' : '−'}${formatNumber(Math.abs(moved))} since the count (sales, deliveries): the commit leaves ${formatNumber(after)}`,
  columnsReview: { barcode: 'Barcode', name: 'Item', book: 'On the books', counted: 'Counted', difference: 'Difference', result: 'Commit' },
  notScanned: (n: number) => `Expected but not scanned: ${count(n, 'item', 'items')}`,
  // The review lists the first MAX_REVIEW_NOT_SCANNED of them (shared/stocktake-schemas.ts).
  notScannedMore: (shown: number, more: number) =>
    `The first ${formatNumber(shown)} by barcode are shown here; ${count(more, 'more is', 'more are')} not.`,
  onBooks: (n: number) => `${formatNumber(n)} on the books`,
  reviewUnknown: (n: number, pending: number) =>
    `Unknown barcodes: ${formatNumber(n)}${pending > 0 ? ` (${formatNumber(pending)} not resolved)` : ''}`,
  scannedTimes: (n: number) => `scanned ${count(n, 'time', 'times')}`,
  commitTitle: 'Commit',
  commitExplain: (warehouse: string | null) =>
    `Each counted item's count becomes its stock${warehouse ? ` in ${warehouse}` : ''} as of when it was counted; sales and changes recorded after that stay on top. Unknown barcodes are not applied.`,
  zeroOption: (n: number) => `Also set the ${count(n, 'item', 'items')} expected but not scanned to 0`,
  unresolvedWarning: (n: number) =>
    `${count(n, 'unknown barcode is', 'unknown barcodes are')} not resolved. ${n === 1 ? 'It' : 'They'} will not be counted: if ${n === 1 ? 'it is' : 'they are'} goods on the shelf, add ${n === 1 ? 'it' : 'them'} to the catalogue and scan again, or decide on the count page (Ignore / Keep for export).`,
  commitAnyway: 'Commit anyway, without the unresolved barcodes',
  commitButton: 'Commit…',
  resumeButton: 'Resume the commit…',
  confirm: (lines: number, zero: number) =>
    `Apply ${count(lines, 'count', 'counts')}${zero > 0 ? ` and set ${count(zero, 'item', 'items')} to 0` : ''}? This changes the stock and cannot be undone.`,
  confirmResume: (left: number) =>
    `Apply the ${count(left, 'count', 'counts')} not applied yet? This changes the stock and cannot be undone.`,
  yes: 'Yes, commit',
  committingNow: 'Committing…',
  commitProgress: (done: number, of: number) => `Committing: ${formatNumber(done)} of ${count(of, 'count', 'counts')} done so far.`,
  committedSoFar: (done: number, of: number) =>
    `The commit stopped after ${formatNumber(done)} of ${count(of, 'count', 'counts')}; resuming applies the rest, none twice.`,
  cancel: 'Cancel',
  resumeHint: (message: string) => `${message} Commit again to resume: counts already applied are not applied twice.`,
  applied: (n: number, failed: number) => `Applied ${count(n, 'count', 'counts')}${failed > 0 ? `; ${formatNumber(failed)} failed` : ''}.`,
  setToZero: 'set to 0',
  commitState: { applied: 'Applied', failed: 'Failed' } as Record<string, string>,
  committedAt: (when: string, by: string | null) => `Committed ${when}${by ? ` by ${by}` : ''}: this stocktake is read-only and kept.`,
  countedBy: (names: readonly string[]) => `Counted by ${names.join(', ')}`,
  warehouseLabel: 'Warehouse',
};

/** The sync view (the state words and explanations themselves are shared: syncMessages). */
export const syncTexts = {
  title: 'Sync',
  nav: 'Sync status and conflicts',
  upstream: 'Upstream',
  lastSync: 'Last sync',
  never: 'not yet',
  waiting: 'Waiting to be sent',
  nothingWaiting: 'nothing',
  lastError: 'Last problem',
  clock: 'Clock',
  notLinked:
    'This account does not follow an upstream here. Computers that follow this one bring their conflicts here: decide them here or there.',
  conflictsTitle: (open: number) => `Conflicts to decide: ${formatNumber(open)}`,
  noConflicts: 'No conflicts: every quantity was recorded knowing the others.',
  resolvedTitle: 'Resolved conflicts',
  loading: 'Loading…',
  nowQuantity: (n: number | null, warehouse: string | null) =>
    `Now ${n === null ? '–' : formatNumber(n)}${warehouse ? ` in ${warehouse}` : ''}`,
  columns: { quantity: 'Quantity', where: 'Recorded on', when: 'When', how: 'How' },
  kind: { set: 'Set', count: 'Stocktake count', adjust: 'Sale or delivery' } as Record<string, string>,
  countsNow: 'counts now',
  value: (kind: string, value: number) => (kind === 'adjust' ? formatDifference(value) : formatNumber(value)),
  decide: 'Record the right quantity',
  typed: 'or the quantity you counted',
  save: 'Save',
  saving: 'Saving…',
  saved: (n: number) => `Saved ${formatNumber(n)}: resolved here. The other computers learn it with the next sync.`,
  invalid: 'Type a whole number of at least 0.',
  resolved: 'Resolved',
};

/**
 * A field error of the API in a shop worker's words. The API keeps Django REST Framework's
 * wording for its clients; a person at the shelf needs to know what to type instead.
 */
export function friendlyError(field: string, message: string): string {
  if (message === fieldMessages.notAnInteger)
    return field === 'delta' || field === 'quantity' ? 'Type a whole number, such as 12 or -3.' : message;
  if (message === fieldMessages.required && field === 'quantity') return 'Type the quantity first.';
  if (message === fieldMessages.blank && field === 'quantity') return 'Type the quantity first.';
  if (message === fieldMessages.maxValue(MAX_QUANTITY)) return `That number is too large: at most ${formatNumber(MAX_QUANTITY)}.`;
  if (message === fieldMessages.minValue(MIN_QUANTITY)) return `That number is too small: at least ${formatNumber(MIN_QUANTITY)}.`;
  if (field === 'barcode' && message.startsWith(fieldMessages.barcodeNotFound(''))) return 'This barcode is not in the catalogue.';
  if (field === 'warehouse_name' && message.startsWith(fieldMessages.warehouseNotFound('')))
    return `${message.slice(fieldMessages.warehouseNotFound('').length)}: no such warehouse any more. Choose one in the top bar.`;
  return message;
}

/** All of a row's errors, friendly, in one sentence. */
export function friendlyErrors(errors: Record<string, string>): string {
  return Object.entries(errors)
    .map(([field, message]) => friendlyError(field, message))
    .join(' ');
}

/** Printing labels (docs/LABELS.md). */
export const labelTexts = {
  print: 'Print labels',
  printing: 'Making the labels…',
  layout: 'Label layout',
  copies: 'Copies of each',
  withWarehouse: (name: string) => `Print "${name}" on the labels`,
  ready: (count: number) => `Labels for ${count === 1 ? '1 barcode' : `${formatNumber(count)} barcodes`} are ready: labels.pdf`,
  none: 'There are no barcodes to print yet: scan or look up some first.',
  newItem: 'New item without a barcode',
  makeCode: 'Make a code and print',
  nameFirst: 'Type the name of the new item first.',
  madeCodes: (name: string, barcode: string) => `Added "${name}" with the code ${barcode}; its label is in labels.pdf.`,
  unknownLabels: 'Print labels for the unknown barcodes',
};

/** The camera as a scanner (docs/UI.md, "The camera"). */
export const cameraTexts = {
  open: 'Camera',
  close: 'Close camera',
  title: 'Scan with the camera',
  starting: 'Starting the camera…',
  aim: 'Hold the barcode inside the frame.',
  read: (code: string) => `Read ${code}`,
  torchOn: 'Light on',
  torchOff: 'Light off',
  insecure:
    'The camera works only on a secure address: open the scanner at https://… (or on this device at localhost). Ask whoever set up the server for that address.',
  denied: 'The camera was not allowed. Allow it in the browser (the camera icon by the address), then open the camera again.',
  none: 'This device has no camera the browser can use.',
  failed: (why: string) => `The camera could not start: ${why}`,
  noReader: 'This browser cannot read barcodes from the camera.',
};

/** People on a shared scanner (docs/UI.md, "Shared scanners"): signing in by badge or PIN, and an admin's People view. */
export const peopleTexts = {
  sharedScanner: 'Shared scanner',
  scanBadge: 'Scan your badge to sign in',
  scanBadgeHint: 'Hold your badge under the scanner. Nothing you scan here changes stock.',
  signingIn: 'Signing in…',
  notABadge: 'That was a barcode, not a badge: scan your badge first to sign in.',
  pinHeading: 'No badge with you? Sign in with your PIN',
  pinName: 'Your name',
  pinChoose: 'Choose your name',
  pin: 'PIN',
  pinSignIn: 'Sign in',
  pinMissing: 'Choose your name and type your PIN.',
  nobody: 'Nobody can sign in here yet: an admin adds people in the People view, or with barcode-inventory person add.',
  signDeviceOut: 'Sign this scanner out',
  signDeviceOutHint: 'Only when this computer stops being a shared scanner: afterwards it needs a new sign-in link.',
  /** The top bar's chip: the name alone keeps the bar one row at 1280 px; the role is in its title. */
  personChip: (name: string) => name,
  personTitle: (name: string, role: string, account: string) =>
    `Signed in: ${name} (${role}) on ${account}. Scan another badge to switch person.`,
  signDeviceOutConfirm: 'Sign this scanner out? Nobody can sign in on it again until an admin opens a new sign-in link here.',
  signOutPerson: 'Sign out',
  idleSignedOut: (minutes: number) => `Signed out after ${count(minutes, 'minute', 'minutes')} without use. Scan your badge to go on.`,
  switchedTo: (name: string) => `Signed in: ${name}.`,
  personSignedOut: (message: string) => `${message} Scan your badge to sign in again.`,
  // The People view (admins)
  nav: 'People',
  heading: 'People',
  intro: 'People sign in on shared scanners with their badge or a PIN. What each may do follows their role.',
  addHeading: 'Add a person',
  name: 'Name',
  role: 'Role',
  pinOptional: 'PIN (optional, 4 to 8 digits)',
  withBadge: 'Print a badge',
  add: 'Add',
  added: (name: string) => `Added ${name}.`,
  listHeading: 'Everyone',
  none: 'No people yet.',
  badge: 'Badge',
  hasPin: 'PIN',
  signedIn: 'Signed in',
  yes: 'yes',
  no: 'no',
  revokedOn: (when: string) => `revoked ${when}`,
  badgeLost: 'Badge lost',
  badgeLostDone: (name: string) => `${name}'s badge no longer works, and ${name} is signed out everywhere.`,
  newBadge: 'New badge',
  revoke: 'Revoke',
  revokeConfirm: (name: string) => `Revoke ${name}? Their badge and PIN stop working at once; their name stays in the history.`,
  revoked: (name: string) => `${name} can no longer sign in.`,
  roleChanged: (name: string, role: string) => `${name} is now ${role}.`,
  actionsOf: (name: string) => `What to do with ${name}`,
  roleOf: (name: string) => `Role of ${name}`,
  idleHeading: 'Shared scanners',
  idleLabel: 'Sign a person out after this many minutes without use',
  idleSave: 'Save',
  idleSaved: (minutes: number) => `Shared scanners now sign a person out after ${count(minutes, 'minute', 'minutes')} without use.`,
  // The badge to print
  badgeHeading: (name: string) => `Badge of ${name}`,
  badgeImage: (name: string) => `Barcode of ${name}'s badge`,
  badgeOnce: 'Print it now: the badge is shown only this once. A lost badge is revoked here with “Badge lost”.',
  print: 'Print badge',
  done: 'Done',
};
