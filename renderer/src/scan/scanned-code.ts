// What a scan stands for: a plain barcode, or a GS1 element string (GS1-128, GS1 DataMatrix) whose
// GTIN is looked up in every form it may be stored in and whose batch, expiry, serial and count
// travel with it. Pure (no DOM), so it is unit-tested with the shared parser.
import {
  GROUP_SEPARATOR,
  type Gs1Data,
  type Gs1ErrorCode,
  gtinForms,
  looksLikeGs1,
  parseGs1,
  stripSymbologyId,
} from '../../../shared/index.ts';

export interface Scan {
  /** The scan as the scanner sent it (prefix and symbology identifier removed), for messages. */
  text: string;
  /** The barcodes to look up, best first; the first one found is the item. */
  barcodes: string[];
  gs1?: Gs1Data;
}

export type ScanProblem = { kind: 'gs1'; error: Gs1ErrorCode; ai?: string | undefined } | { kind: 'control-character' };

export type ScanReading = { ok: true; scan: Scan } | { ok: false; text: string; problem: ScanProblem };

/** A typed or pasted barcode: looked up exactly as written. */
export const plainScan = (barcode: string): Scan => ({ text: barcode, barcodes: [barcode] });

/** C0 controls and DEL: never part of a barcode a person can read or type. */
export const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.codePointAt(0)! < 0x20 || c.codePointAt(0) === 0x7f);

/**
 * Reads one scan. `separators` are the characters the scanner sends for FNC1 besides ASCII 29. A
 * scan that only looks like GS1 by its digits (no separator, identifier or brackets) and does not
 * parse is a plain barcode; one that says it is GS1 and does not parse is refused with the reason.
 */
export function readScan(text: string, separators: readonly string[] = [], today?: Date): ScanReading {
  const { text: body, gs1: announced } = stripSymbologyId(text);
  if (looksLikeGs1(text, { separators })) {
    const parsed = parseGs1(text, { separators, ...(today ? { today } : {}) });
    const explicit = announced || body.startsWith('(') || [GROUP_SEPARATOR, ...separators].some((s) => s !== '' && body.includes(s));
    if (parsed.ok) {
      const barcodes = parsed.data.gtin ? gtinForms(parsed.data.gtin) : [];
      // Digits that only looked like GS1 may be a plain barcode of the catalogue after all.
      if (!explicit || barcodes.length === 0) barcodes.push(body);
      return { ok: true, scan: { text: body, barcodes: [...new Set(barcodes)], gs1: parsed.data } };
    }
    if (explicit) return { ok: false, text: body, problem: { kind: 'gs1', error: parsed.error, ai: parsed.ai } };
  }
  if (hasControlCharacter(body)) return { ok: false, text: body, problem: { kind: 'control-character' } };
  return { ok: true, scan: plainScan(body) };
}

/** A scan's text with control characters made visible (⟨GS⟩, ⟨NUL⟩…), for messages. */
export function visibleText(text: string): string {
  const names: Record<number, string> = { 0: 'NUL', 9: 'TAB', 10: 'LF', 13: 'CR', 27: 'ESC', 29: 'GS', 30: 'RS', 127: 'DEL' };
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      return code < 0x20 || code === 0x7f ? `⟨${names[code] ?? `0x${code.toString(16).padStart(2, '0')}`}⟩` : c;
    })
    .join('');
}
