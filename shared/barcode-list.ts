// Parsing of the read endpoint's `barcodes` query parameter (docs/API.md, "Read stock").
import { findControlCharacter } from './control-characters.ts';
import { MAX_BARCODES_PER_READ } from './limits.ts';
import { peopleMessages, requestMessages } from './messages.ts';
import { isBadgeCode } from './people.ts';

export type BarcodeListResult = { ok: true; barcodes: string[] } | { ok: false; detail: string };

/**
 * Splits on commas, trims surrounding white space, drops empty entries and repeats (first
 * occurrence keeps its place). A repeated query parameter counts as one list. An entry with a
 * control character inside refuses the list, naming the entry and the character.
 */
export function parseBarcodeList(value: string | readonly string[] | undefined | null): BarcodeListResult {
  const raw = value == null ? '' : typeof value === 'string' ? value : value.join(',');
  const barcodes = [
    ...new Set(
      raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  ];
  if (barcodes.length === 0) return { ok: false, detail: requestMessages.barcodesRequired };
  for (const [index, barcode] of barcodes.entries()) {
    const control = findControlCharacter(barcode);
    if (control) return { ok: false, detail: requestMessages.barcodeListControlCharacter(index + 1, control.name, control.position) };
    if (isBadgeCode(barcode)) return { ok: false, detail: peopleMessages.badgeIsNotABarcode };
  }
  if (barcodes.length > MAX_BARCODES_PER_READ) {
    return { ok: false, detail: requestMessages.tooManyBarcodes(barcodes.length) };
  }
  return { ok: true, barcodes };
}
