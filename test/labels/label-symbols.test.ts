// Proof that a printed label scans: each symbology a label uses is rendered and read back by an
// independent decoder (ZXing in WebAssembly, test/support/barcode-decoder.ts), from bwip-js's picture,
// from the PDF as poppler rasterises it, and from the ZPL's bitmaps; and the rules that choose the
// symbology by what the code is.
import bwipjs from 'bwip-js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { internalCode, isValidGtin, labelLayout, symbolFor } from '../../shared/index.ts';
import type { PrintedLabel } from '../../server/labels/label-document.ts';
import { labelPdf } from '../../server/labels/label-pdf.ts';
import { labelZpl } from '../../server/labels/label-zpl.ts';
import { decodeImage, pdfPages, pgm } from '../support/barcode-decoder.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'bi-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each case: the code, what symbolFor makes of it, and what a scanner reads (ZXing's format and text). */
const cases = [
  { code: '4006381333931', extra: {}, bcid: 'ean13', format: 'EAN13', text: '4006381333931' },
  // A UPC-A is the EAN-13 with a leading 0; ZXing reading every format reports it that way (as many
  // scanners do), which GTIN equivalence matches to the UPC-A (docs/API.md).
  { code: '012345678905', extra: {}, bcid: 'upca', format: 'EAN13', text: '0012345678905' },
  { code: '96385074', extra: {}, bcid: 'ean8', format: 'EAN8', text: '96385074' },
  { code: '10012345678902', extra: {}, bcid: 'gs1-128', format: 'Code128', text: '(01)10012345678902' },
  { code: 'GC-2024/001', extra: {}, bcid: 'code128', format: 'Code128', text: 'GC-2024/001' },
  // 13 digits with a wrong check digit are not a GTIN: printed as they are, in Code 128.
  { code: '4006381333932', extra: {}, bcid: 'code128', format: 'Code128', text: '4006381333932' },
  {
    code: '4006381333931',
    extra: { batch: 'L42-A', expiry: '2027-03-31', gs1: 'datamatrix' as const },
    bcid: 'gs1datamatrix',
    format: 'DataMatrix',
    text: '(01)04006381333931(17)270331(10)L42-A',
  },
  {
    code: '4006381333931',
    extra: { expiry: '2027-03-31', gs1: '128' as const },
    bcid: 'gs1-128',
    format: 'Code128',
    text: '(01)04006381333931(17)270331',
  },
];

const label = (c: (typeof cases)[number], itemName: string | null): PrintedLabel => ({
  barcode: c.code,
  itemName,
  variantName: 'Blue',
  warehouse: 'Main',
  symbol: symbolFor(c.code, c.extra),
});

describe('the symbology is chosen by what the code is', () => {
  it.each(cases)('$code $extra → $bcid', (c) => {
    expect(symbolFor(c.code, c.extra).bcid).toBe(c.bcid);
  });

  it('refuses batch or expiry for a code that is not a GTIN', () => {
    expect(() => symbolFor('GC-2024/001', { batch: 'L1' })).toThrow(/not a GTIN/);
  });

  it("makes internal codes as EAN-13 with the prefix and a right check digit, and says when a prefix's numbers run out", () => {
    expect(internalCode('20', 1)).toBe('2000000000015');
    expect(isValidGtin(internalCode('20', 1)!)).toBe(true);
    expect(internalCode('4012345', 99_999)).toMatch(/^401234599999\d$/);
    expect(isValidGtin(internalCode('4012345', 99_999)!)).toBe(true);
    expect(internalCode('4012345', 100_000)).toBeNull();
  });
});

describe('every symbology scans back to its code', () => {
  it.each(cases)('bwip-js picture of $bcid $text reads back as $format', async (c) => {
    const symbol = symbolFor(c.code, c.extra);
    const png = await bwipjs.toBuffer({ bcid: symbol.bcid, text: symbol.data, scale: 3, padding: 10, backgroundcolor: 'FFFFFF' });
    expect(await decodeImage(png)).toEqual([{ format: c.format, text: c.text }]);
  });

  it('the PDF, rasterised by pdftoppm at 300 dpi, reads back on sheets and on a roll', async () => {
    for (const layout of ['a4-3x8', 'roll-50x25']) {
      const pdf = path.join(dir, `${layout}.pdf`);
      writeFileSync(
        pdf,
        await labelPdf({ layout: labelLayout(layout)!, labels: cases.map((c) => label(c, 'Çay bardağı (large)')), skip: 0 }),
      );
      const decoded = (await Promise.all((await pdfPages(pdf, 300)).map(decodeImage))).flat();
      expect(decoded.map((d) => d.text).sort(), layout).toEqual(cases.map((c) => c.text).sort());
    }
  });

  it("the ZPL's barcode bitmaps (^GFA, rows repeated with ':') read back", async () => {
    const zpl = await labelZpl({ layout: labelLayout('roll-50x25')!, labels: cases.map((c) => label(c, 'Mug')), skip: 0 });
    const fields = [...zpl.matchAll(/\^GFA,(\d+),\d+,(\d+),([0-9A-F:]+)\^FS/g)];
    expect(fields).toHaveLength(cases.length);
    const decoded = [];
    for (const [, total, rowBytes, data] of fields) {
      const width = Number(rowBytes) * 8;
      const rows: string[] = [];
      for (let at = 0; at < data!.length;) {
        const repeat = data![at] === ':';
        rows.push(repeat ? rows.at(-1)! : data!.slice(at, at + 2 * Number(rowBytes)));
        at += repeat ? 1 : 2 * Number(rowBytes);
      }
      const bytes = Buffer.from(rows.join(''), 'hex');
      expect(bytes.length).toBe(Number(total));
      const height = bytes.length / Number(rowBytes);
      // A white margin around the bitmap, as the label's padding gives it, then one byte per pixel.
      const margin = 40;
      const pixels = new Uint8Array((width + 2 * margin) * (height + 2 * margin)).fill(255);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          if (bytes[y * Number(rowBytes) + (x >> 3)]! & (0x80 >> (x & 7))) pixels[(y + margin) * (width + 2 * margin) + x + margin] = 0;
      decoded.push(...(await decodeImage(pgm(width + 2 * margin, height + 2 * margin, pixels))));
    }
    expect(decoded.map((d) => d.text)).toEqual(cases.map((c) => c.text));
    // Names in UTF-8 (^CI28), every byte outside plain ASCII written as _XX under ^FH.
    expect(await labelZpl({ layout: labelLayout('roll-62')!, labels: [label(cases[0]!, 'Çay^~')], skip: 0 })).toContain(
      '^FH_^FD_C3_87ay_5E_7E^FS',
    );
  });
});
