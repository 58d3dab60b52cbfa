// Every text the scanner UI shows a shop worker, by message id: the words themselves are in the
// catalogues (renderer/src/locales/<locale>.po, English in en.po), so one voice per language and a
// translator edits no code. Each text is read when it is shown (a getter or a function), so a change
// of language shows at the next render. Numbers are written here in the UI's locale; a count that
// decides a plural goes to the catalogue as a number, and the language's own rules choose the words.
// The server's texts (shared/messages.ts) follow Django REST Framework for API clients: the UI says
// what a refusal means from its field and the value sent, never by comparing English words.
import {
  MAX_BARCODES_PER_READ,
  MAX_DELTA,
  MAX_QUANTITY,
  MIN_DELTA,
  MIN_QUANTITY,
  MAX_ROWS_PER_UPDATE,
  type Gs1ErrorCode,
  MAX_COUNTED_CONFLICTS,
  NON_FIELD_ERRORS,
  type Role,
  actorForm,
  findControlCharacter,
  parseQuantity,
} from '../../../shared/index.ts';
import { formatDate, formatDifference, formatNumber } from './format.ts';
import { currentLocale, t } from './i18n.ts';

const n = formatNumber;
/** "counter, manager or admin" as the language joins a choice (role names are the CLI's, the same in every language). */
const orList = (items: readonly string[]) =>
  new Intl.ListFormat(currentLocale() === 'en' ? 'en-GB' : currentLocale(), { type: 'disjunction' }).format(items);

/** One word for each of a closed set of values the server sends (a source, a state); the value itself for one this UI does not know. */
const wordFor = (value: string, words: Record<string, () => string>): string => words[value]?.() ?? value;

/** An actor as the UI says it: those the server names itself (shared/people.ts) in the UI's language, a person's or a token's name as given. */
export function actorName(actor: string): string {
  const form = actorForm(actor);
  switch (form.kind) {
    case 'signin-link':
      return t('actor.signInLink');
    case 'upstream-catalogue':
      return t('actor.upstreamCatalogue');
    case 'command-line':
      return t('actor.commandLine', { who: form.who });
    case 'token':
      return t('actor.token', { id: String(form.id) });
    default:
      return form.name;
  }
}

export const appTexts = {
  get title() {
    return t('app.title');
  },
  get starting() {
    return t('app.starting');
  },
  get scannerNav() {
    return t('app.scannerNav');
  },
  get stocktakeNav() {
    return t('app.stocktakeNav');
  },
  get lowStockNav() {
    return t('app.lowStockNav');
  },
  get perDayNav() {
    return t('app.perDayNav');
  },
  get signOut() {
    return t('app.signOut');
  },
  get soundOn() {
    return t('app.soundOn');
  },
  get soundOff() {
    return t('app.soundOff');
  },
  get settings() {
    return t('app.settings');
  },
  get warehouse() {
    return t('app.warehouse');
  },
  get views() {
    return t('app.views');
  },
  get account() {
    return t('app.account');
  },
  get menu() {
    return t('app.menu');
  },
  signedOut: (message: string) => t('app.signedOut', { message }),
  signInAgain: (message: string) => t('app.signInAgain', { message }),
  reloadToRetry: (message: string) => t('app.reloadToRetry', { message }),
  /** An item and its variant, the same way everywhere (as the server and its CSV files write it): "T-shirt / S". */
  itemName: (item: string, variant: string | null | undefined) => (variant ? t('app.itemName', { item, variant }) : item),
};

export const signInTexts = {
  get title() {
    return t('app.title');
  },
  get lead() {
    return t('signin.lead');
  },
  get accounts() {
    return t('signin.accounts');
  },
  get withWarehouses() {
    return t('signin.withWarehouses');
  },
  get withoutWarehouses() {
    return t('signin.withoutWarehouses');
  },
  get inputLabel() {
    return t('signin.inputLabel');
  },
  /** The example link shows this very server's address (its port), not a default. */
  placeholder: (origin: string) => t('signin.placeholder', { origin }),
  get button() {
    return t('signin.button');
  },
  get pasteFirst() {
    return t('signin.pasteFirst');
  },
  get notAToken() {
    return t('signin.notAToken');
  },
  get tokenRefused() {
    return t('signin.tokenRefused');
  },
  get invalidLink() {
    return t('signin.invalidLink');
  },
  get hintLink() {
    return t('signin.hintLink');
  },
  get hintToken() {
    return t('signin.hintToken');
  },
  get hintRemember() {
    return t('signin.hintRemember');
  },
  /** Commands, typed as they are in any language. */
  linkCommand: 'barcode-inventory signin-link --account <name>',
  tokenCommand: 'barcode-inventory token create --account <name>',
  switchQuestion: (current: string, offered: string) => t('signin.switchQuestion', { current, offered }),
  switchConfirm: (offered: string) => t('signin.switchConfirm', { offered }),
  switchCancel: (current: string) => t('signin.switchCancel', { current }),
  linkFailedStaying: (reason: string, current: string) => t('signin.linkFailedStaying', { reason, current }),
  get dismiss() {
    return t('signin.dismiss');
  },
  get signOutNotRevoked() {
    return t('signin.signOutNotRevoked');
  },
};

/** The signed-in role (the account's title in the top bar, the settings), and what the views say where a role sees less. */
export const roleTexts = {
  name: (role: Role): string =>
    (
      ({
        till: () => t('role.till'),
        counter: () => t('role.counter'),
        manager: () => t('role.manager'),
        admin: () => t('role.admin'),
        api: () => t('role.api'),
        sync: () => t('role.sync'),
        device: () => t('role.device'),
        full: () => t('role.full'),
      }) satisfies Record<Role, () => string>
    )[role](),
  signedInAs: (name: string) => t('role.signedInAs', { name }),
  get managerStarts() {
    return t('role.managerStarts');
  },
  get managerDecides() {
    return t('role.managerDecides');
  },
  /** A token pasted here whose role has no screen in the scanner UI (a till's, an integration's, a sync link's). */
  noScannerUi: (role: Role, uiRoles: readonly Role[]) => t('role.noScannerUi', { role, roles: orList(uiRoles) }),
};

/** What the UI's one client says when a request fails as a whole. */
export const apiTexts = {
  get unreachable() {
    return t('api.unreachable');
  },
  get stocktakeUnreachable() {
    return t('api.stocktakeUnreachable');
  },
  get historyUnreachable() {
    return t('api.historyUnreachable');
  },
  answered: (status: number) => t('api.answered', { status: String(status) }),
  get notUnderstood() {
    return t('api.notUnderstood');
  },
  barcodesPerRead: (max: number) => t('api.barcodesPerRead', { max: n(max) }),
  rowsPerWrite: (max: number) => t('api.rowsPerWrite', { max: n(max) }),
  get noAnswerForRow() {
    return t('api.noAnswerForRow');
  },
  get notSent() {
    return t('api.notSent');
  },
  /**
   * A request the server refused as a whole, said by its code (shared/error-codes.ts), never by its
   * English `detail`; a code this UI does not know is named in a sentence of the UI's language.
   */
  refused: (code: string): string =>
    (
      ({
        not_authenticated: () => t('apiError.notAuthenticated'),
        invalid_token: () => t('apiError.invalidToken'),
        signin_code_invalid: () => t('signin.invalidLink'),
        storage_unavailable: () => t('apiError.storageUnavailable'),
        too_many_auth_failures: () => t('apiError.tooManyAuthFailures'),
        role_forbidden: () => t('apiError.roleForbidden'),
        stocktake_not_found: () => t('apiError.stocktakeNotFound'),
        stocktake_line_not_found: () => t('apiError.stocktakeLineNotFound'),
        stocktake_read_only: () => t('apiError.stocktakeReadOnly'),
        stocktake_committing: () => t('apiError.stocktakeCommitting'),
        nothing_to_undo: () => t('apiError.nothingToUndo'),
        scan_id_reused: () => t('apiError.scanIdReused'),
        zero_option_changed: () => t('apiError.zeroOptionChanged'),
        idempotency_key_in_flight: () => t('apiError.inFlight'),
        idempotency_answers_full: () => t('apiError.answersFull'),
        invalid_body: () => t('apiError.invalidInput', { code }),
        invalid_query: () => t('apiError.invalidInput', { code }),
        invalid_barcodes: () => t('apiError.invalidInput', { code }),
        invalid_json: () => t('apiError.invalidInput', { code }),
        body_too_large: () => t('apiError.invalidInput', { code }),
        host_not_allowed: () => t('apiError.refusedHere', { code }),
        origin_not_allowed: () => t('apiError.refusedHere', { code }),
        cross_site_refused: () => t('apiError.refusedHere', { code }),
        sync_not_linked: () => t('apiError.syncNotLinked'),
        internal: () => t('apiError.internal'),
        badge_malformed: () => t('apiError.badgeMalformed'),
        badge_unknown: () => t('apiError.badgeUnknown'),
        pin_wrong: () => t('apiError.pinWrong'),
        pin_none: () => t('apiError.pinNone'),
        person_not_here: () => t('apiError.personNotHere'),
        pin_slowed: () => t('apiError.pinSlowed'),
        person_revoked: () => t('apiError.personRevoked'),
        person_name_taken: () => t('apiError.personNameTaken'),
        person_has_no_badge: () => t('apiError.personHasNoBadge'),
        person_not_found: () => t('apiError.personNotFound'),
      }) as Record<string, () => string>
    )[code]?.() ?? t('apiError.generic', { code }),
};

export const modeTexts = {
  get nav() {
    return t('mode.nav');
  },
  lookup: {
    get label() {
      return t('mode.lookup.label');
    },
    get hint() {
      return t('mode.lookup.hint', { max: n(MAX_BARCODES_PER_READ) });
    },
    get ready() {
      return t('mode.lookup.ready');
    },
  },
  set: {
    get label() {
      return t('mode.set.label');
    },
    get hint() {
      return t('mode.set.hint');
    },
    get ready() {
      return t('mode.set.ready');
    },
  },
  list: {
    get label() {
      return t('mode.list.label');
    },
    get hint() {
      return t('mode.list.hint', { max: n(MAX_ROWS_PER_UPDATE) });
    },
    get ready() {
      return t('mode.list.ready');
    },
  },
};

/** Scans the capture or the reader would not take, and why. */
export const scanTexts = {
  cutShort: (visible: string) => t('scan.cutShort', { visible }),
  controlCharacter: (visible: string) => t('scan.controlCharacter', { visible }),
  slow: (length: number, gapMs: number, maxGapMs: number) => t('scan.slow', { keys: length, gap: n(gapMs), max: n(maxGapMs) }),
  /** The tail of a scan whose start was lost in a pause of the scanner: never taken as a barcode. */
  fragment: (visible: string, gapMs: number) => t('scan.fragment', { visible, gap: n(gapMs) }),
  gs1: (error: Gs1ErrorCode, ai: string | undefined, visible: string) => t('scan.gs1', { problem: gs1Problem(error, ai), visible }),
  unknown: (barcode: string) => t('scan.unknown', { barcode }),
  lookingUp: (what: string) => t('scan.lookingUp', { what }),
  lookingUpMany: (count: number) => t('scan.lookingUpMany', { n: count }),
  unknownOfMany: (unknown: number, all: number) => t('scan.unknownOfMany', { unknown: n(unknown), all }),
  foundAll: (count: number) => t('scan.foundAll', { n: count }),
  /** A found barcode whose names could not be read: its ids. */
  itemIds: (item: number, variant: number | null) =>
    variant === null
      ? t('scan.itemId', { item: String(item) })
      : t('scan.itemVariantIds', { item: String(item), variant: String(variant) }),
  stockIn: (name: string, quantity: number | undefined, warehouse: string | null) => {
    const shown = quantity === undefined ? '–' : n(quantity);
    return warehouse
      ? t('scan.stockInWarehouse', { name, quantity: shown, warehouse })
      : t('scan.stockNoWarehouse', { name, quantity: shown });
  },
  tooManyPasted: (count: number) => t('scan.tooManyPasted', { max: n(MAX_BARCODES_PER_READ), n: n(count) }),
  get badTypedBarcode() {
    return t('scan.badTypedBarcode');
  },
  /** A badge scanned on a device that is not a shared scanner: nothing was looked up or counted. */
  get badgeNotShared() {
    return t('scan.badgeNotShared');
  },
};

function gs1Problem(error: Gs1ErrorCode, ai: string | undefined): string {
  const at = ai ? ` (${ai})` : '';
  switch (error) {
    case 'unknown-ai':
      return t('scan.gs1.unknownAi');
    case 'too-short':
      return t('scan.gs1.tooShort', { at });
    case 'too-long':
      return t('scan.gs1.tooLong', { at });
    case 'not-numeric':
      return t('scan.gs1.notNumeric', { at: at.trim() });
    case 'check-digit':
      return t('scan.gs1.checkDigit');
    case 'bad-date':
      return t('scan.gs1.badDate', { at });
    case 'empty':
      return t('scan.gs1.empty', { at });
  }
}

export const lookupTexts = {
  get panel() {
    return t('mode.lookup.label');
  },
  get lowStockLink() {
    return t('lookup.lowStockLink');
  },
  get typeLabel() {
    return t('lookup.typeLabel');
  },
  get typeButton() {
    return t('lookup.typeButton');
  },
  get pasteLabel() {
    return t('lookup.pasteLabel');
  },
  get pasteButton() {
    return t('lookup.pasteButton');
  },
  get cards() {
    return t('lookup.cards');
  },
};

export const cardTexts = {
  get unknown() {
    return t('card.unknown');
  },
  get loading() {
    return t('card.loading');
  },
  get failed() {
    return t('card.failed');
  },
  get inStock() {
    return t('card.inStock');
  },
  scannedAs: (scanned: string) => t('card.scannedAs', { scanned }),
  get batch() {
    return t('card.batch');
  },
  get expiry() {
    return t('card.expiry');
  },
  get serial() {
    return t('card.serial');
  },
  get countInScan() {
    return t('card.countInScan');
  },
  expiryDate: (ymd: string) => formatDate(ymd),
  quantity: (q: number) => n(q),
};

export const historyTexts = {
  get summary() {
    return t('history.summary');
  },
  summaryOf: (name: string) => t('history.summaryOf', { name }),
  get none() {
    return t('history.none');
  },
  get older() {
    return t('history.older');
  },
  /** Who recorded a change: the app or a till, an import, a stocktake, this scanner. */
  source: (source: string) =>
    wordFor(source, {
      api: () => t('history.source.api'),
      import: () => t('history.source.import'),
      stocktake: () => t('history.source.stocktake'),
      ui: () => t('history.source.ui'),
    }),
  /** Where a change was made: another computer, by the label its owner chose at `sync link` ("Laptop 2"). */
  madeOn: (label: string) => t('history.madeOn', { label }),
  /** What a movement did: a count, a quantity set, or a change (a sale, a delivery). */
  kind: (kind: string, value: number) =>
    kind === 'count'
      ? t('history.counted', { n: n(value) })
      : kind === 'set'
        ? t('history.setTo', { n: n(value) })
        : formatDifference(value),
  /** Who made a change: a person on a shared scanner, a till's or an app's token label. */
  by: (actor: string) => t('history.by', { actor: actorName(actor) }),
  /** The instance that made a change, by its id (the entry's title; sync: this computer, the shop PC, head office). */
  recordedOn: (instance: string) => t('history.recordedOn', { instance }),
};

const savedRow = (quantity: number, before: number | undefined) =>
  before !== undefined ? t('set.savedRowWas', { quantity: n(quantity), before: n(before) }) : t('set.savedRow', { quantity: n(quantity) });

export const setTexts = {
  get panel() {
    return t('mode.set.label');
  },
  get placeholder() {
    return t('set.placeholder');
  },
  quantityLabel: (warehouse: string | null) => (warehouse ? t('set.quantityLabelIn', { warehouse }) : t('set.quantityLabel')),
  get save() {
    return t('set.save');
  },
  get results() {
    return t('set.results');
  },
  typeNow: (name: string) => t('set.typeNow', { name }),
  savingWhenFound: (barcode: string, quantity: string) => t('set.savingWhenFound', { barcode, quantity }),
  countFromScan: (name: string, count: number) => t('set.countFromScan', { name, n: n(count) }),
  saved: (name: string, quantity: number, warehouse: string | null) =>
    warehouse ? t('set.savedIn', { name, quantity: n(quantity), warehouse }) : t('set.saved', { name, quantity: n(quantity) }),
  savedRow,
  withNote: (text: string, note: string) => t('set.withNote', { text, note }),
  get savedOnScan() {
    return t('set.savedOnScan');
  },
  unconfirmedInvalid: (name: string, typed: string, problem: string) => t('set.unconfirmedInvalid', { name, typed, problem }),
  get unknownTarget() {
    return t('set.unknownTarget');
  },
  /** A quantity typed while its item was being looked up, found unusable after the next scan: the item is off screen, so say how to get back to it. */
  carriedNotSaved: (name: string, typed: string, problem?: string) =>
    problem === undefined ? t('set.carriedNotFound', { name, typed }) : t('set.carriedNotSaved', { name, typed, problem }),
  get chooseWarehouse() {
    return t('set.chooseWarehouse');
  },
  refused: (name: string, problem: string) => t('set.refused', { name, problem }),
  confirmNegative: (name: string, quantity: number) => t('set.confirmNegative', { name, n: formatDifference(quantity) }),
  get negativeProblem() {
    return t('set.negativeProblem');
  },
};

export const listTexts = {
  get panel() {
    return t('mode.list.label');
  },
  get placeholder() {
    return t('list.placeholder');
  },
  get whatToDo() {
    return t('list.whatToDo');
  },
  get setMode() {
    return t('list.setMode');
  },
  get addMode() {
    return t('list.addMode');
  },
  send: (mode: 'set' | 'add', rows: number, warehouse: string | null) =>
    mode === 'set'
      ? warehouse
        ? t('list.sendSet', { warehouse, rows })
        : t('list.sendSetStock', { rows })
      : warehouse
        ? t('list.sendAdd', { warehouse, rows })
        : t('list.sendAddStock', { rows }),
  get clearSaved() {
    return t('list.clearSaved');
  },
  get clearAll() {
    return t('list.clearAll');
  },
  get keepList() {
    return t('list.keepList');
  },
  confirmClear: (rows: number) => t('list.confirmClear', { rows }),
  heldBack: (count: number) => t('list.heldBack', { n: count }),
  restored: (rows: number) => t('list.restored', { rows }),
  get resending() {
    return t('list.resending');
  },
  columns: {
    get item() {
      return t('list.col.item');
    },
    get counted() {
      return t('list.col.counted');
    },
    get stock() {
      return t('list.col.stock');
    },
    get result() {
      return t('list.col.result');
    },
    get remove() {
      return t('list.col.remove');
    },
  },
  quantityOf: (barcode: string) => t('list.quantityOf', { barcode }),
  removeRow: (barcode: string) => t('list.removeRow', { barcode }),
  get unknownRow() {
    return t('list.unknownRow');
  },
  looking: '…',
  willBe: (mode: 'set' | 'add', current: number | undefined, counted: number | null) => {
    if (counted === null) return current === undefined ? '' : t('list.now', { n: n(current) });
    if (mode === 'set') return current === undefined ? `→ ${n(counted)}` : `${n(current)} → ${n(counted)}`;
    return current === undefined ? formatDifference(counted) : `${n(current)} ${formatDifference(counted)} → ${n(current + counted)}`;
  },
  counted: (name: string, count: number) => t('list.counted', { name, n: n(count) }),
  get full() {
    return t('list.full', { max: n(MAX_ROWS_PER_UPDATE) });
  },
  sending: (rows: number) => t('list.sending', { rows }),
  savedAll: (rows: number) => t('list.savedAll', { rows }),
  savedSome: (saved: number, refused: number) => t('list.savedSome', { saved: n(saved), rows: saved + refused, refused }),
  savedNone: (rows: number) => t('list.savedNone', { rows }),
  get nothingToSend() {
    return t('list.nothingToSend');
  },
  get notANumber() {
    return t('list.notANumber');
  },
  savedRow,
  get chooseWarehouse() {
    return t('set.chooseWarehouse');
  },
  countFromScan: (name: string, count: number) => t('list.countFromScan', { name, n: n(count) }),
};

export const settingsTexts = {
  get title() {
    return t('settings.title');
  },
  get language() {
    return t('settings.language');
  },
  get maxGap() {
    return t('settings.maxGap');
  },
  get minLength() {
    return t('settings.minLength');
  },
  get fastGap() {
    return t('settings.fastGap');
  },
  get suffix() {
    return t('settings.suffix');
  },
  /** The scanner's suffix choices, by their stored names. */
  suffixChoice: (name: string) =>
    wordFor(name, {
      'enter-or-tab': () => t('settings.suffix.enterOrTab'),
      enter: () => t('settings.suffix.enterOnly'),
      tab: () => t('settings.suffix.tabOnly'),
    }),
  get reading() {
    return t('settings.reading');
  },
  get readingPositions() {
    return t('settings.readingPositions');
  },
  get readingCharacters() {
    return t('settings.readingCharacters');
  },
  get prefix() {
    return t('settings.prefix');
  },
  get separator() {
    return t('settings.separator');
  },
  get sounds() {
    return t('settings.sounds');
  },
  get save() {
    return t('settings.save');
  },
  get cancel() {
    return t('settings.cancel');
  },
  gapRange: (min: number, max: number) => t('settings.gapRange', { min: n(min), max: n(max) }),
  lengthRange: (min: number, max: number) => t('settings.lengthRange', { min: n(min), max: n(max) }),
  fastRange: (min: number, max: number) => t('settings.fastRange', { min: n(min), max: n(max) }),
  get separatorOne() {
    return t('settings.separatorOne');
  },
  get gtinOn() {
    return t('settings.gtinOn');
  },
  get gtinOff() {
    return t('settings.gtinOff');
  },
  /** A command, typed as it is in any language. */
  gtinCommand: (account: string) => `npx barcode-inventory account set --account ${account} --gtin-equivalence on`,
};

/** A key of the keyboard as printed on it in the UI's language (Enter is "Entrée" on a French keyboard). */
const keyName = (key: 'Enter' | 'Tab') => (key === 'Enter' ? t('keys.enter') : t('keys.tab'));

export const scannerTestTexts = {
  get title() {
    return t('scannerTest.title');
  },
  get intro() {
    return t('scannerTest.intro');
  },
  get print() {
    return t('scannerTest.print');
  },
  get start() {
    return t('scannerTest.start');
  },
  get again() {
    return t('scannerTest.again');
  },
  get waiting() {
    return t('scannerTest.waiting');
  },
  get stop() {
    return t('scannerTest.stop');
  },
  get apply() {
    return t('scannerTest.apply');
  },
  get applied() {
    return t('scannerTest.applied');
  },
  barcodeLabel: (text: string) => t('scannerTest.barcodeLabel', { text }),
  get nothing() {
    return t('scannerTest.nothing');
  },
  notFound: (seen: string) => t('scannerTest.notFound', { seen }),
  get same() {
    return t('scannerTest.same');
  },
  get positions() {
    return t('scannerTest.positions');
  },
  get characters() {
    return t('scannerTest.characters');
  },
  prefix: (prefix: string) => t('scannerTest.prefix', { prefix }),
  get noPrefix() {
    return t('scannerTest.noPrefix');
  },
  suffix: (suffix: 'Enter' | 'Tab') => t('scannerTest.suffix', { suffix: keyName(suffix) }),
  get noSuffix() {
    return t('scannerTest.noSuffix');
  },
  timing: (fastest: number, slowest: number, maxGap: number) =>
    t('scannerTest.timing', { speed: fastest === slowest ? n(fastest) : `${n(fastest)}–${n(slowest)}`, max: n(maxGap) }),
};

export const stocktakeTexts = {
  get title() {
    return t('st.title');
  },
  get all() {
    return t('st.all');
  },
  get start() {
    return t('st.start');
  },
  get name() {
    return t('st.name');
  },
  get namePlaceholder() {
    return t('st.namePlaceholder');
  },
  get blind() {
    return t('st.blind');
  },
  get startButton() {
    return t('st.startButton');
  },
  get sessions() {
    return t('st.sessions');
  },
  get loading() {
    return t('st.loading');
  },
  get none() {
    return t('st.none');
  },
  columns: {
    get name() {
      return t('st.col.name');
    },
    get warehouse() {
      return t('st.col.warehouse');
    },
    get status() {
      return t('st.col.status');
    },
    get lines() {
      return t('st.col.lines');
    },
    get started() {
      return t('st.col.started');
    },
    get open() {
      return t('st.col.open');
    },
  },
  status: (status: string) =>
    wordFor(status, {
      open: () => t('st.status.open'),
      committing: () => t('st.status.committing'),
      committed: () => t('st.status.committed'),
    }),
  lines: (known: number, unknown: number) => (unknown > 0 ? t('st.linesUnknown', { known, unknown }) : t('st.lines', { known })),
  get count() {
    return t('st.count');
  },
  get review() {
    return t('st.review');
  },
  inWarehouse: (warehouse: string) => t('st.inWarehouse', { warehouse }),
  get blindBadge() {
    return t('st.blindBadge');
  },
  get ready() {
    return t('st.ready');
  },
  closed: (status: string) => t('st.closed', { status }),
  get seeReview() {
    return t('st.seeReview');
  },
  get offline() {
    return t('st.offline');
  },
  waiting: (count: number) => t('st.waiting', { n: count }),
  get allSaved() {
    return t('st.allSaved');
  },
  get barcode() {
    return t('st.barcode');
  },
  get amount() {
    return t('st.amount');
  },
  get add() {
    return t('st.add');
  },
  get undo() {
    return t('st.undo');
  },
  get toReview() {
    return t('st.toReview');
  },
  counted: (count: number) => t('st.counted', { n: count }),
  unknownHeading: (count: number, pending: number) =>
    pending > 0 ? t('st.unknownHeadingPending', { n: n(count), pending: n(pending) }) : t('st.unknownHeading', { n: n(count) }),
  columnsCount: {
    get barcode() {
      return t('st.colCount.barcode');
    },
    get name() {
      return t('st.colCount.name');
    },
    get counted() {
      return t('st.colCount.counted');
    },
    get book() {
      return t('st.colCount.book');
    },
    get actions() {
      return t('st.colCount.actions');
    },
    get scanned() {
      return t('st.colCount.scanned');
    },
    get resolution() {
      return t('st.colCount.resolution');
    },
  },
  waitingFor: (count: number) => t('st.waitingFor', { n: n(count) }),
  get edit() {
    return t('st.edit');
  },
  editCount: (name: string) => t('st.editCount', { name }),
  editOf: (name: string) => t('st.editOf', { name }),
  historyOf: (name: string) => t('st.historyOf', { name }),
  get save() {
    return t('st.save');
  },
  get history() {
    return t('st.history');
  },
  get closeHistory() {
    return t('st.closeHistory');
  },
  get ignore() {
    return t('st.ignore');
  },
  get keep() {
    return t('st.keep');
  },
  resolution: (resolution: string) =>
    wordFor(resolution, {
      pending: () => t('st.resolution.pending'),
      ignored: () => t('st.resolution.ignored'),
      kept: () => t('st.resolution.kept'),
    }),
  get noneUnknown() {
    return t('st.noneUnknown');
  },
  counting: (name: string, count: number) => t('st.counting', { name, n: n(count) }),
  plus: (what: string, count: number) => t('st.plus', { what, n: n(count) }),
  scanRefused: (barcode: string, problem: string) => t('st.scanRefused', { barcode, problem }),
  unknownScan: (barcode: string, count: number) => t('st.unknownScan', { barcode, n: n(count) }),
  get offlineNow() {
    return t('st.offlineNow');
  },
  get manualInvalid() {
    return t('st.manualInvalid');
  },
  amountTooLarge: (max: number) => t('st.amountTooLarge', { max: n(max) }),
  undone: (name: string, count: number) => t('st.undone', { name, n: n(count) }),
  get countInvalid() {
    return t('st.countInvalid');
  },
  countTooLarge: (max: number) => t('st.countTooLarge', { max: n(max) }),
  countNegative: (count: number) => t('st.countNegative', { n: formatDifference(count) }),
  countSet: (name: string, count: number) => t('st.countSet', { name, n: n(count) }),
  gs1Details: (parts: string[]) => (parts.length > 0 ? ` (${parts.join(', ')})` : ''),
  // Review
  reviewTitle: (name: string) => t('st.reviewTitle', { name }),
  get backToCounting() {
    return t('st.backToCounting');
  },
  reviewCounted: (lines: number, differ: number) => t('st.reviewCounted', { lines, differ }),
  // The review lists the MAX_REVIEW_LINES that need a look first (shared/stocktake-schemas.ts).
  reviewLinesMore: (shown: number, total: number) => t('st.reviewLinesMore', { shown: n(shown), more: total - shown }),
  get downloadCounts() {
    return t('st.downloadCounts');
  },
  get downloadingCounts() {
    return t('st.downloadingCounts');
  },
  // What was recorded after an item was counted (a sale at the till, a set): the commit keeps it.
  sinceCount: (moved: number | null, after: number) =>
    moved === null
      ? t('st.sinceCountSet', { after: n(after) })
      : t('st.sinceCountMoved', { moved: formatDifference(moved), after: n(after) }),
  columnsReview: {
    get name() {
      return t('st.colReview.name');
    },
    get book() {
      return t('st.colReview.book');
    },
    get counted() {
      return t('st.colReview.counted');
    },
    get difference() {
      return t('st.colReview.difference');
    },
    get change() {
      return t('st.colReview.change');
    },
    get result() {
      return t('st.colReview.result');
    },
  },
  notScanned: (count: number) => t('st.notScanned', { n: count }),
  // The review lists the first MAX_REVIEW_NOT_SCANNED of them (shared/stocktake-schemas.ts).
  notScannedMore: (shown: number, more: number) => t('st.notScannedMore', { shown: n(shown), more }),
  reviewUnknown: (count: number, pending: number) =>
    pending > 0 ? t('st.unknownHeadingPending', { n: n(count), pending: n(pending) }) : t('st.unknownHeading', { n: n(count) }),
  scannedTimes: (count: number) => t('st.scannedTimes', { n: count }),
  get commitTitle() {
    return t('st.commitTitle');
  },
  commitExplain: (warehouse: string | null) => (warehouse ? t('st.commitExplainIn', { warehouse }) : t('st.commitExplain')),
  zeroOption: (count: number) => t('st.zeroOption', { n: count }),
  unresolvedWarning: (count: number) => t('st.unresolvedWarning', { n: count }),
  get commitAnyway() {
    return t('st.commitAnyway');
  },
  get commitButton() {
    return t('st.commitButton');
  },
  get resumeButton() {
    return t('st.resumeButton');
  },
  confirm: (lines: number, zero: number) => (zero > 0 ? t('st.confirmZero', { lines, zero }) : t('st.confirm', { lines })),
  confirmResume: (left: number) => t('st.confirmResume', { left }),
  get yes() {
    return t('st.yes');
  },
  get committingNow() {
    return t('st.committingNow');
  },
  commitProgress: (done: number, of: number) => t('st.commitProgress', { done: n(done), of }),
  committedSoFar: (done: number, of: number) => t('st.committedSoFar', { done: n(done), of }),
  get cancel() {
    return t('st.cancel');
  },
  resumeHint: (message: string) => t('st.resumeHint', { message }),
  applied: (count: number, failed: number) =>
    failed > 0 ? t('st.appliedFailed', { n: count, failed: n(failed) }) : t('st.applied', { n: count }),
  get setToZero() {
    return t('st.setToZero');
  },
  commitState: (state: string, errors?: string) => {
    const word = wordFor(state, { applied: () => t('st.commitState.applied'), failed: () => t('st.commitState.failed') });
    return errors ? t('st.commitStateWith', { state: word, errors }) : word;
  },
  committedAt: (when: string, by: string | null) =>
    by ? t('st.committedAtBy', { when, by: actorName(by) }) : t('st.committedAt', { when }),
  countedBy: (names: readonly string[]) => t('st.countedBy', { names: names.map(actorName).join(', ') }),
  get warehouseLabel() {
    return t('app.warehouse');
  },
};

/** The sync view and the indicator's words. */
/** The stock-over-time chart in a barcode's history (docs/REORDER.md, "Stock over time"). */
export const chartTexts = {
  get title() {
    return t('chart.title');
  },
  get period() {
    return t('chart.period');
  },
  range: (range: string) =>
    wordFor(range, {
      '7d': () => t('chart.range7'),
      '30d': () => t('chart.range30'),
      '90d': () => t('chart.range90'),
      all: () => t('chart.rangeAll'),
    }),
  get none() {
    return t('chart.none');
  },
  get stock() {
    return t('chart.stock');
  },
  downsampled: (shown: number, movements: number) => t('chart.downsampled', { shown: n(shown), movements: n(movements) }),
  point: (when: string, quantity: string, what: string, source: string, reason: string | null, reference: string | null) =>
    `${t('chart.point', { when, quantity, what, source })}${reference ? ` (${reference})` : ''}${reason ? `: ${reason}` : ''}`,
  get when() {
    return t('chart.when');
  },
  get where() {
    return t('chart.where');
  },
  get quantity() {
    return t('chart.quantity');
  },
  get what() {
    return t('chart.what');
  },
  get previous() {
    return t('chart.previous');
  },
  get next() {
    return t('chart.next');
  },
  get pickHint() {
    return t('chart.pickHint');
  },
};

/** A warehouse's movements per day (docs/REORDER.md, "Movements per day"). */
export const perDayTexts = {
  get title() {
    return t('perDay.title');
  },
  get intro() {
    return t('perDay.intro');
  },
  get day() {
    return t('perDay.date');
  },
  get sold() {
    return t('perDay.sold');
  },
  get received() {
    return t('perDay.received');
  },
  get counts() {
    return t('perDay.counts');
  },
  get sets() {
    return t('perDay.sets');
  },
  get net() {
    return t('perDay.net');
  },
  get totals() {
    return t('perDay.totals');
  },
  /** One day as the details line says it; the movements' numbers choose the plural words. */
  details: (date: string, d: { sales: Tally; receipts: Tally; counts: Tally; sets: Tally; net: number }) =>
    t('perDay.details', {
      date,
      sold: n(d.sales.quantity),
      sales: d.sales.movements,
      received: n(d.receipts.quantity),
      receipts: d.receipts.movements,
      counts: d.counts.movements,
      sets: d.sets.movements,
      net: formatDifference(d.net),
    }),
};
type Tally = { movements: number; quantity: number };

/** Reorder points on the stock card and the low-stock view (docs/REORDER.md). */
export const reorderTexts = {
  get low() {
    return t('reorder.low');
  },
  minimum: (minimum: number) => t('reorder.minimum', { minimum: n(minimum) }),
  get formTitle() {
    return t('reorder.formTitle');
  },
  formTitleIn: (warehouse: string) => t('reorder.formTitleIn', { warehouse }),
  get minimumLabel() {
    return t('reorder.minimumLabel');
  },
  get targetLabel() {
    return t('reorder.targetLabel');
  },
  get save() {
    return t('reorder.save');
  },
  saved: (minimum: number) => t('reorder.saved', { minimum: n(minimum) }),
  get removed() {
    return t('reorder.removed');
  },
  get notANumber() {
    return t('reorder.notANumber');
  },
  get targetBelowMinimum() {
    return t('reorder.targetBelowMinimum');
  },
  get title() {
    return t('lowStock.title');
  },
  get intro() {
    return t('lowStock.intro');
  },
  get allWarehouses() {
    return t('lowStock.allWarehouses');
  },
  get loading() {
    return t('lowStock.loading');
  },
  get nothingLow() {
    return t('lowStock.nothingLow');
  },
  get more() {
    return t('lowStock.more');
  },
  get csv() {
    return t('lowStock.csv');
  },
  get item() {
    return t('lowStock.item');
  },
  get where() {
    return t('lowStock.where');
  },
  get inStock() {
    return t('lowStock.inStock');
  },
  get minimumColumn() {
    return t('lowStock.minimumColumn');
  },
  get sold() {
    return t('lowStock.sold');
  },
  get toOrder() {
    return t('lowStock.toOrder');
  },
  number: (value: number) => n(value),
};

export const syncTexts = {
  get title() {
    return t('sync.title');
  },
  get nav() {
    return t('sync.nav');
  },
  get upstream() {
    return t('sync.upstream');
  },
  get lastSync() {
    return t('sync.lastSync');
  },
  get never() {
    return t('sync.never');
  },
  get waiting() {
    return t('sync.waitingLabel');
  },
  get nothingWaiting() {
    return t('sync.nothingWaiting');
  },
  get lastError() {
    return t('sync.lastError');
  },
  get notLinked() {
    return t('sync.notLinked');
  },
  conflictsTitle: (open: number) => t('sync.conflictsTitle', { n: n(open) }),
  get noConflicts() {
    return t('sync.noConflicts');
  },
  get resolvedTitle() {
    return t('sync.resolvedTitle');
  },
  get loading() {
    return t('sync.loading');
  },
  nowQuantity: (q: number | null, warehouse: string | null) => {
    const shown = q === null ? '–' : n(q);
    return warehouse ? t('sync.nowQuantityIn', { n: shown, warehouse }) : t('sync.nowQuantity', { n: shown });
  },
  columns: {
    get quantity() {
      return t('sync.col.quantity');
    },
    get where() {
      return t('sync.col.where');
    },
    get when() {
      return t('sync.col.when');
    },
    get how() {
      return t('sync.col.how');
    },
  },
  kind: (kind: string) =>
    wordFor(kind, { set: () => t('sync.kind.set'), count: () => t('sync.kind.count'), adjust: () => t('sync.kind.adjust') }),
  get countsNow() {
    return t('sync.countsNow');
  },
  value: (kind: string, value: number) => (kind === 'adjust' ? formatDifference(value) : n(value)),
  get decide() {
    return t('sync.decide');
  },
  decideFor: (name: string) => t('sync.decideFor', { name }),
  get typed() {
    return t('sync.typed');
  },
  get save() {
    return t('sync.save');
  },
  get saving() {
    return t('sync.saving');
  },
  saved: (q: number) => t('sync.saved', { n: n(q) }),
  get invalid() {
    return t('sync.invalid');
  },
  get resolved() {
    return t('sync.resolved');
  },
  get inSync() {
    return t('sync.inSync');
  },
  waitingCount: (count: number) => t('sync.waiting', { n: count }),
  alsoWaiting: (count: number) => t('sync.alsoWaiting', { n: n(count) }),
  offlineSince: (when: string) => t('sync.offlineSince', { when }),
  conflicts: (count: number) =>
    count > MAX_COUNTED_CONFLICTS ? t('sync.conflictsMany', { max: n(MAX_COUNTED_CONFLICTS) }) : t('sync.conflicts', { n: count }),
  /** A conflict (a group) of more than one change: the latest and what it overrode are shown. */
  madeUnseen: (count: number, since: string) => t('sync.madeUnseen', { n: count, since }),
  get checkClock() {
    return t('sync.checkClock');
  },
  get catchingUp() {
    return t('sync.catchingUp');
  },
  get problem() {
    return t('sync.problem');
  },
  /** The link's state in a sentence (the sync view, the indicator's title). */
  summary: (
    status: { state: string; upstream: string | null; pending: number; conflicts: number; problem?: { code: string } | null },
    when: string | null,
  ): string => {
    const upstream = status.upstream ?? '';
    const pending = status.pending === 0 ? '' : ` ${t('sync.summary.pending', { n: status.pending })}`;
    let text: string;
    if (status.state === 'in_sync')
      text = when ? t('sync.summary.inSyncChecked', { upstream, when }) : t('sync.summary.inSync', { upstream });
    else if (status.state === 'error') text = syncTexts.problemWords(status.problem?.code ?? 'unknown', upstream) + pending;
    else if (status.state === 'offline')
      text = (when ? t('sync.summary.offlineSince', { upstream, when }) : t('sync.summary.offline', { upstream })) + pending;
    else if (status.state === 'unlinked') text = t('sync.summary.unlinked');
    else text = status.pending > 0 ? t('sync.summary.sending', { upstream }) + pending : t('sync.summary.catchingUp', { upstream });
    if (status.conflicts === 0) return text;
    const open =
      status.conflicts > MAX_COUNTED_CONFLICTS
        ? t('sync.summary.conflictsMany', { max: n(MAX_COUNTED_CONFLICTS) })
        : t('sync.summary.conflicts', { n: status.conflicts });
    return `${text} ${open}`;
  },
  /** The clock warning from the measured skew (the upstream's clock minus this one's). */
  clockWarning: (skewMs: number) => {
    const minutes = Math.round(Math.abs(skewMs) / 60_000);
    return skewMs > 0 ? t('sync.clockWarning', { minutes }) : t('sync.clockWarningBehind', { minutes });
  },
  get conflictExplain() {
    return t('sync.conflictExplain');
  },
  get conflictAgainstSale() {
    return t('sync.conflictAgainstSale');
  },
  keepValue: (q: number) => t('sync.keepValue', { n: n(q) }),
  countedLabel: (barcode: string) => t('sync.countedLabel', { barcode }),
  get thisComputer() {
    return t('sync.thisComputer');
  },
  upstreamComputer: (url: string) => t('sync.upstreamComputer', { url }),
  get syncNow() {
    return t('sync.now');
  },
  get syncing() {
    return t('sync.syncing');
  },
  /** What a Sync now that reached the upstream did. */
  nowDone: (sent: number, received: number) => t('sync.nowDone', { sent: n(sent), received: n(received) }),
  /** Opens the technical detail of a failed round (the English words the server recorded). */
  get details() {
    return t('sync.details');
  },
  /** Why the last round failed, in a shop worker's words, from the status's `problem.code` (docs/SYNC.md, "Problems"). */
  problemWords: (code: string, upstream: string): string =>
    (
      ({
        upstream_unreachable: () => t('sync.problem.unreachable', { upstream }),
        upstream_certificate: () => t('sync.problem.certificate', { upstream }),
        token_refused: () => t('sync.problem.tokenRefused', { upstream }),
        token_not_for_sync: () => t('sync.problem.tokenNotForSync', { upstream }),
        registration_refused: () => t('sync.problem.registrationRefused', { upstream }),
        origin_refused: () => t('sync.problem.originRefused', { upstream }),
        movement_refused: () => t('sync.problem.movementRefused', { upstream }),
        forged_own_movements: () => t('sync.problem.forgedOwn', { upstream }),
        wrong_account: () => t('sync.problem.wrongAccount', { upstream }),
        upstream_incompatible: () => t('sync.problem.incompatible', { upstream }),
        upstream_failed: () => t('sync.problem.upstreamFailed', { upstream }),
        local_failure: () => t('sync.problem.localFailure'),
      }) as Record<string, () => string>
    )[code]?.() ?? t('sync.problem.unknown'),
  otherComputer: (instance: string) => t('sync.otherComputer', { instance }),
};

/**
 * A field error of a row in a shop worker's words, from the field it is about and the value that was
 * sent: the server (and the shared row check) keep Django REST Framework's wording for API clients,
 * and the UI reads what went wrong from the key, never from the English words.
 */
export function friendlyError(field: string, sent: unknown, message: string): string {
  switch (field) {
    case 'quantity':
    case 'delta': {
      if (sent === undefined || (typeof sent === 'string' && sent.trim() === '')) return t('error.quantityFirst');
      const [min, max] = field === 'delta' ? [MIN_DELTA, MAX_DELTA] : [MIN_QUANTITY, MAX_QUANTITY];
      const parsed = parseQuantity(typeof sent === 'string' ? sent : sent === null ? null : sent);
      if (typeof parsed === 'string') return t('error.notAWholeNumber');
      if (parsed > max) return t('error.tooLarge', { max: n(max) });
      if (parsed < min) return t('error.tooSmall', { min: n(min) });
      // A number the server took as such and still refused: the result of an adjustment out of range.
      return t('error.resultOutOfRange', { min: n(MIN_QUANTITY), max: n(MAX_QUANTITY) });
    }
    case 'barcode':
      // The spec's one barcode error of a well-formed row: not in the catalogue.
      return typeof sent === 'string' && sent !== '' && findControlCharacter(sent) === undefined
        ? t('error.notInCatalogue')
        : t('error.barcodeInvalid');
    case 'warehouse_name':
      return t('error.noSuchWarehouse', { warehouse: typeof sent === 'string' ? sent : '' });
    case 'compare_quantity':
      return t('error.stockChanged');
    case NON_FIELD_ERRORS:
      return message === t('api.noAnswerForRow') || message === t('api.notSent') ? message : t('error.rowRefused');
    default:
      return t('error.rowRefused');
  }
}

/** All of a row's errors, friendly, in one sentence; `row` is what was sent. */
export function friendlyErrors(errors: Record<string, string>, row: Record<string, unknown> = {}): string {
  return Object.entries(errors)
    .map(([field, message]) => friendlyError(field, row[field], message))
    .join(' ');
}

/** Printing labels (docs/LABELS.md). */
export const labelTexts = {
  get print() {
    return t('labels.print');
  },
  get printing() {
    return t('labels.printing');
  },
  get layout() {
    return t('labels.layout');
  },
  /** A layout's name (shared/labels.ts names them in English for the CLI), by its id. */
  layoutTitle: (id: string, english: string) =>
    (
      ({
        'a4-3x8': () => t('labels.layout.a4-3x8'),
        'a4-3x7': () => t('labels.layout.a4-3x7'),
        'letter-30': () => t('labels.layout.letter-30'),
        'roll-50x25': () => t('labels.layout.roll-50x25'),
        'roll-62': () => t('labels.layout.roll-62'),
      }) as Record<string, () => string>
    )[id]?.() ?? english,
  get copies() {
    return t('labels.copies');
  },
  withWarehouse: (name: string) => t('labels.withWarehouse', { name }),
  ready: (count: number) => t('labels.ready', { n: count }),
  get none() {
    return t('labels.none');
  },
  get newItem() {
    return t('labels.newItem');
  },
  get makeCode() {
    return t('labels.makeCode');
  },
  get nameFirst() {
    return t('labels.nameFirst');
  },
  madeCodes: (name: string, barcode: string) => t('labels.madeCodes', { name, barcode }),
  get unknownLabels() {
    return t('labels.unknownLabels');
  },
};

/** The camera as a scanner (docs/UI.md, "The camera"). */
export const cameraTexts = {
  get open() {
    return t('camera.open');
  },
  get close() {
    return t('camera.close');
  },
  get title() {
    return t('camera.title');
  },
  get starting() {
    return t('camera.starting');
  },
  get aim() {
    return t('camera.aim');
  },
  read: (code: string) => t('camera.read', { code }),
  get torchOn() {
    return t('camera.torchOn');
  },
  get torchOff() {
    return t('camera.torchOff');
  },
  get insecure() {
    return t('camera.insecure');
  },
  get denied() {
    return t('camera.denied');
  },
  get none() {
    return t('camera.none');
  },
  failed: (why: string) => t('camera.failed', { why }),
  get noReader() {
    return t('camera.noReader');
  },
};

/** People on a shared scanner (docs/UI.md, "Shared scanners"): signing in by badge or PIN, and an admin's People view. */
export const peopleTexts = {
  get sharedScanner() {
    return t('people.sharedScanner');
  },
  get scanBadge() {
    return t('people.scanBadge');
  },
  get scanBadgeHint() {
    return t('people.scanBadgeHint');
  },
  get signingIn() {
    return t('people.signingIn');
  },
  get notABadge() {
    return t('people.notABadge');
  },
  get pinHeading() {
    return t('people.pinHeading');
  },
  get pinName() {
    return t('people.pinName');
  },
  get pinChoose() {
    return t('people.pinChoose');
  },
  get pin() {
    return t('people.pin');
  },
  get pinSignIn() {
    return t('people.pinSignIn');
  },
  get pinMissing() {
    return t('people.pinMissing');
  },
  get nobody() {
    return t('people.nobody');
  },
  get signDeviceOut() {
    return t('people.signDeviceOut');
  },
  get signDeviceOutHint() {
    return t('people.signDeviceOutHint');
  },
  /** The top bar's chip: the name alone keeps the bar one row at 1280 px; the role is in its title. */
  personChip: (name: string) => name,
  personTitle: (name: string, role: string, account: string) => t('people.personTitle', { name, role, account }),
  get signDeviceOutConfirm() {
    return t('people.signDeviceOutConfirm');
  },
  get signOutPerson() {
    return t('people.signOutPerson');
  },
  idleSignedOut: (minutes: number) => t('people.idleSignedOut', { minutes }),
  switchedTo: (name: string) => t('people.switchedTo', { name }),
  personSignedOut: (message: string) => t('people.personSignedOut', { message }),
  get nav() {
    return t('people.nav');
  },
  get heading() {
    return t('people.heading');
  },
  get intro() {
    return t('people.intro');
  },
  get addHeading() {
    return t('people.addHeading');
  },
  get name() {
    return t('people.name');
  },
  get role() {
    return t('people.role');
  },
  get pinOptional() {
    return t('people.pinOptional');
  },
  get withBadge() {
    return t('people.withBadge');
  },
  get add() {
    return t('people.add');
  },
  added: (name: string) => t('people.added', { name }),
  get listHeading() {
    return t('people.listHeading');
  },
  get none() {
    return t('people.none');
  },
  get badge() {
    return t('people.badge');
  },
  get hasPin() {
    return t('people.hasPin');
  },
  get signedIn() {
    return t('people.signedIn');
  },
  get yes() {
    return t('people.yes');
  },
  get no() {
    return t('people.no');
  },
  revokedOn: (when: string) => t('people.revokedOn', { when }),
  get badgeLost() {
    return t('people.badgeLost');
  },
  badgeLostDone: (name: string) => t('people.badgeLostDone', { name }),
  get newBadge() {
    return t('people.newBadge');
  },
  get revoke() {
    return t('people.revoke');
  },
  revokeConfirm: (name: string) => t('people.revokeConfirm', { name }),
  revoked: (name: string) => t('people.revoked', { name }),
  roleChanged: (name: string, role: string) => t('people.roleChanged', { name, role }),
  actionsOf: (name: string) => t('people.actionsOf', { name }),
  roleOf: (name: string) => t('people.roleOf', { name }),
  get idleHeading() {
    return t('people.idleHeading');
  },
  get idleLabel() {
    return t('people.idleLabel');
  },
  get idleSave() {
    return t('people.idleSave');
  },
  idleSaved: (minutes: number) => t('people.idleSaved', { minutes }),
  badgeHeading: (name: string) => t('people.badgeHeading', { name }),
  badgeImage: (name: string) => t('people.badgeImage', { name }),
  get badgeOnce() {
    return t('people.badgeOnce');
  },
  get print() {
    return t('people.print');
  },
  get done() {
    return t('people.done');
  },
};
