// The scan settings and the sound switch, remembered on this device; bad or missing values fall back
// to the defaults.
import { readStored, writeStored } from '../common/device-storage.ts';
import { DEFAULT_SCAN_SETTINGS, type ScanSettings } from '../scan/scan-detector.ts';

export interface UiSettings {
  scan: ScanSettings;
  sound: boolean;
}

export const DEFAULT_UI_SETTINGS: UiSettings = { scan: DEFAULT_SCAN_SETTINGS, sound: true };

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

export const SCAN_LIMITS = { maxGapMs: { min: 5, max: 500 }, minLength: { min: 1, max: 64 } } as const;
export const SUFFIX_CHOICES: Record<string, readonly string[]> = {
  'Enter or Tab': ['Enter', 'Tab'],
  'Enter only': ['Enter'],
  'Tab only': ['Tab'],
};

export function loadSettings(): UiSettings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readStored('settings') ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // unreadable settings: defaults
  }
  const d = DEFAULT_UI_SETTINGS;
  const suffix = typeof stored.suffix === 'string' && stored.suffix in SUFFIX_CHOICES ? stored.suffix : 'Enter or Tab';
  return {
    scan: {
      maxGapMs: clampInt(stored.maxGapMs, SCAN_LIMITS.maxGapMs.min, SCAN_LIMITS.maxGapMs.max, d.scan.maxGapMs),
      minLength: clampInt(stored.minLength, SCAN_LIMITS.minLength.min, SCAN_LIMITS.minLength.max, d.scan.minLength),
      terminators: SUFFIX_CHOICES[suffix]!,
    },
    sound: typeof stored.sound === 'boolean' ? stored.sound : d.sound,
  };
}

export function suffixName(terminators: readonly string[]): string {
  return Object.entries(SUFFIX_CHOICES).find(([, keys]) => keys.join() === terminators.join())?.[0] ?? 'Enter or Tab';
}

export function saveSettings(settings: UiSettings): void {
  writeStored(
    'settings',
    JSON.stringify({
      maxGapMs: settings.scan.maxGapMs,
      minLength: settings.scan.minLength,
      suffix: suffixName(settings.scan.terminators),
      sound: settings.sound,
    }),
  );
}
