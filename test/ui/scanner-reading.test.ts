// What the UI makes of a scan's text (plain barcode or GS1 element string), what it learns from a
// scan of the scanner test's barcode, and the test barcode itself (Code 128).
import { describe, expect, it } from 'vitest';
import { readScan, visibleText } from '../../renderer/src/scan/scanned-code.ts';
import type { KeyLike } from '../../renderer/src/scan/scan-detector.ts';
import { usKeyOf } from '../../renderer/src/scan/us-keyboard.ts';
import { code128Values, code128Widths } from '../../shared/code128.ts';
import { decodeImage, pgm } from '../support/barcode-decoder.ts';
import { TEST_BARCODE, analyseTestScan } from '../../renderer/src/settings/scanner-test.ts';

const GS = '\u001d';
const today = new Date(Date.UTC(2026, 10, 23));

describe('reading a scan', () => {
  it('takes a plain barcode as it is, and drops a symbology identifier', () => {
    expect(readScan('GC-2024/001')).toEqual({ ok: true, scan: { text: 'GC-2024/001', barcodes: ['GC-2024/001'] } });
    expect(readScan(']E04006381333931')).toEqual({ ok: true, scan: { text: '4006381333931', barcodes: ['4006381333931'] } });
  });

  it('looks a GS1 scan up by every form of its GTIN and keeps batch, expiry, serial and count', () => {
    const reading = readScan(`01000123456789051012A${GS}17261231${GS}2199${GS}3712`, [], today);
    expect(reading).toMatchObject({
      ok: true,
      scan: {
        barcodes: ['00012345678905', '0012345678905', '012345678905'],
        gs1: { gtin: '00012345678905', batch: '12A', expiry: '2026-12-31', serial: '99', count: 12 },
      },
    });
    // With a substitute separator set in Settings.
    expect(readScan('0100012345678905|3712', ['|'], today)).toMatchObject({ ok: true, scan: { gs1: { count: 12 } } });
  });

  it('tries digits that only look like GS1 as a plain barcode too', () => {
    const reading = readScan('0100012345678905', [], today);
    expect(reading.ok && reading.scan.barcodes).toEqual(['00012345678905', '0012345678905', '012345678905', '0100012345678905']);
  });

  it('refuses a scan that says it is GS1 but is not readable, and one with a control character', () => {
    expect(readScan(`0100012345678906${GS}10A`, [], today)).toMatchObject({ ok: false, problem: { kind: 'gs1', error: 'check-digit' } });
    expect(readScan('12\u000034')).toMatchObject({ ok: false, problem: { kind: 'control-character' } });
    expect(visibleText(`01${GS}10\u0000`)).toBe('01⟨GS⟩10⟨NUL⟩');
  });
});

/** Key events a scanner set to a US layout sends for `text`, as a PC with `layout` reports them. */
function usScannerKeys(
  text: string,
  layout: Record<string, string>,
  gapMs: number,
  prefix = '',
  suffix: string | null = 'Enter',
): KeyLike[] {
  let t = 1000;
  const events: KeyLike[] = [];
  for (const ch of prefix + text) {
    const { code, shift } = usKeyOf(ch)!;
    if (shift) events.push({ key: 'Shift', code: 'ShiftLeft', shiftKey: true, timeStamp: t });
    events.push({ key: layout[ch] ?? ch, code, shiftKey: shift, timeStamp: (t += gapMs) });
  }
  if (suffix) events.push({ key: suffix, code: suffix, timeStamp: t + gapMs });
  return events;
}

describe('the scanner test', () => {
  it('finds a US-set scanner on a German PC, its prefix, suffix and speed, in plain terms', () => {
    // What a German layout makes of a US scanner's keys for the test barcode.
    const german = { Y: 'Z', z: 'y', '-': 'ß', '/': '-', '.': '.' };
    const finding = analyseTestScan(usScannerKeys(TEST_BARCODE, german, 3, ']C0'));
    expect(finding).toEqual({
      received: ']C0Zy' + 'ß' + 'Qa-Mi.07',
      reading: 'positions',
      sameLayout: false,
      prefix: ']C0',
      suffix: 'Enter',
      fastestMs: 3,
      slowestMs: 3,
      maxGapMs: 50,
      fastGapMs: 15,
    });
  });

  it('finds a scanner that matches the PC, a slow one, and one that sends no suffix', () => {
    const same = analyseTestScan(usScannerKeys(TEST_BARCODE, {}, 2));
    expect(same).toMatchObject({ reading: 'positions', sameLayout: true, prefix: '', suffix: 'Enter' });
    const slow = analyseTestScan(usScannerKeys(TEST_BARCODE, {}, 40, '', 'Tab'));
    expect(slow).toMatchObject({ suffix: 'Tab', slowestMs: 40, maxGapMs: 120, fastGapMs: 85 });
    expect(analyseTestScan(usScannerKeys(TEST_BARCODE, {}, 2, '', null))).toMatchObject({ suffix: null });
  });

  it('finds a scanner set up for the PC layout (characters right, positions not)', () => {
    // A German-set scanner on a German PC: "Y" is typed with the key at the US Z position.
    const keys: KeyLike[] = [...'Yz-Qa/Mi.07'].map((ch, i) => {
      const positions: Record<string, [string, boolean]> = {
        Y: ['KeyZ', true],
        z: ['KeyY', false],
        '-': ['Slash', false],
        '/': ['Digit7', true],
      };
      const [code, shift] = positions[ch] ?? [usKeyOf(ch)!.code, usKeyOf(ch)!.shift];
      return { key: ch, code, shiftKey: shift, timeStamp: i * 2 };
    });
    keys.push({ key: 'Enter', code: 'Enter', timeStamp: 30 });
    expect(analyseTestScan(keys)).toMatchObject({ reading: 'characters', sameLayout: false });
  });

  it('says so when no reading gives the test barcode, and when nothing arrived', () => {
    expect(analyseTestScan(usScannerKeys('something else', {}, 2))).toMatchObject({ reading: null, received: 'something else' });
    expect(analyseTestScan([{ key: 'Shift', timeStamp: 0 }])).toBeNull();
  });
});

describe('the test barcode (Code 128, code set B)', () => {
  it('encodes start B, the characters, the mod 103 check symbol, then the stop', () => {
    expect(code128Values('PJJ123C')).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55]);
    expect(code128Values(TEST_BARCODE).at(-1)).toBe(60);
    const widths = code128Widths(TEST_BARCODE);
    // 11 modules per symbol, 13 for the stop.
    expect(widths.reduce((a, b) => a + b, 0)).toBe(11 * (TEST_BARCODE.length + 2) + 13);
    expect(() => code128Values('é')).toThrow();
  });

  it('writes a run of digits that ends the text in code set C, two per symbol (a badge)', () => {
    // ISO/IEC 15417's rule: CODE C (99) then one symbol per pair; the check symbol weighs every symbol by position.
    expect(code128Values('AB1234')).toEqual([104, 33, 34, 99, 12, 34, (104 + 33 + 2 * 34 + 3 * 99 + 4 * 12 + 5 * 34) % 103]);
    expect(code128Values('123456')).toEqual([105, 12, 34, 56, (105 + 12 + 2 * 34 + 3 * 56) % 103]);
    // An odd run keeps its first digit in set B; a short one stays in set B.
    expect(code128Values('A12345').slice(0, 4)).toEqual([104, 33, 17, 99]);
    expect(code128Values('A12')).toEqual([104, 33, 17, 18, (104 + 33 + 2 * 17 + 3 * 18) % 103]);
  });

  it('draws a badge that an independent decoder (ZXing) reads back exactly, as the test barcode', async () => {
    for (const text of ['BADGE-012345678901234567890123', 'BADGE-999999999999999999999999', TEST_BARCODE]) {
      const widths = code128Widths(text);
      const scale = 3;
      const quiet = 10 * scale;
      const width = widths.reduce((a, b) => a + b, 0) * scale + 2 * quiet;
      const height = 40;
      const row = new Uint8Array(width).fill(255);
      let x = quiet;
      widths.forEach((w, i) => {
        if (i % 2 === 0) row.fill(0, x, x + w * scale);
        x += w * scale;
      });
      const pixels = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) pixels.set(row, y * width);
      expect(await decodeImage(pgm(width, height, pixels))).toEqual([{ format: 'Code128', text }]);
    }
  });
});
