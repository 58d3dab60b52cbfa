// What each key position types on a US keyboard, without and with Shift: the layout barcode
// scanners assume unless set up otherwise. KeyboardEvent.code names keys by these positions on every
// layout, so a scan can be read as the scanner meant it wherever the PC's layout moves characters.
const ROWS: Record<string, readonly [string, string]> = {
  Backquote: ['`', '~'],
  Digit1: ['1', '!'],
  Digit2: ['2', '@'],
  Digit3: ['3', '#'],
  Digit4: ['4', '$'],
  Digit5: ['5', '%'],
  Digit6: ['6', '^'],
  Digit7: ['7', '&'],
  Digit8: ['8', '*'],
  Digit9: ['9', '('],
  Digit0: ['0', ')'],
  Minus: ['-', '_'],
  Equal: ['=', '+'],
  BracketLeft: ['[', '{'],
  BracketRight: [']', '}'],
  Backslash: ['\\', '|'],
  Semicolon: [';', ':'],
  Quote: ["'", '"'],
  Comma: [',', '<'],
  Period: ['.', '>'],
  Slash: ['/', '?'],
  Space: [' ', ' '],
  // The numeric keypad types the same with or without Shift (NumLock on, as scanners need it).
  Numpad0: ['0', '0'],
  Numpad1: ['1', '1'],
  Numpad2: ['2', '2'],
  Numpad3: ['3', '3'],
  Numpad4: ['4', '4'],
  Numpad5: ['5', '5'],
  Numpad6: ['6', '6'],
  Numpad7: ['7', '7'],
  Numpad8: ['8', '8'],
  Numpad9: ['9', '9'],
  NumpadDecimal: ['.', '.'],
  NumpadAdd: ['+', '+'],
  NumpadSubtract: ['-', '-'],
  NumpadMultiply: ['*', '*'],
  NumpadDivide: ['/', '/'],
};

for (const letter of 'abcdefghijklmnopqrstuvwxyz') ROWS[`Key${letter.toUpperCase()}`] = [letter, letter.toUpperCase()];

/** The character of key position `code` on a US keyboard; undefined for keys it does not have (IntlBackslash, …). */
export function usCharacter(code: string, shift: boolean): string | undefined {
  const pair = ROWS[code];
  return pair ? pair[shift ? 1 : 0] : undefined;
}

/** The US key position and Shift state that types `char`; undefined for characters a US keyboard has no key for. */
export function usKeyOf(char: string): { code: string; shift: boolean } | undefined {
  for (const [code, [plain, shifted]] of Object.entries(ROWS)) {
    if (code.startsWith('Numpad')) continue;
    if (plain === char) return { code, shift: false };
    if (shifted === char) return { code, shift: true };
  }
  return undefined;
}
