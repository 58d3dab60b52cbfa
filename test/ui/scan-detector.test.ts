// The scan detector on synthetic key timings: people, fast typists, scanners, and their mixtures.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCAN_SETTINGS,
  type KeyContext,
  type KeyLike,
  type KeyVerdict,
  createScanDetector,
} from '../../renderer/src/scan/scan-detector.ts';
import { mulberry32 as seeded } from '../support/seeded-random.ts';

/** Key events of `text` (one per character, as KeyboardEvent.key gives them) then `suffix`, `gap()` ms apart. */
function keys(text: string, start: number, gap: () => number, suffix: string | null = 'Enter'): KeyLike[] {
  const out: KeyLike[] = [];
  let t = start;
  for (const ch of [...text]) {
    out.push({ key: ch, timeStamp: t });
    t += gap();
  }
  if (suffix !== null) out.push({ key: suffix, timeStamp: t });
  return out;
}

function scansOf(verdicts: KeyVerdict[]): string[] {
  return verdicts.flatMap((v) => (v.kind === 'scan' ? [v.code] : []));
}

function feedAll(events: KeyLike[], settings = DEFAULT_SCAN_SETTINGS, context: KeyContext = { inTextField: false }): KeyVerdict[] {
  const detector = createScanDetector(settings);
  return events.map((e) => detector.feed(e, context));
}

/** Keys typed into a focused text field, where a person's short quick entries must stay typing. */
const inField = (events: KeyLike[], settings = DEFAULT_SCAN_SETTINGS) => feedAll(events, settings, { inTextField: true });

describe('scan detector', () => {
  it('recognises a scanner burst ending in Enter and asks to swallow the Enter', () => {
    const verdicts = feedAll(keys('8690000000017', 1000, () => 8));
    expect(verdicts.at(-1)).toEqual({ kind: 'scan', code: '8690000000017' });
    expect(verdicts[0]).toEqual({ kind: 'char', startsBurst: true });
    expect(verdicts.slice(1, -1).every((v) => v.kind === 'char' && !v.startsBurst)).toBe(true);
  });

  it('refuses the tail of a scan cut by a scanner hiccup, instead of taking it as another barcode (issue 29, 2)', () => {
    // 13 keys 5 ms apart with one 75 ms pause: before, "0000017" or "690000000017" came out as scans
    // of their own (a wrong unknown line in a stocktake, or the wrong item where the tail is a code).
    for (const cut of [1, 6, 12]) {
      const events = keys('8690000000017', 1000, () => 5);
      for (const e of events.slice(cut)) e.timeStamp += 70;
      const verdicts = feedAll(events);
      expect(scansOf(verdicts), `cut after ${cut}`).toEqual([]);
      expect(verdicts.at(-1)).toEqual({ kind: 'refused', reason: 'fragment', code: '8690000000017'.slice(cut), gapMs: 75 });
      expect(verdicts[cut]).toEqual({ kind: 'char', startsBurst: true, resumes: true });
      // In a text field too, where the field keeps what was typed before the whole scan.
      expect(inField(events).at(-1)).toMatchObject({ kind: 'refused', reason: 'fragment' });
    }
    // A person's key, then a scan a moment later (more than four scan pauses): the scan is whole and taken.
    const typedThenScanned = [{ key: '7', timeStamp: 0 }, ...keys('8690000000017', 260, () => 5)];
    expect(scansOf(feedAll(typedThenScanned))).toEqual(['8690000000017']);
  });

  it('treats slow human typing followed by Enter as typing, never as a scan', () => {
    const random = seeded(1);
    for (let i = 0; i < 200; i++) {
      // People type 120-400 ms per key; even a quick pair of keys is well above 50 ms.
      const verdicts = inField(keys(String(100000 + i * 7919), 0, () => 120 + random() * 280));
      expect(scansOf(verdicts)).toEqual([]);
      expect(verdicts.at(-1)).toEqual({ kind: 'other' });
    }
  });

  it('treats a fast typist (occasional sub-50 ms pairs) as typing', () => {
    const random = seeded(2);
    for (let i = 0; i < 200; i++) {
      // 60-140 ms per key, with every third key rolled over quickly (25-45 ms).
      let n = 0;
      const gap = () => (++n % 3 === 0 ? 25 + random() * 20 : 60 + random() * 80);
      expect(scansOf(inField(keys('4006381333931', 0, gap)))).toEqual([]);
      expect(scansOf(feedAll(keys('4006381333931', 0, gap)))).toEqual([]);
    }
  });

  it('takes a fast burst of any length ending in the suffix as a scan when no text field has focus', () => {
    expect(scansOf(feedAll(keys('111', 0, () => 5)))).toEqual(['111']);
    expect(scansOf(feedAll(keys('7', 0, () => 30)))).toEqual(['7']);
    expect(scansOf(feedAll(keys('   ', 0, () => 5)))).toEqual([]); // only spaces: never a barcode
  });

  it('in a text field, takes a short burst as a scan only at scanner speed, so a quick "12⏎" stays typing', () => {
    expect(scansOf(inField(keys('111', 0, () => 2)))).toEqual(['111']); // a scanner: 2 ms per key
    expect(scansOf(inField(keys('12', 0, () => 30)))).toEqual([]); // a quick person
    expect(scansOf(inField(keys('7', 0, () => 0)))).toEqual([]); // one key and Enter, however fast
    expect(scansOf(inField(keys('1234', 0, () => 30)))).toEqual(['1234']); // the shortest scan at normal speed
  });

  it('says why characters typed outside any field did nothing: too slow for a scan', () => {
    const verdicts = feedAll(keys('4006', 0, () => 180));
    expect(scansOf(verdicts)).toEqual([]);
    expect(verdicts.at(-1)).toEqual({ kind: 'other', slow: { length: 4, gapMs: 180 } });
    // In a field the person sees what they typed: nothing to explain.
    expect(inField(keys('4006', 0, () => 180)).at(-1)).toEqual({ kind: 'other' });
  });

  it('does not take a burst whose Enter comes late (a person pressing Enter after a paste-like burst)', () => {
    const events = keys('12345678', 0, () => 5, null);
    events.push({ key: 'Enter', timeStamp: 35 + 400 });
    expect(scansOf(feedAll(events))).toEqual([]);
  });

  it('finds a scan that arrives while a person is typing, and keeps only the scanned characters', () => {
    const random = seeded(3);
    const human = keys('12', 0, () => 150 + random() * 100, null);
    const scan = keys('0042/ABC-7', human.at(-1)!.timeStamp + 300, () => 4);
    const more = keys('3', scan.at(-1)!.timeStamp + 200, () => 0);
    const verdicts = inField([...human, ...scan, ...more]);
    expect(scansOf(verdicts)).toEqual(['0042/ABC-7']);
    // The person's own Enter afterwards is not a scan.
    expect(verdicts.at(-1)).toEqual({ kind: 'other' });
  });

  it('accepts Tab as the suffix', () => {
    const verdicts = feedAll(keys('5901234123457', 0, () => 6, 'Tab'));
    expect(verdicts.at(-1)).toEqual({ kind: 'scan', code: '5901234123457' });
  });

  it('ignores a suffix it was not told about', () => {
    const settings = { ...DEFAULT_SCAN_SETTINGS, terminators: ['Enter'] };
    expect(
      scansOf(
        feedAll(
          keys('5901234123457', 0, () => 6, 'Tab'),
          settings,
        ),
      ),
    ).toEqual([]);
  });

  it('delivers back-to-back scans at 1 ms per key, all of them, in order', () => {
    const codes = Array.from({ length: 100 }, (_, i) => String(i).padStart(13, '0'));
    const events: KeyLike[] = [];
    let t = 0;
    for (const code of codes) {
      const burst = keys(code, t, () => 1);
      events.push(...burst);
      t = burst.at(-1)!.timeStamp + 1;
    }
    expect(scansOf(feedAll(events))).toEqual(codes);
  });

  it('copes with repeated and coarse timestamps inside a burst', () => {
    expect(scansOf(feedAll(keys('00001234', 500, () => 0)))).toEqual(['00001234']);
  });

  it('keeps characters exactly: leading zeros, punctuation, non-ASCII and characters outside the BMP', () => {
    for (const code of ['0000000017', 'AB-12/34 X', 'ÇİĞÖŞÜ-çığöşü', 'Ürün№7', '𝟘𝟙𝟚𝟛-😀', 'ab\u00e9cd']) {
      expect(scansOf(feedAll(keys(code, 0, () => 3)))).toEqual([code]);
    }
  });

  it('lets Shift (pressed by scanners for capitals) pass without breaking the scan', () => {
    const events: KeyLike[] = [];
    let t = 0;
    for (const ch of 'AbC-123') {
      if (ch !== ch.toLowerCase()) events.push({ key: 'Shift', timeStamp: t++ });
      events.push({ key: ch, timeStamp: t++ });
    }
    events.push({ key: 'Enter', timeStamp: t });
    const verdicts = feedAll(events);
    expect(scansOf(verdicts)).toEqual(['AbC-123']);
    expect(verdicts.filter((v) => v.kind === 'ignored')).toHaveLength(2);
  });

  it('breaks a run on editing keys and on shortcuts, but not on AltGr characters', () => {
    const withBackspace = keys('1234', 0, () => 5, null);
    withBackspace.push({ key: 'Backspace', timeStamp: 20 }, ...keys('56', 25, () => 20));
    expect(scansOf(inField(withBackspace))).toEqual([]);

    const paste: KeyLike[] = [...keys('12', 0, () => 5, null), { key: 'v', timeStamp: 10, ctrlKey: true }, ...keys('34', 15, () => 20)];
    expect(scansOf(inField(paste))).toEqual([]);

    const altGr: KeyLike[] = [
      ...keys('12', 0, () => 5, null),
      { key: '@', timeStamp: 10, ctrlKey: true, altKey: true },
      ...keys('34', 15, () => 5),
    ];
    expect(scansOf(feedAll(altGr))).toEqual(['12@34']);
  });

  it('follows the adjustable gap and length settings', () => {
    const slowScanner = keys('12345678', 0, () => 70);
    expect(scansOf(feedAll(slowScanner))).toEqual([]);
    expect(scansOf(feedAll(slowScanner, { ...DEFAULT_SCAN_SETTINGS, maxGapMs: 80 }))).toEqual(['12345678']);
    expect(
      scansOf(
        inField(
          keys('12345', 0, () => 20),
          { ...DEFAULT_SCAN_SETTINGS, minLength: 6 },
        ),
      ),
    ).toEqual([]);
    expect(
      scansOf(
        inField(
          keys('123', 0, () => 20),
          { ...DEFAULT_SCAN_SETTINGS, fastGapMs: 25 },
        ),
      ),
    ).toEqual(['123']);
  });

  it('forgets a run on reset', () => {
    const detector = createScanDetector();
    for (const e of keys('1234', 0, () => 5, null)) detector.feed(e);
    detector.reset();
    expect(detector.feed({ key: 'Enter', timeStamp: 21 })).toEqual({ kind: 'other' });
  });

  it('reads a US-set scanner on a German, French or Turkish PC by key position (KeyboardEvent.code)', () => {
    // "Zy-7/.i" as a US-set scanner types it, and what each layout makes of those keys.
    const press = (code: string, shift: boolean, key: string, t: number): KeyLike => ({ key, code, shiftKey: shift, timeStamp: t });
    const layouts: Record<string, [string, boolean, string][]> = {
      de: [
        ['KeyZ', true, 'Y'],
        ['KeyY', false, 'z'],
        ['Minus', false, 'ß'],
        ['Digit7', false, '7'],
        ['Slash', false, '-'],
        ['Period', false, '.'],
        ['KeyI', false, 'i'],
      ],
      fr: [
        ['KeyZ', true, 'W'],
        ['KeyY', false, 'y'],
        ['Minus', false, ')'],
        ['Digit7', false, 'è'],
        ['Slash', false, '!'],
        ['Period', false, ':'],
        ['KeyI', false, 'i'],
      ],
      tr: [
        ['KeyZ', true, 'Z'],
        ['KeyY', false, 'y'],
        ['Minus', false, '*'],
        ['Digit7', false, '7'],
        ['Slash', false, '.'],
        ['Period', false, 'ç'],
        ['KeyI', false, 'ı'],
      ],
    };
    for (const [layout, presses] of Object.entries(layouts)) {
      const events = presses.map(([code, shift, key], i) => press(code, shift, key, i * 2));
      events.push({ key: 'Enter', code: 'Enter', timeStamp: 20 });
      expect(scansOf(feedAll(events)), layout).toEqual(['Zy-7/.i']);
      // Set to this PC's layout, the characters are taken as the layout made them.
      expect(scansOf(feedAll(events, { ...DEFAULT_SCAN_SETTINGS, reading: 'characters' })), layout).toEqual([
        presses.map(([, , key]) => key).join(''),
      ]);
    }
  });

  it('reads Caps Lock right by position, and keeps keys a US keyboard does not have as typed', () => {
    // Caps Lock on: the scanner's Shift+A types "a", its plain b types "B".
    const caps: KeyLike[] = [
      { key: 'a', code: 'KeyA', shiftKey: true, timeStamp: 0 },
      { key: 'B', code: 'KeyB', timeStamp: 1 },
      { key: '<', code: 'IntlBackslash', timeStamp: 2 },
      { key: 'ü', code: '', timeStamp: 3 },
      { key: 'Enter', code: 'Enter', timeStamp: 4 },
    ];
    expect(scansOf(feedAll(caps))).toEqual(['Ab<ü']);
  });

  it('counts a key position that is a dead key on the PC (` and = on German keyboards)', () => {
    const events: KeyLike[] = [
      { key: '1', code: 'Digit1', timeStamp: 0 },
      { key: 'Dead', code: 'Equal', timeStamp: 1 },
      { key: '2', code: 'Digit2', timeStamp: 2 },
      { key: 'Enter', code: 'Enter', timeStamp: 3 },
    ];
    expect(scansOf(feedAll(events))).toEqual(['1=2']);
    expect(scansOf(feedAll(events, { ...DEFAULT_SCAN_SETTINGS, reading: 'characters' }))).toEqual(['12']);
  });

  it('keeps the GS1 separator: Ctrl+] as scanners send FNC1, or the character itself', () => {
    const events: KeyLike[] = [
      ...keys('0109501101530003', 0, () => 1, null),
      { key: ']', code: 'BracketRight', ctrlKey: true, timeStamp: 20 },
      ...keys('10AB', 21, () => 1, null),
      { key: '\u001d', timeStamp: 30 },
      ...keys('3712', 31, () => 1),
    ];
    expect(scansOf(feedAll(events))).toEqual(['0109501101530003\u001d10AB\u001d3712']);
  });

  it('refuses a scan that contains a control character (a NUL from the keyboard), swallowing its Enter', () => {
    const verdicts = feedAll(keys('12\u000034', 0, () => 1));
    expect(scansOf(verdicts)).toEqual([]);
    expect(verdicts.at(-1)).toEqual({ kind: 'refused', code: '12\u000034', reason: 'control-character' });
  });

  it('removes the prefix the scanner sends before every code', () => {
    const settings = { ...DEFAULT_SCAN_SETTINGS, prefix: ']C0' };
    expect(
      scansOf(
        feedAll(
          keys(']C0GC-2024/001', 0, () => 1),
          settings,
        ),
      ),
    ).toEqual(['GC-2024/001']);
    expect(
      scansOf(
        feedAll(
          keys('GC-2024/001', 0, () => 1),
          settings,
        ),
      ),
    ).toEqual(['GC-2024/001']);
  });
});
