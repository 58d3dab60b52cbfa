// The scan settings and the sound switch, remembered on this device; bad or missing values fall back
// to the defaults.
import { readStored, writeStored } from '../common/device-storage.ts';
import { DEFAULT_SCAN_SETTINGS, type KeyReading, type ScanSettings } from '../scan/scan-detector.ts';

export interface UiSettings {
  scan: ScanSettings;
  /** A character the scanner sends for GS1's FNC1 instead of the group separator (ASCII 29); '' for none. */
  gs1Separator: string;
  sound: boolean;
}

export const DEFAULT_UI_SETTINGS: UiSettings = { scan: DEFAULT_SCAN_SETTINGS, gs1Separator: '', sound: true };

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

export const SCAN_LIMITS = { maxGapMs: { min: 5, max: 500 }, minLength: { min: 1, max: 64 }, fastGapMs: { min: 1, max: 500 } } as const;
/** The scanner suffixes Settings offers, by the name they are stored under (texts.ts words them). */
export const SUFFIX_CHOICES: Record<string, readonly string[]> = {
  'enter-or-tab': ['Enter', 'Tab'],
  enter: ['Enter'],
  tab: ['Tab'],
};
const DEFAULT_SUFFIX = 'enter-or-tab';
/** Names stored by earlier versions. */
const OLD_SUFFIX_NAMES: Record<string, string> = { 'Enter or Tab': 'enter-or-tab', 'Enter only': 'enter', 'Tab only': 'tab' };
const READINGS: readonly KeyReading[] = ['positions', 'characters'];
/** Longest prefix kept: scanners send a few characters (a symbology identifier, STX). */
export const MAX_PREFIX_LENGTH = 8;

/** A GS1 substitute separator: one visible character that is not a letter or digit (they are data). */
export function isValidSeparator(text: string): boolean {
  return text === '' || ([...text].length === 1 && !/[\p{L}\p{N}\s]/u.test(text));
}

export function loadSettings(): UiSettings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readStored('settings') ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // unreadable settings: defaults
  }
  const d = DEFAULT_UI_SETTINGS;
  const storedSuffix = typeof stored.suffix === 'string' ? (OLD_SUFFIX_NAMES[stored.suffix] ?? stored.suffix) : DEFAULT_SUFFIX;
  const suffix = storedSuffix in SUFFIX_CHOICES ? storedSuffix : DEFAULT_SUFFIX;
  const maxGapMs = clampInt(stored.maxGapMs, SCAN_LIMITS.maxGapMs.min, SCAN_LIMITS.maxGapMs.max, d.scan.maxGapMs);
  return {
    scan: {
      maxGapMs,
      minLength: clampInt(stored.minLength, SCAN_LIMITS.minLength.min, SCAN_LIMITS.minLength.max, d.scan.minLength),
      fastGapMs: Math.min(maxGapMs, clampInt(stored.fastGapMs, SCAN_LIMITS.fastGapMs.min, SCAN_LIMITS.fastGapMs.max, d.scan.fastGapMs)),
      terminators: SUFFIX_CHOICES[suffix]!,
      reading: READINGS.includes(stored.reading as KeyReading) ? (stored.reading as KeyReading) : d.scan.reading,
      prefix: typeof stored.prefix === 'string' && stored.prefix.length <= MAX_PREFIX_LENGTH ? stored.prefix : d.scan.prefix,
    },
    gs1Separator: typeof stored.gs1Separator === 'string' && isValidSeparator(stored.gs1Separator) ? stored.gs1Separator : d.gs1Separator,
    sound: typeof stored.sound === 'boolean' ? stored.sound : d.sound,
  };
}

export function suffixName(terminators: readonly string[]): string {
  return Object.entries(SUFFIX_CHOICES).find(([, keys]) => keys.join() === terminators.join())?.[0] ?? DEFAULT_SUFFIX;
}

export function saveSettings(settings: UiSettings): void {
  writeStored(
    'settings',
    JSON.stringify({
      maxGapMs: settings.scan.maxGapMs,
      minLength: settings.scan.minLength,
      fastGapMs: settings.scan.fastGapMs,
      suffix: suffixName(settings.scan.terminators),
      reading: settings.scan.reading,
      prefix: settings.scan.prefix,
      gs1Separator: settings.gs1Separator,
      sound: settings.sound,
    }),
  );
}

/** The separators a scan reader takes besides ASCII 29. */
export const separatorsOf = (settings: UiSettings): string[] => (settings.gs1Separator ? [settings.gs1Separator] : []);
