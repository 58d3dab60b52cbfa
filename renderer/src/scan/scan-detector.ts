// Tells a barcode scanner from a person by key timing: a keyboard-wedge scanner "types" its code much
// faster than anyone can and ends it with Enter (or Tab); a person types slower.

// Pure: it sees only KeyboardEvent-like {key, timeStamp} values, so it is unit-tested without a
// browser (test/scan-detector.test.ts) and the capture code around it (scan-capture.ts) stays thin.

export interface KeyLike {
  /** KeyboardEvent.key: the character typed, or a key name such as "Enter" or "Shift". */
  key: string;
  /** KeyboardEvent.timeStamp, in milliseconds. */
  timeStamp: number;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

export interface ScanSettings {
  /** Longest pause between two keys of one scan, in milliseconds. */
  maxGapMs: number;
  /** Fewest characters a scan has; shorter fast bursts are treated as typing. */
  minLength: number;
  /** Keys that end a scan (the scanner's suffix). */
  terminators: readonly string[];
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = { maxGapMs: 50, minLength: 4, terminators: ['Enter', 'Tab'] };

export type KeyVerdict =
  /** A character, remembered as a possible part of a scan; `startsBurst` when it begins a new run. */
  | { kind: 'char'; startsBurst: boolean }
  /** The suffix that completes a scan: the caller must swallow this key (never press a button with it). */
  | { kind: 'scan'; code: string }
  /** Any other key, or a suffix that ends ordinary typing: let it do what it normally does. */
  | { kind: 'other' }
  /** A key that changes nothing (Shift and other modifiers: scanners press Shift for capitals). */
  | { kind: 'ignored' };

/** Keys that carry no character and must not break a scan. */
const NEUTRAL_KEYS = new Set([
  'Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'OS', 'CapsLock', 'NumLock', 'ScrollLock', 'Fn', 'FnLock',
  'Dead', 'Unidentified', 'Process', 'Hyper', 'Super', 'Symbol', 'SymbolLock',
]);

/** One user-perceived character: KeyboardEvent.key of a printable key (may be non-ASCII, or outside the BMP). */
function isCharacter(key: string): boolean {
  return key.length > 0 && [...key].length === 1;
}

export interface ScanDetector {
  feed(event: KeyLike): KeyVerdict;
  /** Forgets a run in progress (e.g. when the window loses focus). */
  reset(): void;
}

export function createScanDetector(settings: ScanSettings = DEFAULT_SCAN_SETTINGS): ScanDetector {
  let buffer: string[] = [];
  let lastTime = Number.NEGATIVE_INFINITY;

  const reset = () => {
    buffer = [];
    lastTime = Number.NEGATIVE_INFINITY;
  };
  // A pause of exactly maxGapMs still counts as fast; timestamps of a burst may also repeat.
  const isFast = (timeStamp: number) => buffer.length > 0 && timeStamp - lastTime <= settings.maxGapMs;

  const feed = (event: KeyLike): KeyVerdict => {
    const { key, timeStamp } = event;
    if (NEUTRAL_KEYS.has(key)) return { kind: 'ignored' };
    // Shortcuts (Ctrl+V, Cmd+A) are never part of a scan; Ctrl+Alt is AltGr on Windows and types characters.
    const shortcut = (event.ctrlKey === true || event.metaKey === true) && event.altKey !== true;
    if (!shortcut && isCharacter(key)) {
      const startsBurst = !isFast(timeStamp);
      if (startsBurst) buffer = [];
      buffer.push(key);
      lastTime = timeStamp;
      return { kind: 'char', startsBurst };
    }
    if (!shortcut && settings.terminators.includes(key)) {
      const complete = buffer.length >= settings.minLength && isFast(timeStamp);
      const code = buffer.join('');
      reset();
      return complete ? { kind: 'scan', code } : { kind: 'other' };
    }
    reset();
    return { kind: 'other' };
  };

  return { feed, reset };
}
