// Printable labels (docs/LABELS.md): the layouts a label document is printed on, the query that says
// which labels to print, the barcode each code is printed as, and the shop's own internal codes. Pure,
// so the server, the CLI and the scanner UI read the same lists.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import { gtinCheckDigit, isValidGtin } from './gtin.ts';
import { MAX_BARCODES_PER_READ } from './limits.ts';

export const LABELS_PDF_PATH = `${API_BASE}/labels.pdf`;
export const LABELS_ZPL_PATH = `${API_BASE}/labels.zpl`;
export const LABELS_PRINT_PATH = `${API_BASE}/labels/print/`;
export const LABEL_CODES_PATH = `${API_BASE}/labels/codes/`;

/** The most labels one document holds: a bound on the work and memory of one request. */
export const MAX_LABELS_PER_DOCUMENT = 1000;
/** The most copies of one label a document holds. */
export const MAX_LABEL_COPIES = 100;
/** The most items one request makes codes for. */
export const MAX_CODES_PER_REQUEST = 500;

/** A sheet of labels, or a roll that prints one label per page. Sizes in millimetres. */
export interface LabelLayout {
  id: string;
  /** What a person picks from. */
  title: string;
  kind: 'sheet' | 'roll';
  page: { width: number; height: number };
  label: { width: number; height: number };
  columns: number;
  rows: number;
  /** The first label's top-left corner on the page. */
  origin: { left: number; top: number };
  /** From one label's left (top) edge to the next one's. */
  pitch: { across: number; down: number };
}

const INCH = 25.4;

/** The common sheets (Avery L7159, L7160 and 5160 and their equals) and two roll sizes. */
export const LABEL_LAYOUTS: readonly LabelLayout[] = [
  {
    id: 'a4-3x8',
    title: 'A4 sheet, 3 × 8 labels (63.5 × 33.9 mm)',
    kind: 'sheet',
    page: { width: 210, height: 297 },
    label: { width: 63.5, height: 33.9 },
    columns: 3,
    rows: 8,
    origin: { left: 7.25, top: 12.9 },
    pitch: { across: 66, down: 33.9 },
  },
  {
    id: 'a4-3x7',
    title: 'A4 sheet, 3 × 7 labels (63.5 × 38.1 mm)',
    kind: 'sheet',
    page: { width: 210, height: 297 },
    label: { width: 63.5, height: 38.1 },
    columns: 3,
    rows: 7,
    origin: { left: 7.25, top: 15.15 },
    pitch: { across: 66, down: 38.1 },
  },
  {
    id: 'letter-30',
    title: 'US Letter sheet, 30 labels (2 5/8 × 1 in)',
    kind: 'sheet',
    page: { width: 8.5 * INCH, height: 11 * INCH },
    label: { width: 2.625 * INCH, height: 1 * INCH },
    columns: 3,
    rows: 10,
    origin: { left: 0.1875 * INCH, top: 0.5 * INCH },
    pitch: { across: 2.75 * INCH, down: 1 * INCH },
  },
  {
    id: 'roll-50x25',
    title: 'Roll, 50 × 25 mm labels',
    kind: 'roll',
    page: { width: 50, height: 25 },
    label: { width: 50, height: 25 },
    columns: 1,
    rows: 1,
    origin: { left: 0, top: 0 },
    pitch: { across: 50, down: 25 },
  },
  {
    id: 'roll-62',
    title: 'Roll, 62 mm continuous (cut at 32 mm)',
    kind: 'roll',
    page: { width: 62, height: 32 },
    label: { width: 62, height: 32 },
    columns: 1,
    rows: 1,
    origin: { left: 0, top: 0 },
    pitch: { across: 62, down: 32 },
  },
];

export const LABEL_LAYOUT_IDS = LABEL_LAYOUTS.map((layout) => layout.id) as [string, ...string[]];
export const DEFAULT_SHEET_LAYOUT = 'a4-3x8';
export const DEFAULT_ROLL_LAYOUT = 'roll-50x25';

export function labelLayout(id: string): LabelLayout | undefined {
  return LABEL_LAYOUTS.find((layout) => layout.id === id);
}

export const labelMessages = {
  oneSource: 'Say which labels to print: barcodes, items, variants, a stocktake (its unknown barcodes) or a warehouse.',
  tooManyLabels: (count: number) =>
    `That is ${count} labels; one document holds at most ${MAX_LABELS_PER_DOCUMENT}. Choose fewer, or fewer copies.`,
  noLabels: 'There is nothing to print: none of the barcodes asked for is in the catalogue.',
  unknownLayout: (id: string) => `Unknown layout "${id}". Layouts: ${LABEL_LAYOUT_IDS.join(', ')}.`,
  zplNeedsRoll: (id: string) =>
    `ZPL prints on a roll, not on the sheet "${id}": use ${LABEL_LAYOUTS.filter((l) => l.kind === 'roll')
      .map((l) => l.id)
      .join(' or ')}.`,
  gs1NeedsGtin: (barcode: string) =>
    `Batch and expiry are printed with the product's GTIN, and "${barcode}" is not a GTIN (8, 12, 13 or 14 digits with a right check digit).`,
  notPrintable: (barcode: string) =>
    `"${barcode}" cannot be printed as a barcode: Code 128 carries only Latin-1 characters (letters with accents such as é, ü, Ç, but not ğ, ł or other scripts).`,
  expiryFormat: 'The expiry date is a date such as 2027-03-31.',
  batchFormat: 'A batch is 1 to 20 letters, digits or - . / _ (GS1 application identifier 10).',
  idList: (what: string) => `${what} is a comma-separated list of ids, such as 12,13.`,
  stocktakeNotFound: (id: number) => `No stocktake with id ${id} in this account.`,
  noPrinter: (account: string) =>
    `No label printer is set up for account "${account}": an administrator sets one with barcode-inventory labels setup --account "${account}" --printer <address>:<port>.`,
  printerFailed: (where: string, why: string) => `The label printer at ${where} could not be reached: ${why}. Nothing was printed.`,
  badPrefix:
    'A code prefix is 2 to 10 digits: a GS1 company prefix of your own, or 20 to 29 for codes used only inside the shop (restricted circulation).',
  prefixFull: (prefix: string) => `Every code with the prefix ${prefix} is taken: set a longer or another prefix.`,
  followerCodes: (account: string, upstream: string) =>
    `Account "${account}" follows ${upstream}: its catalogue comes from there. Make the codes there; they reach this instance with the next sync.`,
  noCodesAsked: 'Name the new items to make codes for.',
};

const BATCH = /^[A-Za-z0-9\-./_]{1,20}$/;
const idList = (what: string) =>
  z
    .string()
    .regex(/^\s*\d{1,15}\s*(,\s*\d{1,15}\s*)*,?\s*$/, { error: labelMessages.idList(what) })
    .transform((text) => [...new Set(text.split(',').flatMap((part) => (part.trim() === '' ? [] : [Number(part.trim())])))]);

/** Which labels, how many of each and how they look: the query of labels.pdf and labels.zpl, and the body of labels/print. */
export const labelQuerySchema = z.object({
  barcodes: z.string().optional().describe(`Comma-separated barcodes, as the read endpoint takes them (at most ${MAX_BARCODES_PER_READ}).`),
  items: idList('items').optional().describe("Item ids: a label for the item's barcode, or one for each of its variants."),
  variants: idList('variants').optional().describe('Variant ids.'),
  stocktake: z.coerce.number().int().positive().optional().describe("A stocktake's id: a label for each of its unknown barcodes."),
  warehouse: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A warehouse's name, printed on every label. Alone, without another source, it prints every barcode that has stock in that warehouse.",
    ),
  layout: z.enum(LABEL_LAYOUT_IDS, { error: (issue) => labelMessages.unknownLayout(String(issue.input)) }).optional(),
  copies: z.coerce.number().int().min(1).max(MAX_LABEL_COPIES).default(1).describe('Labels per barcode.'),
  skip: z.coerce
    .number()
    .int()
    .min(0)
    .max(200)
    .default(0)
    .describe('Positions left empty at the start of the first sheet (a sheet used before).'),
  batch: z.string().regex(BATCH, { error: labelMessages.batchFormat }).optional().describe('Batch or lot, printed as GS1 AI (10).'),
  expiry: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: labelMessages.expiryFormat })
    .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), { error: labelMessages.expiryFormat })
    .optional()
    .describe('Expiry date (YYYY-MM-DD), printed as GS1 AI (17).'),
  gs1: z
    .enum(['datamatrix', '128'])
    .default('datamatrix')
    .describe('With batch or expiry: a GS1 DataMatrix (small labels) or a GS1-128 barcode.'),
});
export type LabelQuery = z.infer<typeof labelQuerySchema>;

/** The body of `POST /labels/codes/`: new items, each given a code of the shop's own. */
export const labelCodesBodySchema = z.strictObject({
  items: z
    .array(z.strictObject({ name: z.string().trim().min(1, { error: 'This field may not be blank.' }).max(200) }))
    .min(1, { error: 'Name at least one item.' })
    .max(MAX_CODES_PER_REQUEST),
});
export const labelCodesAnswerSchema = z.object({
  codes: z.array(z.object({ item: z.number(), name: z.string(), barcode: z.string() })),
});
export type LabelCodesAnswer = z.infer<typeof labelCodesAnswerSchema>;

export const labelPrintAnswerSchema = z.object({ printed: z.number(), printer: z.string() });

/** How a code is printed: the symbology (bwip-js's name), the data it encodes and the text under it. */
export interface LabelSymbol {
  /** bwip-js encoder: ean13, upca, ean8, code128, gs1-128, gs1datamatrix. */
  bcid: 'ean13' | 'upca' | 'ean8' | 'code128' | 'gs1-128' | 'gs1datamatrix';
  /** What a person reads: EAN-13, Code 128, … */
  name: string;
  /** What bwip-js encodes (GS1 element strings in their bracketed form). */
  data: string;
  /** The line printed under the barcode. */
  text: string;
  /** A square matrix code, laid out beside the text; linear codes go under it. */
  matrix: boolean;
}

/**
 * The symbology a code is printed in, by what the code is (docs/LABELS.md): a GTIN whose check digit is
 * right as EAN-13, UPC-A or EAN-8 (a GTIN-14 as GS1-128 with AI 01); anything else (internal codes,
 * digits with a wrong check digit) as Code 128, which encodes every character of it as it is. With a
 * batch or an expiry date the GTIN goes into a GS1 element string, as GS1 DataMatrix or GS1-128.
 */
export function symbolFor(barcode: string, extra: { batch?: string; expiry?: string; gs1?: 'datamatrix' | '128' } = {}): LabelSymbol {
  const gtin = isValidGtin(barcode);
  if (extra.batch !== undefined || extra.expiry !== undefined) {
    if (!gtin) throw new Error(labelMessages.gs1NeedsGtin(barcode));
    let data = `(01)${barcode.padStart(14, '0')}`;
    if (extra.expiry !== undefined) data += `(17)${extra.expiry.slice(2, 4)}${extra.expiry.slice(5, 7)}${extra.expiry.slice(8, 10)}`;
    if (extra.batch !== undefined) data += `(10)${extra.batch}`;
    const matrix = (extra.gs1 ?? 'datamatrix') === 'datamatrix';
    return { bcid: matrix ? 'gs1datamatrix' : 'gs1-128', name: matrix ? 'GS1 DataMatrix' : 'GS1-128', data, text: data, matrix };
  }
  if (gtin && barcode.length === 13) return { bcid: 'ean13', name: 'EAN-13', data: barcode, text: barcode, matrix: false };
  if (gtin && barcode.length === 12) return { bcid: 'upca', name: 'UPC-A', data: barcode, text: barcode, matrix: false };
  if (gtin && barcode.length === 8) return { bcid: 'ean8', name: 'EAN-8', data: barcode, text: barcode, matrix: false };
  if (gtin) return { bcid: 'gs1-128', name: 'GS1-128', data: `(01)${barcode}`, text: `(01)${barcode}`, matrix: false };
  // Code 128 carries ISO-8859-1; a code with other characters has no barcode a scanner would read back.
  for (const char of barcode) if (char.codePointAt(0)! > 0xff) throw new Error(labelMessages.notPrintable(barcode));
  return { bcid: 'code128', name: 'Code 128', data: barcode, text: barcode, matrix: false };
}

/** The prefix codes get when the account has none set: restricted circulation, for use inside the shop only. */
export const DEFAULT_CODE_PREFIX = '20';

export function isCodePrefix(prefix: string): boolean {
  return /^\d{2,10}$/.test(prefix) && (prefix.length > 2 || (prefix >= '20' && prefix <= '29'));
}

/**
 * The `n`th code of a prefix: an EAN-13 (GTIN-13) made of the prefix, `n` in the digits left, and the
 * check digit; null when `n` does not fit.
 */
export function internalCode(prefix: string, n: number): string | null {
  const digits = 12 - prefix.length;
  const number = String(n);
  if (n < 1 || number.length > digits) return null;
  const body = prefix + number.padStart(digits, '0');
  return body + String(gtinCheckDigit(body));
}
