// Control characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) never belong in a barcode:
// a NUL cuts strings short in other systems, a CR or tab breaks files, and GS1's group separator
// (U+001D, sent by scanners between the fields of a GS1 code) is interpreted by the scanner UI before
// it sends anything. Server, importers and UI refuse them with the same message, naming the character.

/** Names of the C0 controls and DEL, as the Unicode standard abbreviates them. */
const C0_NAMES = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'TAB',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
];

const CONTROL = /\p{Cc}/u;

export interface ControlCharacter {
  /** `U+0000 (NUL)`, `U+0085`. */
  name: string;
  /** 1-based position in the text, in characters. */
  position: number;
}

/** The first control character of `text`, or undefined when it has none. */
export function findControlCharacter(text: string): ControlCharacter | undefined {
  const match = CONTROL.exec(text);
  if (!match) return undefined;
  const code = match[0].codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const short = code < 0x20 ? C0_NAMES[code] : code === 0x7f ? 'DEL' : undefined;
  return { name: short ? `${hex} (${short})` : hex, position: [...text.slice(0, match.index)].length + 1 };
}

/**
 * Text people read — names of accounts, warehouses, items and variants, a POS reference, what a sync
 * push carries — may not hold control characters either (a terminal obeys ESC, a NUL cuts a file),
 * nor the invisible characters that reverse the direction of the text after them (U+202E shows
 * "Mug" for "guM"; a name could then read as another): U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069. Other format characters (joiners in Arabic or Indic names, soft hyphens) are fine.
 */
const UNSAFE_CLASS = '\\p{Cc}\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'u');

/**
 * Text without any of them, as a whole-text pattern: for schemas that are also compiled to JSON
 * Schema (a sync push, server/http/compiled-check.ts), where a refinement would not be carried over.
 */
export const SAFE_TEXT = new RegExp(`^[^${UNSAFE_CLASS}]*$`, 'u');

/** The first control or text-direction character of `text`, or undefined when it has none. */
export function findUnsafeCharacter(text: string): ControlCharacter | undefined {
  const match = UNSAFE.exec(text);
  if (!match) return undefined;
  const control = findControlCharacter(match[0]);
  const code = match[0].codePointAt(0)!;
  const name = control ? control.name : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return { name, position: [...text.slice(0, match.index)].length + 1 };
}

/**
 * `text` with each control or text-direction character replaced by U+FFFD: for text stored before
 * it was refused (a movement pushed by an earlier version), passed on without its effect.
 */
export function withoutUnsafeCharacters(text: string): string {
  return SAFE_TEXT.test(text) ? text : text.replace(new RegExp(`[${UNSAFE_CLASS}]`, 'gu'), '\uFFFD');
}

/** An actor as movements and the audit log record it: unsafe characters replaced, at most `max` characters. */
export function actorText(name: string, max: number): string {
  const safe = withoutUnsafeCharacters(name);
  const chars = [...safe];
  return chars.length <= max ? safe : `${chars.slice(0, max - 1).join('')}…`;
}
