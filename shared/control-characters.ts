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
