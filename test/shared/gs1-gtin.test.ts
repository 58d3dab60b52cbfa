// GTIN check digits and forms, and GS1 element strings, against the examples of the GS1 General
// Specifications (check digit calculation 7.9.1, element strings 3 and 7.8, the century of
// two-digit years 7.12) and the shapes keyboard-wedge scanners send them in.
import { describe, expect, it } from 'vitest';
import {
  GROUP_SEPARATOR as GS,
  equivalentBarcodes,
  gtinCheckDigit,
  gtinForms,
  isValidGtin,
  looksLikeGs1,
  parseGs1,
  stripSymbologyId,
  toGtin14,
} from '../../shared/index.ts';

const today = new Date(Date.UTC(2026, 10, 23));

describe('GTIN check digits (GS1 General Specifications 7.9.1)', () => {
  it('computes the specification example and common printed codes', () => {
    expect(gtinCheckDigit('629104150021')).toBe(3); // the specification's GTIN-13 example, 6291041500213
    expect(gtinCheckDigit('0950110153000')).toBe(3); // GTIN-14 09501101530003 of the GS1 examples
    expect(gtinCheckDigit('03600029145')).toBe(2); // UPC-A 036000291452
    expect(gtinCheckDigit('9638507')).toBe(4); // EAN-8 96385074
    expect(gtinCheckDigit('10614141123456789')).toBe(7); // SSCC 106141411234567897: the same rule over 17 digits
  });

  it('accepts 8, 12, 13 and 14 digits with the right check digit only', () => {
    for (const good of ['96385074', '036000291452', '6291041500213', '09501101530003', '4006381333931'])
      expect(isValidGtin(good), good).toBe(true);
    for (const bad of ['6291041500214', '8690000000017', '96385075', '1234567', '123456789012345', '62910415002l3', '', ' 6291041500213'])
      expect(isValidGtin(bad), bad).toBe(false);
  });
});

describe('GTIN forms', () => {
  it('writes UPC-A, EAN-13 and GTIN-14 of one product as one 14-digit form', () => {
    expect(toGtin14('012345678905')).toBe('00012345678905');
    expect(toGtin14('0012345678905')).toBe('00012345678905');
    expect(toGtin14('00012345678905')).toBe('00012345678905');
    expect(toGtin14('96385074')).toBe('00000096385074');
    expect(toGtin14('012345678906')).toBeNull(); // wrong check digit: not a GTIN, matched exactly
  });

  it('lists every equivalent way to write it, the scanned form first', () => {
    expect(gtinForms('00012345678905')).toEqual(['00012345678905', '0012345678905', '012345678905']);
    expect(gtinForms('00000096385074')).toEqual(['00000096385074', '0000096385074', '000096385074', '96385074']);
    expect(gtinForms('10614141000019')).toEqual(['10614141000019']); // indicator digit 1: a case, another product
    expect(equivalentBarcodes('0012345678905')).toEqual(['0012345678905', '00012345678905', '012345678905']);
    expect(equivalentBarcodes('8690000000017')).toEqual(['8690000000017']);
    expect(equivalentBarcodes('GC-2024/001')).toEqual(['GC-2024/001']);
  });
});

describe('GS1 element strings', () => {
  it('reads the specification example in the printed form and as a scanner sends it', () => {
    const printed = parseGs1('(01)09501101530003(17)140704(10)AB-123', { today });
    const sent = parseGs1(`0109501101530003171407041` + `0AB-123`, { today });
    for (const result of [printed, sent]) {
      expect(result).toEqual({
        ok: true,
        data: {
          elements: [
            { ai: '01', value: '09501101530003' },
            { ai: '17', value: '140704' },
            { ai: '10', value: 'AB-123' },
          ],
          gtin: '09501101530003',
          expiry: '2014-07-04',
          batch: 'AB-123',
        },
      });
    }
  });

  it('ends variable-length data at the separator, and an AI at the end needs none', () => {
    const result = parseGs1(`]C101095011015300031012A${GS}2112345678${GS}3712`, { today });
    expect(result.ok && result.data).toMatchObject({ gtin: '09501101530003', batch: '12A', serial: '12345678', count: 12 });
    // The same with a substitute for the separator, set in the scanner, and a leading FNC1.
    const substitute = parseGs1(`~01095011015300031012A~2112345678~3712`, { today, separators: ['~'] });
    expect(substitute).toEqual(result);
    // Without the separator the batch swallows what follows, up to its 20 characters.
    expect(parseGs1('010950110153000310ABCDEFGHIJKLMNOPQRSTU', { today })).toMatchObject({ ok: false, error: 'too-long', ai: '10' });
  });

  it('takes the count of (30) and of (37) with (02), the GTIN of the contained items', () => {
    expect(parseGs1(`0209501101530003${GS}3725`, { today })).toMatchObject({ ok: true, data: { gtin: '09501101530003', count: 25 } });
    expect(parseGs1('(01)09501101530003(30)7', { today })).toMatchObject({ ok: true, data: { count: 7 } });
    expect(parseGs1('(00)106141411234567897', { today })).toMatchObject({
      ok: true,
      data: { elements: [{ ai: '00', value: '106141411234567897' }] },
    });
  });

  it('reads four-digit AIs and the decimal-point digit', () => {
    const result = parseGs1(`01095011015300033103000450${GS}7003260110123015260115`, { today });
    expect(result.ok && result.data.elements).toEqual([
      { ai: '01', value: '09501101530003' },
      { ai: '3103', value: '000450' },
      { ai: '7003', value: '2601101230' },
      { ai: '15', value: '260115' },
    ]);
  });

  it('dates: the century of two-digit years (7.12) and day 00 as the end of the month', () => {
    const expiry = (yymmdd: string, on = today) => {
      const result = parseGs1(`0109501101530003${'17'}${yymmdd}`, { today: on });
      return result.ok ? result.data.expiry : result.error;
    };
    expect(expiry('261231')).toBe('2026-12-31');
    expect(expiry('760101')).toBe('2076-01-01'); // 50 years ahead: this century
    expect(expiry('770101')).toBe('1977-01-01'); // 51 years ahead: the last century
    expect(expiry('250101', new Date(Date.UTC(2075, 0, 1)))).toBe('2125-01-01'); // 50 years back: the next century
    expect(expiry('240200')).toBe('2024-02-29');
    expect(expiry('250200')).toBe('2025-02-28');
    expect(expiry('251301')).toBe('bad-date');
    expect(expiry('250230')).toBe('bad-date');
  });

  it('refuses what is not a valid element string, saying where', () => {
    expect(parseGs1('0109501101530004', { today })).toMatchObject({ ok: false, error: 'check-digit', ai: '01' });
    expect(parseGs1('01095011015300', { today })).toMatchObject({ ok: false, error: 'too-short', ai: '01' });
    expect(parseGs1(`0109501101530003${GS}05ABC`, { today })).toMatchObject({ ok: false, error: 'unknown-ai', at: 17 }); // just after the separator
    expect(parseGs1('0109501101530003' + '37X', { today })).toMatchObject({ ok: false, error: 'not-numeric', ai: '37' });
    expect(parseGs1(`0109501101530003${GS}10`, { today })).toMatchObject({ ok: false, error: 'empty', ai: '10' });
    expect(parseGs1('(01)0950110153000(10)A', { today })).toMatchObject({ ok: false, error: 'too-short', ai: '01' });
  });

  it('tells a GS1 scan from a plain barcode', () => {
    expect(looksLikeGs1(`0109501101530003${GS}10A`)).toBe(true);
    expect(looksLikeGs1('010950110153000317140704')).toBe(true); // fixed-length AIs need no separator
    expect(looksLikeGs1('0109501101530003')).toBe(true);
    expect(looksLikeGs1('(01)09501101530003')).toBe(true);
    expect(looksLikeGs1(']d20109501101530003')).toBe(true);
    expect(looksLikeGs1('01095011015300041')).toBe(false); // wrong check digit: a plain code
    expect(looksLikeGs1('4006381333931')).toBe(false);
    expect(looksLikeGs1('09501101530003')).toBe(false);
    expect(looksLikeGs1('GC-2024/001')).toBe(false);
    expect(looksLikeGs1('A|B', { separators: ['|'] })).toBe(false);
    expect(stripSymbologyId(']E04006381333931')).toEqual({ text: '4006381333931', gs1: false });
  });
});
