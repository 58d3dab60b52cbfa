// GS1 element strings (GS1 General Specifications, sections 3 and 7.8): what a GS1-128 or GS1
// DataMatrix scan carries. Each element is an Application Identifier (AI) and its data; AIs of a
// predefined length follow each other directly, any other data ends at FNC1, which a keyboard-wedge
// scanner sends as the group separator (ASCII 29) or a substitute character set in the scanner.
// Pure: the UI parses scans with it, tests check it against the specification's examples.
import { isValidGtin } from './gtin.ts';

/** The group separator (ASCII 29) that stands for FNC1 inside an element string. */
export const GROUP_SEPARATOR = '\u001d';

interface AiRule {
  /** Data length when it is fixed by the AI. */
  fixed?: number;
  /** Longest data of a variable-length AI. */
  max?: number;
  /** Digits only. */
  numeric: boolean;
}

const n = (fixed: number): AiRule => ({ fixed, numeric: true });
const nv = (max: number): AiRule => ({ max, numeric: true });
const xv = (max: number): AiRule => ({ max, numeric: false });

/**
 * The AIs this parser knows, from the specification's table of AIs (figure 3.2-1): the trade-item
 * and logistics AIs a shop meets. Keys ending in `n` stand for the ten AIs with a decimal-point
 * digit there (3100…3109, …).
 */
const AI_RULES: Record<string, AiRule> = {
  '00': n(18),
  '01': n(14),
  '02': n(14),
  '10': xv(20),
  '11': n(6),
  '12': n(6),
  '13': n(6),
  '15': n(6),
  '16': n(6),
  '17': n(6),
  '20': n(2),
  '21': xv(20),
  '22': xv(20),
  '235': xv(28),
  '240': xv(30),
  '241': xv(30),
  '242': nv(6),
  '243': xv(20),
  '250': xv(30),
  '251': xv(30),
  '253': { max: 30, numeric: false },
  '254': xv(20),
  '255': { max: 25, numeric: true },
  '30': nv(8),
  '37': nv(8),
  '310n': n(6),
  '311n': n(6),
  '312n': n(6),
  '313n': n(6),
  '314n': n(6),
  '315n': n(6),
  '316n': n(6),
  '320n': n(6),
  '321n': n(6),
  '322n': n(6),
  '323n': n(6),
  '324n': n(6),
  '325n': n(6),
  '326n': n(6),
  '327n': n(6),
  '328n': n(6),
  '329n': n(6),
  '330n': n(6),
  '331n': n(6),
  '332n': n(6),
  '333n': n(6),
  '334n': n(6),
  '335n': n(6),
  '336n': n(6),
  '337n': n(6),
  '340n': n(6),
  '341n': n(6),
  '342n': n(6),
  '343n': n(6),
  '344n': n(6),
  '345n': n(6),
  '346n': n(6),
  '347n': n(6),
  '348n': n(6),
  '349n': n(6),
  '350n': n(6),
  '351n': n(6),
  '352n': n(6),
  '353n': n(6),
  '354n': n(6),
  '355n': n(6),
  '356n': n(6),
  '357n': n(6),
  '360n': n(6),
  '361n': n(6),
  '362n': n(6),
  '363n': n(6),
  '364n': n(6),
  '365n': n(6),
  '366n': n(6),
  '367n': n(6),
  '368n': n(6),
  '369n': n(6),
  '390n': nv(15),
  '391n': nv(18),
  '392n': nv(15),
  '393n': nv(18),
  '394n': n(4),
  '395n': n(6),
  '400': xv(30),
  '401': xv(30),
  '402': n(17),
  '403': xv(30),
  '410': n(13),
  '411': n(13),
  '412': n(13),
  '413': n(13),
  '414': n(13),
  '415': n(13),
  '416': n(13),
  '417': n(13),
  '420': xv(20),
  '421': xv(12),
  '422': n(3),
  '423': nv(15),
  '424': n(3),
  '425': nv(15),
  '426': n(3),
  '427': xv(3),
  '7001': n(13),
  '7002': xv(30),
  '7003': n(10),
  '7004': nv(4),
  '7005': xv(12),
  '7006': n(6),
  '7007': nv(12),
  '7008': xv(3),
  '7009': xv(10),
  '7010': xv(2),
  '7240': xv(20),
  '710': xv(20),
  '711': xv(20),
  '712': xv(20),
  '713': xv(20),
  '714': xv(20),
  '715': xv(20),
  '8001': n(14),
  '8002': xv(20),
  '8003': { max: 30, numeric: false },
  '8004': xv(30),
  '8005': n(6),
  '8006': n(18),
  '8007': xv(34),
  '8008': nv(12),
  '8009': xv(50),
  '8010': xv(30),
  '8011': nv(12),
  '8012': xv(20),
  '8013': xv(25),
  '8017': n(18),
  '8018': n(18),
  '8019': nv(10),
  '8020': xv(25),
  '8026': n(18),
  '8110': xv(70),
  '8111': n(4),
  '8112': xv(70),
  '8200': xv(70),
  '90': xv(30),
  '91': xv(90),
  '92': xv(90),
  '93': xv(90),
  '94': xv(90),
  '95': xv(90),
  '96': xv(90),
  '97': xv(90),
  '98': xv(90),
  '99': xv(90),
};

/** The AI at the start of `text` and its rule; undefined when no known AI starts there. */
function aiAt(text: string): { ai: string; rule: AiRule } | undefined {
  for (const length of [2, 3, 4]) {
    const ai = text.slice(0, length);
    if (ai.length < length || !/^\d+$/.test(ai)) return undefined;
    const rule = AI_RULES[ai] ?? (length === 4 ? AI_RULES[`${ai.slice(0, 3)}n`] : undefined);
    if (rule) return { ai, rule };
  }
  return undefined;
}

/** AIs whose data is a date YYMMDD. */
const DATE_AIS = new Set(['11', '12', '13', '15', '16', '17']);

export interface Gs1Element {
  ai: string;
  value: string;
}

/** What a shop needs from an element string, besides its elements. */
export interface Gs1Data {
  elements: Gs1Element[];
  /** The GTIN-14 of the trade item: AI (01), else AI (02) (the GTIN of the items a case contains). */
  gtin?: string;
  /** AI (10). */
  batch?: string;
  /** AI (17) as YYYY-MM-DD (day 00 means the last day of the month). */
  expiry?: string;
  /** AI (21). */
  serial?: string;
  /** AI (30) or (37): how many items the scan stands for. */
  count?: number;
}

export type Gs1ErrorCode =
  /** No AI of the table starts at `at`. */
  | 'unknown-ai'
  /** The data of a fixed-length AI is shorter than its length. */
  | 'too-short'
  /** Variable-length data is longer than the AI allows (a missing separator, usually). */
  | 'too-long'
  /** Digits expected. */
  | 'not-numeric'
  /** A GTIN whose check digit is wrong. */
  | 'check-digit'
  /** A date that does not exist. */
  | 'bad-date'
  /** Nothing after an AI, or an empty element string. */
  | 'empty';

export type Gs1Result = { ok: true; data: Gs1Data } | { ok: false; error: Gs1ErrorCode; ai?: string; at: number };

export interface Gs1Options {
  /** Characters the scanner sends for FNC1 besides ASCII 29 (a substitute set in the scanner). */
  separators?: readonly string[];
  /** The day the scan is read, for the century of two-digit years (section 7.12); defaults to now. */
  today?: Date;
}

/** AIM symbology identifiers that announce GS1 data: GS1-128, GS1 DataMatrix, GS1 QR Code, GS1 DataBar, GS1 DotCode. */
const GS1_SYMBOLOGY_IDS = [']C1', ']d2', ']Q3', ']e0', ']J1'];
const ANY_SYMBOLOGY_ID = /^\][A-Za-z][0-9A-Za-z]/;

/** `text` without an AIM symbology identifier, and whether that identifier announced GS1 data. */
export function stripSymbologyId(text: string): { text: string; gs1: boolean } {
  if (!ANY_SYMBOLOGY_ID.test(text)) return { text, gs1: false };
  return { text: text.slice(3), gs1: GS1_SYMBOLOGY_IDS.includes(text.slice(0, 3)) };
}

/** The year of a two-digit year read on `today` (GS1 General Specifications 7.12). */
function fullYear(yy: number, today: Date): number {
  const current = today.getUTCFullYear();
  const century = current - (current % 100);
  const difference = yy - (current % 100);
  if (difference >= 51) return century - 100 + yy;
  if (difference <= -50) return century + 100 + yy;
  return century + yy;
}

/** YYMMDD as YYYY-MM-DD; DD 00 is the month's last day. Undefined for a date that does not exist. */
function gs1Date(yymmdd: string, today: Date): string | undefined {
  const year = fullYear(Number(yymmdd.slice(0, 2)), today);
  const month = Number(yymmdd.slice(2, 4));
  let day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12) return undefined;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day === 0) day = lastDay;
  if (day > lastDay) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function summarise(elements: Gs1Element[], today: Date): Gs1Data | { error: Gs1ErrorCode; ai: string } {
  const data: Gs1Data = { elements };
  for (const { ai, value } of elements) {
    if ((ai === '01' || ai === '02') && !isValidGtin(value)) return { error: 'check-digit', ai };
    if (DATE_AIS.has(ai) && gs1Date(value, today) === undefined) return { error: 'bad-date', ai };
    if (ai === '01') data.gtin = value;
    else if (ai === '02') data.gtin ??= value;
    else if (ai === '10') data.batch = value;
    else if (ai === '17') data.expiry = gs1Date(value, today)!;
    else if (ai === '21') data.serial = value;
    else if (ai === '30' || ai === '37') data.count = Number(value);
  }
  return data;
}

/**
 * Parses an element string as a scanner sends it (`0109501101530003` `17250101` `10AB-123` with a
 * separator after variable-length data that is not last), or as it is printed under a barcode
 * (`(01)09501101530003(17)250101(10)AB-123`). A leading FNC1 and a GS1 symbology identifier are
 * dropped.
 */
export function parseGs1(input: string, options: Gs1Options = {}): Gs1Result {
  const today = options.today ?? new Date();
  const separators = [GROUP_SEPARATOR, ...(options.separators ?? [])].filter((s) => s.length > 0);
  let text = stripSymbologyId(input).text;
  const isSeparator = (at: number) => separators.some((s) => text.startsWith(s, at));
  const separatorAt = (at: number) => separators.find((s) => text.startsWith(s, at))!;

  if (text.startsWith('(')) return parseBracketed(text, today);

  while (separators.some((s) => text.startsWith(s))) text = text.slice(separatorAt(0).length);
  if (text === '') return { ok: false, error: 'empty', at: 0 };
  const elements: Gs1Element[] = [];
  let at = 0;
  while (at < text.length) {
    const found = aiAt(text.slice(at));
    if (!found) return { ok: false, error: 'unknown-ai', at };
    const { ai, rule } = found;
    const start = at + ai.length;
    let end: number;
    if (rule.fixed !== undefined) {
      end = start + rule.fixed;
      if (end > text.length || [...Array(rule.fixed).keys()].some((i) => isSeparator(start + i)))
        return { ok: false, error: 'too-short', ai, at: start };
    } else {
      end = start;
      while (end < text.length && !isSeparator(end)) end++;
      if (end - start > rule.max!) return { ok: false, error: 'too-long', ai, at: start };
    }
    const value = text.slice(start, end);
    if (value === '') return { ok: false, error: 'empty', ai, at: start };
    if (rule.numeric && !/^\d+$/.test(value)) return { ok: false, error: 'not-numeric', ai, at: start };
    elements.push({ ai, value });
    at = end;
    // A separator may also follow fixed-length data (some printers always send one).
    if (at < text.length && isSeparator(at)) at += separatorAt(at).length;
  }
  const summary = summarise(elements, today);
  return 'error' in summary ? { ok: false, error: summary.error, ai: summary.ai, at: 0 } : { ok: true, data: summary };
}

/** `(01)09501101530003(17)250101`: the AIs are written out, so no separator is needed. */
function parseBracketed(text: string, today: Date): Gs1Result {
  const elements: Gs1Element[] = [];
  const pattern = /\((\d{2,4})\)([^(]*)/y;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return { ok: false, error: 'unknown-ai', at };
    const [, ai, value] = match as unknown as [string, string, string];
    const found = aiAt(ai);
    if (!found || found.ai !== ai) return { ok: false, error: 'unknown-ai', ai, at };
    const { rule } = found;
    if (value === '') return { ok: false, error: 'empty', ai, at };
    if (rule.fixed !== undefined && value.length !== rule.fixed)
      return { ok: false, error: value.length < rule.fixed ? 'too-short' : 'too-long', ai, at };
    if (rule.max !== undefined && value.length > rule.max) return { ok: false, error: 'too-long', ai, at };
    if (rule.numeric && !/^\d+$/.test(value)) return { ok: false, error: 'not-numeric', ai, at };
    elements.push({ ai, value });
    at = pattern.lastIndex;
  }
  const summary = summarise(elements, today);
  return 'error' in summary ? { ok: false, error: summary.error, ai: summary.ai, at: 0 } : { ok: true, data: summary };
}

/**
 * Whether a scan should be read as a GS1 element string rather than as a plain barcode: it says so
 * (a GS1 symbology identifier, a separator, the printed `(01)…` form), or it starts with AI (01)
 * and a valid GTIN-14 (GS1-128 needs no separator between fixed-length AIs). A bare 8–14 digit code
 * is always a plain barcode; a caller that guessed from the shape should still try the text as a
 * plain barcode when the GTIN is not found.
 */
export function looksLikeGs1(input: string, options: Pick<Gs1Options, 'separators'> = {}): boolean {
  const { text, gs1 } = stripSymbologyId(input);
  if (gs1) return true;
  const separators = [GROUP_SEPARATOR, ...(options.separators ?? [])].filter((s) => s.length > 0);
  if (separators.some((s) => text.includes(s)))
    return /^\d{2}/.test(separators.reduce((t, s) => (t.startsWith(s) ? t.slice(s.length) : t), text));
  if (/^\(\d{2,4}\)/.test(text)) return true;
  return /^01\d{14}/.test(text) && isValidGtin(text.slice(2, 16));
}
