// Limits of the service spec (section 8) and of decisions.md, shared by server and UI.
export const MAX_BARCODES_PER_READ = 50;
export const MAX_ROWS_PER_UPDATE = 50;
export const MAX_BARCODE_LENGTH = 128;
export const MIN_QUANTITY = -1_000_000_000;
export const MAX_QUANTITY = 1_000_000_000;
export const MAX_BODY_BYTES = 1024 * 1024;
