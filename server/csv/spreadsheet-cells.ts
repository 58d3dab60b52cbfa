// Text cells of exported CSV are neutralised against formula injection: a spreadsheet runs a cell
// that begins with `=`, `+`, `-` or `@` (and some with a tab or carriage return) as a formula, so an
// item name like `=HYPERLINK(…)` or a scanned barcode `+cmd|…` must not arrive as one. Such a cell
// gets a leading `'`, which spreadsheets read as "text" and do not show (OWASP's CSV injection
// advice). A text that itself begins with `'` gets one more, so the import can take exactly one
// `'` off and read back every text as it was. Numbers (ids, quantities) are written as numbers.

/** Where a spreadsheet would start a formula, and the quote that marks text. */
const NEEDS_QUOTE = /^[=+\-@\t\r']/;

/** A text cell as exported: with a leading `'` when a spreadsheet could take it for a formula. */
export function spreadsheetText(text: string): string {
  return NEEDS_QUOTE.test(text) ? `'${text}` : text;
}

/** The text of a cell as imported: the `'` that the export (or a spreadsheet user) put before such a text is taken off. */
export function fromSpreadsheetText(cell: string): string {
  return cell.startsWith("'") && NEEDS_QUOTE.test(cell.slice(1)) ? cell.slice(1) : cell;
}
