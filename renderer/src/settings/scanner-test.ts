// What a scan of the known test barcode tells about a scanner: which keyboard layout it types for
// (compared with the PC's), what it sends before and after the code, and how fast its keys come.
// Pure: the keys are recorded by the Settings panel, the findings are unit-tested.
import { type KeyLike, type KeyReading, scanCharacter } from '../scan/scan-detector.ts';
import { SCAN_LIMITS } from './ui-settings.ts';

/**
 * The test barcode: letters that other layouts move (Y/Z on German, Q/A/M on French, the dotless i
 * on Turkish keyboards), both cases, digits (shifted on French keyboards) and - / . (moved on most).
 */
export const TEST_BARCODE = 'Yz-Qa/Mi.07';

export interface ScannerFinding {
  /** What the PC's layout made of the scan (KeyboardEvent.key), for the person to compare. */
  received: string;
  /** How to read this scanner; null when no reading gives the test barcode. */
  reading: KeyReading | null;
  /** Both readings give the test barcode: the scanner's layout and the PC's agree. */
  sameLayout: boolean;
  prefix: string;
  suffix: 'Enter' | 'Tab' | null;
  /** Shortest and longest pause between the scan's keys, ms. */
  fastestMs: number;
  slowestMs: number;
  /** Timing settings that fit this scanner (never stricter than the defaults). */
  maxGapMs: number;
  fastGapMs: number;
}

const DEFAULT_MAX_GAP_MS = 50;
const DEFAULT_FAST_GAP_MS = 15;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** The findings of one recorded test scan; null when it held no character at all. */
export function analyseTestScan(keys: readonly KeyLike[], expected: string = TEST_BARCODE): ScannerFinding | null {
  const chars: { index: number; positions: string; characters: string }[] = [];
  keys.forEach((key, index) => {
    const positions = scanCharacter(key, 'positions');
    const characters = scanCharacter(key, 'characters');
    if (positions !== null || characters !== null) chars.push({ index, positions: positions ?? '', characters: characters ?? '' });
  });
  if (chars.length === 0) return null;
  const byPositions = chars.map((c) => c.positions).join('');
  const byCharacters = chars.map((c) => c.characters).join('');
  const atPositions = byPositions.indexOf(expected);
  const atCharacters = byCharacters.indexOf(expected);
  const reading: KeyReading | null = atPositions >= 0 ? 'positions' : atCharacters >= 0 ? 'characters' : null;
  const text = reading === 'characters' ? byCharacters : byPositions;
  const at = reading === 'characters' ? atCharacters : atPositions;
  const prefix = reading === null ? '' : text.slice(0, at);

  // The key after the test barcode's last character ends the scan; modifiers in between do not count.
  const lastChar = reading === null ? chars.at(-1)! : chars[[...text.slice(0, at + expected.length)].length - 1]!;
  const after = keys.slice(lastChar.index + 1).find((k) => !['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock'].includes(k.key));
  const suffix = after?.key === 'Enter' || after?.key === 'Tab' ? after.key : null;

  const times = chars.map((c) => keys[c.index]!.timeStamp);
  if (suffix !== null) times.push(after!.timeStamp);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  const fastestMs = gaps.length > 0 ? Math.round(Math.min(...gaps)) : 0;
  const slowestMs = gaps.length > 0 ? Math.round(Math.max(...gaps)) : 0;
  const maxGapMs = clamp(Math.max(DEFAULT_MAX_GAP_MS, Math.ceil(slowestMs * 3)), SCAN_LIMITS.maxGapMs.min, SCAN_LIMITS.maxGapMs.max);
  const fastGapMs = clamp(Math.max(DEFAULT_FAST_GAP_MS, Math.ceil(slowestMs * 2) + 5), SCAN_LIMITS.fastGapMs.min, maxGapMs);
  return {
    received: byCharacters,
    reading,
    sameLayout: atPositions >= 0 && atCharacters >= 0 && byPositions === byCharacters,
    prefix,
    suffix,
    fastestMs,
    slowestMs,
    maxGapMs,
    fastGapMs,
  };
}
