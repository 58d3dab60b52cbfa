// What the UI remembers on this device (localStorage): the token, the scan settings, the chosen
// warehouse per account, and whether sounds are on. Bad or missing values fall back to defaults.
import { DEFAULT_SCAN_SETTINGS, type ScanSettings } from './scan-detector.ts';

const PREFIX = 'barcode-inventory.';

function read(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage may be disabled (private windows): the UI still works for this visit.
  }
}

export const loadToken = (): string | null => read('token');
export const saveToken = (token: string | null): void => write('token', token);

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
    const parsed: unknown = JSON.parse(read('settings') ?? '{}');
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
  write(
    'settings',
    JSON.stringify({
      maxGapMs: settings.scan.maxGapMs,
      minLength: settings.scan.minLength,
      suffix: suffixName(settings.scan.terminators),
      sound: settings.sound,
    }),
  );
}

export const loadWarehouse = (account: string): string | null => read(`warehouse.${account}`);
export const saveWarehouse = (account: string, name: string): void => write(`warehouse.${account}`, name);
