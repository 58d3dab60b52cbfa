// Tells a barcode scanner from a person by key timing: a keyboard-wedge scanner "types" its code much
// faster than anyone can and ends it with Enter (or Tab); a person types slower. It also reads what
// the scanner meant on a PC whose keyboard layout is not the scanner's (see `reading`).

// Pure: it sees only KeyboardEvent-like values, so it is unit-tested without a browser
// (test/ui/scan-detector.test.ts) and the capture code around it (scan-capture.ts) stays thin.
import { GROUP_SEPARATOR } from '../../../shared/index.ts';
import { usCharacter } from './us-keyboard.ts';

export interface KeyLike {
  /** KeyboardEvent.key: the character typed, or a key name such as "Enter" or "Shift". */
  key: string;
  /** KeyboardEvent.timeStamp, in milliseconds. */
  timeStamp: number;
  /** KeyboardEvent.code: the physical key, named after its place on a US keyboard ("KeyZ", "Digit7"). */
  code?: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
  /** AltGr held (KeyboardEvent.getModifierState('AltGraph')). */
  altGraph?: boolean;
}

/**
 * How a scan's characters are read. A scanner types key positions for one keyboard layout (US, as
 * it leaves the factory, unless someone set it up otherwise):
 * - `positions`: read each key by its position as on a US keyboard (KeyboardEvent.code), so a
 *   US-set scanner reads right on a German, French or Turkish PC, where the layout turns its keys
 *   into other characters. On a US PC this is the same as `characters`.
 * - `characters`: take the characters the PC's layout made (KeyboardEvent.key): for a scanner set
 *   up for this PC's layout.
 */
export type KeyReading = 'positions' | 'characters';

export interface ScanSettings {
  /** Longest pause between two keys of one scan, in milliseconds. */
  maxGapMs: number;
  /**
   * Fewest characters of a scan at up to `maxGapMs` while a text field has focus, where a person's
   * quick "12⏎" must stay typing. Outside text fields a fast burst of any length is a scan.
   */
  minLength: number;
  /** A shorter burst (two characters or more) in a text field is still a scan when no two of its keys are further apart than this (no person types that fast). */
  fastGapMs: number;
  /** Keys that end a scan (the scanner's suffix). */
  terminators: readonly string[];
  reading: KeyReading;
  /** Characters the scanner sends before every code, removed from scans (found by the scanner test). */
  prefix: string;
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = {
  maxGapMs: 50,
  minLength: 4,
  fastGapMs: 15,
  terminators: ['Enter', 'Tab'],
  reading: 'positions',
  prefix: '',
};

/** Where a key lands: a text field keeps what a person types, so short bursts there need more proof. */
export interface KeyContext {
  inTextField: boolean;
}

export type KeyVerdict =
  /**
   * A character, remembered as a possible part of a scan; `startsBurst` when it begins a new run,
   * `resumes` when that run follows characters cut off by a pause too short for a person (a scanner's
   * hiccup): what was typed before it is part of the same scan.
   */
  | { kind: 'char'; startsBurst: boolean; resumes?: boolean }
  /** The suffix that completes a scan: the caller must swallow this key (never press a button with it). */
  | { kind: 'scan'; code: string }
  /** A scan that contains a control character (NUL, …): swallow the key and say why nothing happens. */
  | { kind: 'refused'; code: string; reason: 'control-character' }
  /**
   * The tail of a scan whose start came before a pause longer than a scan allows but too short for a
   * person (a wireless scanner's hiccup): taken as a barcode it would be another one (`690000000017`
   * for `8690000000017`), so it is refused and said, never looked up. `gapMs`: the pause.
   */
  | { kind: 'refused'; code: string; reason: 'fragment'; gapMs: number }
  /**
   * Any other key, or a suffix that ends ordinary typing: let it do what it normally does. `slow`
   * when a suffix ended characters typed outside any text field too slowly for a scan (they do
   * nothing there, so the person is told why).
   */
  | { kind: 'other'; slow?: { length: number; gapMs: number } }
  /** A key that changes nothing (Shift and other modifiers: scanners press Shift for capitals). */
  | { kind: 'ignored' };

/** Keys that carry no character and must not break a scan. */
const NEUTRAL_KEYS = new Set([
  'Shift',
  'Control',
  'Alt',
  'AltGraph',
  'Meta',
  'OS',
  'CapsLock',
  'NumLock',
  'ScrollLock',
  'Fn',
  'FnLock',
  'Dead',
  'Unidentified',
  'Process',
  'Hyper',
  'Super',
  'Symbol',
  'SymbolLock',
]);

/** One user-perceived character: KeyboardEvent.key of a printable key (may be non-ASCII, or outside the BMP). */
function isCharacter(key: string): boolean {
  return key.length > 0 && [...key].length === 1;
}

/** C0 control characters and DEL; the group separator is data in GS1 scans. */
function isControl(char: string): boolean {
  const c = char.codePointAt(0)!;
  return (c < 0x20 || c === 0x7f) && char !== GROUP_SEPARATOR;
}

/**
 * The character a key stands for in a scan, or null when it is not one. Scanners send the GS1
 * group separator (FNC1) as Ctrl+] (the key right of P on a US keyboard).
 */
export function scanCharacter(event: KeyLike, reading: KeyReading): string | null {
  if (event.key === GROUP_SEPARATOR) return GROUP_SEPARATOR;
  const ctrlOnly = event.ctrlKey === true && event.altKey !== true && event.metaKey !== true;
  if (ctrlOnly && (event.code === 'BracketRight' || (!event.code && event.key === ']'))) return GROUP_SEPARATOR;
  // Shortcuts (Ctrl+V, Cmd+A) are never part of a scan; Ctrl+Alt is AltGr on Windows and types characters.
  if ((event.ctrlKey === true || event.metaKey === true) && event.altKey !== true) return null;
  // Some US keys are dead keys on other layouts (` and = on a German one): by position they still count.
  const dead = event.key === 'Dead';
  if (!dead && !isCharacter(event.key)) return null;
  // A US-set scanner never presses AltGr: such a character is the PC's own, so it is taken as typed.
  if (reading === 'positions' && event.code && event.altKey !== true && event.altGraph !== true) {
    const us = usCharacter(event.code, event.shiftKey === true);
    if (us !== undefined) return us;
  }
  return dead ? null : event.key;
}

export interface ScanDetector {
  feed(event: KeyLike, context?: KeyContext): KeyVerdict;
  /** Forgets a run in progress (e.g. when the window loses focus). */
  reset(): void;
}

/**
 * A pause between characters up to this many times the longest pause of a scan, after characters of
 * their own: too short for a person to stop typing and a scan to begin, so the characters after it
 * are the rest of the same scan, not a scan of their own.
 */
export const HICCUP_FACTOR = 4;

export function createScanDetector(settings: ScanSettings = DEFAULT_SCAN_SETTINGS): ScanDetector {
  let buffer: string[] = [];
  /** The pause that cut this run off from characters before it, when it was a hiccup (see HICCUP_FACTOR). */
  let hiccup: number | null = null;
  let lastTime = Number.NEGATIVE_INFINITY;
  let burstMaxGap = 0;
  // Characters since the last key that was not one, fast or slow: what a person typed before Enter.
  let run = 0;
  let runMaxGap = 0;

  const reset = () => {
    buffer = [];
    hiccup = null;
    lastTime = Number.NEGATIVE_INFINITY;
    burstMaxGap = 0;
    run = 0;
    runMaxGap = 0;
  };
  // A pause of exactly maxGapMs still counts as fast; timestamps of a burst may also repeat.
  const isFast = (timeStamp: number) => buffer.length > 0 && timeStamp - lastTime <= settings.maxGapMs;

  const feed = (event: KeyLike, context: KeyContext = { inTextField: false }): KeyVerdict => {
    const { key, timeStamp } = event;
    const char = scanCharacter(event, settings.reading);
    if (char === null && NEUTRAL_KEYS.has(key)) return { kind: 'ignored' };
    if (char !== null) {
      const startsBurst = !isFast(timeStamp);
      if (run > 0) runMaxGap = Math.max(runMaxGap, timeStamp - lastTime);
      if (startsBurst) {
        const pause = timeStamp - lastTime;
        hiccup = buffer.length > 0 && pause <= HICCUP_FACTOR * settings.maxGapMs ? pause : null;
        buffer = [];
        burstMaxGap = 0;
      } else {
        burstMaxGap = Math.max(burstMaxGap, timeStamp - lastTime);
      }
      buffer.push(char);
      run++;
      lastTime = timeStamp;
      return startsBurst && hiccup !== null ? { kind: 'char', startsBurst, resumes: true } : { kind: 'char', startsBurst };
    }
    const shortcut = (event.ctrlKey === true || event.metaKey === true) && event.altKey !== true;
    if (!shortcut && settings.terminators.includes(key)) {
      const gap = timeStamp - lastTime;
      const fast = isFast(timeStamp);
      // In a text field a short burst needs scanner speed throughout, and two characters at least: a
      // person's "7⏎" can come close together, no person types three keys that fast.
      const longEnough =
        !context.inTextField ||
        buffer.length >= settings.minLength ||
        (buffer.length >= 2 && Math.max(burstMaxGap, gap) <= settings.fastGapMs);
      let code = buffer.join('');
      if (settings.prefix !== '' && code.startsWith(settings.prefix)) code = code.slice(settings.prefix.length);
      const slow = !context.inTextField && run > 0 && !fast ? { length: run, gapMs: Math.round(Math.max(runMaxGap, gap)) } : undefined;
      const cutOff = hiccup;
      const typed = run;
      reset();
      // The tail of a cut scan is refused also where it is too short to be a scan of its own (the last
      // digit of a code in the quantity field would be typed, and its Enter would save it).
      if (fast && cutOff !== null && code.trim() !== '' && (longEnough || typed >= settings.minLength))
        return { kind: 'refused', code, reason: 'fragment', gapMs: Math.round(cutOff) };
      if (!fast || !longEnough || code.trim() === '') return slow ? { kind: 'other', slow } : { kind: 'other' };
      if ([...code].some(isControl)) return { kind: 'refused', code, reason: 'control-character' };
      return { kind: 'scan', code };
    }
    reset();
    return { kind: 'other' };
  };

  return { feed, reset };
}
