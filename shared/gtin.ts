// GTINs (GS1 General Specifications, section 7.9): GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13) and
// GTIN-14 are one numbering scheme. Written right-aligned in 14 digits with leading zeros, the same
// product has the same 14-digit form, so UPC-A 012345678905, EAN-13 0012345678905 and GTIN-14
// 00012345678905 are one product. Pure: server and UI use the same rules.

/** The lengths a GTIN is printed in. */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** The check digit of the digits before it (GS1 mod 10: weights 3, 1, 3, … from the right). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

const GTIN_SHAPE = /^(?:\d{8}|\d{12,14})$/;

/** True for 8, 12, 13 or 14 digits whose last digit is the right check digit. */
export function isValidGtin(text: string): boolean {
  return GTIN_SHAPE.test(text) && gtinCheckDigit(text.slice(0, -1)) === text.charCodeAt(text.length - 1) - 48;
}

/** The 14-digit form of a valid GTIN; null for anything else (a wrong check digit included). */
export function toGtin14(text: string): string | null {
  return isValidGtin(text) ? text.padStart(14, '0') : null;
}

/**
 * Every way the GTIN of `gtin14` can be written: the 14-digit form, then the 13, 12 and 8-digit
 * forms where the digits left out are zeros (longest first). A barcode that is one of these is the
 * same product.
 */
export function gtinForms(gtin14: string): string[] {
  const forms = [gtin14];
  for (const length of [13, 12, 8]) {
    if (/^0*$/.test(gtin14.slice(0, 14 - length))) forms.push(gtin14.slice(14 - length));
  }
  return forms;
}

/**
 * The barcodes that name the same product as `barcode` under GTIN equivalence, `barcode` itself
 * first; just `[barcode]` when it is not a valid GTIN (those are matched exactly).
 */
export function equivalentBarcodes(barcode: string): string[] {
  const gtin14 = toGtin14(barcode);
  if (gtin14 === null) return [barcode];
  return [barcode, ...gtinForms(gtin14).filter((form) => form !== barcode)];
}
